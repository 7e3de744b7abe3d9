"""``memrepo recall``'s nearest entries obey ``-n`` and ``--max-bytes`` like answers (docs/architecture.md §4).

Breaker2 found ``-n 1`` listing every nearest entry (up to 3), and ``--max-bytes`` too small for the nearest
entry saying "no memory matches", though the same query with a larger budget lists one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

QUESTION = "what is the wifi password in Stockholm"
"""One weak word of six in memory: no confident answer, the entries holding "Stockholm" are the nearest."""
PROBE = "import sys; sys.argv = ['memrepo', *sys.argv[1:]]; from memrepo.cli import quick; quick.run()"


def _both(store: MemoryStore, *args: str) -> list[tuple[int, str, str]]:
    """(exit code, stdout, stderr) of the click command and of the quick path, for the same arguments."""
    clicked = CliRunner().invoke(main, ["--repo", str(store.root), "recall", *args])
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none")
    cmd = [sys.executable, "-c", PROBE, "--repo", str(store.root), "recall", *args]
    quick = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return [(clicked.exit_code, clicked.stdout, clicked.stderr), (quick.returncode, quick.stdout, quick.stderr)]


def _store(store: MemoryStore) -> MemoryStore:
    store.remember(Candidate(text="Works at Fjordline Labs in Stockholm", by="user"))
    store.remember(Candidate(text="The Stockholm office closes at six", by="user"))
    return store


def test_limit_caps_the_nearest_entries(store: MemoryStore) -> None:
    _store(store)
    for code, out, _err in _both(store, QUESTION):
        assert code == 1 and out.count("[nearest, not an answer]") == 2
    for code, out, _err in _both(store, QUESTION, "-n", "1"):
        assert code == 1 and out.count("[nearest, not an answer]") == 1, out
    for code, out, _err in _both(store, QUESTION, "-n", "1", "--json"):
        assert code == 1 and [json.loads(line)["answer"] for line in out.splitlines()] == [False]


def test_a_budget_too_small_for_the_nearest_entry_says_so(store: MemoryStore) -> None:
    _store(store)
    for code, out, err in _both(store, QUESTION, "--max-bytes", "10"):
        assert (code, out) == (1, "")
        assert "no memory matches" not in err
        assert "no entry answers" in err and "no nearest entry fits in --max-bytes 10" in err, err
    for code, out, err in _both(store, "quantum chromodynamics", "--max-bytes", "10"):
        assert (code, out) == (1, "") and "no memory matches" in err
