"""The Folder pane: the file tree, the open file's entries, and its raw text.

Everything comes from the engine's public API: ``list_files()`` for the tree,
``read_file()`` for the entries and the text. Live updates refresh only what
a change touched: the tree when files came or went, the open file when its
text changed. A big hand-made file shows every entry (the table draws only
what is on screen) and the first :data:`~memrepo.tui.widgets.preview.PREVIEW_MAX` of
its text.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.widgets import Tree

from memrepo.engine import block_marks

from ..plain import clean
from ..widgets.entry_detail import EntryScreen
from ..widgets.entry_table import EntryTable
from ..widgets.file_tree import FileTree, TreeItem
from ..widgets.preview import PREVIEW_MAX, FilePreview, PreviewText, preview_head
from .base import Pane
from .folderwrites import FolderWrites

if TYPE_CHECKING:
    from memrepo.engine.models import RepoStatus

ENTRY_POINT = "MEMORY.md"
"""The file opened first (docs/architecture.md §2)."""

FOLDER_NOTE_FILES = 200
"""A folder's note lists at most this many files."""

WIDE_AT = 150
"""From this many columns the preview sits beside the entries instead of under them."""


def human_size(size: int) -> str:
    """A byte count for people: ``812 B``, ``4.1 KB``, ``2.3 MB``.

    Args:
        size: bytes.

    Returns:
        str: the size with one decimal above a kilobyte.
    """
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


EMPTY_ENTRIES = [
    "No entries in this file yet.",
    "Add one: press +, or e to write it in",
    '$EDITOR, or memrepo remember "TEXT".',
    "Agents add theirs once connected:",
    "memrepo setup claude-code --write",
    "or setup codex --write (docs/agents.md)",
]
"""What an empty memory file's Entries box says (a new repo's files all start empty)."""

EMPTY_PINS = [
    "No pins yet: they are in every session's context.",
    "Pin: press + here, or P on one of your lines",
    'in me.md, or memrepo remember --pin "TEXT".',
    "Agents write the other files once connected:",
    "memrepo setup claude-code --write",
    "or setup codex --write (docs/agents.md)",
]
"""What an empty MEMORY.md's Entries box says: it holds pins, the first screen a new user sees (B14-14); both agents'
setup commands, a Codex user was sent to Claude Code's alone (breaker30 B30-6)."""


