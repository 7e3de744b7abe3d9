"""The file tree of the Folder pane, built from the engine's file list.

The tree never reads the filesystem: the pane hands it the paths from
``MemoryRepo.list_files()`` and :meth:`FileTree.set_files` applies only the
difference (added and removed nodes), so folds and the cursor survive live
updates on a 2,000-file repo. A folder's files get their nodes when the
folder is first unfolded: a Textual node costs about 80 µs to add, so the
first fill of a 20,000-file repo no longer holds the screen for 1.6 s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ..plain import clean

INBOX = "inbox.md"
"""The untrusted inbox (docs/architecture.md §2), drawn in the ``$untrusted`` colour."""

ARCHIVED = "archived"
"""Archived workspace files: kept apart, last at the top level, dimmed and labelled."""

ARCHIVED_LABEL = " (hidden)"
"""Drawn after the ``archived`` folder's name and count: hidden from agents (not in context or recall)."""

_TOGGLE = Style.from_meta({"toggle": True})
"""Clicking a folder's marker folds it (the meta Textual's Tree looks for)."""

EXPAND_ALL_UP_TO = 200
"""Repos with at most this many files start with every folder open."""


@dataclass(frozen=True, slots=True)
class TreeItem:
    """What a tree node stands for.

    Attributes:
        path: repo-relative path (``""`` for the root, no trailing ``/`` for folders).
        is_file: a file (True) or a folder.
    """

    path: str
    is_file: bool


def _split(path: str) -> tuple[str, str]:
    folder, _, name = path.rpartition("/")
    return folder, name


def _sort_key(path: str, is_file: bool) -> tuple[bool, str]:
    """Siblings by name, except that the top-level ``archived`` folder comes after every other folder."""
    return (not is_file and path == ARCHIVED, _split(path)[1])


def is_archived(path: str) -> bool:
    """True for the ``archived`` folder and everything under it."""
    return path == ARCHIVED or path.startswith(ARCHIVED + "/")


