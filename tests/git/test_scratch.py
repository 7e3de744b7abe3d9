"""Editors' scratch files are not memory (docs/architecture.md §3, §4), everywhere.

vim/neovim swap files and the ``4913`` probe, ``*~`` backups, emacs ``.#``
lock links and ``#…#`` auto-saves, JetBrains' safe write and GNOME's
``.goutputstream-*`` are never committed, listed, searched or shown in
health, and never block a write; a real vim in tmux (where installed)
edits a memory file beside memrepo writes.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import git, porcelain

from memrepo.engine.format.scratch import is_scratch, is_scratch_name
from memrepo.engine.models import Action, Candidate, RepoState
from memrepo.engine.repo.health import HealthStatus, check
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.repo.watch import is_ignored

SCRATCH = [
    ".me.md.swp",
    ".me.md.swo",
    ".me.md.swn",
    ".inbox.md.svz",
    "4913",
    "5036",
    "plan.md~",
    ".#inbox.md",
    "#inbox.md#",
    "MEMORY.md___jb_tmp___",
    "MEMORY.md___jb_old___",
    ".goutputstream-X1Y2Z3",
    ".me.md.kate-swp",
    ".memrepo-tmp-abc123",
]
REAL = ["me.md", "MEMORY.md", "notes.md", "swap.md", "2024.md", "4914", "4913.md", "plan~notes.md", "a#b#c.md"]


@pytest.mark.parametrize("name", SCRATCH)
def test_scratch_names_are_scratch_everywhere(name: str) -> None:
    assert is_scratch_name(name) and is_scratch(f"workspaces/{name}") and is_ignored(name)


@pytest.mark.parametrize("name", REAL)
def test_real_names_are_not_scratch(name: str) -> None:
    assert not is_scratch_name(name) and not is_ignored(name)


def _plant_scratch(root: Path) -> None:
    (root / ".me.md.swp").write_bytes(b"b0VIM 9.0\x00\x00\x00 binary swap")  # binary: would block as a new file
    (root / "4913").write_bytes(b"")
    (root / "plan.md~").write_text("- a backup that mentions zanzibar\n")
    (root / "#inbox.md#").write_text("- an auto-save that mentions zanzibar\n")
    os.symlink("user@host.12345:1700000000", root / ".#me.md")  # emacs' lock link: dangling
    (root / "MEMORY.md___jb_old___").write_text("# Memory\n\n- zanzibar\n")
    (root / "workspaces").mkdir(exist_ok=True)
    (root / "workspaces" / ".goutputstream-ABC").write_text("zanzibar")


def test_scratch_files_never_block_a_write_and_are_never_committed(store: MemoryStore) -> None:
    root = store.root
    _plant_scratch(root)
    assert store.status().state is RepoState.CLEAN
    result = store.remember(Candidate(text="I keep my travel notes in a paper journal", by="user"))
    assert result.action is Action.ADDED and result.commit == store.head()
    assert store.commit_hand_edits() is None
    tracked = git(root, "ls-files").split()
    assert not [p for p in tracked if is_scratch(p)]
    assert [p for p, _ in store.list_files() if is_scratch(p)] == []
    assert not [h for h in store.recall("zanzibar") if is_scratch(h.path)]
    rows = check(store)
    work = next(r for r in rows if r.name == "work tree")
    assert work.status is HealthStatus.OK, work.reason
    files = next(r for r in rows if r.name == "files")
    assert files.reason.startswith(f"{len(tracked)} of"), files.reason


def test_a_dangling_symlink_never_blocks_a_write(store: MemoryStore) -> None:
    os.symlink("/nonexistent/target", store.root / "dangling.md")
    assert store.status().state is RepoState.CLEAN
    assert store.remember(Candidate(text="I sort my email every Friday", by="user")).commit == store.head()
    assert "dangling.md" not in git(store.root, "ls-files")


def test_emacs_editing_simulated_lock_link_and_auto_save_then_save(store: MemoryStore) -> None:
    root = store.root
    me = root / "me.md"
    # A modified buffer: the lock link and, after a while, an auto-save.
    os.symlink(f"user@host.{os.getpid()}:1700000000", root / ".#me.md")
    (root / "#me.md#").write_text(me.read_text() + "- half typed\n")
    assert store.remember(Candidate(text="I answer messages after lunch", by="user")).commit == store.head()
    # The save: emacs renames the file to its backup, writes the new one, drops lock and auto-save.
    text = me.read_text() + "- Typed in emacs [by: user]\n"
    os.rename(me, root / "me.md~")
    me.write_text(text)
    (root / ".#me.md").unlink()
    (root / "#me.md#").unlink()
    assert store.status().changed == ["me.md"]
    commit = store.commit_hand_edits()
    assert commit is not None and "Typed in emacs" in git(root, "show", "HEAD:me.md")
    assert "me.md~" not in git(root, "ls-files")
    assert porcelain(root) == "?? me.md~\n"  # git itself sees the backup; memrepo leaves it alone


def _jetbrains_save(path: Path, text: str, renamed: threading.Event, go_on: threading.Event) -> None:
    tmp = path.with_name(path.name + "___jb_tmp___")
    old = path.with_name(path.name + "___jb_old___")
    tmp.write_text(text)
    os.rename(path, old)
    renamed.set()
    go_on.wait(60)
    os.rename(tmp, path)
    old.unlink()


def test_a_write_landing_inside_a_jetbrains_safe_write_loses_neither(store: MemoryStore) -> None:
    root = store.root
    memory = root / "MEMORY.md"
    saved = memory.read_text() + "- Saved from the IDE [by: user]\n"
    renamed, go_on = threading.Event(), threading.Event()
    saver = threading.Thread(target=_jetbrains_save, args=(memory, saved, renamed, go_on))
    saver.start()
    assert renamed.wait(60)
    # The write starts while MEMORY.md is renamed away; the save finishes meanwhile.
    threading.Timer(0.2, go_on.set).start()
    try:
        result = store.remember(Candidate(text="Always run the linter before a commit", by="user", pin=True))
    finally:
        go_on.set()
        saver.join()
    assert result.action is Action.ADDED and result.path == "MEMORY.md"
    head = git(root, "show", "HEAD:MEMORY.md")
    assert "Saved from the IDE" in head and "run the linter before a commit" in head
    assert "run the linter" in memory.read_text()
    assert git(root, "log", "--diff-filter=D", "--format=%h", "--", "MEMORY.md").strip() == ""
    assert not [p for p in git(root, "ls-files").split() if "___jb_" in p]


def test_a_move_from_a_scratch_name_onto_a_real_name_is_a_change_to_the_real_file(store: MemoryStore) -> None:
    root = store.root
    tmp = root / ".goutputstream-QWE123"
    tmp.write_text((root / "lessons.md").read_text() + "- Moved into place by gedit [by: user]\n")
    assert store.status().state is RepoState.CLEAN  # the temp file alone is nothing
    os.replace(tmp, root / "lessons.md")
    status = store.status()
    assert status.changed == ["lessons.md"]
    store.commit_hand_edits(["lessons.md", ".goutputstream-QWE123"])  # the watcher's hint: both names
    assert "Moved into place by gedit" in git(root, "show", "HEAD:lessons.md")


def test_a_file_renamed_away_long_ago_is_a_deletion_not_a_save(store: MemoryStore) -> None:
    root = store.root
    os.rename(root / "lessons.md", root / "lessons.md~")
    old = time.time() - 3600
    os.utime(root / "lessons.md~", (old, old))  # mtime only: ctime is what counts, so test the rule directly
    from memrepo.engine.git import store as gitstore

    saving = store.git._mid_save({"lessons.md": gitstore.FileStatus.WT_DELETED})
    assert saving == [("lessons.md", "lessons.md~")]  # fresh: a save in progress
    original = gitstore.MID_SAVE_FRESH_S
    gitstore.MID_SAVE_FRESH_S = 0.0
    try:
        assert store.git._mid_save({"lessons.md": gitstore.FileStatus.WT_DELETED}) == []
        assert store.commit_hand_edits() is not None
    finally:
        gitstore.MID_SAVE_FRESH_S = original
    assert "lessons.md" not in git(root, "ls-files").split()


# -- real editors in tmux --------------------------------------------------------------


@pytest.fixture
def tmux() -> Iterator[Run]:
    yield from tmux_server("memrepo-test")


@pytest.mark.slow
def test_vim_in_tmux_swap_and_backup_files_never_block_and_each_save_is_committed_once(
    store: MemoryStore, tmux: Run
) -> None:
    if shutil.which("vim") is None:
        pytest.skip("vim is not installed")
    root = store.root
    vimrc = "set nocompatible directory=. backup writebackup backupcopy=no backupdir=. viminfo="
    started = tmux("new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), f"vim -u NONE -c '{vimrc}' me.md")
    assert started.returncode == 0, started.stderr
    swap = root / ".me.md.swp"
    wait_until(swap.exists, "vim's swap file")
    # A modified buffer (the swap file is written) while memrepo writes the same file.
    tmux("send-keys", "-t", "0", "Go- Typed in vim [by: user]", "Escape")
    assert store.remember(Candidate(text="I take a walk at noon", by="user")).commit == store.head()
    assert store.status().state is RepoState.CLEAN
    # vim notices the file changed on disk when it writes; take the disk version, add the line, save.
    tmux("send-keys", "-t", "0", ":e!", "Enter", "Go- Typed in vim [by: user]", "Escape", ":w", "Enter")
    me = root / "me.md"
    wait_until(lambda: "Typed in vim" in me.read_text(), "vim's save")
    wait_until(lambda: not (root / "me.md~").exists() or store.status().changed == ["me.md"], "the save to settle")
    commit = store.commit_hand_edits()
    assert commit is not None
    tmux("send-keys", "-t", "0", ":q", "Enter")
    wait_until(lambda: not swap.exists(), "vim to quit")
    assert store.commit_hand_edits() is None  # committed once
    text = git(root, "show", "HEAD:me.md")
    assert "Typed in vim" in text and "walk at noon" in text
    assert not [p for p in git(root, "ls-files").split() if is_scratch(p)]
    adds = git(root, "log", "-p", "--format=%h", "--", "me.md")
    assert adds.count("+- Typed in vim [by: user]") == 1


@pytest.mark.slow
def test_nano_in_tmux_lock_file_never_blocks_a_write(store: MemoryStore, tmux: Run) -> None:
    if shutil.which("nano") is None:
        pytest.skip("nano is not installed")
    root = store.root
    started = tmux(
        "new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), "nano --locking --ignorercfiles me.md"
    )
    assert started.returncode == 0, started.stderr
    wait_until((root / ".me.md.swp").exists, "nano's lock file")
    assert store.remember(Candidate(text="I stretch every hour", by="user")).commit == store.head()
    # The write above changed me.md under nano: its save asks "File was modified since you opened it;
    # continue saving?", and y saves its buffer (nano's own rule: the editor's text wins).
    tmux("send-keys", "-t", "0", "M-/", "Enter", "- Typed in nano [by: user]", "C-o", "Enter")
    wait_until(lambda: "continue saving" in tmux("capture-pane", "-p", "-t", "0").stdout.casefold(), "nano's question")
    tmux("send-keys", "-t", "0", "y")
    wait_until(lambda: "Typed in nano" in (root / "me.md").read_text(), "nano's save")
    tmux("send-keys", "-t", "0", "C-x")
    wait_until(lambda: "Typed in nano" in (root / "me.md").read_text(), "nano's save")
    # nano's buffer predates memrepo's write: its save drops that entry, so it is held as a question
    # (docs/architecture.md §3, an editor's stale save), and "put back" keeps both.
    assert store.commit_hand_edits() is None
    (question,) = store.status().questions
    assert any("I stretch every hour" in line for line in question.dropped)
    assert store.answer_hand_edit("me.md", question.seen, commit=False) is not None
    assert store.commit_hand_edits() is None  # committed once
    assert "Typed in nano" in git(root, "show", "HEAD:me.md")
    assert "I stretch every hour" in git(root, "show", "HEAD:me.md")
    assert git(root, "log", "-p", "--format=%h", "--", "me.md").count("+- Typed in nano [by: user]") == 1
    assert not [p for p in git(root, "ls-files").split() if is_scratch(p)]


@pytest.mark.slow
async def test_vim_in_tmux_beside_the_apps_watcher_its_save_is_auto_committed_once(repo_path: Path, tmux: Run) -> None:
    """Found: after vim quits, its hand edit was never auto-committed (the watcher's quiet-period commit)."""
    if shutil.which("vim") is None:
        pytest.skip("vim is not installed")
    import asyncio

    from helpers.watch_helpers import HANG_GUARD_S, watching

    from memrepo.engine.config import Settings
    from memrepo.engine.repo.repo import MemoryRepo

    MemoryStore.open(repo_path, Settings(), create=True)
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": 0.5}})
    repo = await MemoryRepo.open(repo_path, settings, commit_hand_edits=True)
    root = repo_path
    me = root / "me.md"
    hand_edits = lambda: git(root, "log", "--format=%s").splitlines().count("Hand edits")  # noqa: E731

    async def until(predicate: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + HANG_GUARD_S
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.05)

    try:
        async with watching(repo):
            vimrc = "set nocompatible directory=. backup writebackup backupcopy=no backupdir=. viminfo="
            started = tmux(
                "new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), f"vim -u NONE -c '{vimrc}' me.md"
            )
            assert started.returncode == 0, started.stderr
            await until((root / ".me.md.swp").exists, "vim's swap file")
            tmux("send-keys", "-t", "0", "Go- Typed in vim beside the app [by: user]", "Escape", ":wq", "Enter")
            await until(lambda: not (root / ".me.md.swp").exists(), "vim to save and quit")
            await until(lambda: hand_edits() == 1, "the quiet-period commit of vim's save")
            await asyncio.sleep(1.5)  # three quiet periods more: nothing else is committed
    finally:
        await repo.close()
    assert hand_edits() == 1, git(root, "log", "-p", "--format=%h %s", "-3", "--", "me.md")
    assert "Typed in vim beside the app" in git(root, "show", "HEAD:me.md")
    assert git(root, "status", "--porcelain", "--untracked-files=no") == ""
    assert not [p for p in git(root, "ls-files").split() if is_scratch(p)]
    assert me.read_text().count("Typed in vim beside the app") == 1
