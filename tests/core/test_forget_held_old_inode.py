"""A save into the file's old inode, by a program that opened it before ``memrepo forget``, is merged, not lost
(breaker21 B21-10; engine/state/scrub.py ``_drop_old_links``, docs/architecture.md §3).

An editor saving in place (vim ``backupcopy=yes``, nano) opens the file for writing, then writes its buffer. When
memrepo's rename lands in between, the save goes into the old inode, which memrepo links under
``.git/memrepo/oldinodes/`` and merges later. A forget's scrub removed every such link, the one its own rename had
just made included: the save, with the user's new line, was in no file and no question named it. A link whose
inode another process still holds open for writing now stays until its save is merged.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from helpers.repo_helpers import git

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

EDITOR = """
import os, sys, time
path, opened, go = sys.argv[1:4]
fd = os.open(path, os.O_WRONLY)
buf = open(path).read()
open(opened, "w").close()
deadline = time.monotonic() + 120
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.05)
buf = buf.replace("- I like tea", "- USERNEW line typed in the editor\\n- I like tea")
os.ftruncate(fd, 0)
os.write(fd, buf.encode())
os.close(fd)
"""


def _wait(check, what: str, limit: float = 90.0) -> None:
    deadline = time.monotonic() + limit
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_a_save_into_the_old_inode_after_a_forget_is_merged(store: MemoryStore, tmp_path: Path) -> None:
    forgotten = store.remember(Candidate(text="My therapist is Dr PURPLEFOX"))
    store.remember(Candidate(text="I like tea"))
    assert forgotten.ref
    me = store.root / "me.md"
    opened, go = tmp_path / "opened", tmp_path / "go"
    editor = subprocess.Popen([sys.executable, "-c", EDITOR, str(me), str(opened), str(go)])
    try:
        _wait(opened.exists, "the editor to open the file")
        assert store.forget(forgotten.ref).commit  # renames a new file over the one the editor holds
        go.touch()
        assert editor.wait(timeout=90) == 0
    finally:
        if editor.poll() is None:
            editor.kill()

    def merged() -> bool:
        store.status()  # salvages what was written into linked old inodes
        return "USERNEW" in me.read_text() or "USERNEW" in git(store.root, "show", "HEAD:me.md")

    _wait(merged, "the editor's save to be merged")
    store.commit_hand_edits()
    for q in store.status().questions:  # a save bringing the forgotten line back is asked; put back drops it
        store.answer_hand_edit(q.path, q.seen, commit=False)
    head = git(store.root, "show", "HEAD:me.md")
    assert "USERNEW line typed in the editor" in head
    assert "PURPLEFOX" not in head and "PURPLEFOX" not in me.read_text()
