"""Compaction (docs/architecture.md §5): forgotten text leaves no byte under .git; killed at any point, nothing breaks."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from helpers.compact_helpers import entries_by_file, fsck, git, head_entries, plant_everywhere, traces
from helpers.repo_helpers import USER, plain_settings, porcelain

from memrepo.engine.errors import BlockedError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

PROJECT = Path(__file__).resolve().parents[2]


def _fill(store: MemoryStore, n: int = 6) -> None:
    for i in range(n):
        store.remember(Candidate(text=f"Fact number {i} about the build", by="user"))
    store.remember(Candidate(text="Deploys on Fridays", scope="workspace", workspace="billing"))
    store.remember(Candidate(text="Run ruff before committing", kind="lesson"))


def test_trace_forget_and_compact_leave_the_marker_nowhere(store: MemoryStore) -> None:
    """The trace test: every object decompressed, every file under .git read, packs included."""
    _fill(store)
    marker = f"MARKER-{uuid.uuid4().hex[:12]}"
    ref = plant_everywhere(store, marker)
    before = entries_by_file(store)
    forgotten = f"The team mascot is called {marker}"
    # Control: the same check finds the marker before compaction, in places only inflation reaches.
    found = traces(store.root, marker)
    assert any(f.startswith("inflated objects/pack/") for f in found), found
    assert any(f.startswith("object ") for f in found)
    assert any(f.startswith("raw logs/") for f in found) and "raw memrepo/pending/00000000000000000001-1.json" in found
    assert not any(f.startswith("raw objects/pack/") for f in found)  # compressed: grep alone misses it
    assert "decoded memrepo/recall.sqlite" in found  # the persisted recall index holds the entry's text (packed)
    assert any(f.startswith("raw memrepo/context-cache/") for f in found), found  # a new process's kept block

    result = store.forget(ref, expect=forgotten, compact=True)

    assert traces(store.root, marker) == []
    after = entries_by_file(store)
    expected = {path: [t for t in texts if t != forgotten] for path, texts in before.items()}
    assert after == expected and head_entries(store.root) == expected
    assert git(store.root, "rev-list", "--all").split() == [result.commit]
    assert git(store.root, "for-each-ref", "--format=%(refname)").split() == ["refs/heads/main"]
    info = store.log(5)
    assert len(info) == 1 and info[0].summary == "Compact history" and info[0].origin == "compact"
    assert info[0].parents == []
    fsck(store.root)
    assert porcelain(store.root) == "" and git(store.root, "stash", "list") == ""
    # Engine state: the dream record is stale and scrubbed, the unrelated pending write and checkpoint stay.
    record = json.loads((store.state_dir / "dreams" / "d1.json").read_text())
    assert record["status"] == "stale" and record["scrubbed"] is True
    assert record["operations"][0]["op"] == "supersede" and record["operations"][0]["text"] == ""
    assert [c.text for c in store.pending()] == ["A queued write nobody forgot"]
    assert sorted(p.name for p in (store.state_dir / "checkpoints").iterdir()) == ["s2.json"]
    assert not (store.root / ".git" / "logs").exists() and not (store.root / ".git" / "COMMIT_EDITMSG").exists()
    assert not (store.root / ".git" / "ORIG_HEAD").exists()
    packs = list((store.root / ".git" / "objects" / "pack").glob("*.pack"))
    assert len(packs) == 1


def test_the_trace_check_fails_when_compaction_is_skipped(store: MemoryStore) -> None:
    """Control: forget alone (no compaction) leaves the marker findable, so the check above can fail."""
    marker = f"MARKER-{uuid.uuid4().hex[:12]}"
    ref = plant_everywhere(store, marker)
    store.forget(ref)
    assert marker not in (store.root / "me.md").read_text()
    assert traces(store.root, marker)


def test_compaction_commits_dirty_hand_edits_first(store: MemoryStore) -> None:
    _fill(store, 2)
    with (store.root / "lessons.md").open("a", encoding="utf-8") as fh:
        fh.write("- Typed by hand before compacting [by: user]\n")
    (store.root / "notes.md").write_text("# Notes\n\n- A new file by hand\n")
    result = store.compact()
    assert result.hand_edits is not None and result.dropped_commits >= 4
    assert "Typed by hand before compacting" in git(store.root, "show", "HEAD:lessons.md")
    assert "A new file by hand" in git(store.root, "show", "HEAD:notes.md")
    assert porcelain(store.root) == ""
    fsck(store.root)


def test_compaction_refuses_a_blocked_repo_and_changes_nothing(store: MemoryStore) -> None:
    _fill(store, 2)
    (store.root / ".git" / "index.lock").write_text("")
    head = store.head()
    with pytest.raises(BlockedError):
        store.compact()
    assert store.head() == head and len(store.log(100)) > 2
    from memrepo.engine.history.compact import interrupted

    assert interrupted(store.state_dir) is None  # refused before it began: no run to finish


def test_an_index_lock_left_by_a_killed_compaction_does_not_block_the_next(store: MemoryStore) -> None:
    """SIGKILL while libgit2 wrote the index (committing hand edits) leaves .git/index.lock."""
    _fill(store, 2)
    with (store.root / "lessons.md").open("a", encoding="utf-8") as fh:
        fh.write("- A hand edit waiting to be committed [by: user]\n")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (store.state_dir / "compact.json").write_text(json.dumps({"pid": dead.pid, "started": time.time(), "step": 1}))
    lock = store.git.git_dir / "index.lock"
    lock.write_text("")
    assert store.status().state.value == "blocked"
    result = store.compact()
    assert not lock.exists() and result.commit and store.status().state.value == "clean"
    assert "A hand edit waiting to be committed" in git(store.root, "show", "HEAD:lessons.md")


def test_compaction_prunes_a_linked_worktree_and_twice_in_a_row_is_fine(store: MemoryStore, tmp_path: Path) -> None:
    _fill(store, 2)
    git(store.root, "branch", "side")
    git(store.root, "worktree", "add", "-q", str(tmp_path / "wt"), "side")
    first = store.compact()
    assert first.pruned_worktrees == 1 and "refs/heads/side" in first.deleted_refs
    assert not (store.root / ".git" / "worktrees").exists() or not any((store.root / ".git" / "worktrees").iterdir())
    fsck(store.root)
    second = store.compact()
    assert second.dropped_commits == 1 and second.commit == store.head()  # the same commit within a second
    fsck(store.root)
    assert store.remember(Candidate(text="Writing after compaction works", by="user")).commit
    assert len(store.log(10)) == 2


def test_clearing_with_compact_leaves_one_commit(store: MemoryStore) -> None:
    store.remember(Candidate(text="Billing secret plan", scope="workspace", workspace="billing"))
    store.remember(Candidate(text="Task one fact", task="t1"))
    store.remember(Candidate(text="Global fact kept till the end", by="user"))
    result = store.clear_workspace("billing", compact=True)
    assert store.log(5)[0].id == result.commit and len(store.log(5)) == 1
    assert store.purge_task("t1", compact=True).commit == store.head()
    assert "Task one fact" not in git(store.root, "log", "-p", "--all")
    store.clear_global(compact=True)
    assert len(store.log(5)) == 1 and "Global fact kept" not in git(store.root, "log", "-p", "--all")
    fsck(store.root)


def test_preview_says_what_compaction_takes(store: MemoryStore) -> None:
    marker = f"MARKER-{uuid.uuid4().hex[:12]}"
    plant_everywhere(store, marker)
    preview = store.compact_preview()
    assert preview.commits >= 2 and "refs/stash" in preview.refs and "refs/tags/t1" in preview.refs
    assert preview.dream_branches == ["refs/heads/dream/d1"] and preview.pending_dreams == 1
    assert preview.pending_writes == 2 and preview.git_bytes > 0


# -- crash safety ---------------------------------------------------------------------------

_CRASH_SCRIPT = """
import os, sys
from memrepo.engine.config import Settings
from memrepo.engine.repo.store import MemoryStore
stop = int(sys.argv[2])
seen = 0
def progress(event):
    global seen
    seen += 1
    if seen == stop:
        os._exit(17)
