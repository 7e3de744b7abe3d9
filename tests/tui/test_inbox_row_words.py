"""What an inbox row and its detail say of the user's own requests (breaker31 B31-11), read without an app.

A forget request was listed by the line's own text, so accepting down the list deleted memories the user believed
they kept; a correction that leaves part of the line out ("I use Helix now" for "I use Vim as my editor") was
explained as one that "says more than the new value".
"""

from __future__ import annotations

from memrepo.engine.models import EntryView
from memrepo.tui.widgets.entry_detail import inbox_row_text, provenance

LINE = "I really can't stand emoji in commit messages"


def _inbox(text: str, **meta: str) -> EntryView:
    return EntryView(ref="repo:inbox.md#L5", path="inbox.md", line=5, text=text, by="user", meta={"by": "user", **meta})


def test_a_forget_request_row_says_forget() -> None:
    assert inbox_row_text(_inbox(LINE, forgets="me.md")) == f"Forget: {LINE}"
    assert inbox_row_text(_inbox("I use  Helix\tnow", corrects="me.md")) == "I use Helix now"  # a correction: its text


def test_a_correction_that_leaves_part_out_is_not_said_to_say_more() -> None:
    said = " ".join(provenance(_inbox("I use Helix now", corrects="me.md", supersedes="I use Vim as my editor")))
    assert "says more than the new value" not in said
    assert "leaves part of the line out" in said and "replaces I use Vim as my editor (in me.md)" in said
