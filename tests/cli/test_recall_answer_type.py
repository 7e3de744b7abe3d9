"""``memrepo recall`` on a "how many" question whose best line holds no number (rec10): no answer, plain and
``--json`` alike (exit 1, the nearest entries marked as not an answer; docs/recall.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

LINES = (
    "Tomás Okafor works at Parcelwise as a backend developer",
    "The invoice number goes in the subject line",
    "Standup is at 10:00 on Mondays",
)
QUESTION = "how many people work at Parcelwise"
PROBE = "import sys; sys.argv = ['memrepo', *sys.argv[1:]]; from memrepo.cli import quick; quick.run()"


def _both(store: MemoryStore, *args: str) -> list[tuple[int, str, str]]:
    """(exit code, stdout, stderr) of the click command and of the quick path, for the same arguments."""
    clicked = CliRunner().invoke(main, ["--repo", str(store.root), "recall", *args])
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none")
    cmd = [sys.executable, "-c", PROBE, "--repo", str(store.root), "recall", *args]
    quick = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return [(clicked.exit_code, clicked.stdout, clicked.stderr), (quick.returncode, quick.stdout, quick.stderr)]


def test_plain_and_json_agree_that_nothing_answers(store: MemoryStore) -> None:
    for text in LINES:
        store.remember(Candidate(text=text, by="user"))
    for code, out, _err in _both(store, QUESTION):
        assert code == 1 and "[nearest, not an answer]" in out, out
    for code, out, _err in _both(store, QUESTION, "--json"):
        assert code == 1 and out and not any(json.loads(line)["answer"] for line in out.splitlines()), out
    for code, out, _err in _both(store, "who works at Parcelwise as a backend developer", "--json"):
        assert code == 0 and json.loads(out.splitlines()[0])["answer"] is True, out
