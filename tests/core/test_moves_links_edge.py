"""A rename's index relink in a CRLF repo, to a name no link can hold, and beside an editor (engine/write/movelinks.py).

Found by breaker10: in a `* text eol=crlf` repo a rename never relinked MEMORY.md (the CRLF work file never
equalled HEAD's LF blob, so MEMORY.md always looked edited by hand: B10-4); a rename to `topics/c#1.md` wrote
`[[topics/c#1]]`, which the index reads as `topics/c.md` (B10-7); and the relink wrote MEMORY.md without
watching its old inode, so an editor's save into it just then was lost (B10-10).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.editor_tmux import Run, tmux_server, wait_until
from helpers.repo_helpers import commit_by_hand, git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _repo(repo_path: Path) -> MemoryStore:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    (repo_path / "topics").mkdir()
    (repo_path / "topics" / "a.md").write_text(
        "# A\n\n" + "".join(f"- Lesson {i} about retries [by: user]\n" for i in range(5))
    )
    index = repo_path / "MEMORY.md"
    index.write_text(index.read_text() + "- [[topics/a]]\n")
    commit_by_hand(repo_path)
    return store


def _crlf(repo_path: Path) -> None:
    """Make the repo `* text eol=crlf`, renormalised as breaker10 did: CRLF on disk, LF in git."""
    (repo_path / ".gitattributes").write_text("* text eol=crlf\n")
    commit_by_hand(repo_path, "eol")
    for p in git(repo_path, "ls-files").split():
        (repo_path / p).unlink()
    git(repo_path, "checkout", "--", ".")
    assert b"\r\n" in (repo_path / "MEMORY.md").read_bytes()
    assert git(repo_path, "status", "--porcelain") == ""


def test_a_crlf_repo_relinks_the_index_and_keeps_crlf_on_disk(repo_path: Path) -> None:
    store = _repo(repo_path)
    _crlf(repo_path)
    git(repo_path, "mv", "topics/a.md", "topics/b.md")
    assert store.remember(Candidate(text="Prefers dark mode in every editor", by="user")).commit
    assert "Move topics/a.md -> topics/b.md" in git(repo_path, "log", "--format=%s")
    head = git(repo_path, "show", "HEAD:MEMORY.md")
    assert "- [[topics/b]]\n" in head and "[[topics/a]]" not in head and "\r" not in head
    disk = (repo_path / "MEMORY.md").read_bytes()
    assert b"- [[topics/b]]\r\n" in disk and disk.count(b"\n") == disk.count(b"\r\n")
    assert git(repo_path, "status", "--porcelain") == ""


def test_a_name_no_link_can_hold_is_left_as_written_and_named(repo_path: Path) -> None:
    store = _repo(repo_path)
    git(repo_path, "mv", "topics/a.md", "topics/c#1.md")
    assert store.commit_hand_edits() is not None
    head = git(repo_path, "show", "HEAD:MEMORY.md")
    assert "[[topics/c#1]]" not in head and "- [[topics/a]]\n" in head
    body = git(repo_path, "log", "-1", "--format=%b")
    assert "still links to topics/a.md" in body and "now links" not in body


def test_an_editor_saving_into_memory_md_as_the_relink_replaces_it_loses_nothing(repo_path: Path) -> None:
    store = _repo(repo_path)
    index = repo_path / "MEMORY.md"
    with open(index, "r+b") as editor:  # an editor holding MEMORY.md open across its save (nano, an IDE)
        copy = editor.read()
        git(repo_path, "mv", "topics/a.md", "topics/b.md")
        assert store.commit_hand_edits() is not None
        assert "- [[topics/b]]\n" in git(repo_path, "show", "HEAD:MEMORY.md")
        editor.seek(0)
        editor.truncate(0)
        editor.write(copy + b"- Keep answers short [by: user]\n")  # lands in the replaced inode
        editor.flush()
    time.sleep(0.1)
    old = time.time() - 2
    os.utime(index, (old, old))
    assert store.remember(Candidate(text="Prefers dark mode in every editor", by="user")).commit
    store.commit_hand_edits()
    head = git(repo_path, "show", "HEAD:MEMORY.md")
    assert "- Keep answers short [by: user]" in head
    assert "- [[topics/b]]" in head


def _stale_save(path: Path, data: bytes) -> None:
    """Save ``data`` as vim does (a new file renamed over the old one), looking settled."""
    tmp = path.with_name(f".{path.name}.editor-tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    old = time.time() - 2
    os.utime(path, (old, old))


def test_a_stale_memory_md_save_undoing_a_relink_is_asked_and_put_back_keeps_the_relink(repo_path: Path) -> None:
    store = _repo(repo_path)
    index = repo_path / "MEMORY.md"
    copy = index.read_bytes()  # vim opens MEMORY.md
    git(repo_path, "mv", "topics/a.md", "topics/b.md")
    assert store.remember(Candidate(text="Prefers dark mode in every editor", by="user")).commit
    assert "- [[topics/b]]\n" in git(repo_path, "show", "HEAD:MEMORY.md")
    _stale_save(index, copy + b"- Keep answers short [by: user]\n")  # vim's copy still links topics/a
    (q,) = store.status().questions
    assert q.dropped == ["- [[topics/b]]"] and q.revived == ["- [[topics/a]]"]
    assert store.answer_hand_edit("MEMORY.md", q.seen, commit=False) is not None
    head = git(repo_path, "show", "HEAD:MEMORY.md")
    assert "- [[topics/b]]\n" in head and "[[topics/a]]" not in head and "- Keep answers short [by: user]" in head
    assert "[[topics/b]] (topics/b.md)" in store.context(None).text


# -- a real vim in tmux (breaker10's steps) -------------------------------------------------------


@pytest.fixture
def tmux() -> Iterator[Run]:
    yield from tmux_server("edit8", "vim")


@pytest.mark.slow
def test_vim_saving_memory_md_read_before_a_rename_is_asked(repo_path: Path, tmux: Run) -> None:
    store = _repo(repo_path)
    index = repo_path / "MEMORY.md"
    vimrc = "set nocompatible directory=. nobackup nowritebackup viminfo= noautoread"
    started = tmux(
        "new-session", "-d", "-x", "150", "-y", "30", "-c", str(repo_path), f"vim -u NONE -c '{vimrc}' MEMORY.md"
    )
    assert started.returncode == 0, started.stderr
    wait_until((repo_path / ".MEMORY.md.swp").exists, "vim's swap file")
    git(repo_path, "mv", "topics/a.md", "topics/b.md")
    assert store.remember(Candidate(text="Prefers dark mode in every editor", by="user")).commit
    assert "- [[topics/b]]\n" in git(repo_path, "show", "HEAD:MEMORY.md")
    tmux("send-keys", "-t", "0", "G", "o- Keep answers short [by: user]", "Escape", ":w", "Enter")
    wait_until(lambda: "Do you really want to write" in tmux("capture-pane", "-p", "-t", "0").stdout, "vim's warning")
    tmux("send-keys", "-t", "0", "y")
    wait_until(lambda: "Keep answers short" in index.read_text(), "vim's save")
    tmux("send-keys", "-t", "0", ":q!", "Enter")
    old = time.time() - 2
    os.utime(index, (old, old))
    (q,) = store.status().questions
    assert q.dropped == ["- [[topics/b]]"] and q.revived == ["- [[topics/a]]"]
    store.commit_hand_edits()
    assert "- [[topics/b]]\n" in git(repo_path, "show", "HEAD:MEMORY.md")  # held: nothing committed
