"""The Dreams pane: dream runs newest first, their operations and review diff; accept, reject, undo, dream now.

Runs come from ``repo.dreams()``, read again whenever the record folder
changes (looked at once a second), so a dream started by the CLI, cron or
another app shows as it starts, ends or fails; the highlighted run's files,
operations (as file lines and texts, with reasons and classification) and
its review diff (``base..dream/<id>``, from ``repo.dream_diff()``) show below. ``a`` accept, ``d`` reject, ``u`` undo the
automatic commit, ``n`` dream now: each asks a one-line y/n question first.
A dream runs in a worker (the model call never blocks the screen) while the
status line says it is running; it shows the budget left otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from ..messages import RepoWritten
from ..plain import clean
from ..tablefit import fit_column
from ..widgets.dialogs import Confirm
from ..widgets.list_table import ListTable
from . import dreamview
from .dreamacts import DreamActions
from .dreamview import STATUS_WORDS, WHERE_WIDTH, dream_cost, operation_cells, operations_content
from .history import diff_content

if TYPE_CHECKING:
    from memrepo.engine.models import RepoStatus

FOLLOW_S = 1.0
"""Seconds between two looks at the dream records, so a dream run elsewhere shows as it starts and ends."""


def changes_words(record: Any) -> str:
    """A dream's row: ``1 auto · 1 review · 0 rejected``; once accepted in part, what the review decided.

    After "Accept 1 of the 40" the row said "0 rejected" beside the 39 the user had just declined (the count
    is of proposals the checks refused, breaker27 B27-6): ``0 auto · 1 accepted · 39 declined`` now.
    A dream rejected (``d``) declined all its review changes: "rejected · 0 auto · 3 review · 0 rejected" read as if
    none was; ``0 auto · 0 accepted · 3 declined`` now (the same words as a review in part).
    """
    c = record.counts
    decided = [getattr(op, "decision", None) for op in getattr(record, "operations", [])]
    if "accepted" in decided or "declined" in decided:
        return f"{c.get('auto', 0)} auto · {decided.count('accepted')} accepted · {decided.count('declined')} declined"
    if getattr(record, "status", None) == "rejected" and c.get("review", 0):
        return f"{c.get('auto', 0)} auto · 0 accepted · {c.get('review', 0)} declined"
    return f"{c.get('auto', 0)} auto · {c.get('review', 0)} review · {c.get('rejected', 0)} rejected"


class DreamsPane(DreamActions):
    """Dream runs; ``a`` accept, ``d`` reject, ``u`` undo, ``n`` dream now."""

    PANE_ID = "dreams"
    PANE_TITLE = "Dreams"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "a",
            "accept",
            "Accept",
            id="dreams.accept",
            tooltip="Merge the highlighted dream's review branch into main (in Operations: the chosen or the "
            "highlighted operation), after a y/n question",
        ),
        Binding(
            "d",
            "reject",
            "Reject",
            id="dreams.discard",
            tooltip="Delete the highlighted dream's review branch, after a y/n question",
        ),
        Binding(
            "u",
            "undo",
            "Undo auto",
            id="dreams.undo",
            tooltip="Revert the highlighted dream's automatic commit, or with none left its accepted review, after a y/n question",
        ),
        Binding(
            "n",
            "dream_now",
            "Dream now",
            id="dreams.now",
            tooltip="Run a dream now with the configured provider, after a y/n question",
        ),
        Binding(
            "space",
            "toggle_select",
            "Select op",
            id="dreams.select",
            tooltip="Choose the highlighted review operation; a then merges only the chosen ones",
        ),
        Binding("escape", "back", "Back to dreams", id="dreams.back", show=False),
    ]
    """Keys of the Dreams pane."""

    def __init__(self) -> None:
        """Create the pane; it reads the runs once the app attaches the repo."""
        super().__init__()
        self._records: list[Any] = []
        self._head: str | None = None
        self._dreaming = False
        self._shown: str | None = None
        self._shown_record: Any | None = None
        self._select_next: str | None = None
        self._chosen: dict[str, set[int]] = {}
        self._files: dict[str, list[Any]] = {}
        self._shown_ops: str | None = None
        self._stamp: object = None
        self._body: Content | None = None

    def compose(self) -> ComposeResult:
        """Yield the runs table, the status line and the detail box."""
        table = ListTable(id="dreams-runs")
        table.border_title = "Dreams"
        yield table
        yield Static("", id="dreams-status", markup=False)
        ops = ListTable(id="dreams-ops")
        ops.border_title = "Operations"
        yield ops
        with VerticalScroll(id="dreams-detail") as box:
            box.border_title = "Operations and review diff"
            yield Static("n runs a dream now", id="dreams-detail-text", markup=False)

    def on_mount(self) -> None:
        """Add the columns."""
        table = self.table
        table.add_column("dream", key="id", width=20)
        table.add_column("status", key="status", width=14)
        table.add_column("changes", key="changes")
        ops = self.ops_table
        ops.add_column(" ", key="mark", width=1)
        ops.add_column("class", key="class", width=8)
        ops.add_column("op", key="op", width=7)
        ops.add_column("where", key="where", width=WHERE_WIDTH)
        ops.add_column("entry", key="entry")
        # Wide from the start: the fit on resize runs after a refresh, and a screen painted before it
        # (a loaded machine, the pane just shown) had the column at its header's width.
        self._fit_ops()
        self.set_interval(FOLLOW_S, self.follow_runs)

    @work(group="dreams-follow", exclusive=True, exit_on_error=False, description="Looking for dreams")
    async def follow_runs(self) -> None:
        """Read the runs again when a record started, ended or changed anywhere (docs/architecture.md §6)."""
        from memrepo.engine.errors import MemrepoError

        if self.repo is None:
            return
        try:
            stamp = await self.repo.dream_records_stamp()
        except (MemrepoError, RuntimeError):
            return  # the repo is closing or busy: the next look will do
        if stamp != self._stamp:
            self._stamp = stamp
            self.load_runs()

    # -- state ---------------------------------------------------------

    @property
    def records(self) -> list[Any]:
        """The runs listed, newest first."""
        return list(self._records)

    @property
    def detail_text(self) -> str:
        """The text the detail box shows."""
        return str(self.query_one("#dreams-detail-text", Static).visual)

    @property
    def status_text(self) -> str:
        """The status line's text."""
        return str(self.query_one("#dreams-status", Static).visual)

    @property
    def running(self) -> bool:
        """True while a dream started here runs."""
        return self._dreaming

    # -- Pane contract -------------------------------------------------

    def reload(self) -> None:
        """Read the runs and the budget again."""
        self.load_runs()

    def work_tree_changed(self, paths: list[str]) -> None:
        """Nothing: runs follow HEAD (see :meth:`repo_status_changed`)."""

    def repo_status_changed(self, status: RepoStatus) -> None:
        """Read the runs again when HEAD moved (a dream, accept or undo from anywhere)."""
        if status.head != self._head and self.repo is not None:
            self._head = status.head
            self.load_runs()

    def focus_default(self) -> None:
        """Focus the runs table."""
        self.table.focus()

    # -- workers -------------------------------------------------------

    @work(group="dreams-list", exclusive=True, exit_on_error=False, description="Reading the dreams")
    async def load_runs(self) -> None:
        """Read every run and the budget left; show them."""
        if self.repo is None:
            return
        records = await self.repo.dreams()
        left = await self.repo.dream_budget_left()
        running = any(r.status == "running" for r in records) and not self._dreaming
        killed = await self.repo.killed_dreams() if running else set()  # Health's check
        self._show(records, killed)
        if not self._dreaming:
            self._set_status(dreamview.running_line(records, killed) or f"{dream_cost(self.app, left)} · n dreams now")

    @work(group="dreams-detail", exclusive=True, exit_on_error=False, description="Reading a dream's diff")
    async def load_detail(self, record: Any) -> None:
        """Show a run's operations and its review diff."""
        from memrepo.engine.errors import MemrepoError

        if self.repo is None:
            return
        paths = {r.removeprefix("repo:").partition("#L")[0] for op in record.operations for r in op.refs}
        files: dict[str, list[Any]] = {}
        for path in sorted(paths):
            try:
                files[path] = (await self.repo.read_file(path)).entries
            except MemrepoError:
                files[path] = []  # gone: its lines say so
        body = operations_content(record, files)
        if record.branch:
            try:
                patch = await self.repo.dream_diff(record.id)
            except MemrepoError as exc:
                patch, note = "", f"Review diff unavailable: {exc}"
            else:
                note = f"Review diff {record.base[:7] if record.base else ''}..{record.branch}"
            body = Content("\n").join([body, Content(""), Content(clean(note)).stylize("bold")])
            if patch.strip():
                body = Content("\n").join([body, diff_content(patch)])
        elif record.auto_commit:
            note = f"No review diff: every operation was applied automatically in {record.auto_commit[:7]}"
            body = Content("\n").join([body, Content(""), Content(clean(note)).stylize("bold")])
        # Set only after the last await: a newer detail read cancels this one (exclusive group),
        # and a cancelled read must leave the shown record and its files together.
        self._files = files
        self._shown = record.id
        self._shown_record = record
        self._body = body
        self._show_ops(record)
        self.query_one("#dreams-detail-text", Static).update(body)
        box = self.query_one("#dreams-detail", VerticalScroll)
        box.border_title = Content(clean(f"Dream {record.id}"))
        box.scroll_home(animate=False)
        if self.ops_table.has_focus:
            self._show_op(self.ops_table.cursor_row)

    @work(group="dreams-run", exclusive=True, exit_on_error=False, description="Dreaming")
    async def dream_now(self) -> None:
        """Ask, then run a dream off the screen's loop, with a running line meanwhile."""
        from memrepo.engine.errors import MemrepoError

        if self.repo is None or self._dreaming:
            return
        left = await self.repo.dream_budget_left()
        if not await self.app.push_screen_wait(Confirm(f"Dream now? {dream_cost(self.app, left)}", enter_yes=True)):
            return
        self._dreaming = True
        self.add_class("-running")
        self._set_status("Dreaming… the screen stays usable; results appear here")
        try:
            record = await self.repo.dream("manual")
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="No dream", severity="warning", timeout=8, markup=False)
            return
        finally:
            self._dreaming = False
            self.remove_class("-running")
            self.load_runs()
        self._select_next = record.id  # the new run, once listed
        self.load_runs()
        words = STATUS_WORDS.get(record.status, record.status)
        severity: SeverityLevel = "error" if record.status == "failed" else "information"
        self.notify(
            clean(f"Dream {record.id}: {words}" + (f": {record.reason}" if record.reason else "")),
            severity=severity,
            timeout=5,
            markup=False,
        )
        self.post_message(RepoWritten(record.auto_commit))

    # -- showing -------------------------------------------------------

    def _set_status(self, text: str) -> None:
        self.query_one("#dreams-status", Static).update(Content(clean(text)))

    def _show(self, records: list[Any], killed: set[str] | frozenset[str] = frozenset()) -> None:
        table = self.table
        keep = self.highlighted.id if self.highlighted is not None else None
        self._records = list(records)
        table.clear()
        changes: list[Text] = []
        for record in records:
            status = "killed" if record.id in killed else STATUS_WORDS.get(record.status, record.status)
            changes.append(
                Text(
                    changes_words(record),
                    no_wrap=True,
                    overflow="ellipsis",
                    end="",
                )
            )
            table.add_row(Text(record.id, end=""), Text(status, end=""), changes[-1], key=record.id)
        fit_column(table, "changes", changes)
        ids = [r.id for r in records]
        if self._select_next in ids:
            keep, self._select_next = self._select_next, None  # a dream just ran here: show it
        table.move_cursor(row=ids.index(keep) if keep in ids else 0)
        table.border_title = f"Dreams {len(records)}"
        self._chosen = {k: v for k, v in self._chosen.items() if k in ids}
        if not records:
            self.query_one("#dreams-detail-text", Static).update(Content("No dreams yet: n runs one now"))
            self.ops_table.clear()
        elif self.highlighted is not None and self.highlighted != self._shown_record:
            self.load_detail(self.highlighted)  # only when it changed: a reader keeps their scroll position

    # -- actions -------------------------------------------------------

    @on(DataTable.RowHighlighted, "#dreams-runs")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        record = self.highlighted
        if record is not None and record.id != self._shown:
            self.load_detail(record)

    @on(DataTable.RowHighlighted, "#dreams-ops")
    def _op_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self.ops_table.has_focus:
            self._show_op(event.cursor_row)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Into the Operations list (tab): the box shows its highlighted operation first."""
        if event.widget is self.ops_table:
            self._show_op(self.ops_table.cursor_row)

    @on(DataTable.RowSelected, "#dreams-ops")
    def _op_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on an operation: into the box, which shows it first (it scrolls the whole dream)."""
        self._show_op(event.cursor_row)
        self.query_one("#dreams-detail", VerticalScroll).focus()

    def _show_op(self, row: int) -> None:
        """The box shows the highlighted operation first, then the whole dream (B26-8)."""
        record = self._shown_record
        if record is None or self._body is None or not 0 <= row < len(record.operations):
            return
        first = dreamview.highlighted_content(record, row, self._files)
        self.query_one("#dreams-detail-text", Static).update(Content("\n").join([first, Content(""), self._body]))
        self.query_one("#dreams-detail", VerticalScroll).scroll_home(animate=False)

    def action_back(self) -> None:
        """Back to the runs."""
        self.table.focus()

    def _fit_ops(self) -> None:
        """The entry column takes the width the other columns leave (no sideways scrollbar at 80 columns).

        Measured from the terminal's width, which the pane spans, so the width
        is the same whether the table was laid out yet or not.
        """
        table = self.ops_table
        view = self.app.size.width - 2 - 1  # the border, the scrollbar
        room = view - (1 + 8 + 7 + WHERE_WIDTH) - 2 * table.cell_padding * 5
        column = table.columns.get(ColumnKey("entry"))
        if column is not None and column.width != max(room, 12):
            column.auto_width = False
            column.width = max(room, 12)
            table.refresh()

    def on_resize(self) -> None:
        """Fit the operations' entry column to the new width."""
        self.call_after_refresh(self._fit_ops)

    def _show_ops(self, record: Any) -> None:
        table = self.ops_table
        row = table.cursor_row if record.id == self._shown_ops else 0
        self._shown_ops = record.id
        table.clear()
        chosen = self._chosen.get(record.id, set())
        for n, op in enumerate(record.operations):
            table.add_row(*operation_cells(op, n in chosen, self._files, record))
        self._fit_ops()
        if record.operations:
            table.move_cursor(row=min(row, len(record.operations) - 1))
        self._ops_title(record)

    def action_dream_now(self) -> None:
        """Run a dream now."""
        if self._dreaming:
            self.notify("A dream is running already", timeout=3, markup=False)
            return
        self.dream_now()
