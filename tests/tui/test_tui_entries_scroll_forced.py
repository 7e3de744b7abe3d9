"""A row the program moves the cursor to is in view at once, before a layout pass gives the table its scrollbar.

CI (stop 52) failed ``test_slash_searches_from_any_pane_and_enter_jumps_to_the_entry[4]``: a search hit on line 33
opened its 31-entry file with the cursor on the hit and the list still at its first rows. Textual allows a scroll
only once a layout pass has shown the scrollbar; rows just shown have none, so the scroll did nothing, and on a
loaded machine the one retry after the next refresh came before that pass too.
"""

from __future__ import annotations

from pathlib import Path

from helpers.tui_helpers import EXAMPLE_FILES, build_repo, settle

from memrepo.tui.app import MemrepoApp
from memrepo.tui.widgets.entry_table import EntryTable

LONG = "# Long\n\n" + "".join(f"- Note number {i} [by: user; added: 2025-01-01]\n" for i in range(40))


async def test_a_cursor_moved_onto_rows_just_shown_is_scrolled_into_view_at_once(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "long.md": LONG})
    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.main_screen.query_one(EntryTable)
        assert table.row_count < 10  # the entry point: no scrollbar yet
        view = await app.repo.read_file("long.md")
        # Both in one go, as the Files pane does with a search hit: no layout pass between them.
        table.show_entries(view.entries)
        table.move_cursor(39)
        rows = table.scrollable_content_region.height - 1
        assert rows > 0
        assert round(table.scroll_y) == 39 - rows + 1, (round(table.scroll_y), rows)
        await settle(pilot)
        top = round(table.scroll_y)
        assert top <= table.cursor_row < top + rows
