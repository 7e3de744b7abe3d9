"""The file tree of a large repo: a folder's files get their nodes when it is first unfolded, and read the same."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from memrepo.tui.widgets.file_tree import EXPAND_ALL_UP_TO, FileTree

BIG = sorted(
    ["MEMORY.md", "me.md"]
    + [f"topics/t{n:03}.md" for n in range(EXPAND_ALL_UP_TO)]
    + [f"topics/deep/d{n}.md" for n in range(3)]
    + [f"workspaces/w{n:03}.md" for n in range(50)]
)


class TreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield FileTree(id="tree")


@asynccontextmanager
async def big_tree() -> AsyncIterator[tuple[Pilot, FileTree]]:
    """A running app whose tree shows :data:`BIG` (folded: more than EXPAND_ALL_UP_TO files)."""
    app = TreeApp()
    async with app.run_test(size=(60, 30)) as pilot:
        tree = app.query_one(FileTree)
        tree.set_files(BIG)
        await pilot.pause()
        yield pilot, tree


def labels(node) -> list[str]:
    return [str(child.label) for child in node.children]


def folder(tree: FileTree, name: str):
    return next(child for child in tree.root.children if child.data.path == name)


async def test_a_folder_s_files_appear_sorted_when_it_is_unfolded_from_the_keyboard() -> None:
    async with big_tree() as (pilot, tree):
        assert tree.paths == BIG
        topics = folder(tree, "topics")
        assert not topics.is_expanded
        assert labels(topics) == ["deep"]  # a folder's node exists at once; its files wait
        assert "topics 203" in str(tree.render_label(topics, tree.rich_style, tree.rich_style))
        tree.focus()
        tree.move_cursor(topics)
        await pilot.press("enter")
        await pilot.pause()
        assert topics.is_expanded
        assert labels(topics) == [f"t{n:03}.md" for n in range(EXPAND_ALL_UP_TO)] + ["deep"]  # files before folders
        await pilot.press("j")
        assert tree.cursor_item is not None and tree.cursor_item.path == "topics/t000.md"


async def test_selecting_a_file_in_a_folder_never_unfolded_gives_it_a_node_and_the_cursor() -> None:
    async with big_tree() as (_pilot, tree):
        assert tree.select_path("workspaces/w042.md")
        assert tree.cursor_item is not None and tree.cursor_item.path == "workspaces/w042.md"
        assert folder(tree, "workspaces").is_expanded
        assert not tree.select_path("workspaces/nothing.md")


async def test_files_removed_from_a_folder_never_unfolded_update_its_count_and_an_emptied_folder_goes() -> None:
    async with big_tree() as (pilot, tree):
        fewer = [p for p in BIG if not p.startswith("workspaces/") and p != "topics/t000.md"]
        assert tree.set_files(fewer)
        await pilot.pause()
        assert tree.paths == fewer
        assert [c.data.path for c in tree.root.children] == ["MEMORY.md", "me.md", "topics"]
        assert "topics 202" in str(tree.render_label(folder(tree, "topics"), tree.rich_style, tree.rich_style))
        again = [*fewer, "workspaces/new.md"]
        tree.set_files(again)
        assert tree.select_path("workspaces/new.md")
        assert labels(folder(tree, "workspaces")) == ["new.md"]
