"""A stale save that brings back a forgotten line: until the user answers, no reader serves that line
(engine/read/heldread.py, docs/architecture.md §3-§4, breaker27 B27-2).

vim read me.md, the user forgot "I live in Lyon" with `memrepo forget`, and vim saved its copy with a new line:
memrepo asks (status exit 3), but the block and recall read the work tree, so every session got the forgotten
line back while the question waited. The block now shows me.md as committed (its header says so) and recall
leaves the revived line out, on the quick path, click's command and the store alike.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

FORGOTTEN = "I live in Lyon"
HEADER = "## me.md (a hand edit waits for an answer; shown as committed)"


def _memrepo(root: Path, *args: str, module: str = "memrepo.cli.main") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, "--repo", str(root), *args], capture_output=True, text=True)


@pytest.fixture
def revived(tmp_path: Path) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    try:
        assert store.remember(Candidate(text="I cycle to work in Lyon traffic", by="user")).commit
        written = store.remember(Candidate(text=FORGOTTEN, by="user"))
        assert written.commit and written.ref
        me = store.root / "me.md"
        read = me.read_text()  # the editor reads the file
        assert store.forget(written.ref).commit
    finally:
        store.close()
    tmp = me.with_name(".me.md.editor-tmp")
    tmp.write_text(read + "- User typed line ZZZ [by: user]\n")
    os.replace(tmp, me)
    os.utime(me, (time.time() - 1, time.time() - 1))
    asked = _memrepo(store.root, "status")
    assert asked.returncode == 3 and "brings back 1 entry" in asked.stdout + asked.stderr, asked
    return store.root


def test_the_block_shows_the_file_as_committed(revived: Path) -> None:
    shown = _memrepo(revived, "context")
    assert shown.returncode == 0, shown.stderr
    assert HEADER in shown.stdout and FORGOTTEN not in shown.stdout, shown.stdout
    assert "Lyon traffic" in shown.stdout
    store = MemoryStore.open(revived, plain_settings())
    try:
        block = store.context().text
        assert HEADER in block and FORGOTTEN not in block
    finally:
        store.close()


@pytest.mark.parametrize("module", ["memrepo.cli.main", "memrepo.cli.quick"])
def test_recall_leaves_the_revived_line_out(revived: Path, module: str) -> None:
    found = _memrepo(revived, "recall", "Lyon", module=module)
    assert FORGOTTEN not in found.stdout + found.stderr, found
    assert "Lyon traffic" in found.stdout, found  # the other line still answers


def test_the_store_s_recall_leaves_it_out_and_an_answer_ends_it(revived: Path) -> None:
    store = MemoryStore.open(revived, plain_settings())
    try:
        hits = store.recall("Lyon")
        assert hits and all(FORGOTTEN not in hit.text for hit in hits), hits
        (q,) = store.status().questions
        assert store.answer_hand_edit("me.md", q.seen, commit=True)  # the user wants the line back
        assert any(hit.text == FORGOTTEN for hit in store.recall("Lyon"))
        assert FORGOTTEN in store.context().text
    finally:
        store.close()


def test_the_scan_while_the_index_builds_leaves_it_out(revived: Path) -> None:
    """The files scanned while the first index build runs elsewhere (recallbuilding.scan_hits) wait too."""
    from memrepo.engine.read.recallbuilding import scan_hits

    options = {"limit": 10, "max_bytes": 4096, "detail": "line", "min_confidence": 0.0}
    hits = scan_hits(revived, "Lyon", (None, None, False), options)
    assert any("Lyon traffic" in hit.text for hit in hits), hits
    assert all(FORGOTTEN not in hit.text for hit in hits), hits
