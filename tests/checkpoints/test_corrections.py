"""Which user statements correct a stored line, and where they belong (breaker6 B6-3, breaker7 B7-16).

Pure functions of text and entries (:mod:`memrepo.engine.checkpoints.corrections`); the labelled set is
``benchmarks/remember_phrasings/corrections.jsonl``. Precision first: a correction kept wrongly hides a true line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, corrects, supersedes, where

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_remember_phrasings as bench


def line(path: str, text: str, **meta: str) -> ExistingEntry:
    return ExistingEntry("E1", path, 3, text, "user", {"by": "user", "added": "2026-11-01", **meta})


def test_the_labelled_corrections_are_kept_without_a_wrong_store() -> None:
    result = bench.score_corrections(bench.load(bench.CORRECTIONS))
    assert result["false_stores"] == 0, result["misses"]
    assert result["precision"] == 1.0, result["misses"]
    assert result["recall"] >= 0.8, result["misses"]


def test_a_correction_of_a_me_md_line_is_global_a_workspace_lines_stays() -> None:
    shell = line("me.md", "My login shell is bash")
    window = line("workspaces/shop.md", "The deploy window is Tuesday")
    assert where("My login shell is now zsh, not bash", "/p/shop", [shell, window]) == ("global", shell)
    assert where("The deploy window is Thursday, not Tuesday", "/p/shop", [shell, window]) == ("workspace", window)
    assert where("I no longer use tmux; I use zellij", "/p/shop", [window]) == ("global", None)
    assert where("The CDN is Fastly", "/p/shop", [window]) == ("workspace", None)
    assert where("The CDN is Fastly", None, [window]) == ("global", None)


def test_the_user_line_wins_over_an_agents_line_as_the_corrected_one() -> None:
    agents = ExistingEntry("E2", "me.md", 4, "The user's login shell is bash", "agent", {"by": "agent"})
    users = line("me.md", "My login shell is bash")
    assert corrects("My login shell is now zsh, not bash", [agents, users]) is users


def test_a_version_alone_names_no_line_of_another_thing() -> None:
    db = line("workspaces/shop.md", "The shop DB runs on Postgres 15")
    assert corrects("The staging tests now run on Postgres 16 in CI", [db]) is None
    assert corrects("The shop DB is on Postgres 16 now", [db]) is db


def test_the_corrected_line_is_named_by_its_subject_or_a_piece_of_its_text() -> None:
    assert supersedes(line("me.md", "Editor: vim", subject="editor")) == ("editor", None)
    long = "Deploys go through the blue-green pipeline on the staging cluster every Tuesday [see runbook]"
    assert supersedes(line("me.md", long)) == (None, long.split("[")[0][:80].strip())
    assert supersedes(line("me.md", "[x] ok")) == (None, None)  # no piece of 8 characters


def test_only_statements_that_correct_and_say_so_are_kept() -> None:
    window = line("workspaces/shop.md", "The deploy window is Tuesday")
    said = ["No, the deploy window is Friday now. Can you fix the deploy window tests now?", "The tests now pass."]
    assert correction_statements(said, [window]) == ["the deploy window is Friday now"]
    assert correction_statements(said, []) == []
    asked = ["Remember that the deploy window is Friday now.", "Also remember: the deploy window is Monday now."]
    assert correction_statements(asked, [window]) == []  # requests to remember: user_statements gives them