store = MemoryStore.open(sys.argv[1], Settings(), create=False)
store.compact(progress)
print(seen)
"""


def _compact_in_subprocess(root: Path, stop: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _CRASH_SCRIPT, str(root), str(stop)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _check_after_crash(root: Path, expected: dict[str, list[str]]) -> None:
    from memrepo.engine.history.compact import interrupted

    store = MemoryStore.open(root, plain_settings(), create=False)
    fsck(root)
    assert entries_by_file(store) == expected
    state = store.status().state.value
    # A kill inside libgit2's index write leaves index.lock: blocked until compaction runs again.
    assert state in ("clean", "hand_edited") or (
        state == "blocked" and (root / ".git" / "index.lock").exists() and interrupted(store.state_dir) is not None
    )
    # Running it again finishes the job.
    store.compact()
    fsck(root)
    assert entries_by_file(store) == expected and head_entries(root) == expected
    assert git(root, "for-each-ref", "--format=%(refname)").split() == ["refs/heads/main"]
    assert not (store.state_dir / "compact.json").exists()


@pytest.fixture(scope="module")
def _built_templates() -> dict[str, tuple[Path, dict[str, list[str]]]]:
    """The crash template once built on this worker (each test copies it, none changes it)."""
    return {}


@pytest.fixture
def crash_template(
    _built_templates: dict[str, tuple[Path, dict[str, list[str]]]], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, list[str]]]:
    """A repo with history, branches, a stash, loose and packed objects, a dream record and a hand edit.

    Built once per worker, inside the first test that asks (so under that test's isolated HOME and
    environment), and only copied after: building it is most of a crash test's setup."""
    if "template" in _built_templates:
        return _built_templates["template"]
    store = MemoryStore.open(tmp_path_factory.mktemp("crash") / "template", plain_settings())
    _fill(store, 4)
    marker = f"MARKER-{uuid.uuid4().hex[:12]}"
    ref = plant_everywhere(store, marker)
    store.forget(ref)
    for i in range(100):  # ~400 loose objects, > 256: the deletion step reports progress mid-way (at 256)
        topic = store.root / f"topics/t{i % 3}.md"
        topic.parent.mkdir(exist_ok=True)
        topic.write_text(f"# T\n\n- fact {i} [by: user]\n")
        past = time.time() - 5  # a save finished a while ago: no settle wait (engine/write/settle.py) per commit
        os.utime(topic, (past, past))
        store.commit_hand_edits([f"topics/t{i % 3}.md"])
    with (store.root / "lessons.md").open("a", encoding="utf-8") as fh:
        fh.write("- A hand edit waiting to be committed [by: user]\n")
    _built_templates["template"] = (store.root, entries_by_file(store))
    return _built_templates["template"]


