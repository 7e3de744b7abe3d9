"""The Folder pane keeps archived workspace files apart: last, dimmed, labelled, still browsable."""

from __future__ import annotations

from pathlib import Path

from helpers.tui_helpers import EXAMPLE_FILES, build_repo, settle
from rich.style import Style

from memrepo.tui.app import MemrepoApp
from memrepo.tui.panes import FolderPane
from memrepo.tui.widgets.entry_table import EntryTable
from memrepo.tui.widgets.file_tree import ARCHIVED_LABEL, FileTree

ARCHIVED_FILE = "archived/workspaces/old-app.md"
FILES = {
    **EXAMPLE_FILES,
    ARCHIVED_FILE: (
        "# Workspace old-app\n\n"
        "- Workspace old-app [workspace: ws-0f0f0f0f; path: /nowhere/old-app; by: user]\n"
        "- Old app shipped with Gradle [by: user; added: 2025-03-02; kind: fact]\n"
    ),
}


async def test_archived_folder_is_last_dimmed_labelled_and_browsable(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, FILES)
    app = MemrepoApp(root)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        tree = app.main_screen.query_one(FileTree)
        top_folders = [n.data.path for n in tree.root.children if n.data is not None and not n.data.is_file]
        assert top_folders == ["notes", "workspaces", "archived"]  # by name, archived set apart at the end
        node = next(n for n in tree.root.children if n.data is not None and n.data.path == "archived")
        label = tree.render_label(node, Style(), Style())
        assert label.plain.endswith("archived 1" + ARCHIVED_LABEL)
        dim = tree.get_component_rich_style("file-tree--archived", partial=True)
        assert any(span.style == dim for span in label.spans)
        other = next(n for n in tree.root.children if n.data is not None and n.data.path == "workspaces")
        assert ARCHIVED_LABEL not in tree.render_label(other, Style(), Style()).plain
        # Still browsable: opening the archived file shows its entries.
        pane = app.main_screen.query_one(FolderPane)
        pane.show_file(ARCHIVED_FILE)
        await settle(pilot)
        assert pane.open_file == ARCHIVED_FILE
        texts = [e.text for e in app.main_screen.query_one(EntryTable).entries]
        assert "Old app shipped with Gradle" in texts
        # The screen itself shows the label.
        assert "archived 1 (hidden)" in "\n".join(
            strip.text for strip in (tree.render_line(y) for y in range(tree.size.height))
        )
