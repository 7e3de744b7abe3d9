"""An editor's save into a replaced file's old inode is merged only once the editor has finished it
(engine/files/oldinode.py ``finished``, docs/architecture.md §3, breaker10 B10-6).

vim with ``backupcopy=yes`` and nano save in place: open the file with truncation, write the buffer, close. When
memrepo renames its new version over the file between the editor's open and its write, the save goes into the old
inode, which memrepo watches. On a loaded machine the editor can be preempted between the truncation and the write
for longer than the settle time (0.3 s): the old inode then looked settled while empty or half written, salvage
merged that half save into the file, and the user got a "cut mid-write" or "drops N entries" question for a save
that was whole a moment later (or, answered "put back", a file built from half a save). Now an old inode another
process still holds open for writing is waited for until it is closed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import MemrepoError
from memrepo.engine.files import oldinode
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write.writer import Writer

# An editor that opened me.md before memrepo replaced it: on "go" it truncates its (old) inode, writes the first
# half of its buffer, says "half", waits GAP s (longer than the settle time: preempted) holding the file open,
# writes the rest, closes and says "done".
SLOW_SAVE = """
import sys, time
gap = float(sys.argv[1])
f = open("me.md", "r+b")
data = f.read() + b"- Saved by the slow editor about okapis [by: user]\\n"
print("open", flush=True)
sys.stdin.readline()
f.seek(0); f.truncate(0)
f.write(data[: len(data) // 2]); f.flush()
print("half", flush=True)
time.sleep(gap)
f.write(data[len(data) // 2 :]); f.flush(); f.close()
print("done", flush=True)
"""

# A program that keeps me.md open for appending: on each line of stdin it appends a whole line and says "ok".
APPENDER = """
import sys
f = open("me.md", "ab")
print("open", flush=True)
for n, _ in enumerate(sys.stdin):
    f.write(b"- Appended by a logger %d about okapis [by: user]\\n" % n); f.flush()
    print("ok", flush=True)
"""


def _seeded(repo_path: Path) -> MemoryStore:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    for i in range(12):
        store.remember(Candidate(text=f"Earlier preference number {i} about llamas", kind="preference"))
    return store


def _head(store: MemoryStore) -> str:
    return git(store.root, "show", "HEAD:me.md")


def _hand_edit_commits_whole(store: MemoryStore) -> None:
    """Every "Hand edits" commit holds at least what its parent held (never part of a save)."""
    for line in git(store.root, "log", "--format=%H %s").splitlines():
        commit, subject = line.split(" ", 1)
        if subject == "Hand edits":
            after, before = git(store.root, "show", f"{commit}:me.md"), git(store.root, "show", f"{commit}^:me.md")
            assert after.endswith("\n") and len(after) >= len(before), f"{commit} holds part of a save"


def test_a_save_paused_past_the_settle_time_is_merged_whole_with_no_question(repo_path: Path) -> None:
    store = _seeded(repo_path)
    editor = subprocess.Popen(
        [sys.executable, "-c", SLOW_SAVE, "1.0"],
        cwd=repo_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert editor.stdin is not None and editor.stdout is not None
    try:
        assert editor.stdout.readline().strip() == "open"
        store.remember(Candidate(text="Agent fact one about tapirs", kind="preference"))  # renames over its inode
        editor.stdin.write("go\n")
        editor.stdin.flush()
        assert editor.stdout.readline().strip() == "half"
        # Salvage finds the old inode half written and quiet for longer than the settle time, but still open
        # for writing: it waits for the editor (before: merged the half save, and this write was refused).
        result = store.remember(Candidate(text="Agent fact two about tapirs", kind="preference"))
        assert result.action is Action.ADDED
        assert editor.stdout.readline().strip() == "done"
    finally:
        with contextlib.suppress(OSError):
            editor.stdin.close()
        editor.wait(30)
    store.commit_hand_edits()  # when the editor outlived salvage's wait (a loaded machine), the next look takes it
    assert store.status().questions == []
    head = _head(store)
    assert "Saved by the slow editor about okapis" in head and head.count("about llamas") == 12
    assert "Agent fact one about tapirs" in head and "Agent fact two about tapirs" in head
    _hand_edit_commits_whole(store)
    store.close()


def test_whole_lines_appended_by_a_program_that_keeps_the_file_open_are_not_waited_for(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(oldinode, "HELD_QUIET", 3600.0)  # never taken for being quiet: only as an append
    store = _seeded(repo_path)
    logger = subprocess.Popen(
        [sys.executable, "-c", APPENDER], cwd=repo_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert logger.stdin is not None and logger.stdout is not None
    try:
        assert logger.stdout.readline().strip() == "open"
        store.remember(Candidate(text="Agent fact one about tapirs", kind="preference"))  # renames over its inode
        logger.stdin.write("\n")
        logger.stdin.flush()
        assert logger.stdout.readline().strip() == "ok"
        store.remember(Candidate(text="Agent fact two about tapirs", kind="preference"))
        head = _head(store)  # merged while the logger still holds the inode open
        assert "Appended by a logger 0 about okapis" in head and "Agent fact two about tapirs" in head
        assert head.count("about llamas") == 12 and "Agent fact one about tapirs" in head
        assert logger.poll() is None
    finally:
        with contextlib.suppress(OSError):
            logger.stdin.close()
        logger.wait(30)
    store.close()


def test_held_for_writing_sees_a_writer_not_a_reader(tmp_path: Path) -> None:
    target = tmp_path / "f.md"
    target.write_bytes(b"- a line\n")
    fd = os.open(target, os.O_RDONLY)
    hold = "import sys; f = open(sys.argv[1], sys.argv[2]); print('open', flush=True); sys.stdin.read()"
    try:
        assert not oldinode.held_for_writing(fd)  # this process holds it read-only
        for mode, writing in (("rb", False), ("r+b", True), ("ab", True)):
            other = subprocess.Popen(
                [sys.executable, "-c", hold, str(target), mode],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert other.stdout is not None and other.stdout.readline().strip() == "open"
            assert oldinode.held_for_writing(fd) is writing, mode
            assert other.stdin is not None
            other.stdin.close()
            other.wait(30)
            assert not oldinode.held_for_writing(fd)  # closed (the process ended)
    finally:
        os.close(fd)


def _strace_works() -> bool:
    if shutil.which("strace") is None:
        return False
    return subprocess.run(["strace", "-qq", "-o", "/dev/null", "true"], capture_output=True).returncode == 0


@pytest.fixture
def vim(repo_path: Path) -> Iterator[Run]:
    if not _strace_works():
        pytest.skip("strace is not installed or may not trace here (it delays vim's write, as a loaded machine does)")
    yield from tmux_server("memrepo-loss10", "vim")


@pytest.mark.parametrize("variant", ["backupcopy=yes", "backupcopy=no"])
def test_real_vim_preempted_mid_save_into_the_old_inode_is_merged_whole(
    repo_path: Path, vim: Run, monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    """A real vim in tmux saves me.md while memrepo writes it: vim opens the file (truncating it) after memrepo
    read it and before memrepo's rename, and strace delays vim's write by 1 s (a loaded machine preempting it).
    With ``backupcopy=yes`` the save lands in the old inode; with ``backupcopy=no`` vim writes a new file by the
    name. Either way the user's line, the agent's line and every earlier entry end in HEAD with no question."""
    store = _seeded(repo_path)
    me = repo_path / "me.md"
    strace = f"strace -f -qq -o /dev/null -P {me} -e trace=write -e inject=write:delay_enter=1000000"
    vim("new-session", "-d", "-x", "80", "-y", "24", "-c", str(repo_path),
        f"{strace} vim -u NONE -i NONE -N -c 'set {variant}' me.md")  # fmt: skip
    wait_until(lambda: (repo_path / ".me.md.swp").exists(), "vim's swap file")
    vim("send-keys", "-t", "0", "G", "o", "Typed in vim about okapis [by: user]", "Escape")
    real = Writer.replace
    began: list[int] = []

    def vim_saves_first(self: Writer, rel: str, data: bytes, seen: bytes | None) -> None:
        if rel == "me.md" and not began:  # memrepo read me.md and built its write: vim's :w lands now
            began.append(me.stat().st_ino)
            vim("send-keys", "-t", "0", ":w", "Enter")
            wait_until(lambda: not me.exists() or me.stat().st_size == 0 or me.stat().st_ino != began[0], "vim's open")
        real(self, rel, data, seen)

    monkeypatch.setattr(Writer, "replace", vim_saves_first)
    store.remember(Candidate(text="Agent fact one about tapirs", kind="preference"))
    monkeypatch.undo()
    # Before, salvage took vim's old inode while it was empty (truncated, its write not yet made) and merged it:
    # the work tree lost every entry vim's copy held until vim's write came, and a kill then lost them for good.
    now = me.read_text()
    assert now.count("about llamas") == 12 and "Agent fact one about tapirs" in now, now
    wait_until(lambda: "written" in vim("capture-pane", "-p", "-t", "0").stdout, "vim's save")
    store.remember(Candidate(text="Agent fact two about tapirs", kind="preference"))
    store.commit_hand_edits()
    assert store.status().questions == []
    head = _head(store)
    assert "Typed in vim about okapis" in head and head.count("about llamas") == 12, head
    assert "Agent fact one about tapirs" in head and "Agent fact two about tapirs" in head, head
    _hand_edit_commits_whole(store)
    store.close()


# An editor whose copy predates the agent's last write: it reads me.md, then (on a line of stdin) opens the file,
# then (on another) saves its copy plus a line into the inode it opened.
STALE_SAVE = """
import sys
buf = open("me.md", "rb").read() + b"- User line about okapis [by: user]\\n"
print("read", flush=True)
sys.stdin.readline()
f = open("me.md", "r+b")
print("open", flush=True)
sys.stdin.readline()
f.seek(0); f.truncate(0); f.write(buf); f.close()
print("done", flush=True)
"""

OTHER_PROCESS = """
import sys
sys.path.insert(0, sys.argv[2])
from helpers.repo_helpers import plain_settings
from memrepo.engine.repo.store import MemoryStore
store = MemoryStore.open(sys.argv[1], plain_settings(), create=False)
print(len(store.status().questions), store.commit_hand_edits())
"""


def test_a_salvaged_stale_save_is_asked_about_in_every_process(repo_path: Path) -> None:
    """Salvage judges text it merged from an old inode strictly (the copy is older than memrepo's rename). That
    record was the salvaging process's alone: ``memrepo status`` or ``commit-hand-edits`` in another process (the
    CLI beside the write server, the app, a hook; or after the server was killed) saw a fresh hand edit and
    committed the stale save, dropping the agent's line written after the editor's copy (loss10 stress: 1 of 36
    acknowledged writes). The record is now in ``.git/memrepo/salvaged.json``."""
    store = _seeded(repo_path)
    editor = subprocess.Popen(
        [sys.executable, "-c", STALE_SAVE], cwd=repo_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert editor.stdin is not None and editor.stdout is not None
    try:
        assert editor.stdout.readline().strip() == "read"
        store.remember(Candidate(text="Agent fact A about tapirs", kind="preference"))  # after the editor's copy
        editor.stdin.write("\n")
        editor.stdin.flush()
        assert editor.stdout.readline().strip() == "open"
        store.remember(Candidate(text="Agent fact B about tapirs", kind="preference"))  # renames over its inode
        editor.stdin.write("\n")
        editor.stdin.flush()
        assert editor.stdout.readline().strip() == "done"
    finally:
        with contextlib.suppress(OSError):
            editor.stdin.close()
        editor.wait(30)
    with contextlib.suppress(MemrepoError):  # salvage merges the save and asks: the write is kept
        store.remember(Candidate(text="Agent fact C about tapirs", kind="preference"))
    (q,) = store.status().questions
    assert any("Agent fact A" in line for line in q.dropped), q.message
    other = subprocess.run(
        [sys.executable, "-c", OTHER_PROCESS, str(repo_path), str(Path(__file__).parents[1])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert other.returncode == 0, other.stderr
    assert other.stdout.split() == ["1", "None"]  # asked there too, and not committed
    assert "Agent fact A about tapirs" in _head(store)
    store.close()


def _watched_replace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[oldinode.OldInodes, Path]:
    """An old inode of me.md watched as the writer does, then replaced by a rename, its watch already expired."""
    monkeypatch.setattr(oldinode, "WATCH_SECONDS", 0.0)
    monkeypatch.setattr(oldinode, "HELD_RECHECK", 0.0)
    target = tmp_path / "me.md"
    target.write_bytes(b"- First line [by: user]\n")
    watches = oldinode.OldInodes()
    fd = oldinode.open_old(target)
    assert fd is not None
    watches.watch("me.md", fd, target.read_bytes())
    (tmp_path / "new.md").write_bytes(b"- First line [by: user]\n- Memrepo's line\n")
    os.replace(tmp_path / "new.md", target)
    return watches, target


def test_an_expired_watch_is_kept_while_another_holder_may_still_save_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CI (stop 44): the write server let the watch go 10 s after its rename while an editor that opened the file
    before still held it; the editor's later save went into an inode nobody watched and was gone."""
    target = tmp_path / "me.md"
    target.write_bytes(b"- First line [by: user]\n")
    editor = open(target, "r+b")  # noqa: SIM115 - an editor's descriptor, held across the replace
    try:
        watches, _ = _watched_replace(tmp_path, monkeypatch)
        watches.prune()
        assert len(watches) == 1, "the watch ended while a process still held the old inode open for writing"
        assert watches.take_written() == []
        assert len(watches) == 1
        editor.seek(0, os.SEEK_END)
        editor.write(b"- Saved late by the editor [by: user]\n")
    finally:
        editor.close()
    found = watches.take_written()
    assert [data for _, data in found] == [b"- First line [by: user]\n- Saved late by the editor [by: user]\n"]
    watches.close()


def test_an_expired_watch_nobody_holds_is_let_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    watches, _ = _watched_replace(tmp_path, monkeypatch)
    watches.prune()
    assert len(watches) == 0, "an unwritten watch nobody holds stayed open past its time"
