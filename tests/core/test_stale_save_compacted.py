"""An editor's stale save never undoes ``forget --compact`` silently (engine/write/forgotlines.py, docs §3, §5).

Found by breaker3 (F23): ``memrepo forget REF --compact``, then an editor saved its copy from before: the
forgotten line was back, ``status`` said hand_edited with exit 0 and no question, and the next write committed
it. The F11 guard reads memrepo's removals in the history, which compaction erased. Compaction now keeps
keyed hashes (no text) of the lines memrepo removed in the hour, and the guard reads them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import HandEditQuestion
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.state.registry import unlisted
from memrepo.engine.write import forgotlines

SECRET = "My therapist is Dr Example on Tuesdays"


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings())


def stale_save(path: Path, text: str) -> None:
    """Save ``text`` as an editor does (a temp file renamed over it), older than the settle quiet time."""
    tmp = path.with_name(f".{path.name}.editor-tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    os.utime(path, (time.time() - 1, time.time() - 1))


def forget_compact_then_stale_save(store: MemoryStore) -> Path:
    store.remember(Candidate(text="I water the plants on Sundays", by="user"))
    written = store.remember(Candidate(text=SECRET, by="user"))
    assert written.ref
    me = store.root / "me.md"
    read = me.read_text()
    assert store.forget(written.ref, compact=True).commit
    assert git(store.root, "rev-list", "--count", "HEAD").strip() == "1"  # the history is gone
    assert SECRET not in me.read_text()
    stale_save(me, read + "- Typed in the editor [by: user]\n")
    return me


def all_bytes_under(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def test_a_save_that_brings_back_a_compacted_forget_is_held(store: MemoryStore) -> None:
    me = forget_compact_then_stale_save(store)
    head = store.head()
    status = store.status()
    assert status.state is RepoState.HAND_EDITED
    (q,) = status.questions
    assert q.path == "me.md" and len(q.revived) == 1 and SECRET in q.revived[0]
    assert "brings back 1 entry memrepo removed" in q.message
    saved = me.read_bytes()
    with pytest.raises(HandEditQuestion, match="brings back 1 entry"):
        store.remember(Candidate(text="I cycle to work", by="user"))
    assert store.head() == head and me.read_bytes() == saved
    assert store.commit_hand_edits() is None and store.head() == head


def test_put_back_drops_the_forgotten_line_again(store: MemoryStore) -> None:
    me = forget_compact_then_stale_save(store)
    (q,) = store.status().questions
    store.answer_hand_edit("me.md", q.seen, commit=False)
    text = git(store.root, "show", "HEAD:me.md")
    assert SECRET not in text and "Typed in the editor" in text and "plants on Sundays" in text
    assert me.read_text() == text
    assert store.status().state is RepoState.CLEAN


def test_compaction_keeps_no_text_only_keyed_hashes(store: MemoryStore) -> None:
    forget_compact_then_stale_save(store)
    state = store.root / ".git" / "memrepo"
    hashes, key = state / forgotlines.HASHES_NAME, state / forgotlines.KEY_NAME
    assert hashes.is_file() and key.is_file()
    assert hashes.stat().st_mode & 0o777 == 0o600 and key.stat().st_mode & 0o777 == 0o600
    assert unlisted(state) == []  # both registered
    # The text is nowhere under .git (the work tree holds the stale save, not .git).
    everything = all_bytes_under(store.root / ".git")
    for needle in (SECRET, "therapist", "Dr Example"):
        assert needle.encode() not in everything
    # Without the key the hash is no plain SHA-256 of the line a guesser could check.
    import hashlib

    plain = hashlib.sha256(f"- {SECRET} [by: user]".encode()).hexdigest()
    assert plain not in hashes.read_text()


def test_the_guard_expires_after_its_days(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    forget_compact_then_stale_save(store)
    state = store.root / ".git" / "memrepo"
    assert len(store.status().questions) == 1  # held within the hour
    now = time.time()
    monkeypatch.setattr(forgotlines.time, "time", lambda: now + 2 * 86_400)
    assert len(store.status().questions) == 1  # and days later: an editor's buffer stays open that long (B27-3)
    monkeypatch.setattr(forgotlines.time, "time", lambda: now + forgotlines.KEEP_S + 1)
    assert store.status().questions == []  # a save after KEEP_S is the user's own edit
    assert not (state / forgotlines.HASHES_NAME).exists() and not (state / forgotlines.KEY_NAME).exists()


def test_a_new_line_that_was_never_forgotten_is_no_question(store: MemoryStore) -> None:
    store.remember(Candidate(text=SECRET, by="user"))
    written = store.remember(Candidate(text="I keep a paper diary", by="user"))
    assert written.ref
    store.forget(written.ref, compact=True)
    me = store.root / "me.md"
    stale_save(me, me.read_text() + "- I read before bed [by: user]\n")
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None


def test_cli_status_asks_after_forget_compact(store: MemoryStore, tmp_path: Path) -> None:
    """The breaker's repro through the real CLI: cp me.md /tmp/x; forget --compact; cp /tmp/x me.md; status."""
    written = store.remember(Candidate(text=SECRET, by="user"))
    assert written.ref
    me = store.root / "me.md"
    copy = tmp_path / "x"
    copy.write_bytes(me.read_bytes())
    run = [sys.executable, "-m", "memrepo.cli.main", "--repo", str(store.root)]
    forget = subprocess.run(
        [*run, "forget", written.ref, "--compact"], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert forget.returncode == 0, forget.stdout + forget.stderr
    me.write_bytes(copy.read_bytes())
    os.utime(me, (time.time() - 1, time.time() - 1))
    status = subprocess.run([*run, "status"], capture_output=True, text=True)
    assert status.returncode == 3, status.stdout + status.stderr
    assert "brings back 1 entry" in status.stdout + status.stderr


# -- a real editor in tmux --------------------------------------------------------------------------


@pytest.fixture
def tmux() -> Iterator[Run]:
    yield from tmux_server("forgetstale", "vim")


@pytest.mark.slow
def test_vim_saving_its_copy_after_forget_compact_is_held(store: MemoryStore, tmux: Run, tmp_path: Path) -> None:
    """vim has me.md open; `forget --compact` runs; vim's `:w!` (y to "changed since reading") is a question."""
    written = store.remember(Candidate(text=SECRET, by="user"))
    assert written.ref
    root, me = store.root, store.root / "me.md"
    swaps = tmp_path / "swaps"
    swaps.mkdir()
    vimrc = f"set nocompatible directory={swaps} nobackup nowritebackup viminfo="
    started = tmux("new-session", "-d", "-x", "120", "-y", "30", "-c", str(root), f"vim -u NONE --cmd '{vimrc}' me.md")
    assert started.returncode == 0, started.stderr
    wait_until(lambda: any(swaps.iterdir()), "vim's swap file")
    tmux("send-keys", "-t", "0", "Go- Typed in vim [by: user]", "Escape")
    assert store.forget(written.ref, compact=True).commit
    assert SECRET not in me.read_text()
    tmux("send-keys", "-t", "0", ":w!", "Enter")
    time.sleep(0.5)
    if "Typed in vim" not in me.read_text():  # vim asks whether to write over a file changed since reading
        tmux("send-keys", "-t", "0", "y")
        tmux("send-keys", "-t", "0", "Enter")
    wait_until(lambda: "Typed in vim" in me.read_text(), "vim's save")
    assert SECRET in me.read_text()  # vim's copy brought the forgotten line back
    wait_until(lambda: len(store.status().questions) == 1, "the question")
    (q,) = store.status().questions
    assert len(q.revived) == 1 and SECRET in q.revived[0] and "brings back 1 entry" in q.message
    head = store.head()
    with pytest.raises(HandEditQuestion):
        store.remember(Candidate(text="I cycle to work", by="user"))
    assert store.head() == head
    store.answer_hand_edit("me.md", q.seen, commit=False)
    text = git(root, "show", "HEAD:me.md")
    assert SECRET not in text and "Typed in vim" in text
    tmux("send-keys", "-t", "0", ":q!", "Enter")


def test_a_compaction_hours_after_the_forget_still_guards_the_line(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """breaker27 B27-3: compaction kept only the last hour's removals; a forget two hours before `compact`, then a
    stale save of an editor's copy read before it, brought the line back with no question."""
    store.remember(Candidate(text="I water the plants on Sundays", by="user"))
    written = store.remember(Candidate(text=SECRET, by="user"))
    assert written.ref
    me = store.root / "me.md"
    read = me.read_text()
    assert store.forget(written.ref).commit
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 2 * 3600)  # two hours later: the forget is out of the hour
    store.compact()
    assert git(store.root, "rev-list", "--count", "HEAD").strip() == "1"
    stale_save(me, read + "- Typed in the editor [by: user]\n")
    (q,) = store.status().questions
    assert q.path == "me.md" and len(q.revived) == 1 and SECRET in q.revived[0]
