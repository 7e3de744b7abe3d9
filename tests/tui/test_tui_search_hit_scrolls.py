"""Opening a search hit scrolls the Entries list to the highlighted entry at 80x24 (breaker29 B29-3).

Before: ``/``, a query, Enter on a hit far down a file opened it with the cursor on the hit's entry, but the
Entries box still showed its first rows: the entry that ``d`` or ``P`` would act on was off-screen.
"""

from __future__ import annotations

from pathlib import Path

from helpers.tui_helpers import RecordingApp, settle, wait_for
from test_tui_search_context import SIZE, repo, search  # noqa: F401  # repo: a fixture

from memrepo.tui.panes import FolderPane


async def test_the_entries_list_shows_the_opened_hit(repo: Path) -> None:  # noqa: F811
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await search(pilot, "staging cluster")
        assert (screen.hits[0].path, screen.hits[0].line) == ("notes/deploy.md", 33)
        await pilot.press("enter")
        folder = app.main_screen.query_one(FolderPane)
        table = folder.table
        await wait_for(
            pilot,
            lambda: table.highlighted_entry is not None and table.highlighted_entry.line == 33,
            what="the entry cursor on line 33",
        )
        await settle(pilot)
        rows = table.scrollable_content_region.height - 1  # the header row stays put
        top = round(table.scroll_y)
        assert rows > 0 and top <= table.cursor_row < top + rows, (top, rows, table.cursor_row)