class FileTree(Tree[TreeItem], inherit_bindings=False):
    """Every file of the memory repo, files before folders at each level."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Next file", id="tree.down", show=False),
        Binding("up,k", "cursor_up", "Previous file", id="tree.up", show=False),
        Binding("pagedown", "page_down", "Page down", id="tree.page-down", show=False),
        Binding("pageup", "page_up", "Page up", id="tree.page-up", show=False),
        Binding("home,g", "scroll_home", "First file", id="tree.first", show=False),
        Binding("end,G", "scroll_end", "Last file", id="tree.last", show=False),
        Binding("enter", "select_cursor", "Open", id="tree.open"),
        Binding("left,h", "cursor_parent", "Go to the parent folder", id="tree.left", show=False),
    ]
    """Keys of the file tree (``enter`` on a folder folds or unfolds it)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "file-tree--untrusted",
        "file-tree--count",
        "file-tree--changed",
        "file-tree--archived",
    }
    """
    | Class | Description |
    | :- | :- |
    | `file-tree--untrusted` | The inbox file's name. |
    | `file-tree--count` | The file count after a folder's name. |
    | `file-tree--changed` | The mark after a file changed by hand (not committed yet). |
    | `file-tree--archived` | The ``archived/`` folder and everything in it. |
    """

    CHANGED_MARK = " ●"
    """Drawn after a file changed by hand."""

    ICON_NODE = "▸ "
    ICON_NODE_EXPANDED = "▾ "

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        """Create an empty tree; fill it with :meth:`set_files`.

        Args:
            id: the widget id.
            classes: CSS classes.
        """
        # Set before Tree.__init__, which may already draw labels.
        self._counts: dict[str, int] = {}
        self._changed: frozenset[str] = frozenset()
        super().__init__("memory", TreeItem("", False), id=id, classes=classes)
        self.show_root = False
        self.guide_depth = 2
        self._files: dict[str, TreeNode[TreeItem] | None] = {}
        """Every file shown; None until its folder is first unfolded (no node yet)."""
        self._folders: dict[str, TreeNode[TreeItem]] = {"": self.root}
        self._filled: set[str] = {""}
        """Folders whose files have nodes (unfolded at least once)."""

    # -- contents ------------------------------------------------------

    @property
    def paths(self) -> list[str]:
        """The file paths shown, sorted."""
        return sorted(self._files)

    @property
    def changed(self) -> frozenset[str]:
        """The files marked as changed by hand."""
        return self._changed

    def set_files(self, paths: Iterable[str]) -> bool:
        """Show exactly these files, adding and removing only what differs.

        On the first call of a repo with at most :data:`EXPAND_ALL_UP_TO`
        files every folder starts open; later calls keep the folds.

        Args:
            paths: repo-relative ``/`` paths of every file.

        Returns:
            bool: True when a file was added or removed.
        """
        wanted = set(paths)
        first = not self._files
        gone = [p for p in self._files if p not in wanted]
        new = sorted(p for p in wanted if p not in self._files)
        if not gone and not new:
            return False
        expand = first and len(wanted) <= EXPAND_ALL_UP_TO
        for path in gone:
            self._remove_file(path)
        for path in new:
            self._add_file(path, expand)
        self._recount()
        if gone:
            self._prune()
        return True

    def _add_file(self, path: str, expand: bool) -> None:
        folder, name = _split(path)
        parent = self._folder_node(folder, expand)
        if folder not in self._filled and not expand:
            self._files[path] = None  # its node is made when the folder is unfolded
            return
        self._filled.add(folder)
        self._files[path] = self._add_leaf(parent, path, name)

    def _add_leaf(self, parent: TreeNode[TreeItem], path: str, name: str) -> TreeNode[TreeItem]:
        index = self._insert_position(parent, name, is_file=True)
        before = index if index < len(parent.children) else None
        return parent.add_leaf(Text(clean(name)), TreeItem(path, True), before=before)

    def _fill(self, folder: str) -> None:
        """Give the files of ``folder`` their nodes (it is being unfolded or a file in it selected)."""
        if folder in self._filled:
            return
        self._filled.add(folder)
        parent = self._folders[folder]
        prefix = f"{folder}/"
        for path in sorted(p for p, node in self._files.items() if node is None and _split(p)[0] == folder):
            self._files[path] = self._add_leaf(parent, path, path[len(prefix) :])

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[TreeItem]) -> None:
        item = event.node.data
        if item is not None and not item.is_file:
            self._fill(item.path)

    def _folder_node(self, folder: str, expand: bool) -> TreeNode[TreeItem]:
        node = self._folders.get(folder)
        if node is not None:
            return node
        above, name = _split(folder)
        parent = self._folder_node(above, expand)
        index = self._insert_position(parent, name, is_file=False)
        before = index if index < len(parent.children) else None
        node = parent.add(Text(clean(name)), TreeItem(folder, False), before=before, expand=expand)
        self._folders[folder] = node
        return node

    @staticmethod
    def _insert_position(parent: TreeNode[TreeItem], name: str, is_file: bool) -> int:
        """The child index where a new node goes: files first, then folders, each by name.

        Scans from the end, so adding in sorted order (the first fill of a
        2,000-file repo) costs one step per node, not one per sibling.
        """
        children = parent.children
        above = parent.data.path if parent.data is not None else ""
        key = _sort_key(f"{above}/{name}" if above else name, is_file)
        for index in range(len(children) - 1, -1, -1):
            item = children[index].data
            assert item is not None
            if item.is_file != is_file:
                if is_file:
                    continue  # a file goes before every folder
                return index + 1  # a folder goes after the last file
            if _sort_key(item.path, item.is_file) < key:
                return index + 1
        return 0

    def _remove_file(self, path: str) -> None:
        node = self._files.pop(path)
        if node is not None:
            node.remove()

    def _prune(self) -> None:
        """Remove the folders that hold no file any more (deepest first), after :meth:`_recount`."""
        for folder in sorted(self._folders, key=lambda f: f.count("/"), reverse=True):
            if folder and not self._counts.get(folder):
                node = self._folders.pop(folder)
                self._filled.discard(folder)
                if node.parent is not None and node in node.parent.children:
                    node.remove()

    def _recount(self) -> None:
        counts: dict[str, int] = {}
        for path in self._files:
            folder = _split(path)[0]
            while folder:
                counts[folder] = counts.get(folder, 0) + 1
                folder = _split(folder)[0]
        self._counts = counts
        self.refresh()

    def set_changed(self, paths: Iterable[str]) -> None:
        """Mark the files changed by hand (from the repo status); others lose the mark.

        Args:
            paths: repo-relative paths changed since the last commit.
        """
        changed = frozenset(paths)
        flipped = changed ^ self._changed
        self._changed = changed
        for path in flipped:
            node = self._files.get(path)
            if node is not None:
                node.refresh()  # redraws that one line with or without the mark

    # -- cursor --------------------------------------------------------

    def select_path(self, path: str) -> bool:
        """Move the cursor to a file, unfolding the folders above it.

        Args:
            path: a repo-relative file path.

        Returns:
            bool: False when the tree holds no such file.
        """
        if path not in self._files:
            return False
        folder = _split(path)[0]
        self._fill(folder)
        node = self._files[path]
        assert node is not None
        parent = node.parent
        while parent is not None and parent is not self.root:
            parent.expand()
            parent = parent.parent
        _ = self.last_line  # rebuild the lines so the node knows its line number
        self.move_cursor(node)
        return True

    @property
    def cursor_item(self) -> TreeItem | None:
        """What the cursor is on, or None for an empty tree.

        Up to date right after :meth:`set_files`, even when the node under the
        cursor was just removed (the cursor then sits on its neighbour).
        """
        _ = self.last_line  # rebuild the lines, which moves a stale cursor
        node = self.cursor_node
        return None if node is None else node.data

    # -- drawing -------------------------------------------------------

    def render_label(self, node: TreeNode[TreeItem], base_style: Style, style: Style) -> Text:
        """Draw a node: a fold marker for folders with their file count, the inbox coloured.

        Args:
            node: the node.
            base_style: the widget's base style.
            style: the extra style for this line (cursor, hover).

        Returns:
            Text: the line's label.
        """
        item = node.data
        label = Text(node.label) if isinstance(node.label, str) else node.label.copy()
        if item is not None and item.is_file and item.path == INBOX:
            label.stylize(self.get_component_rich_style("file-tree--untrusted", partial=True))
        if item is not None and not item.is_file and item.path:
            count = self._counts.get(item.path, 0)
            label.append(f" {count}", self.get_component_rich_style("file-tree--count", partial=True))
        if item is not None and is_archived(item.path):
            label.stylize(self.get_component_rich_style("file-tree--archived", partial=True))
            if item.path == ARCHIVED:
                label.append(ARCHIVED_LABEL, self.get_component_rich_style("file-tree--archived", partial=True))
        if item is not None and item.path in self._changed:
            label.append(self.CHANGED_MARK, self.get_component_rich_style("file-tree--changed", partial=True))
        label.stylize(style)
        if node.allow_expand:
            icon = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
            return Text.assemble((icon, base_style + _TOGGLE), label)
        return Text.assemble(("  ", base_style), label)
