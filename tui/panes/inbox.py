"""The Inbox pane: review what untrusted tasks wrote, then accept, move, edit or discard it.

Everything goes through the engine's triage API (``accept``, ``accept_many``,
``discard``, ``undo``), one commit per action. Refs shift after every action,
so the inbox is read again after each one; the selection (``space``) is
cleared then. ``u`` undoes the last triage made in this session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from ..plain import clean, plain
from ..widgets.conflict_table import ConflictTable
from ..widgets.dialogs import EditText, FilePicker
from ..widgets.entry_detail import EntryDetail, InboxEntryScreen, inbox_row_text
from ..widgets.list_table import ListTable
from .base import Pane
from .inbox_conflicts import ConflictReads, InboxConflicts
from .inboxwrites import NOTHING_TO_UNDO, InboxWrites

if TYPE_CHECKING:
    from memrepo.engine.models import EntryView, WriteResult
    from memrepo.engine.repo.repo import MemoryRepo

INBOX = "inbox.md"
"""The inbox file (docs/architecture.md §3)."""

EMPTY = (
    "Inbox is empty: nothing waits for review. Writes from a task that read untrusted content "
    "(web pages, emails, pasted text) land here for you to accept or reject"
)
"""What the pane says when there is nothing to triage, and what would land here (breaker8 B8-11)."""

UNREADABLE = "Cannot list the inbox: {error}"
"""What the pane says when inbox.md cannot be read (not UTF-8, over 4 MB): never "empty", as ``memrepo inbox``."""

MARK = "●"
"""The selection mark in the first column."""

STILL_READING = "Still reading the inbox: try again in a moment"
"""What a triage key says before the pane's first read has shown the entries (nothing is done)."""

STILL_SAVING = "Still saving the last change"
"""The notice when a key asks to triage an entry (or undo) while its write is still being saved."""


SOURCE_WIDTH = 14
TASK_WIDTH = 10
TEXT_MIN = 20
"""The text column takes the width the other columns leave, never less than this."""


def _cell(value: str, width: int) -> Text:
    text = Text(clean(value), no_wrap=True, overflow="ellipsis", end="")
    text.truncate(width, overflow="ellipsis")
    return text


def seen_ref(entry: EntryView) -> str:
    """``<ref>@<seen>``: triage acts only if the line is still exactly what the pane shows (docs/architecture.md §3)."""
    return f"{entry.ref}@{entry.seen}" if entry.seen else entry.ref


