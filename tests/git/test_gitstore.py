"""The git store (docs/architecture.md §2–§3): the starting layout, the memrepo identity,
trailers, path-exact commits, clean/hand-edited/blocked status, and no hooks.

The git command line checks the engine's work from the outside; the engine
itself never runs it (the last test proves that).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.errors import BlockedError
from memrepo.engine.files import lock as gitlocks
from memrepo.engine.format.limits import FILE_MAX_BYTES
from memrepo.engine.git.store import GitStore, format_message
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import STARTING_LAYOUT, MemoryStore

ENGINE = Path(__file__).resolve().parents[2] / "engine"
USER = ("-c", "user.name=Test User", "-c", "user.email=test@example.invalid")


def git(root: Path, *args: str, check: bool = True) -> str:
    """Run the git command line in ``root`` and return its stdout."""
    result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {result.stderr}")
    return result.stdout


def porcelain(root: Path) -> str:
    return git(root, "status", "--porcelain", "--untracked-files=all")


# -- the starting layout ---------------------------------------------------------


def test_create_makes_the_starting_layout_in_one_commit(store: MemoryStore) -> None:
    root = store.root
    log = git(root, "log", "--format=%H %s").splitlines()
    assert len(log) == 1
    assert log[0].endswith(" Create memory repo")
    assert git(root, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    tracked = sorted(git(root, "ls-tree", "-r", "--name-only", "HEAD").split())
    assert tracked == sorted(STARTING_LAYOUT) == ["MEMORY.md", "inbox.md", "lessons.md", "me.md"]
    memory = (root / "MEMORY.md").read_text()
    assert "## Index" in memory and "[[me]]" in memory and "[[lessons]]" in memory
    assert porcelain(root) == ""
    info = store.log()
    assert [c.summary for c in info] == ["Create memory repo"]
    assert info[0].origin == "cli"
    assert info[0].parents == []
    # The engine's own state lives under .git, never in the work tree.
    assert (root / ".git" / "memrepo").is_dir()


# -- identity and trailers ---------------------------------------------------------


def test_commits_use_the_memrepo_identity_never_the_users(
    isolated_home: Path, repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (isolated_home / ".gitconfig").write_text("[user]\n\tname = Real Person\n\temail = real@person.example\n")
    for var in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(var, "Env Person")
    for var in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(var, "env@person.example")
    store = MemoryStore.open(repo_path, plain_settings())
    # The identity is really configured: the git command line would use it.
    assert git(repo_path, "config", "user.name").strip() == "Real Person"
    git(repo_path, "config", "user.name", "Repo Person")  # repo config too

    store.remember(Candidate(text="likes tea", kind="preference"))
    (repo_path / "lessons.md").write_text("# Lessons\n\n- edited by hand\n")
    ref = store.remember(Candidate(text="likes coffee", kind="preference")).ref
    assert ref is not None
    store.forget(ref)

    lines = git(repo_path, "log", "--format=%an <%ae>|%cn <%ce>|%s").splitlines()
    assert len(lines) == 5  # create, remember, hand edits, remember, forget
    for line in lines:
        author, committer, _ = line.split("|")
        assert author == committer == "memrepo <memrepo@localhost.invalid>", line
    assert all(c.author == "memrepo <memrepo@localhost.invalid>" for c in store.log())


def test_origin_task_and_dream_trailers_parse_in_log(store: MemoryStore) -> None:
    (store.root / "me.md").write_text("# About me\n\n- hand line\n")
    message = format_message(
        "Dream 2024-05-01: 3 changes",
        {"Origin": "dream", "Task": "t-42", "Dream": "d-7", "Unused": None},
        body="Merged duplicates.",
    )
    assert message == ("Dream 2024-05-01: 3 changes\n\nMerged duplicates.\n\nOrigin: dream\nTask: t-42\nDream: d-7\n")
    commit = store.git.commit_paths(["me.md"], message)
    top = store.log(limit=1)[0]
    assert top.id == commit
    assert (top.origin, top.task, top.dream) == ("dream", "t-42", "d-7")
    assert top.trailers == {"Origin": "dream", "Task": "t-42", "Dream": "d-7"}
    assert top.summary == "Dream 2024-05-01: 3 changes"

    result = store.remember(Candidate(text="runs tests with tox", task="task-9", origin="mcp"))
    top = store.log(limit=1)[0]
    assert top.id == result.commit
    assert (top.origin, top.task, top.dream) == ("mcp", "task-9", None)
    assert top.summary == "Remember fact: runs tests with tox"
    # The git command line reads the same trailers.
    assert "Task: task-9" in git(store.root, "log", "-1", "--format=%(trailers)")


def test_a_commit_made_outside_memrepo_has_no_origin(store: MemoryStore) -> None:
    (store.root / "me.md").write_text("# About me\n\n- by git\n")
    git(store.root, *USER, "commit", "-q", "-am", "plain git commit")
    top = store.log(limit=1)[0]
    assert top.summary == "plain git commit"
    assert top.origin is None and top.trailers == {}


# -- commit_paths --------------------------------------------------------------------


def test_commit_paths_commits_only_the_given_paths(store: MemoryStore) -> None:
    root = store.root
    (root / "me.md").write_text("# About me\n\n- committed change\n")
    (root / "lessons.md").write_text("# Lessons\n\n- left alone\n")
    (root / "topics").mkdir()
    (root / "topics" / "new.md").write_text("- untracked and left alone\n")
    store.git.commit_paths(["me.md"], format_message("Test", {"Origin": "cli"}))
    assert git(root, "show", "HEAD:me.md") == "# About me\n\n- committed change\n"
    assert git(root, "show", "--name-only", "--format=", "HEAD").split() == ["me.md"]
    assert porcelain(root).splitlines() == [" M lessons.md", "?? topics/new.md"]


def test_commit_paths_adds_nested_files_and_removes_missing_ones(store: MemoryStore) -> None:
    root = store.root
    (root / "topics" / "sql").mkdir(parents=True)
    (root / "topics" / "sql" / "joins.md").write_text("- use explicit joins\n")
    (root / "inbox.md").unlink()
    store.git.commit_paths(["topics/sql/joins.md", "inbox.md"], format_message("Test", {"Origin": "cli"}))
    tracked = sorted(git(root, "ls-tree", "-r", "--name-only", "HEAD").split())
    assert tracked == ["MEMORY.md", "lessons.md", "me.md", "topics/sql/joins.md"]
    assert porcelain(root) == ""
    (root / "topics" / "sql" / "joins.md").unlink()
    store.git.commit_paths(["topics/sql/joins.md"], format_message("Test", {"Origin": "cli"}))
    # The emptied folders leave the tree too.
    assert git(root, "ls-tree", "--name-only", "HEAD").split() == ["MEMORY.md", "lessons.md", "me.md"]
    assert porcelain(root) == ""
    git(root, "fsck", "--strict")


def test_git_status_is_clean_after_every_kind_of_write(store: MemoryStore) -> None:
    root = store.root

    def hand_edit() -> None:
        # Entries kept: dropping one memrepo wrote this hour is a question (engine/write/stalesave.py).
        lessons = root / "lessons.md"
        lines = lessons.read_text().splitlines(keepends=True)
        lessons.write_text("".join([*lines[:2], "- hand edit\n", *lines[2:]]))  # line 3, forgotten next
        assert store.commit_hand_edits() is not None

    steps = [
        lambda: store.remember(Candidate(text="prefers short answers", kind="preference")),
        lambda: store.remember(Candidate(text="always run ruff", kind="rule")),
        lambda: store.remember(Candidate(text="uses make", scope="workspace", workspace="billing")),
        lambda: store.remember(Candidate(text="name is Ada", kind="identity", subject="name")),
        lambda: store.remember(Candidate(text="name is Ada L.", kind="identity", subject="name")),
        lambda: store.remember(Candidate(text="pinned fact", by="user", pin=True)),
        hand_edit,
        lambda: store.forget("repo:lessons.md#L3"),
    ]
    for n, step in enumerate(steps):
        step()
        assert porcelain(root) == "", f"step {n} left the work tree dirty"
        assert store.status().state is RepoState.CLEAN
    assert len(store.log()) == 1 + len(steps)
    git(root, "fsck", "--strict")


# -- status: clean, hand-edited, blocked ----------------------------------------------


def test_status_is_clean_then_hand_edited(store: MemoryStore) -> None:
    root = store.root
    assert store.status().state is RepoState.CLEAN
    (root / "me.md").write_text("# About me\n\n- by hand\n")
    (root / "inbox.md").unlink()
    (root / "topics").mkdir()
    (root / "topics" / "note.md").write_text("a topic note\n")
    (root / "lessons.md").write_text("# Lessons\n\n- staged by hand\n")
    git(root, "add", "lessons.md")
    status = store.status()
    assert status.state is RepoState.HAND_EDITED
    assert status.changed == ["inbox.md", "lessons.md", "me.md", "topics/note.md"]
    assert status.reason is None
    assert status.head == git(root, "rev-parse", "HEAD").strip()


def _assert_blocked(store: MemoryStore, *words: str) -> None:
    status = store.status()
    assert status.state is RepoState.BLOCKED
    assert status.reason is not None
    for word in words:
        assert word in status.reason, status.reason
    before_head = store.head()
    me = (store.root / "me.md").read_bytes()
    with pytest.raises(BlockedError) as info:
        store.remember(Candidate(text="should not be written"))
    # kept, applied once the block is gone: one message that says so, never "nothing was written" (breaker8 B8-10)
    assert str(info.value).startswith("kept: not written yet") and "nothing was written" not in str(info.value)
    assert store.head() == before_head
    assert (store.root / "me.md").read_bytes() == me


def test_a_real_merge_in_progress_blocks(store: MemoryStore) -> None:
    root = store.root
    git(root, "checkout", "-q", "-b", "other")
    (root / "me.md").write_text("# About me\n\n- from the other branch\n")
    git(root, *USER, "commit", "-q", "-am", "other side")
    git(root, "checkout", "-q", "main")
    store.remember(Candidate(text="from main"))
    merge = subprocess.run(["git", *USER, "merge", "other"], cwd=root, capture_output=True, text=True)
    assert merge.returncode != 0 and "CONFLICT" in merge.stdout
    assert (root / ".git" / "MERGE_HEAD").is_file()
    _assert_blocked(store, "merge")
    git(root, "merge", "--abort")
    assert store.status().state is RepoState.CLEAN


def test_an_index_lock_blocks(store: MemoryStore) -> None:
    lock = store.root / ".git" / "index.lock"
    lock.write_text("")
    _assert_blocked(store, "index.lock")
    lock.unlink()
    assert store.status().state is RepoState.CLEAN


def test_a_new_binary_file_blocks(store: MemoryStore) -> None:
    (store.root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    _assert_blocked(store, "image.png", "binary")


def test_a_new_file_over_64_kb_blocks(store: MemoryStore) -> None:
    big = store.root / "dump.md"
    big.write_text("- line\n" * (FILE_MAX_BYTES // 7 + 10))
    assert big.stat().st_size > FILE_MAX_BYTES
    _assert_blocked(store, "dump.md", str(FILE_MAX_BYTES))
    big.write_text("- line\n" * 100)  # small enough now: a hand edit, not a block
    assert store.status().state is RepoState.HAND_EDITED


def test_status_of_hinted_paths_sees_the_files_in_a_hinted_folder(store: MemoryStore, tmp_path: Path) -> None:
    # The watcher may report a new folder but not the files made in it before
    # the folder itself was watched (mkdir -p + write, cp -r, unzip).
    root = store.root
    store.remember(Candidate(text="uses make", scope="workspace", workspace="billing"))
    (root / "topics" / "sub").mkdir(parents=True)
    (root / "topics" / "sub" / "a.md").write_text("- new note\n")
    (root / "me.md").write_text("# About me\n\n- edited\n")
    hinted = store.git.status(["topics", "gone/x.md", "me.md"])
    assert hinted.state is RepoState.HAND_EDITED
    assert hinted.changed == ["me.md", "topics/sub/a.md"]
    assert store.git.status(["topics/sub/a.md"]).changed == ["topics/sub/a.md"]
    store.commit_hand_edits()
    # A tracked folder moved away: only the folder is reported, not its files.
    (root / "workspaces").rename(tmp_path / "moved-away")
    assert store.git.status(["workspaces"]).changed == ["workspaces/billing.md"]


# -- no hooks, ever ------------------------------------------------------------------

HOOKS = (
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-checkout",
    "reference-transaction",
    "post-index-change",
)


def _plant_hooks(folder: Path, marker: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in HOOKS:
        hook = folder / name
        hook.write_text(f'#!/bin/sh\necho "{name}" >> "{marker}"\nexit 0\n')
        hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def _write_every_way(store: MemoryStore) -> None:
    store.remember(Candidate(text="likes tea", kind="preference", subject="drink"))
    store.remember(Candidate(text="likes coffee", kind="preference", subject="drink"))
    store.remember(Candidate(text="uses make", scope="workspace", workspace="/src/billing"))
    (store.root / "lessons.md").write_text("# Lessons\n\n- by hand\n")
    store.remember(Candidate(text="run ruff", kind="rule"))  # hand edits committed first
    (store.root / "inbox.md").write_text("# Inbox\n\n- edited\n")
    store.commit_hand_edits()
    store.forget("repo:lessons.md#L3")


@pytest.mark.parametrize("where", [".git/hooks", "core.hooksPath"])
def test_planted_hooks_never_run(tmp_path: Path, repo_path: Path, where: str) -> None:
    marker = tmp_path / "hooks-ran.txt"
    MemoryStore.open(repo_path, plain_settings())
    if where == ".git/hooks":
        _plant_hooks(repo_path / ".git" / "hooks", marker)
    else:
        _plant_hooks(tmp_path / "my-hooks", marker)
        git(repo_path, "config", "core.hooksPath", str(tmp_path / "my-hooks"))
    store = MemoryStore.open(repo_path, plain_settings())  # a fresh store reads the new config
    _write_every_way(store)
    assert len(store.log()) == 8
    assert not marker.exists(), marker.read_text()
    # The hooks are real: the git command line runs them.
    git(repo_path, *USER, "commit", "-q", "--allow-empty", "-m", "git runs hooks")
    assert "pre-commit" in marker.read_text()


def test_engine_never_runs_a_git_subprocess() -> None:
    forbidden = re.compile(
        r"\bimport subprocess\b|\bfrom subprocess\b|\bsubprocess\.|\bos\.system\(|\bos\.popen\("
        r"|\bos\.exec\w*\(|\bos\.spawn\w*\(|\bos\.posix_spawn|create_subprocess_(exec|shell)"
        r"|\bpexpect\b|\bsh\.git\b|[\"']git[\"']\s*,"
    )
    # The `command` dream provider runs the model command the user configured
    # ([dream.command] argv, docs/architecture.md §6): a process, never git. engine/dreams/cmdrun.py
    # starts it (bounded: timeout, output cap, its own process group).
    # The recall index's first build runs in a detached Python process of its own (engine/read/recallfile.py
    # spawn_build, docs/recall.md: it outlives a short agent session): this interpreter, never git.
    allowed = {ENGINE / "dreams" / "providers.py", ENGINE / "dreams" / "cmdrun.py", ENGINE / "read" / "recallfile.py"}
    build_src = (ENGINE / "read" / "recallfile.py").read_text()
    assert build_src.count("subprocess.Popen(") == 1 and '[sys.executable, "-c", code, str(root)]' in build_src
    assert not re.search(r"[\"']git[\"']\s*,", build_src)
    sources = sorted(p for p in ENGINE.rglob("*.py") if p not in allowed)
    assert len(sources) >= 12
    provider_src = (ENGINE / "dreams" / "providers.py").read_text()
    runner_src = (ENGINE / "dreams" / "cmdrun.py").read_text()
    assert "subprocess" not in provider_src and provider_src.count("run_bounded(self.argv,") == 1
    assert runner_src.count("subprocess.Popen(") == 1
    assert [p.name for p in sources if "cmdrun" in p.read_text()] == []  # only the provider runs commands
    for src in (provider_src, runner_src):
        assert not re.search(r"[\"']git[\"']\s*,", src)
    hits = [
        f"{path.relative_to(ENGINE)}:{n}: {line.strip()}"
        for path in sources
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if forbidden.search(line)
    ]
    assert hits == []


def test_open_refuses_a_bare_repository(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    from memrepo.engine.errors import GitError

    with pytest.raises(GitError, match="bare"):
        GitStore(bare)


def test_the_executable_bit_is_kept(store: MemoryStore) -> None:
    script = store.root / "tools" / "run.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    store.commit_hand_edits()
    assert git(store.root, "ls-tree", "HEAD", "tools/run.sh").split()[0] == "100755"
    assert porcelain(store.root) == ""
    assert os.access(script, os.X_OK)


def test_an_index_only_change_makes_no_empty_commit(store: MemoryStore) -> None:
    """`git rm --cached` changes only the index: the work tree is as committed, so no hand edit (F13: an index
    write that failed after a commit is the same); the hand-edit pass restores it, no commit."""
    head = store.head()
    git(store.root, "rm", "-q", "--cached", "me.md")
    assert store.status().state is RepoState.CLEAN
    assert store.commit_hand_edits() is None
    assert store.head() == head
    assert porcelain(store.root) == ""


def test_a_failed_index_update_keeps_the_commit_and_is_retried(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pygit2

    real_write = pygit2.Index.write
    calls = {"n": 0}

    def flaky_write(self: pygit2.Index) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise pygit2.GitError("index is locked")
        real_write(self)

    monkeypatch.setattr(pygit2.Index, "write", flaky_write)
    # A lock held past the wait for it (test_index_lock_beside_git has the wait that sees it go).
    monkeypatch.setattr(gitlocks, "GIT_LOCK_WAIT_S", 0.0)
    (store.root / "me.md").write_text("# About me\n\n- first\n", encoding="utf-8")
    first = store.git.commit_paths(["me.md"], format_message("one", {"Origin": "cli"}))
    assert first is not None and store.head() == first  # the commit stands
    assert porcelain(store.root) != ""  # index behind HEAD for now
    (store.root / "lessons.md").write_text("# Lessons\n\n- second\n", encoding="utf-8")
    store.git.commit_paths(["lessons.md"], format_message("two", {"Origin": "cli"}))
    assert porcelain(store.root) == ""  # the pending index update went in before the next commit


class _FlakyScan:
    """libgit2's status with a file replaced mid-scan ``fails`` times first (an appender or an editor beside us)."""

    def __init__(self, real, fails: int) -> None:
        self.real, self.fails = real, fails

    def __call__(self, *args, **kwargs):
        if self.fails > 0:
            self.fails -= 1
            raise OSError("error reading file for hashing: ")
        return self.real(*args, **kwargs)


def test_a_file_replaced_while_the_status_scan_hashed_it_is_read_again(store: MemoryStore) -> None:
    """CI saw `remember` fail with libgit2's "error reading file for hashing" while another process appended."""
    from memrepo.engine.errors import GitError

    real = store.git._repo.status
    store.git._repo.status = _FlakyScan(real, fails=2)
    (store.root / "me.md").write_text((store.root / "me.md").read_text() + "- by hand [by: user]\n")
    result = store.remember(Candidate(text="written beside an appender", kind="fact"))
    assert result.action.value != "rejected"
    assert "written beside an appender" in (store.root / result.path).read_text()
    store.git._repo.status = _FlakyScan(real, fails=10)  # a file that stays unreadable: one clear error
    with pytest.raises(GitError, match="cannot read the work tree status"):
        store.git.status()
