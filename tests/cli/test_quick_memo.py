"""The console script's quick exit saves the redaction clean memo, and the next process reuses it.

A quick path ends with :func:`os._exit` (cli/quick.py ``leave``), which skips the exit handlers, and the
memo (engine/redaction/memo.py) was written only by one: ``.git/memrepo/redaction-clean.bin`` never
appeared, so every ``memrepo recall --full`` loaded Betterleaks' Go library again for a section it had
found clean before (docs/architecture.md §3). Real ``memrepo`` processes; whether Betterleaks was loaded
is read from Python's own import log (``PYTHONPROFILEIMPORTTIME``).
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


def _recall_full(root: Path) -> tuple[str, bool]:
    """``memrepo recall staging --full`` in a new process: its output, and whether it imported Betterleaks."""
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none", PYTHONPROFILEIMPORTTIME="1")
    done = subprocess.run(
        [script, "--repo", str(root), "recall", "staging", "--full"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    loaded = any(line.rstrip().endswith("| betterleaks") for line in done.stderr.splitlines())
    return done.stdout, loaded


def test_a_second_process_reuses_the_memo_the_first_saved(tmp_path: Path) -> None:
    if memomod.library_fingerprint() is None:
        pytest.skip("Betterleaks' shared library is not installed: there is no memo to save")
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    # a token-like run (letters and digits) makes a text a candidate for Betterleaks (engine/redaction)
    store.remember(Candidate(text="Build 7f3a9c2e1b4d5f60aa went to staging on Friday", kind="fact", by="user"))
    memo_file = store.root / ".git" / "memrepo" / memomod.FILE_NAME
    memo_file.unlink(missing_ok=True)  # what this process's own writes remembered is not the point here
    store.close()

    first, first_loaded = _recall_full(store.root)
    assert first_loaded, "the first process scans the section with Betterleaks"
    assert memo_file.is_file(), "the quick exit saved the memo"
    second, second_loaded = _recall_full(store.root)
    assert second == first and "7f3a9c2e1b4d5f60aa" in second
    assert not second_loaded, "the second process knew the section clean from the memo"
