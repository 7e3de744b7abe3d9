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
