"""recallnewer.may_change: the cheap test that spares recall the context block's rule never hides a replacement or an
agent's correction (engine/read/recallnewer.py).

The rule costs 15-30 ms a file of 40 entries; recall now asks it for every hit (the block's mark, breaker7 B7-18), so
a hit no newer line can relate to skips it. The test must be a necessary condition: whatever the rule finds, it lets
through.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.read.contextselect import topic_terms, topic_words
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.recallnewer import disputed_in, may_change, replaced_in

LINES = [
    "My editor is vim [by: user; added: 2026-01-02]",
    "Prefers dark themes [by: user; added: 2026-01-02]",
    "Deploy window is Tuesday [by: user; added: 2026-01-03]",
    "Staging DB host is pg-stage-3 [by: user; added: 2026-01-03]",
    "Shop backend runs on Postgres 14 [by: user; added: 2026-01-03]",
    "Team standup is at 9:30 [by: user; added: 2026-01-03]",
    "On-call paging uses PagerDuty [by: user; added: 2026-01-03; subject: paging]",
    "Lunch is at noon [by: user; added: 2026-01-03]",
    "The user switched from vim to Helix [by: agent; added: 2026-01-04]",
    "The deploy window is Thursday, not Tuesday [by: user; added: 2026-01-04]",
    "Scratch that: the staging DB host is pg-stage-9 now [by: user; added: 2026-01-04]",
    "Shop backend is now on Postgres 15 [by: agent; added: 2026-01-04]",
    "Standup moved to 10:00 [by: agent; added: 2026-01-05; supersedes: Team standup is at 9:30]",
    "On-call paging uses Opsgenie [by: agent; added: 2026-01-05; subject: paging]",
    "The user likes Helix keybindings [by: agent; added: 2026-01-05]",
]


def test_what_the_rule_relates_always_passes_and_an_unrelated_line_is_spared(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    (root / "me.md").write_text("".join(f"- {line}\n" for line in LINES), encoding="utf-8")
    index = RecallIndex(root)
    try:
        index.sync()
        entries = index.file_entries("me.md")
    finally:
        index.close()
    text = {iid: row[1] for iid, row in entries.items()}
    replaced, disputed = replaced_in(entries), disputed_in(entries)
    assert {text[i] for i in disputed} >= {"My editor is vim", "Team standup is at 9:30"}
    assert {text[i] for i in replaced} >= {"Deploy window is Tuesday", "Staging DB host is pg-stage-3"}
    for iid in entries:
        assert may_change(entries, iid) or iid not in replaced, text[iid]
        assert may_change(entries, iid, True) or iid not in disputed, text[iid]
    spared = {text[i] for i in entries if not may_change(entries, i, True)}
    assert {"Prefers dark themes", "Lunch is at noon"} <= spared  # no newer agent line could correct these
    assert not may_change(entries, next(i for i in entries if text[i] == "Lunch is at noon"))
    assert not may_change(entries, next(i for i in entries if text[i] == "Prefers dark themes"))
    for iid in entries:  # the quick topic words are the rule's
        assert topic_words(text[iid]) == topic_terms(text[iid]).words
