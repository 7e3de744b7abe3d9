"""A hand edit re-indexed by ``memrepo recall`` reuses the Betterleaks clean memo (issue 30 point 4, cost).

The recall index redacts every entry of a file it re-reads. In a process with no allow-list active (a repo
with none: the common case) redaction never asked the memo (engine/redaction/memo.py), so a new
``memrepo recall`` after a hand edit loaded Betterleaks' Go library for every token-like text of the edited
file, however often it had been found clean: about 100-150 ms of a 250 ms process. Now the index's sync
names its repo's memo (``memo.used_by_index``), and its first build fills it. Real ``memrepo`` processes;
whether Betterleaks was loaded is read from Python's own import log (``PYTHONPROFILEIMPORTTIME``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.redaction import memo as memomod
from memrepo.engine.repo.store import MemoryStore

TOKEN_LIKE = "Build 7f3a9c2e1b4d5f60aa shipped to the canary ring on Friday"
"""An entry with a token-like run (letters and digits): a candidate for Betterleaks (engine/redaction), clean."""


def _recall(root: Path, query: str) -> tuple[str, bool]:
    """``memrepo recall QUERY`` in a new process: its output, and whether it imported Betterleaks."""
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none", PYTHONPROFILEIMPORTTIME="1")
    done = subprocess.run(
        [script, "--repo", str(root), "recall", query], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    loaded = any(line.rstrip().endswith("| betterleaks") for line in done.stderr.splitlines())
    return done.stdout, loaded


def test_a_hand_edit_reindexed_in_a_new_process_does_not_load_betterleaks_again(tmp_path: Path) -> None:
    if memomod.library_fingerprint() is None:
        pytest.skip("Betterleaks' shared library is not installed: there is no memo")
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text=TOKEN_LIKE, kind="fact", by="user"))
    store.remember(Candidate(text="Staging deploys wait for the smoke tests", kind="fact", by="user"))
    root = store.root
    store.close()
    state = root / ".git" / "memrepo"
    for name in (memomod.FILE_NAME, "recall.sqlite"):  # a fresh start: the index is built by the first recall
        (state / name).unlink(missing_ok=True)
    holder = next(p for p in root.rglob("*.md") if ".git" not in p.parts and TOKEN_LIKE in p.read_text())

    first, first_loaded = _recall(root, "staging")
    assert "smoke tests" in first
    assert first_loaded, "building the index scans the token-like entry with Betterleaks once"

    with holder.open("a", encoding="utf-8") as fh:  # a hand edit: one prose line more in the same file
        fh.write("- Staging has its own database since March\n")
    second, second_loaded = _recall(root, "staging")
    assert "own database" in second, "the hand edit was re-indexed"
    assert not second_loaded, "the file's token-like entry was known clean from the memo the build filled"
