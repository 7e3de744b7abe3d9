"""What lies under ``.git/memrepo/oldinodes/`` is never turned against the user (engine/files/oldlinks.py,
docs/architecture.md §3; breaker19 B19-4, B19-5, B19-6, B19-7, B19-14).

A process adopts the links another left: a planted base naming ``../x`` made salvage write outside the repo, a
symlinked ``oldinodes`` took the file's text elsewhere and kept it after ``forget``, a FIFO or a foreign file stayed
forever, a second adopter merged a save again after it was forgotten, and ``clear --global`` left the links.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from memrepo.engine.files import oldinode, oldlinks
from memrepo.engine.files.oldinode import OldInodes
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.state.registry import Event
from memrepo.engine.state.scrub import Scope, walk

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="links through /proc/self/fd")

FIRST = b"- First line [by: user]\n"
SAVED = FIRST + b"- Saved by the editor [by: user]\n"


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "repo"
    state = root / ".git" / "memrepo"
    (state / oldlinks.LINKS_DIR).mkdir(parents=True)
    (root / "me.md").write_bytes(FIRST)
    return root, state


def _plant(state: Path, target: Path, rel: str, key: str | None = None) -> str:
    """A hard link of ``target`` named as memrepo names it (or ``key``), with a base naming ``rel``."""
    st = os.stat(target)
    key = key or f"{st.st_dev}-{st.st_ino}"
    folder = state / oldlinks.LINKS_DIR
    head = json.dumps({"rel": rel, "stamp": [0, 0], "at": time.time()}).encode()
    (folder / f"{key}.base").write_bytes(head + b"\n" + FIRST)
    os.link(target, folder / f"{key}.old")
    return key


def _replace(root: Path, watches: OldInodes) -> None:
    fd = oldinode.open_old(root / "me.md")
    assert fd is not None
    watches.watch("me.md", fd, FIRST)
    (root / "new.md").write_bytes(FIRST + b"- Memrepo's line\n")
    os.replace(root / "new.md", root / "me.md")


@pytest.mark.parametrize("rel", ["../victim.md", "ABS", "sub/../../victim.md", ".git/victim.md", "victim.txt", ""])
def test_a_base_naming_no_memory_file_in_the_repo_is_dropped(repo: tuple[Path, Path], rel: str) -> None:
    root, state = repo
    victim = root.parent / "victim.md"
    victim.write_bytes(b"original victim\n")
    payload = root.parent / "payload.md"
    payload.write_bytes(SAVED)
    _plant(state, payload, str(victim) if rel == "ABS" else rel)
    later = OldInodes(state)
    later.adopt(root)
    assert later.take_written() == [], "a base's path out of the repo was adopted and merged"
    assert os.listdir(state / oldlinks.LINKS_DIR) == [], "the untrusted link was left"
    assert victim.read_bytes() == b"original victim\n"


def test_a_base_reached_through_a_symlinked_folder_is_dropped(repo: tuple[Path, Path]) -> None:
    root, state = repo
    outside = root.parent / "outside"
    outside.mkdir()
    (outside / "me.md").write_bytes(FIRST)
    (root / "sub").symlink_to(outside)
    payload = root.parent / "payload.md"
    payload.write_bytes(SAVED)
    _plant(state, payload, "sub/me.md")
    later = OldInodes(state)
    later.adopt(root)
    assert later.take_written() == []
    assert (outside / "me.md").read_bytes() == FIRST


def test_a_planted_link_out_of_the_repo_fails_no_write(store: MemoryStore, repo_path: Path) -> None:
    state = repo_path / ".git" / "memrepo"
    (state / oldlinks.LINKS_DIR).mkdir(parents=True, exist_ok=True)
    victim = repo_path.parent / "victim.md"
    victim.write_bytes(b"original victim\n")
    payload = repo_path.parent / "payload.md"
    payload.write_bytes(b"- injected line\n")
    _plant(state, payload, "../victim.md")
    store.remember(Candidate(text="I like green tea in the morning", kind="preference"))
    assert victim.read_bytes() == b"original victim\n"
    assert "injected line" not in (repo_path / "me.md").read_text()
    store.close()


def test_a_symlinked_links_folder_is_never_followed(repo: tuple[Path, Path]) -> None:
    root, state = repo
    folder = state / oldlinks.LINKS_DIR
    folder.rmdir()
    elsewhere = root.parent / "elsewhere"
    elsewhere.mkdir()
    folder.symlink_to(elsewhere)
    watches = OldInodes(state)
    _replace(root, watches)
    assert os.listdir(elsewhere) == [], "a link was made through the symlink"
    (elsewhere / "1-2.base").write_bytes(b'{"rel": "me.md", "stamp": [0, 0], "at": 0}\n- Forgotten text\n')
    done = walk(Event.FORGET, Scope(root, paths=["me.md"], state_dir=state))
    assert not os.path.lexists(folder), "forget left the symlink"
    assert done["removed_state_files"] == 1, "the removal was not reported"
    assert os.listdir(elsewhere) == ["1-2.base"]  # what it led to is not memrepo's
    watches.close()


def test_forget_leaves_no_text_where_a_symlinked_links_folder_led(store: MemoryStore, repo_path: Path) -> None:
    folder = repo_path / ".git" / "memrepo" / oldlinks.LINKS_DIR
    if folder.is_dir():
        os.rmdir(folder)
    elsewhere = repo_path.parent / "elsewhere"
    elsewhere.mkdir()
    folder.symlink_to(elsewhere)
    store.remember(Candidate(text="I like oolong tea a lot", kind="preference"))
    store.remember(Candidate(text="I like espresso coffee too", kind="preference"))
    lines = (repo_path / "me.md").read_text().splitlines()
    store.forget(f"repo:me.md#L{next(n for n, line in enumerate(lines, 1) if 'oolong' in line)}")
    held = [p.read_bytes() for p in elsewhere.iterdir()]
    assert not any(b"oolong" in data for data in held), "the forgotten text stayed where the symlink led"
    assert not folder.is_symlink()
    store.close()


def test_a_save_merged_then_forgotten_is_not_merged_again_by_a_second_adopter(repo: tuple[Path, Path]) -> None:
    root, state = repo
    editor = open(root / "me.md", "r+b")  # noqa: SIM115 - an editor's descriptor from before the rename
    gone = OldInodes(state)
    _replace(root, gone)
    gone.close()
    first, second = OldInodes(state), OldInodes(state)
    first.adopt(root)
    second.adopt(root)
    assert len(first) == len(second) == 1
    editor.seek(0, os.SEEK_END)
    editor.write(SAVED[len(FIRST) :])
    editor.close()
    ((old, data),) = first.take_written()
    old.took(data)  # merged, as Writer.salvage does
    walk(Event.FORGET, Scope(root, paths=["me.md"], state_dir=state))  # the user forgets the merged line
    assert second.take_written() == [], "the forgotten save was merged again"
    assert len(second) == 0
    first.close()


def test_planted_fifos_symlinks_and_foreign_files_are_removed_never_read(repo: tuple[Path, Path]) -> None:
    root, state = repo
    folder = state / oldlinks.LINKS_DIR
    outside = root.parent / "diary.md"
    outside.write_bytes(SAVED)
    base = json.dumps({"rel": "me.md", "stamp": [1, 1], "at": time.time()}).encode() + b"\n" + FIRST
    os.mkfifo(folder / "9-4.old")
    (folder / "9-4.base").write_bytes(base)
    (folder / "9-5.old").symlink_to(outside)
    (folder / "9-5.base").write_bytes(base)
    os.link(outside, folder / "9-6.old")  # a regular file, but not the inode its name says
    (folder / "9-6.base").write_bytes(base)
    (folder / "notes.txt").write_bytes(b"foreign\n")
    assert not oldlinks.written(state), "a planted link counted as a save"
    later = OldInodes(state)
    later.adopt(root)
    assert len(later) == 0 and later.take_written() == []
    assert os.listdir(folder) == [], "planted names were left"
    assert outside.read_bytes() == SAVED


def test_clear_global_removes_the_links(store: MemoryStore, repo_path: Path) -> None:
    folder = repo_path / ".git" / "memrepo" / oldlinks.LINKS_DIR
    store.remember(Candidate(text="Secret hint PURPLEFOX for the door", kind="preference"))
    store.remember(Candidate(text="I like walking in the hills", kind="preference"))
    assert folder.is_dir() and os.listdir(folder), "no link to clear (the test proves nothing)"
    store.clear_global()
    left = [p.read_bytes() for p in folder.iterdir()] if folder.is_dir() else []
    assert not any(b"PURPLEFOX" in data for data in left), "clear --global left the text in a link"
    assert left == []
    store.close()
