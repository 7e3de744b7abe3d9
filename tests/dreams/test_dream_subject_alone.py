"""A shared ``subject:`` alone never makes a rules dream delete or replace a line (docs/dreams.md, B28-7).

Two lines about one subject may both be true: the dream needs words that relate them (a ``supersedes:``
naming the older, or topic words shared and a change word, "X, not Y" or the same label), while the context
block still hides the older line of a subject (docs/architecture.md §4).
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers.dream_helpers import make_repo

from memrepo.engine.dreams.input import build_input
from memrepo.engine.dreams.providers import RulesProvider
from memrepo.engine.format import entries as fmt
from memrepo.engine.read.contextselect import candidates, replaced


def _rules_ops(repo_path: Path, files: dict[str, str]) -> tuple[object, list[dict]]:
    store = make_repo(repo_path, files)
    din = build_input(repo_path, [p for p, _ in store.list_files()], [])
    return din, json.loads(RulesProvider().propose(din).text)["operations"]


def _touching(din, ops: list[dict], *texts: str) -> list[dict]:
    """The operations that name a line whose text is one of ``texts``."""
    out = []
    for op in ops:
        aliases = [op.get("line"), op.get("keep"), *op.get("lines", [])]
        if any(a in din.lines and din.lines[a].text in texts for a in aliases):
            out.append(op)
    return out


UNRELATED = (
    "Team runs feature flags for risky changes for ci (item 40020)",
    "Team owns pnpm over npm for search (item 40026)",
)


def test_two_unrelated_lines_of_one_subject_make_no_operation(repo_path: Path) -> None:
    """breaker26 B26-9, B28-7: lines sharing only ``subject: auth`` were proposed as replaced ("nothing else relates
    them")."""
    files = {
        "notes.md": "# Notes\n\n"
        f"- {UNRELATED[0]} [by: agent; added: 2025-01-02; subject: auth]\n"
        f"- {UNRELATED[1]} [by: agent; added: 2025-03-04; subject: auth]\n"
    }
    din, ops = _rules_ops(repo_path, files)
    assert _touching(din, ops, *UNRELATED) == []


def test_the_context_block_still_hides_the_older_line_of_a_subject() -> None:
    """The block's rule: the same subject replaces there, unless an id tells the lines apart (round 20: the lines of
    two items); the dream's words-only rule leaves both."""
    texts = [text.rsplit(" (item", 1)[0] for text in UNRELATED[:2]]
    lines = [
        (3, fmt.Entry("", "-", texts[0], {"by": "agent", "added": "2025-01-02", "subject": "auth"})),
        (4, fmt.Entry("", "-", texts[1], {"by": "agent", "added": "2025-03-04", "subject": "auth"})),
    ]
    assert replaced(candidates(lines)) == {3: 4}
    assert replaced(candidates(lines), subjects=False) == {}
    items = [(n, fmt.Entry("", "-", text, e.meta)) for (n, e), text in zip(lines, UNRELATED[:2], strict=True)]
    assert replaced(candidates(items)) == {}


def test_lines_of_one_subject_whose_words_say_it_changed_are_a_replacement(repo_path: Path) -> None:
    old, new = "The deploy window is Tuesday", "The deploy window is now Thursday"
    files = {
        "notes.md": "# Notes\n\n"
        f"- {old} [by: agent; added: 2025-01-02; subject: deploy]\n"
        f"- {new} [by: agent; added: 2025-03-04; subject: deploy]\n"
    }
    din, ops = _rules_ops(repo_path, files)
    found = _touching(din, ops, old, new)
    assert len(found) == 1 and found[0]["relation"] == "replacement", ops
    assert din.lines[found[0]["line"]].text == old and din.lines[found[0]["keep"]].text == new
    assert "subject" not in found[0]["reason"]


def test_an_agents_subject_does_not_make_its_line_win_over_the_users(repo_path: Path) -> None:
    """Who stays of a replacement: the agent's newer line wins over the user's only when it gives a new value (other
    numbers, a change word, ``supersedes:``); a ``subject:`` says what it is about, not that it changed."""
    user, agent = "The deploy window is Tuesday", "The deploy window is Thursday"
    files = {
        "notes.md": "# Notes\n\n"
        f"- {user} [by: user; added: 2025-01-02]\n"
        f"- {agent} [by: agent; added: 2025-03-04; subject: deploy]\n"
    }
    din, ops = _rules_ops(repo_path, files)
    found = _touching(din, ops, user, agent)
    assert len(found) == 1 and found[0]["relation"] == "replacement", ops
    assert din.lines[found[0]["keep"]].text == user and din.lines[found[0]["line"]].text == agent
