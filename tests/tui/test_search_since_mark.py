"""The app's search screen shows the context block's mark on a user's line a newer agent line corrects
(docs/recall.md: every front end shows it after the hit's text; hook8 gave it to the CLI, MCP and the hook, and
left the search pane without it)."""

from __future__ import annotations

from memrepo.engine.models import RecallHit
from memrepo.tui.search import hit_label


def hit(since: int | None) -> RecallHit:
    return RecallHit(
        ref="repo:me.md#L5", path="me.md", line=5, text="My editor is vim", by="user", meta={}, since=since
    )


def test_a_corrected_users_line_carries_the_blocks_mark() -> None:
    assert hit_label(hit(9)).plain == "me.md:5  My editor is vim (an agent line since says: L9)"


def test_a_line_nothing_corrects_has_no_mark() -> None:
    assert hit_label(hit(None)).plain == "me.md:5  My editor is vim"


def test_a_line_past_its_until_date_is_marked_past() -> None:
    """A line whose ``until:`` date is gone is left out of the block; the search pane says so (issue 30)."""
    past = RecallHit(
        ref="repo:me.md#L6",
        path="me.md",
        line=6,
        text="I'm on call the week of 2020-01-06",
        by="user",
        meta={"until": "2020-01-12"},
    )
    assert hit_label(past).plain == "me.md:6  I'm on call the week of 2020-01-06 (past: it held until 2020-01-12)"
