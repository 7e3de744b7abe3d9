"""The Dreams pane: dream runs newest first, their operations and review diff; accept, reject, undo, dream now.

Runs come from ``repo.dreams()``; the highlighted run's operations (with
reasons and classification) and its review diff (``base..dream/<id>``, from
``repo.dream_diff()``) show below. ``a`` accept, ``r`` reject, ``u`` undo the
automatic commit, ``n`` dream now: each asks a one-line y/n question first.
A dream runs in a worker (the model call never blocks the screen) while the
status line says it is running; it shows the budget left otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static

from ..messages import RepoWritten
from ..plain import clean
from ..tablefit import fit_column
from ..widgets.dialogs import Confirm
from .base import Pane
from .history import diff_content

if TYPE_CHECKING:
    from engine.models import RepoStatus

STATUS_WORDS = {
    "pending_review": "pending review",
    "applied": "applied",
    "accepted": "accepted",
    "rejected": "rejected",
    "undone": "undone",
    "stale": "stale",
    "failed": "failed",
    "empty": "no changes",
    "running": "running",
}
"""How each record status reads in the pane."""

STATUS_STYLES = {
    "pending_review": "bold $warning",
    "failed": "$error",
    "stale": "$foreground-muted",
    "accepted": "$success",
    "applied": "$success",
}

CLASS_STYLES = {"auto": "$success", "review": "$warning", "rejected": "$error"}


def operations_content(record: Any) -> Content:
    """A run's summary and operations as plain content (user text never parsed as markup).

    Args:
        record: a :class:`~engine.dreamrecord.DreamRecord`.

    Returns:
        Content: one block per operation: classification, op, lines, target, reason, text.
    """
    parts: list[Content] = []
    c = record.counts
    head = (f"Dream {record.id} · {STATUS_WORDS.get(record.status, record.status)} · {record.provider} · "
            f"{c.get('auto', 0)} applied, {c.get('review', 0)} for review, {c.get('rejected', 0)} rejected · "
            f"{record.tokens.input + record.tokens.output:,} tokens")
    parts.append(Content(clean(head)).stylize("bold"))
    if record.reason:
        parts.append(Content(clean(f"Reason: {record.reason}")).stylize("$error"))
    if record.auto_commit:
        undone = f" (undone by {record.undo_commit[:7]})" if record.undo_commit else ""
        parts.append(Content(clean(f"Auto commit {record.auto_commit[:7]}{undone}")))
    if record.rejected_reasons:
        why = ", ".join(f"{k} {v}" for k, v in sorted(record.rejected_reasons.items()))
        parts.append(Content(clean(f"Rejected: {why}")))
    for op in record.operations:
        label = f"{op.classification:<8}"
        lines = ",".join(op.lines)
        target = f" → {op.path}" if op.path else ""
        code = f" [{op.rejection}]" if op.rejection else ""
        line = Content(clean(f"{label} {op.op} {lines}{target}{code}: {op.reason}"))
        line = line.stylize(CLASS_STYLES.get(op.classification, ""), 0, len(label))
        parts.append(line)
        if op.before:
            parts.append(Content(clean("    was: " + " | ".join(op.before.split("\n")))))
        if op.after:
            parts.append(Content(clean("    now: " + " | ".join(op.after.split("\n")))))
    if not record.operations and record.status not in ("failed", "running"):
        parts.append(Content("No operations proposed."))
    return Content("\n").join(parts)


class DreamsPane(Pane):
    """Dream runs; ``a`` accept, ``r`` reject, ``u`` undo, ``n`` dream now."""

    PANE_ID = "dreams"
    PANE_TITLE = "Dreams"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor(1)", "Next dream", id="dreams.down", show=False),
        Binding("k", "cursor(-1)", "Previous dream", id="dreams.up", show=False),
        Binding("a", "accept", "Accept", id="dreams.accept",
                tooltip="Merge the highlighted dream's review branch into main, after a y/n question"),
        Binding("r", "reject", "Reject", id="dreams.reject",
                tooltip="Delete the highlighted dream's review branch, after a y/n question"),
        Binding("u", "undo", "Undo auto", id="dreams.undo",
                tooltip="Revert the highlighted dream's automatic commit, after a y/n question"),
        Binding("n", "dream_now", "Dream now", id="dreams.now",
                tooltip="Run a dream now with the configured provider, after a y/n question"),
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

    def compose(self) -> ComposeResult:
        """Yield the runs table, the status line and the detail box."""
        table: DataTable[Text] = DataTable(id="dreams-runs", cursor_type="row")
        table.border_title = "Dreams"
        yield table
        yield Static("", id="dreams-status", markup=False)
        with VerticalScroll(id="dreams-detail") as box:
            box.border_title = "Operations and review diff"
            yield Static("n runs a dream now", id="dreams-detail-text", markup=False)

    def on_mount(self) -> None:
        """Add the columns."""
        table = self.table
        table.add_column("dream", key="id", width=20)
        table.add_column("status", key="status", width=14)
        table.add_column("changes", key="changes")

    # -- state ---------------------------------------------------------

    @property
    def table(self) -> DataTable[Text]:
        """The runs table."""
        return self.query_one("#dreams-runs", DataTable)

    @property
    def records(self) -> list[Any]:
        """The runs listed, newest first."""
        return list(self._records)

    @property
    def highlighted(self) -> Any | None:
        """The run under the cursor, or None."""
        row = self.table.cursor_row
        return self._records[row] if 0 <= row < len(self._records) else None

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
        self._show(records)
        if not self._dreaming:
            self._set_status(f"Budget left today: {left:,} tokens · n dreams now")

    @work(group="dreams-detail", exclusive=True, exit_on_error=False, description="Reading a dream's diff")
    async def load_detail(self, record: Any) -> None:
        """Show a run's operations and its review diff."""
        from engine.errors import MemrepoError

        if self.repo is None:
            return
        body = operations_content(record)
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
        self._shown = record.id
        self._shown_record = record
        self.query_one("#dreams-detail-text", Static).update(body)
        box = self.query_one("#dreams-detail", VerticalScroll)
        box.border_title = Content(clean(f"Dream {record.id}"))
        box.scroll_home(animate=False)

    @work(group="dreams-act", exit_on_error=False, description="Changing a dream")
    async def act(self, what: str, record: Any) -> None:
        """Ask, then accept, reject or undo; a refusal or conflict is a notice and changes nothing."""
        from engine.errors import MemrepoError

        if self.repo is None:
            return
        questions = {
            "accept": f"Accept dream {record.id}: merge its {record.counts.get('review', 0)} change(s) into main?",
            "reject": f"Reject dream {record.id}: delete its review branch?",
            "undo": f"Undo dream {record.id}: revert its automatic commit?",
        }
        if not await self.app.push_screen_wait(Confirm(questions[what])):
            return
        try:
            if what == "accept":
                done = await self.repo.accept_dream(record.id)
                message, commit = f"Accepted dream {done.id}", done.merge_commit
            elif what == "reject":
                done = await self.repo.reject_dream(record.id)
                message, commit = f"Rejected dream {done.id}", None
            else:
                done = await self.repo.undo_dream(record.id, origin="tui")
                said = done.undo_message("undo {commit} in History")
                message, commit = said[:1].upper() + said[1:], done.undo_commit
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title=f"Cannot {what}", severity="error",
                        timeout=8, markup=False)
            self.load_runs()
            return
        self.notify(clean(message), timeout=3, markup=False)
        self.post_message(RepoWritten(commit))
        self.load_runs()

    @work(group="dreams-run", exclusive=True, exit_on_error=False, description="Dreaming")
    async def dream_now(self) -> None:
        """Ask, then run a dream off the screen's loop, with a running line meanwhile."""
        from engine.errors import MemrepoError

        if self.repo is None or self._dreaming:
            return
        left = await self.repo.dream_budget_left()
        if not await self.app.push_screen_wait(Confirm(f"Dream now? Budget left today: {left:,} tokens")):
            return
        self._dreaming = True
        self.add_class("-running")
        self._set_status("Dreaming… the screen stays usable; results appear here")
        try:
            record = await self.repo.dream("manual")
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="No dream", severity="warning",
                        timeout=8, markup=False)
            return
        finally:
            self._dreaming = False
            self.remove_class("-running")
            self.load_runs()
        words = STATUS_WORDS.get(record.status, record.status)
        severity = "error" if record.status == "failed" else "information"
        self.notify(clean(f"Dream {record.id}: {words}" + (f": {record.reason}" if record.reason else "")),
                    severity=severity, timeout=5, markup=False)
        self.post_message(RepoWritten(record.auto_commit))

    # -- showing -------------------------------------------------------

    def _set_status(self, text: str) -> None:
        self.query_one("#dreams-status", Static).update(Content(clean(text)))

    def _show(self, records: list[Any]) -> None:
        table = self.table
        keep = self.highlighted.id if self.highlighted is not None else None
        self._records = list(records)
        table.clear()
        changes: list[Text] = []
        for record in records:
            c = record.counts
            status = STATUS_WORDS.get(record.status, record.status)
            changes.append(Text(f"{c.get('auto', 0)} auto · {c.get('review', 0)} review · "
                                f"{c.get('rejected', 0)} rejected", no_wrap=True, overflow="ellipsis", end=""))
            table.add_row(Text(record.id, end=""), Text(status, end=""), changes[-1], key=record.id)
        fit_column(table, "changes", changes)
        ids = [r.id for r in records]
        table.move_cursor(row=ids.index(keep) if keep in ids else 0)
        table.border_title = f"Dreams {len(records)}"
        if not records:
            self.query_one("#dreams-detail-text", Static).update(Content("No dreams yet: n runs one now"))
        elif self.highlighted is not None and self.highlighted != self._shown_record:
            self.load_detail(self.highlighted)  # only when it changed: a reader keeps their scroll position

    # -- actions -------------------------------------------------------

    @on(DataTable.RowHighlighted, "#dreams-runs")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        record = self.highlighted
        if record is not None and record.id != self._shown:
            self.load_detail(record)

    def action_cursor(self, step: int) -> None:
        """Highlight the next or previous run."""
        if self._records:
            self.table.move_cursor(row=min(max(self.table.cursor_row + step, 0), len(self._records) - 1))

    def action_back(self) -> None:
        """Back to the runs."""
        self.table.focus()

    def _pick(self, what: str) -> Any | None:
        record = self.highlighted
        if record is None:
            self.notify("No dream highlighted", severity="warning", timeout=3, markup=False)
            return None
        if (what == "accept" and not record.review_pending) or (what == "reject" and not record.rejectable):
            self.notify(f"Dream {record.id} has no review waiting", severity="warning", timeout=3, markup=False)
            return None
        if what == "undo" and (not record.auto_commit or record.undo_commit):
            self.notify(f"Dream {record.id} has no automatic commit to undo", severity="warning", timeout=3,
                        markup=False)
            return None
        return record

    def action_accept(self) -> None:
        """Accept the highlighted dream's review branch."""
        record = self._pick("accept")
        if record is not None:
            self.act("accept", record)

    def action_reject(self) -> None:
        """Reject the highlighted dream's review branch."""
        record = self._pick("reject")
        if record is not None:
            self.act("reject", record)

    def action_undo(self) -> None:
        """Undo the highlighted dream's automatic commit."""
        record = self._pick("undo")
        if record is not None:
            self.act("undo", record)

    def action_dream_now(self) -> None:
        """Run a dream now."""
        if self._dreaming:
            self.notify("A dream is running already", timeout=3, markup=False)
            return
        self.dream_now()