@pytest.mark.slow
def test_killed_at_every_step_the_repo_stays_valid(
    crash_template: tuple[Path, dict[str, list[str]]], tmp_path: Path
) -> None:
    """os._exit at each progress event of a real compaction subprocess, then open + fsck + entries."""
    template, expected = crash_template
    full = tmp_path / "full"
    shutil.copytree(template, full, symlinks=True)
    done = _compact_in_subprocess(full, 0)
    assert done.returncode == 0, done.stderr
    events = int(done.stdout.strip())
    assert events >= 12
    for stop in range(1, events + 1):
        root = tmp_path / f"crash-{stop}"
        shutil.copytree(template, root, symlinks=True)
        killed = _compact_in_subprocess(root, stop)
        assert killed.returncode == 17, (stop, killed.stderr)
        _check_after_crash(root, expected)
        shutil.rmtree(root)


@pytest.mark.slow
def test_sigkill_at_random_moments_the_repo_stays_valid(
    crash_template: tuple[Path, dict[str, list[str]]], tmp_path: Path
) -> None:
    """SIGKILL from outside at spread-out moments, inside libgit2's pack writer and deletions too."""
    template, expected = crash_template
    probe = tmp_path / "probe"
    shutil.copytree(template, probe, symlinks=True)
    started = time.perf_counter()
    assert _compact_in_subprocess(probe, 0).returncode == 0
    span = time.perf_counter() - started
    for n, fraction in enumerate((0.35, 0.5, 0.6, 0.7, 0.8, 0.9)):
        root = tmp_path / f"kill-{n}"
        shutil.copytree(template, root, symlinks=True)
        proc = subprocess.Popen(
            [sys.executable, "-c", _CRASH_SCRIPT, str(root), "0"],
            cwd=PROJECT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        time.sleep(span * fraction)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        _check_after_crash(root, expected)
        shutil.rmtree(root)


def test_an_interrupted_compaction_leaves_a_marker_with_a_dead_pid(
    crash_template: tuple[Path, dict[str, list[str]]], tmp_path: Path
) -> None:
    from memrepo.engine.history.compact import interrupted

    template, _expected = crash_template
    root = tmp_path / "r"
    shutil.copytree(template, root, symlinks=True)
    assert _compact_in_subprocess(root, 6).returncode == 17
    store = MemoryStore.open(root, plain_settings(), create=False)
    marker = interrupted(store.state_dir)
    assert marker is not None and marker["pid"] != os.getpid()
    store.compact()
    assert interrupted(store.state_dir) is None


def test_user_identity_never_used(store: MemoryStore) -> None:
    git(store.root, "config", "user.name", "Real Person")
    git(store.root, *USER, "config", "user.email", "real@example.com")
    result = store.compact()
    assert git(store.root, "log", "-1", "--format=%an <%ae>|%cn <%ce>", result.commit).strip() == (
        "memrepo <memrepo@localhost.invalid>|memrepo <memrepo@localhost.invalid>"
    )


def test_pack_settings_touch_no_config_of_the_users(store: MemoryStore, isolated_home: Path) -> None:
    import pygit2
    from pygit2.enums import ConfigLevel

    (isolated_home / ".gitconfig").write_text("[user]\n\tname = Someone\n")
    search = pygit2.settings.search_path[ConfigLevel.GLOBAL]
    config = (store.root / ".git" / "config").read_bytes()
    store.compact()
    assert pygit2.settings.search_path[ConfigLevel.GLOBAL] == search
    assert (store.root / ".git" / "config").read_bytes() == config
    assert (isolated_home / ".gitconfig").read_text() == "[user]\n\tname = Someone\n"
    assert not (store.state_dir / "compact-config").exists()


async def test_async_compact_reports_every_step_on_the_loop_thread(repo_path: Path) -> None:
    import threading

    from memrepo.engine.repo.repo import MemoryRepo

    async with await MemoryRepo.open(repo_path, plain_settings()) as repo:
        await repo.remember(Candidate(text="Something to keep", by="user"))
        preview = await repo.compact_preview()
        assert preview.commits == 2
        events = []
        threads = set()

        def progress(event: object) -> None:
            events.append(event)
            threads.add(threading.get_ident())

        result = await repo.compact(progress=progress)
        assert threads == {threading.get_ident()}
        assert [e.step for e in events if not e.total or not e.done] == list(range(1, 11))
        assert result.dropped_commits == 2 and await repo.head() == result.commit
        repo.start_watching()
        rows = await repo.health()
        assert next(r for r in rows if r.name == "watcher").reason.startswith("running")
        assert next(r for r in rows if r.name == "history").reason == "0 commits since the last compaction"


def test_a_ref_lock_left_by_a_killed_compaction_does_not_block_the_next(store: MemoryStore) -> None:
    """SIGKILL while libgit2 moved main leaves refs/heads/main.lock; compacting again clears it and finishes."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (store.state_dir / "compact.json").write_text(json.dumps({"pid": dead.pid, "started": time.time(), "step": 4}))
    lock = store.git.git_dir / "refs" / "heads" / "main.lock"
    lock.write_text("0" * 40 + "\n")
    result = store.compact()
    assert not lock.exists() and result.commit
    assert git(store.root, "rev-parse", "HEAD").strip() == result.commit
    # a lock older than the interrupted run is not ours to remove: it stays
    later = {"pid": dead.pid, "started": time.time() + 60, "step": 4}
    (store.state_dir / "compact.json").write_text(json.dumps(later))
    lock.write_text("0" * 40 + "\n")
    from memrepo.engine.errors import MemrepoError

    with pytest.raises(MemrepoError, match=r"refs/heads/main\.lock"):
        store.compact()
    assert lock.exists()
