"""The Inbox pane: review what untrusted tasks wrote, then accept, move, edit or discard it.

Everything goes through the engine's triage API (``accept``, ``accept_many``,
``discard``, ``undo``), one commit per action. Refs shift after every action,
so the inbox is read again after each one; the selection (``space``) is
cleared then. ``u`` undoes the last triage made in this session.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from ..messages import RepoWritten, WriteFailed
from ..plain import clean, plain
from ..widgets.conflict_table import ConflictTable
from ..widgets.dialogs import EditText, FilePicker
from .base import Pane

if TYPE_CHECKING:
    from engine.models import EntryView, WriteResult
    from engine.repo import MemoryRepo

INBOX = "inbox.md"
"""The inbox file (DESIGN.md §3)."""

EMPTY = "Inbox is empty: nothing waits for review"
"""What the pane says when there is nothing to triage."""

MARK = "●"
"""The selection mark in the first column."""


def _cell(value: str, width: int) -> Text:
    text = Text(clean(value), no_wrap=True, overflow="ellipsis", end="")
    text.truncate(width, overflow="ellipsis")
    return text


class InboxPane(Pane):
    """Inbox entries with their source and task, the suggested file, triage keys."""

    PANE_ID = "inbox"
    PANE_TITLE = "Inbox"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor(1)", "Next entry", id="inbox.down", show=False),
        Binding("k", "cursor(-1)", "Previous entry", id="inbox.up", show=False),
        Binding("a", "accept", "Accept", id="inbox.accept",
                tooltip="Move to the suggested file as yours (all selected when any)"),
        Binding("m", "move", "Move to…", id="inbox.move"),
        Binding("e", "edit", "Edit+accept", id="inbox.edit"),
        Binding("d", "discard", "Discard", id="inbox.discard",
                tooltip="Remove from the inbox (all selected when any)"),
        Binding("space", "toggle_select", "Select", id="inbox.select"),
        Binding("u", "undo", "Undo triage", id="inbox.undo",
                tooltip="Undo the last triage made in this session"),
    ]
    """Keys of the Inbox pane."""

    def __init__(self) -> None:
        """Create the pane; it reads the inbox once the app attaches the repo."""
        super().__init__()
        self._entries: list[EntryView] = []
        self._selected: set[tuple[str, str]] = set()
        self._suggested: dict[tuple[str, str], str] = {}
        self._undo: list[str] = []
        self._busy = False

    def compose(self) -> ComposeResult:
        """Yield the entries table and the note under it."""
        table: DataTable[Text] = DataTable(id="inbox-entries", cursor_type="row", zebra_stripes=False)
        table.border_title = "Inbox"
        yield table
        yield Static("", id="inbox-note", markup=False)
        yield ConflictTable(id="inbox-conflicts")

    def on_mount(self) -> None:
        """Add the columns."""
        table = self.table
        table.add_column(" ", key="mark", width=1)
        table.add_column("text", key="text", width=40)
        table.add_column("source", key="source", width=14)
        table.add_column("task", key="task", width=10)

    # -- state ---------------------------------------------------------

    @property
    def table(self) -> DataTable[Text]:
        """The entries table."""
        return self.query_one("#inbox-entries", DataTable)

    @property
    def note(self) -> Static:
        """The line under the table: the suggested file, or the empty state."""
        return self.query_one("#inbox-note", Static)

    @property
    def entries(self) -> list[EntryView]:
        """The inbox entries shown, in file order."""
        return list(self._entries)

    @property
    def selected(self) -> list[EntryView]:
        """The entries selected with ``space``, in file order."""
        return [e for e in self._entries if (e.ref, e.text) in self._selected]

    @property
    def highlighted(self) -> EntryView | None:
        """The entry under the cursor, or None when the inbox is empty."""
        row = self.table.cursor_row
        return self._entries[row] if 0 <= row < len(self._entries) else None

    # -- Pane contract -------------------------------------------------

    def reload(self) -> None:
        """Read the inbox and the merge conflicts again."""
        self.load_inbox()
        self.load_conflicts()

    def work_tree_changed(self, paths: list[str]) -> None:
        """Read the inbox again when inbox.md changed on disk.

        Args:
            paths: repo-relative paths changed on disk.
        """
        if INBOX in paths:
            self.load_inbox()
        if any(p.endswith(".md") for p in paths):
            self.load_conflicts()

    def focus_default(self) -> None:
        """Focus the entries table."""
        self.table.focus()

    # -- workers -------------------------------------------------------

    @work(group="inbox-read", exclusive=True, exit_on_error=False, description="Reading the inbox")
    async def load_inbox(self) -> None:
        """Read inbox.md through the engine and show its entries (a missing inbox is empty)."""
        from engine.errors import RefError

        if self.repo is None:
            return
        try:
            view = await self.repo.read_file(INBOX)
        except RefError:
            if (self.repo.root / INBOX).exists():
                raise
            entries: list[EntryView] = []
        else:
            entries = view.entries
        self._show(entries)

    @work(group="inbox-suggest", exclusive=True, exit_on_error=False,
          description="Finding where the entry goes")
    async def load_suggestion(self, entry: EntryView) -> None:
        """Ask the engine where the highlighted entry goes when accepted."""
        if self.repo is None:
            return
        key = (entry.ref, entry.text)
        if key not in self._suggested:
            self._suggested[key] = await self.repo.suggest(entry)
        if self.highlighted is not None and (self.highlighted.ref, self.highlighted.text) == key:
            self._show_note()

    def _triage(self, done: str, call: Callable[[MemoryRepo], Awaitable[WriteResult]]) -> None:
        # Busy from the key press on, so a second press cannot start a second write.
        self._busy = True
        self.run_triage(done, call)

    @work(group="inbox-write", exit_on_error=False, description="Inbox triage")
    async def run_triage(self, done: str,
                         call: Callable[[MemoryRepo], Awaitable[WriteResult]]) -> None:
        """Run one triage call, remember its commit for ``u``, read the inbox again.

        Args:
            done: the notice on success (plain text).
            call: the engine call, given the repo.
        """
        from engine.errors import MemrepoError

        if self.repo is None:
            self._busy = False
            return
        try:
            result = await call(self.repo)
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="Inbox", severity="error",
                        timeout=8, markup=False)
            self.post_message(WriteFailed(str(exc)))
            return
        finally:
            self._busy = False
            self._selected.clear()
            self.load_inbox()
        if result.commit is not None:
            self._undo.append(result.commit)
            self.post_message(RepoWritten(result.commit))
        self.notify(clean(done), timeout=3, markup=False)

    @work(group="inbox-write", exit_on_error=False, description="Undoing the last triage")
    async def run_undo(self, commit: str) -> None:
        """Revert a triage commit made in this session."""
        from engine.errors import GitError, MemrepoError

        if self.repo is None:
            self._busy = False
            return
        try:
            result = await self.repo.undo(commit, origin="tui")
        except GitError as exc:
            self._undo.remove(commit)  # it will never apply: do not offer it again
            self.notify(clean(str(exc), one_line=False), title="Cannot undo", severity="error",
                        timeout=8, markup=False)
            return
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="Cannot undo", severity="error",
                        timeout=8, markup=False)
            return
        finally:
            self._busy = False
            self.load_inbox()
        self._undo.remove(commit)
        self.post_message(RepoWritten(result.commit))
        self.notify("Undid the last triage", timeout=3, markup=False)

    # -- showing -------------------------------------------------------

    def _show(self, entries: list[EntryView]) -> None:
        table = self.table
        row = table.cursor_row
        self._entries = list(entries)
        keys = {(e.ref, e.text) for e in entries}
        self._selected &= keys
        self._suggested = {k: v for k, v in self._suggested.items() if k in keys}
        table.clear()
        for entry in entries:
            table.add_row(*self._cells(entry), key=entry.ref)
        if entries:
            table.move_cursor(row=min(max(row, 0), len(entries) - 1))
        self.set_class(not entries, "-empty")
        self._show_title()
        self._highlight_changed()

    def _cells(self, entry: EntryView) -> list[Text]:
        mark = MARK if (entry.ref, entry.text) in self._selected else " "
        return [Text(mark, end=""), _cell(entry.text, 40), _cell(entry.meta.get("source", ""), 14),
                _cell(entry.meta.get("task", ""), 10)]

    def _show_title(self) -> None:
        title = f"Inbox {len(self._entries)}"
        if self._selected:
            title += f" · {len(self._selected)} selected"
        self.table.border_title = title

    def _highlight_changed(self) -> None:
        entry = self.highlighted
        self._show_note()
        if entry is not None and (entry.ref, entry.text) not in self._suggested:
            self.load_suggestion(entry)

    def _show_note(self) -> None:
        entry = self.highlighted
        if entry is None:
            self.note.update(EMPTY)
            return
        target = self._suggested.get((entry.ref, entry.text))
        where = "…" if target is None else target
        self.note.update(plain(f"a → {where}    {entry.ref}"))

    @on(DataTable.RowHighlighted, "#inbox-entries")
    def _row_highlighted(self) -> None:
        self._highlight_changed()

    # -- actions -------------------------------------------------------

    def _ready(self) -> EntryView | None:
        if self._busy:
            self.notify("Still saving the last change", severity="warning", timeout=2, markup=False)
            return None
        entry = self.highlighted
        if entry is None:
            self.notify(EMPTY, timeout=2, markup=False)
        return entry

    def action_cursor(self, step: int) -> None:
        """Highlight the next or previous entry."""
        table = self.table
        if self._entries:
            table.move_cursor(row=min(max(table.cursor_row + step, 0), len(self._entries) - 1))

    def action_toggle_select(self) -> None:
        """Select or unselect the highlighted entry for ``a`` and ``d``."""
        entry = self.highlighted
        if entry is None:
            return
        key = (entry.ref, entry.text)
        self._selected.symmetric_difference_update({key})
        mark = MARK if key in self._selected else " "
        self.table.update_cell(entry.ref, "mark", Text(mark, end=""))
        self._show_title()
        self.action_cursor(1)

    def action_accept(self) -> None:
        """Accept the selected entries, or the highlighted one, into the suggested file."""
        entry = self._ready()
        if entry is None:
            return
        chosen = self.selected
        if chosen:
            refs = [e.ref for e in chosen]
            self._triage(f"Accepted {len(refs)} entries",
                            lambda repo: repo.accept_many(refs))
            return
        ref = entry.ref
        target = self._suggested.get((ref, entry.text))
        self._triage(f"Accepted into {target}" if target else "Accepted",
                        lambda repo: repo.accept(ref))

    def action_discard(self) -> None:
        """Discard the selected entries, or the highlighted one, in one commit."""
        entry = self._ready()
        if entry is None:
            return
        refs = [e.ref for e in self.selected] or [entry.ref]
        self._triage(f"Discarded {len(refs)} {'entry' if len(refs) == 1 else 'entries'}",
                        lambda repo: repo.discard(refs))

    def action_move(self) -> None:
        """Pick a file and accept the highlighted entry into it."""
        entry = self._ready()
        if entry is not None:
            self.pick_and_move(entry)

    @work(group="inbox-pick", exclusive=True, exit_on_error=False, description="Listing the files")
    async def pick_and_move(self, entry: EntryView) -> None:
        """List the markdown files, let the user pick one, accept into it."""
        if self.repo is None:
            return
        files = [p for p, _ in await self.repo.list_files() if p.endswith(".md") and p != INBOX]
        target = await self.app.push_screen_wait(FilePicker(f"Move to: {entry.text}", files))
        if target is not None:
            ref = entry.ref
            self._triage(f"Accepted into {target}", lambda repo: repo.accept(ref, target=target))

    def action_edit(self) -> None:
        """Edit the highlighted entry's text, then accept it."""
        entry = self._ready()
        if entry is None:
            return
        ref = entry.ref

        def edited(text: str | None) -> None:
            if text is not None:
                self._triage("Edited and accepted", lambda repo: repo.accept(ref, text=text))

        self.app.push_screen(EditText("Edit, then accept (enter)", entry.text), edited)

    def action_undo(self) -> None:
        """Undo the last triage made in this session."""
        if self._busy:
            self.notify("Still saving the last change", severity="warning", timeout=2, markup=False)
            return
        if not self._undo:
            self.notify("No triage to undo in this session", timeout=2, markup=False)
            return
        self._busy = True
        self.run_undo(self._undo[-1])

    # -- merge conflicts (issue 9) -------------------------------------

    @property
    def conflict_table(self) -> ConflictTable:
        """The box of entries a sync kept in two versions (hidden when there are none)."""
        return self.query_one("#inbox-conflicts", ConflictTable)

    @work(group="inbox-conflicts", exclusive=True, exit_on_error=False,
          description="Reading merge conflicts")
    async def load_conflicts(self) -> None:
        """Find the entries a sync merge kept in two versions and show them."""
        if self.repo is not None:
            self.conflict_table.show(await self.repo.conflicts())

    @on(ConflictTable.ResolveRequested)
    def _resolve_requested(self, message: ConflictTable.ResolveRequested) -> None:
        if self._busy:
            self.notify("Still saving the last change", severity="warning", timeout=2, markup=False)
            return
        done = "Kept both versions" if message.keep == "both" else f"Kept: {message.text}"
        path, cid, keep = message.path, message.conflict_id, message.keep

        async def resolve(repo: MemoryRepo) -> WriteResult:
            try:
                return await repo.resolve_conflict(path, cid, keep)
            finally:
                self.load_conflicts()

        self._triage(done, resolve)
