"""The prompt hook's places go to current lines: a line that a newer line of the hook's list replaces gives its place
to the next hit (engine/read/recallnear.py ``newer_with``), and is shown under its replacement only when no other
hit is left.

On the tuning splits of benchmarks/recall_quality the hook's three places held pairs such as "Tax adviser is Frau
Krüger" under "Changed tax adviser to Herr Bäumer" and left the answer fourth ("do I add sales tax when billing a
client in France" -> the VAT line); an outdated line is still never shown alone (its replacement comes with it).
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.read import coldrecall

ME = (
    "# About me\n\n"
    "- Tax adviser is Frau Krüger at Kanzlei Krüger [added: 2024-10-06]\n"
    "- Changed tax adviser to Herr Bäumer at Steuerbüro Bäumer [supersedes: Tax adviser is Frau Krüger;"
    " added: 2025-03-31]\n"
    "- Ask the tax adviser before any invoice to a French client [added: 2025-04-02]\n"
)


def _root(tmp_path: Path, text: str = ME) -> Path:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    (root / "me.md").write_text(text, encoding="utf-8")
    return root


def test_the_replaced_line_gives_its_place_to_the_next_hit(tmp_path: Path) -> None:
    root = _root(tmp_path)
    every = [h.text for h in coldrecall.recall(root, "tax adviser Krüger", limit=5)]
    assert len(every) == 3, every  # all three hold the question
    hook = [h.text for h in coldrecall.recall(root, "tax adviser Krüger", limit=2, quick=True)]
    assert "Changed tax adviser to Herr Bäumer at Steuerbüro Bäumer" in hook, hook
    assert hook == [t for t in every if "Frau Krüger at" not in t][:2], hook


def test_the_replaced_line_is_shown_under_its_replacement_when_a_place_is_left(tmp_path: Path) -> None:
    root = _root(tmp_path)
    hook = [h.text for h in coldrecall.recall(root, "tax adviser Krüger", limit=3, quick=True)]
    assert hook[-1] == "Tax adviser is Frau Krüger at Kanzlei Krüger", hook
    assert hook.index("Changed tax adviser to Herr Bäumer at Steuerbüro Bäumer") < 2, hook


def test_an_outdated_line_is_never_shown_alone(tmp_path: Path) -> None:
    root = _root(tmp_path)
    hook = [h.text for h in coldrecall.recall(root, "Frau Krüger Kanzlei", limit=1, quick=True)]
    assert hook == ["Changed tax adviser to Herr Bäumer at Steuerbüro Bäumer"], hook


STACK = (
    "# Route planner\n\n"
    "- route-planner is a Go 1.22 service that solves vehicle routing with Google OR-Tools through a C++ sidecar"
    " [added: 2025-01-08]\n"
    "- route-planner moved to Go 1.23 in May [added: 2025-05-12]\n"
    "- The metrics sidecar ships the planner's logs to Loki [added: 2025-02-01]\n"
    "- Build tools for the planner: make and goreleaser [added: 2025-02-03]\n"
)


def test_a_line_replaced_for_another_fact_keeps_its_place_for_a_question_its_replacement_does_not_hold(
    tmp_path: Path,
) -> None:
    root = _root(tmp_path, STACK)
    every = [h.text for h in coldrecall.recall(root, "OR-Tools sidecar", limit=5)]
    assert len(every) >= 3, every  # other lines hold a word of the question: places are contested
    hook = [h.text for h in coldrecall.recall(root, "OR-Tools sidecar", limit=2, quick=True)]
    assert hook == ["route-planner moved to Go 1.23 in May", STACK.splitlines()[2][2:].split(" [")[0]], hook
