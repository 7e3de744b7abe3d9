"""The Files pane's Entries list says which lines the context block hides or keeps in part (breaker31 B31-11).

"I use Vim as my editor" was listed like any other line while the block hid it as replaced; the marks come from the
engine (:func:`memrepo.engine.block_marks`), the block's own rule.
"""

from __future__ import annotations

from pathlib import Path

from helpers.tui_helpers import EXAMPLE_FILES, build_repo, settle

from memrepo.tui.app import MemrepoApp
from memrepo.tui.panes import FolderPane
from memrepo.tui.widgets.entry_table import EntryTable

ME = (
    "# Me\n\n"
    "- I use Vim as my editor [by: user; added: 2026-05-04]\n"
    "- I use Helix now, not Vim [by: user; added: 2026-05-20; supersedes: I use Vim as my editor]\n"
    "- My timezone is CET [by: user; added: 2026-05-04]\n"
)


async def test_the_entries_list_marks_a_line_the_block_hides(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "me.md": ME})
    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(pilot)
        app.main_screen.query_one(FolderPane).show_file("me.md")
        await settle(pilot)
        table = app.main_screen.query_one(EntryTable)
        rows = [table.row_text(row) for row in range(table.row_count)]
        assert rows[0].startswith(" (replaced by L4) I use Vim as my editor"), rows
        assert rows[1].startswith(" I use Helix now, not Vim "), rows
        assert rows[2].startswith(" My timezone is CET "), rows