class InboxPane(InboxWrites, InboxConflicts, Pane):
    """Inbox entries with their source and task, the suggested file, triage keys."""

    PANE_ID = "inbox"
    PANE_TITLE = "Inbox"
    BOX_ACTIONS = (("inbox-conflicts", ConflictTable),)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "a",
            "accept",
            "Accept",
            id="inbox.accept",
            tooltip="Move to the suggested file as yours (all selected when any)",
        ),
        Binding("m", "move", "Move to…", id="inbox.move"),
        Binding("e", "edit", "Edit+accept", id="inbox.edit"),
        Binding("d", "discard", "Discard", id="inbox.discard", tooltip="Remove from the inbox (all selected when any)"),
        Binding("space", "toggle_select", "Select", id="inbox.select"),
        Binding("u", "undo", "Undo triage", id="inbox.undo", tooltip="Undo the last triage made in this session"),
        Binding(
            "A",
            "allow_redacted",
            "Allow redacted",
            id="inbox.allow",
            tooltip="Not a secret: stop redacting what your last edit had redacted",
            show=False,
        ),
    ]
    """Keys of the Inbox pane."""

    def __init__(self) -> None:
        """Create the pane; it reads the inbox once the app attaches the repo."""
        super().__init__()
        self._entries: list[EntryView] = []
        self._selected: set[tuple[str, str]] = set()
        self._suggested: dict[tuple[str, str], str] = {}
        self._undo: list[tuple[int, str]] = []
        """(key press number, commit) of this session's triage writes, in the order the keys were pressed."""
        self._presses = 0
        self._saving: list[tuple[str, ...]] = []
        """The entry texts of each triage write in flight; the engine's write lock runs them one after another."""
        self._conflict_reads = ConflictReads()
        self._undoing = False
        self._read_once = False
        self._error: str | None = None
        """Why inbox.md could not be read at the last read (entries may wait in it), else None."""
        self._typed: str | None = None
        """The text of the last edit whose write redacted something (for ``A``); kept in memory only."""

    def compose(self) -> ComposeResult:
        """Yield the entries table and the note under it."""
        table = ListTable(id="inbox-entries")
        table.border_title = "Inbox"
        yield table
        yield Static("", id="inbox-note", markup=False)
        yield EntryDetail(id="inbox-detail")
        yield ConflictTable(id="inbox-conflicts")

    def on_mount(self) -> None:
        """Add the columns."""
        table = self.table
        table.add_column(" ", key="mark", width=1)
        table.add_column("text", key="text", width=self._text_width())
        table.add_column("source", key="source", width=SOURCE_WIDTH)
        table.add_column("task", key="task", width=TASK_WIDTH)

    def _text_width(self) -> int:
        """The text column's width: what the table's view leaves after the other columns and their padding."""
        table = self.table
        view = self.app.size.width - 2 - 1  # the table spans the terminal less its border and scrollbar
        padding = 2 * table.cell_padding * 4
        return max(view - 1 - SOURCE_WIDTH - TASK_WIDTH - padding, TEXT_MIN)

    def on_resize(self) -> None:
        """Give the text column the new width (after this layout pass, when the table has its size)."""
        self.call_after_refresh(self._fit_text)

    def _fit_text(self) -> None:
        from textual.widgets.data_table import ColumnKey

        if not self.display or not self.table.size.width:
            return  # hidden: fitted when shown again
        column = self.table.columns.get(ColumnKey("text"))
        width = self._text_width()
        if column is not None and column.width != width:
            column.width = width
            self._show(self._entries)

    # -- state ---------------------------------------------------------

    @property
    def table(self) -> DataTable[Text]:
        """The entries table."""
        return self.query_one("#inbox-entries", DataTable)

    @property
    def detail(self) -> EntryDetail:
        """The box under the table with the highlighted entry in full."""
        return self.query_one("#inbox-detail", EntryDetail)

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
        if any(p.endswith(".md") for p in paths) or any("." not in p.rsplit("/", 1)[-1] for p in paths):
            self.load_conflicts(paths)  # a folder's name may have no dot: it is looked at too

    def focus_default(self) -> None:
        """Focus the entries table."""
        self.table.focus()

    # -- workers -------------------------------------------------------

    @work(group="inbox-read", exclusive=True, exit_on_error=False, description="Reading the inbox")
    async def load_inbox(self) -> None:
        """Read inbox.md through the engine and show its entries (a missing inbox is empty; an unreadable one says why)."""
        from memrepo.engine.errors import RefError

        if self.repo is None:
            return
        error = None
        try:
            view = await self.repo.read_file(INBOX)
        except RefError:
            if (self.repo.root / INBOX).exists():
                raise
            entries: list[EntryView] = []
        else:
            entries, error = view.entries, view.error  # not text, or over 4 MB: not "empty"
        if error and error != self._error:
            self.notify(UNREADABLE.format(error=clean(error)), severity="warning", timeout=8, markup=False)
        self._error = error or None
        self._show(entries)
        self._read_once = True

    @work(group="inbox-suggest", exclusive=True, exit_on_error=False, description="Finding where the entry goes")
    async def load_suggestion(self, entry: EntryView) -> None:
        """Ask the engine where the highlighted entry goes when accepted."""
        if self.repo is None:
            return
        key = (entry.ref, entry.text)
        if key not in self._suggested:
            self._suggested[key] = await self.repo.suggest(entry)
        if self.highlighted is not None and (self.highlighted.ref, self.highlighted.text) == key:
            self._show_note()

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
        return [
            Text(mark, end=""),
            Text(inbox_row_text(entry), no_wrap=True, overflow="ellipsis", end=""),
            _cell(entry.meta.get("source", ""), SOURCE_WIDTH),
            _cell(entry.meta.get("task", ""), TASK_WIDTH),
        ]

    def _show_title(self) -> None:
        title = "Inbox ?" if self._error and not self._entries else f"Inbox {len(self._entries)}"
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
            self.note.update(self._empty_text())
            self.detail.show(None)
            return
        target = self._suggested.get((entry.ref, entry.text))
        where = "…" if target is None else target
        self.note.update(plain(f"a {'forgets in' if entry.meta.get('forgets') else '→'} {where}    {entry.ref}"))
        self.detail.show(entry, self._extra(entry))

    def _empty_text(self) -> str:
        """What the pane says with no entry to show: why inbox.md could not be read, or that it is empty."""
        return UNREADABLE.format(error=clean(self._error)) if self._error else EMPTY

    def _extra(self, entry: EntryView) -> list[str]:
        target = self._suggested.get((entry.ref, entry.text))
        said = f"a accepts it into {target if target is not None else '…'}"
        if entry.meta.get("corrects") and entry.meta.get("by") == "user":
            said += ", replacing the line it corrects"  # the user's own correction (breaker14 B14-9)
        if entry.meta.get("forgets") and entry.meta.get("by") == "user":
            said = f"a forgets this line in {target if target is not None else '…'}"  # B14-10
        return [said]

    @on(DataTable.RowSelected, "#inbox-entries")
    def _row_selected(self) -> None:
        self.action_open()

    def action_open(self) -> None:
        """Show the highlighted entry full screen; ``a`` and ``d`` there triage it as here."""
        entry = self.highlighted
        if entry is None:
            return

        def triage(choice: str | None) -> None:
            shown = self.highlighted
            if shown is None or (shown.ref, shown.text) != (entry.ref, entry.text):
                return  # the list changed meanwhile: never triage another entry than the one shown
            if choice == "accept":
                self.action_accept()
            elif choice == "discard":
                self.action_discard()

        self.app.push_screen(InboxEntryScreen(entry, self._extra(entry)), triage)

    @on(DataTable.RowHighlighted, "#inbox-entries")
    def _row_highlighted(self) -> None:
        self._highlight_changed()

    # -- actions -------------------------------------------------------

    def _ready(self) -> EntryView | None:
        """The highlighted entry if it can be triaged now: not empty, not being saved, no undo running."""
        entry = self.highlighted
        if entry is None:
            self.notify(self._empty_text() if self._read_once else STILL_READING, timeout=2, markup=False)
            return None
        saving = {entry.text} | {e.text for e in self.selected}
        if self._undoing or any(text in texts for texts in self._saving for text in saving):
            self.notify(STILL_SAVING, severity="warning", timeout=2, markup=False)
            return None
        return entry

    def _idle(self) -> bool:
        """True when no triage write or undo is running; otherwise says so."""
        if self._saving or self._undoing:
            self.notify(STILL_SAVING, severity="warning", timeout=2, markup=False)
            return False
        return True

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
            refs = [seen_ref(e) for e in chosen]
            texts = tuple(e.text for e in chosen)
            self._triage(f"Accepted {len(refs)} entries", lambda repo: repo.accept_many(refs), texts)
            return
        ref = seen_ref(entry)
        target = self._suggested.get((entry.ref, entry.text))
        done = f"Forgot the line in {target}" if entry.meta.get("forgets") else f"Accepted into {target}"  # B27-6
        self._triage(done if target else "Accepted", lambda repo: repo.accept(ref), (entry.text,))

    def action_discard(self) -> None:
        """Discard the selected entries, or the highlighted one, in one commit."""
        entry = self._ready()
        if entry is None:
            return
        chosen = self.selected or [entry]
        refs = [seen_ref(e) for e in chosen]
        self._triage(
            f"Discarded {len(refs)} {'entry' if len(refs) == 1 else 'entries'}",
            lambda repo: repo.discard(refs),
            tuple(e.text for e in chosen),
        )

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
            ref = seen_ref(entry)
            self._triage(f"Accepted into {target}", lambda repo: repo.accept(ref, target=target), (entry.text,))

    def action_edit(self) -> None:
        """Edit the highlighted entry's text, then accept it."""
        entry = self._ready()
        if entry is None:
            return
        ref = seen_ref(entry)

        def edited(text: str | None) -> None:
            if text is not None:
                self._typed = text
                self._triage("Edited and accepted", lambda repo: repo.accept(ref, text=text), (entry.text,))

        self.app.push_screen(EditText("Edit, then accept (enter)", entry.text), edited)

    def action_allow_redacted(self) -> None:
        """Mark what the last edit had redacted as not a secret (kept as a hash), so it is left alone from now on."""
        if self._typed is None or self.repo is None:
            self.notify("No redacted edit to allow in this session", timeout=2, markup=False)
            return
        self.run_allow(self._typed)

    @work(group="inbox-allow", exit_on_error=False, description="Allowing a redacted value")
    async def run_allow(self, text: str) -> None:
        """Add the one value redaction found in ``text`` to the repo's allow-list (several: refused, say so)."""
        import asyncio

        from memrepo.engine.redaction import allow_found

        if self.repo is None:
            return
        try:
            types = await asyncio.to_thread(allow_found, self.repo.state_dir, text)
        except ValueError as exc:  # several values: one at a time, never a real token with the false alarm
            self.notify(clean(f"{exc} (memrepo secrets allow -)"), severity="warning", timeout=6, markup=False)
            return
        self._typed = None
        self.notify(
            clean(f"Allowed 1 value ({types[0]}): edit the entry again to keep it"),
            timeout=5,
            markup=False,
        )

    def action_undo(self) -> None:
        """Undo the last triage made in this session (after the triage writes in flight are saved)."""
        if self._undoing:
            self.notify(STILL_SAVING, severity="warning", timeout=2, markup=False)
            return
        if not self._undo and not self._saving:
            self.notify(NOTHING_TO_UNDO, timeout=2, markup=False)
            return
        self._undoing = True
        self.run_undo()

    # -- merge conflicts -------------------------------------

    @on(ConflictTable.ResolveRequested)
    def _resolve_requested(self, message: ConflictTable.ResolveRequested) -> None:
        if not self._idle():
            return
        done = "Kept both versions" if message.keep == "both" else f"Kept: {message.text}"
        path, cid = message.path, message.conflict_id
        keep = cast(Literal["first", "second", "both"], message.keep)

        async def resolve(repo: MemoryRepo) -> WriteResult:
            try:
                return await repo.resolve_conflict(path, cid, keep, origin="tui")
            finally:
                self.load_conflicts()

        self._triage(done, resolve)