class FolderPane(FolderWrites, Pane):
    """Browse the memory folder: tree, entries with provenance, preview; live."""

    PANE_ID = "folder"
    PANE_TITLE = "Files"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "e",
            "edit",
            "Edit in $EDITOR",
            id="folder.edit",
            tooltip="Open the file at the highlighted entry's line in $EDITOR; the edit is committed as a hand edit",
        ),
        Binding(
            "plus",
            "add",
            "Add",
            id="folder.add",
            tooltip="Remember a line of your own, typed in a box: into the open file's place (MEMORY.md pins it)",
        ),
        Binding(
            "d",
            "forget",
            "Forget entry",
            id="folder.discard",
            tooltip="Remove the highlighted entry in a commit, after a y/n question",
        ),
        Binding(
            "P",
            "pin",
            "Pin",
            id="folder.pin",
            tooltip="Pin your highlighted entry (MEMORY.md: in every session's context) or, in MEMORY.md, unpin it",
        ),
        Binding(
            "z", "zoom", "Zoom", id="folder.zoom", tooltip="Fill the screen with the focused box; z or esc to go back"
        ),
    ]
    """Keys of the Folder pane, whatever has focus inside it."""

    def __init__(self) -> None:
        """Create the pane; it loads once the app attaches the repo."""
        super().__init__()
        self._sizes: dict[str, int] = {}
        self._open_file: str | None = None
        self._pending: set[str] = set()
        self._read_live: set[str] = set()  # changed paths read again ahead of the file list (work_tree_changed)
        self._full_list = True
        self._loaded = False
        self._wanted: str | None = None
        self._wanted_line: int | None = None
        self._shown_text: str | None = None

    def compose(self) -> ComposeResult:
        """Yield the tree on the left, entries and preview on the right."""
        tree = FileTree(id="folder-tree")
        tree.border_title = "Files"
        yield tree
        with Container(id="folder-right"):
            table = EntryTable(id="folder-entries")
            table.border_title = "Entries"
            yield table
            yield FilePreview(id="folder-preview")

    # -- state ---------------------------------------------------------

    @property
    def entries_hint(self) -> str:
        """What the Entries box says while the open file has no entry ("" when it has some)."""
        return "" if self.table.row_count else "\n".join(self.table.empty_text)

    @property
    def files(self) -> dict[str, int]:
        """Every file of the repo with its size, as last listed."""
        return dict(self._sizes)

    @property
    def open_file(self) -> str | None:
        """The file whose entries and text are shown, or None."""
        return self._open_file

    @property
    def file_tree(self) -> FileTree:
        """The file tree (not ``tree``: that name is Textual's debug view of the DOM)."""
        return self.query_one(FileTree)

    @property
    def table(self) -> EntryTable:
        """The entries table."""
        return self.query_one(EntryTable)

    @property
    def preview(self) -> FilePreview:
        """The preview box."""
        return self.query_one(FilePreview)

    # -- Pane contract -------------------------------------------------

    def reload(self) -> None:
        """List every file again and re-read the open file."""
        if self._open_file is not None:
            self._reread(self._open_file)
        elif not self._loaded and self._wanted is None:
            # The entry point is what the first screen shows: read it before the walk, not after it
            # (the engine runs one call at a time, in the order asked).
            self._open_file = ENTRY_POINT
            self.read_file(ENTRY_POINT, early=True)
        self._full_list = True
        self.load_files()

    def work_tree_changed(self, paths: list[str]) -> None:
        """Look at ``paths`` again (not the whole tree); re-read the open file if it is among them.

        Args:
            paths: repo-relative paths changed on disk.
        """
        self._pending.update(paths)
        if self._loaded and self._open_file in paths:  # what is on screen first: one read, not after the list
            self._read_live.add(self._open_file)
            self.read_file(self._open_file, keep_position=True, live=True)
        self.load_files()

    def repo_status_changed(self, status: RepoStatus) -> None:
        """Mark the files changed by hand in the tree.

        Args:
            status: the repo status with its changed paths.
        """
        self.file_tree.set_changed(status.changed)

    def focus_default(self) -> None:
        """Focus the file tree."""
        self.file_tree.focus()

    def show_file(self, path: str, line: int | None = None) -> None:
        """Open a file and put the tree's cursor on it (command palette, links, search).

        Args:
            path: a repo-relative file path.
            line: a 1-based line: the entry cursor goes to the entry on it and
                the entries table gets the focus (a search hit).
        """
        self._wanted_line = line
        if line is not None and path == self._open_file and self._shown_text is not None:
            self._go_to_line(line)
            self.file_tree.select_path(path)
            return
        if not self._loaded:
            self._wanted = path
            return
        if path not in self._sizes:
            self.notify(f"No file {clean(path)} in the memory repo", severity="warning", markup=False)
            return
        self._open(path)
        self.file_tree.select_path(path)

    # -- workers -------------------------------------------------------

    @work(group="folder-files", exclusive=True, exit_on_error=False, description="Listing the memory files")
    async def load_files(self) -> None:
        """Update the tree: every file on the first load and on :meth:`reload`, else only the paths changed.

        A watcher's event names the paths; a stat of each says what the list
        holds of them now (:meth:`memrepo.engine.repo.store.MemoryStore.file_sizes`),
        so a hand edit on a 20,000-file repo walks no folder on the event
        loop's behalf. A folder that came or went is listed whole. A newer
        call cancels this one before it applies anything, and its paths stay
        pending for the next.
        """
        if self.repo is None:
            return
        files = None
        if self._loaded and not self._full_list:
            files = self._merged(await self.repo.file_sizes(sorted(self._pending)))
        if files is None:
            files = await self.repo.list_files()
        self._full_list = False
        changed, self._pending = self._pending, set()
        self._apply_files(files, changed)
        self._read_live.difference_update(changed)

    def _merged(self, sizes: dict[str, int | None] | None) -> list[tuple[str, int]] | None:
        """The file list as last listed, with ``sizes`` applied; None when only a walk can tell (a folder)."""
        if sizes is None:
            return None
        merged = dict(self._sizes)
        unknown_gone = [path for path, size in sizes.items() if size is None and path not in merged]
        if unknown_gone:  # a deleted or moved-away folder is not a file of the list: are files under it?
            folders = set()
            for path in merged:
                cut = path.rfind("/")
                while cut > 0:
                    folders.add(path[:cut])
                    cut = path.rfind("/", 0, cut)
            if any(path in folders for path in unknown_gone):
                return None
        for path, size in sizes.items():
            if size is None:
                merged.pop(path, None)
            else:
                merged[path] = size
        return sorted(merged.items())

    @work(group="folder-read", exclusive=True, exit_on_error=False, description="Reading a file")
    async def read_file(self, path: str, keep_position: bool = False, early: bool = False, live: bool = False) -> None:
        """Read one file through the engine and show it.

        Args:
            path: repo-relative path.
            keep_position: keep the table cursor and preview scroll (live update).
            early: the entry point, read before the file list says it exists;
                a failure shows nothing (the list then opens another file).
            live: the open file, changed on disk, read ahead of the file list
                (:meth:`work_tree_changed`); a failure shows nothing and leaves
                the file to the list (deleted, or read again the usual way).
        """
        from memrepo.engine.errors import MemrepoError

        if self.repo is None:
            return
        try:
            view = await self.repo.read_file(path)
        except MemrepoError as exc:
            if live:
                self._reread(path)
                self.load_files()
                return
            if early:
                if path == self._open_file:
                    self._open_file = None
                return
            if path == self._open_file:
                self._shown_text = None
                self.table.show_entries([])
                self.preview.show_note(path, str(exc), error=True)
            return
        if path != self._open_file:
            return  # the user has moved on
        if keep_position and view.text is not None and view.text == self._shown_text:
            return  # touched, or saved unchanged: nothing to redraw
        marks = await asyncio.to_thread(block_marks, path, view.text) if view.text and path.endswith(".md") else {}
        if path != self._open_file:
            return  # the user moved on while the block's rule ran
        # Only now, with nothing left to await before the redraw: a read cancelled by a newer one (the
        # group is exclusive) while the rule ran must not leave its text here as if it were on screen,
        # or the newer read of the same text returns early and the screen keeps the text before both.
        self._shown_text = view.text
        hint = EMPTY_ENTRIES if view.text is not None and path.endswith(".md") else None
        hint = EMPTY_PINS if hint is not None and path == ENTRY_POINT else hint
        self.table.show_entries(view.entries, keep_cursor=keep_position, empty=hint, marks=marks)
        if self._wanted_line is not None and not keep_position:
            self._go_to_line(self._wanted_line)
        if view.text is None:
            self.preview.show_note(
                path, f"Cannot show it as text: {view.error}.", error=True, subtitle=human_size(view.size)
            )
            return
        count = len(view.entries)
        entries = f"{count:,} {'entry' if count == 1 else 'entries'}"
        head = preview_head(view.text)
        if head is None:
            subtitle = f"{human_size(view.size)} · {entries}"
        else:
            subtitle = f"truncated at {PREVIEW_MAX // 1024} KB of {human_size(view.size)} · {entries}"
        self.preview.show_text(path, subtitle, view.text if head is None else head, keep_position=keep_position)

    # -- applying results ----------------------------------------------

    def _apply_files(self, files: list[tuple[str, int]], changed: set[str]) -> None:
        self._sizes = dict(files)
        tree = self.file_tree
        tree.set_files(self._sizes)
        tree.border_title = f"Files {len(self._sizes)}"
        if not self._loaded:
            self._loaded = True
            wanted, self._wanted = self._wanted, None
            first = wanted if wanted in self._sizes else None
            if first is None:
                first = ENTRY_POINT if ENTRY_POINT in self._sizes else next(iter(self._sizes), None)
            if first is not None:
                if first != self._open_file:  # else read already (the entry point, beside the walk)
                    self._open(first)
                tree.select_path(first)
            else:
                self.preview.show_note("", "The memory folder is empty.")
            return
        current = self._open_file
        if current is not None and current not in self._sizes:
            self._open_file = None
            item = tree.cursor_item
            if item is not None and item.is_file:
                self._open(item.path)
            else:
                self.table.show_entries([])
                self.preview.show_note(current, f"{current} was deleted.")
        elif current is not None and current in changed and current not in self._read_live:
            self.read_file(current, keep_position=True)
        elif current is None:
            item = tree.cursor_item
            if item is not None and not item.is_file and item.path:
                self._show_folder(item.path)  # its file list may have changed

    def _reread(self, path: str) -> None:
        """Mark ``path`` for the next file list to read again, whatever a live read started before."""
        self._read_live.discard(path)
        self._pending.add(path)

    def _go_to_line(self, line: int) -> None:
        """Put the entry cursor on the entry of ``line`` (or the last before it) and focus the table."""
        self._wanted_line = None
        table = self.table
        rows = [i for i, e in enumerate(table.entries) if e.line <= line]
        if not rows:
            return
        table.move_cursor(rows[-1])
        table.focus()
        self.preview.text_view.go_to_line(table.entries[rows[-1]].line)

    def _open(self, path: str) -> None:
        self._open_file = path
        self._shown_text = None
        self.read_file(path)

    def _show_folder(self, folder: str) -> None:
        self._open_file = None
        self._shown_text = None
        prefix = f"{folder}/"
        inside = [(p, s) for p, s in self._sizes.items() if p.startswith(prefix)]
        total = sum(s for _, s in inside)
        lines = [f"{folder}/ holds {len(inside)} files, {human_size(total)}.", ""]
        lines += [f"{p[len(prefix) :]}  {human_size(s)}" for p, s in inside[:FOLDER_NOTE_FILES]]
        if len(inside) > FOLDER_NOTE_FILES:
            lines.append(f"… and {len(inside) - FOLDER_NOTE_FILES} more")
        self.table.show_entries([])
        self.preview.show_note(f"{folder}/", "\n".join(lines))

    # -- events --------------------------------------------------------

    @on(Tree.NodeHighlighted, "#folder-tree")
    def _tree_moved(self, event: Tree.NodeHighlighted[TreeItem]) -> None:
        item = event.node.data
        if item is None:
            return
        if item.is_file:
            if item.path != self._open_file:
                self._open(item.path)
        elif item.path:
            self._show_folder(item.path)

    @on(Tree.NodeSelected, "#folder-tree")
    def _tree_selected(self, event: Tree.NodeSelected[TreeItem]) -> None:
        item = event.node.data
        if item is None or not item.is_file:
            return
        if self.table.row_count:
            self.table.focus()
        else:
            self.preview.text_view.focus()

    @on(EntryTable.EntryHighlighted, "#folder-entries")
    def _entry_moved(self, event: EntryTable.EntryHighlighted) -> None:
        # Only a user moving in the table scrolls the preview, not a live reload.
        if self.table.has_focus:
            self.preview.text_view.go_to_line(event.entry.line)

    @on(EntryTable.EntrySelected, "#folder-entries")
    def _entry_selected(self, event: EntryTable.EntrySelected) -> None:
        # The whole entry with its provenance, full screen (the preview follows the cursor already).
        self.app.push_screen(EntryScreen(event.entry))

    def on_resize(self) -> None:
        """Put the preview beside the entries on wide terminals, under them otherwise."""
        self.set_class(self.size.width >= WIDE_AT, "-wide")

    # -- actions -------------------------------------------------------

    def action_zoom(self) -> None:
        """Fill the screen with the focused box, or bring the layout back."""
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
            return
        focused = screen.focused
        if isinstance(focused, PreviewText):
            screen.maximize(self.preview, container=False)
        elif focused is not None:
            screen.maximize(focused, container=False)
