"""The Inbox pane on an inbox.md it cannot read says so, as ``memrepo inbox`` does (breaker3 F30's app half).

Before: an inbox.md that is not UTF-8 (one byte \\xe9 written by a Latin-1 editor) showed as "Inbox is empty:
nothing waits for review" in the app, though entries wait in it; the CLI already says "cannot list the inbox".
"""

from __future__ import annotations

from pathlib import Path

from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for

from memrepo.tui.panes import InboxPane
from memrepo.tui.panes.inbox import EMPTY

SIZE = (80, 24)
WHY = "Cannot list the inbox: inbox.md is not UTF-8 text"


async def test_an_unreadable_inbox_is_not_shown_as_empty(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": b"# Inbox\n\n- caf\xe9 latte [by: agent; source: web]\n"})
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        inbox = app.main_screen.query_one(InboxPane)
        await wait_for(pilot, lambda: str(inbox.note.render()).startswith(WHY))
        assert any(n.startswith(WHY) for n in app.notices)  # said once as the pane reads it
        assert str(inbox.table.border_title) == "Inbox ?"
        await pilot.press("a")  # a triage key says why, not "empty", and writes nothing
        await pilot.pause()
        assert app.notices[-1].startswith(WHY) and EMPTY not in app.notices
        assert (root / "inbox.md").read_bytes().count(b"caf\xe9") == 1

        (root / "inbox.md").write_text("# Inbox\n\n", encoding="utf-8")  # saved as UTF-8: empty, and said so
        inbox.load_inbox()
        await wait_for(pilot, lambda: str(inbox.note.render()) == EMPTY)
        assert str(inbox.table.border_title) == "Inbox 0"
