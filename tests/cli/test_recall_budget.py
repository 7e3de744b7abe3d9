"""``memrepo recall --max-bytes N`` where memory matches but no hit fits: said so, never "no memory matches".

A budget of 0 (or one smaller than the best hit) used to print "no memory matches 'QUERY'", which is
false: the person then looks for a missing memory. Both paths say the same line and exit 1 (docs/architecture.md §4):
the console script's quick path (a real ``memrepo`` process) and click's command.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

FACT = "The boiler room gauge is read every Monday"


def _memrepo(*args: str) -> subprocess.CompletedProcess[str]:
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none")
    return subprocess.run([script, *args], capture_output=True, text=True, env=env, timeout=120)


def _ref_and_text_bytes(store: MemoryStore) -> int:
    hit = store.recall("gauge")[0]
    return len(hit.ref.encode()) + len(hit.text.encode())


def test_a_zero_budget_says_memory_matches_and_what_the_best_hit_needs(store: MemoryStore) -> None:
    store.remember(Candidate(text=FACT, kind="fact", by="user"))
    need = _ref_and_text_bytes(store)
    for args in (["--max-bytes", "0"], ["--max-bytes", "0", "--json"], ["--max-bytes", str(need - 1)]):
        done = _memrepo("--repo", str(store.root), "recall", "gauge", *args)
        budget = args[1]
        assert done.returncode == 1, done.stderr
        assert done.stdout == ""
        assert done.stderr == (
            f"memrepo: memory matches 'gauge', but no hit fits in --max-bytes {budget} "
            f"(the best needs {need} bytes): raise --max-bytes\n"
        )
    fits = _memrepo("--repo", str(store.root), "recall", "gauge", "--max-bytes", str(need), "--json")
    assert fits.returncode == 0 and json.loads(fits.stdout)["text"].startswith("The boiler room gauge")


def test_no_match_under_a_zero_budget_still_says_no_memory_matches(store: MemoryStore) -> None:
    store.remember(Candidate(text=FACT, kind="fact", by="user"))
    done = _memrepo("--repo", str(store.root), "recall", "nothinglikethis", "--max-bytes", "0")
    assert (done.returncode, done.stderr) == (1, "memrepo: no memory matches 'nothinglikethis'\n")


def test_the_click_command_says_the_same_line(store: MemoryStore) -> None:
    store.remember(Candidate(text=FACT, kind="fact", by="user"))
    need = _ref_and_text_bytes(store)
    quick = _memrepo("--repo", str(store.root), "recall", "gauge", "--max-bytes", "0", "--full")
    result = CliRunner().invoke(main, ["--repo", str(store.root), "recall", "gauge", "--max-bytes", "0", "--full"])
    assert result.exit_code == 1 == quick.returncode
    assert result.stderr == quick.stderr
    assert f"the best needs {need} bytes" in result.stderr
