"""The Health pane: every health row (docs/architecture.md §9) and compaction with progress (docs/architecture.md §5).

Rows come from ``repo.health()``, coloured by status, each with the key that
fixes it. ``c`` compacts the history after a question that says what will be
lost; the compaction runs on the repo's worker thread while a progress bar
and the step's name update here, so the screen never freezes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, ProgressBar, Static

from ..locations import display_path
from ..messages import RepoWritten, WriteFailed
from ..plain import clean
from ..tablefit import fit_column
from ..widgets.dialogs import Confirm
from ..widgets.list_table import ListTable
from .base import Pane

if TYPE_CHECKING:
    from memrepo.engine.models import CompactProgress, RepoStatus
    from memrepo.engine.repo.health import HealthRow

REFRESH_DELAY_S = 1.0
"""After a change on disk, the shown pane runs the checks again this much later (seconds), once per burst."""

CHECKING = "Checking the repo's health: reading every file…"
"""What the pane says until the first rows come (the checks take seconds at 20,000 files)."""

STATUS_COLOURS = {"OK": "success", "WARN": "warning", "FAIL": "error"}
"""The theme variable each status is drawn in."""

STATUS_ORDER = {"FAIL": 0, "WARN": 1, "OK": 2}
"""Rows are listed problems first (FAIL, then WARN, then OK), the check order kept within each status.

At 80x24 only the first dozen rows show: the rows the border title counts must be among them.
"""


class HealthPane(Pane):
    """Health rows with status, reason and fix key; ``c`` compacts the history."""

    PANE_ID = "health"
    PANE_TITLE = "Health"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "c",
            "compact",
            "Compact history",
            id="health.compact",
            tooltip="Replace the history with one commit of the current files, after a y/n question",
        ),
        Binding(
            "x",
            "clean_dreams",
            "Clean up killed dreams",
            id="health.clean-dreams",
            show=False,  # the fix column names it where it applies
            tooltip="Remove the worktrees and half-made branches a killed dream left; its record can then be rejected",
        ),
    ]
    """Keys of the Health pane (``r`` refreshes everywhere)."""

    def __init__(self) -> None:
        """Create the pane; it runs the checks once the app attaches the repo."""
        super().__init__()
        self._rows: list[HealthRow] = []
        self._head: str | None = None
        self._stale = False
        self._compacting = False
        self._timer_pending = False

    def compose(self) -> ComposeResult:
        """Yield the rows table and the (hidden) compaction progress line."""
        table = ListTable(id="health-rows")
        table.border_title = "Health"
        yield table
        yield Static("", id="health-detail", markup=False)
        with Horizontal(id="health-progress"):
            yield Static("", id="health-step", markup=False)
            yield ProgressBar(total=1, show_eta=False, show_percentage=False, id="health-bar")

    def on_mount(self) -> None:
        """Add the columns."""
        table = self.table
        table.add_column("status", key="status", width=6)
        table.add_column("check", key="check", width=16)
        table.add_column("fix", key="fix", width=3)
        table.add_column("reason", key="reason")

    # -- state ---------------------------------------------------------

    @property
    def table(self) -> DataTable[Text]:
        """The rows table."""
        return self.query_one("#health-rows", DataTable)

    @property
    def rows(self) -> list[HealthRow]:
        """The rows shown, in order."""
        return list(self._rows)

    @property
    def compacting(self) -> bool:
        """True while a compaction started here runs."""
        return self._compacting

    @property
    def detail_text(self) -> str:
        """What the line under the table says (the highlighted row in full, or that the checks run)."""
        return str(self.query_one("#health-detail", Static).visual)

    @property
    def step_text(self) -> str:
        """What the progress line says."""
        return str(self.query_one("#health-step", Static).visual)

    # -- Pane contract -------------------------------------------------

    def _shown(self) -> bool:
        return self.display and self.is_current

    def reload(self) -> None:
        """Run the checks again (when shown; a hidden pane runs them when next shown)."""
        if not self._shown():
            self._stale = True
            return
        self._stale = False
        self.run_checks()

    def work_tree_changed(self, paths: list[str]) -> None:
        """Files changed: run the checks again now if shown, else when next shown."""
        self._refresh_soon()

    def repo_status_changed(self, status: RepoStatus) -> None:
        """HEAD or the state moved: the rows may have changed."""
        if status.head != self._head:
            self._head = status.head
            self._refresh_soon()

    def focus_default(self) -> None:
        """Focus the rows; rows made stale while the pane was hidden are read again."""
        self.table.focus()
        if self._stale and self.repo is not None:
            self.reload()

    def _refresh_soon(self) -> None:
        """Run the checks again shortly (once per burst of changes) when shown, else when next shown.

        The checks read every file, so a burst of edits costs one run, not one per event.
        """
        if self.repo is None or self._compacting:
            return
        self._stale = True
        if self._timer_pending:
            return
        if self._shown():
            self._timer_pending = True
            self.set_timer(REFRESH_DELAY_S, self._refresh_due)

    def _refresh_due(self) -> None:
        self._timer_pending = False
        if self._stale:
            self.reload()

    # -- workers -------------------------------------------------------

    @work(group="health-checks", exclusive=True, exit_on_error=False, description="Checking the repo's health")
    async def run_checks(self) -> None:
        """Run every health check on the repo's worker thread and list the rows."""
        if self.repo is None:
            return
        if not self._rows:  # the first run reads every file: seconds on a large repo, so say so
            self.table.border_title = "Health: checking…"
            self.query_one("#health-detail", Static).update(CHECKING)
        rows = await self.repo.health(last_write_error=getattr(self.app, "last_write_error", None))
        self._show(rows)

    @work(group="health-compact", exit_on_error=False, description="Compacting the history")
    async def compact_history(self) -> None:
        """Ask (saying what will be lost), then compact with a progress display."""
        from memrepo.engine.errors import MemrepoError

        from ..compact_text import loss_summary, size_text

        if self.repo is None or self._compacting:
            return
        self._compacting = True
        try:
            preview = await self.repo.compact_preview()
            question = loss_summary(preview) + "\nCompact history now?"
            if not await self.app.push_screen_wait(Confirm(question)):
                return
            self.set_class(True, "-compacting")
            self._progress_step(None)
            try:
                # The question named the remote when one is set: yes also replaces its history.
                result = await self.repo.compact(
                    progress=self._progress_step, replace_remote=preview.remote is not None
                )
            except MemrepoError as exc:
                self.notify(
                    clean(str(exc), one_line=False), title="Cannot compact", severity="error", timeout=10, markup=False
                )
                self.post_message(WriteFailed(str(exc)))
                return
            self.notify(
                f"History compacted: one commit replaces {result.dropped_commits:,}; .git "
                f"{size_text(result.git_bytes_before)} -> {size_text(result.git_bytes_after)}",
                title="Compacted",
                timeout=6,
                markup=False,
            )
            if result.remote_error:
                self.notify(
                    clean(
                        f"The remote's history was not replaced: {result.remote_error}. "
                        "Compact again when it can be reached.",
                        one_line=False,
                    ),
                    title="Remote not replaced",
                    severity="warning",
                    timeout=10,
                    markup=False,
                )
            self.post_message(RepoWritten(result.commit))
        finally:
            self._compacting = False
            self.set_class(False, "-compacting")
        self.reload()

    @work(group="health-clean", exclusive=True, exit_on_error=False, description="Cleaning up killed dreams")
    async def clean_dreams(self) -> None:
        """Ask (listing what a killed dream left), then clean it up through the engine (docs/architecture.md §6)."""
        from memrepo.engine.errors import MemrepoError

        if self.repo is None:
            return
        found = await self.repo.dream_leftovers()
        if not found:
            self.notify("Nothing left by a killed dream", timeout=3, markup=False)
            return
        listed = "\n".join(f"- {line}" for line in found[:8]) + (
            f"\n- and {len(found) - 8} more" if len(found) > 8 else ""
        )
        question = f"Clean up what a killed dream left?\n{listed}\nNothing a dream review waits on is removed."
        if not await self.app.push_screen_wait(Confirm(question)):
            return
        try:
            done = await self.repo.clean_dream_leftovers()
        except MemrepoError as exc:
            self.notify(
                clean(str(exc), one_line=False), title="Cannot clean up", severity="error", timeout=8, markup=False
            )
            self.post_message(WriteFailed(str(exc)))
            return
        said = (
            f"Cleaned up {len(done)} thing{'s' * (len(done) != 1)} a killed dream left"
            if done
            else "Nothing to clean up: a dream is running"
        )
        self.notify(clean(said), timeout=4, markup=False)
        for pane in self.app.query("DreamsPane"):
            pane.reload()  # type: ignore[attr-defined]
        self.reload()

    def action_clean_dreams(self) -> None:
        """Clean up what killed dreams left, after a y/n question (the ``killed dreams`` row's fix)."""
        if self.repo is None:
            self.notify("The memory repo is not open yet", severity="warning", timeout=3, markup=False)
            return
        self.clean_dreams()

    def _progress_step(self, event: CompactProgress | None) -> None:
        """Show one progress event (called on the event loop by ``repo.compact``)."""
        bar = self.query_one("#health-bar", ProgressBar)
        step = self.query_one("#health-step", Static)
        if event is None:
            bar.update(total=1, progress=0)
            step.update("Compacting: starting")
            return
        bar.update(total=event.steps, progress=event.step - 1 + (event.done / event.total if event.total else 0))
        counted = f" ({event.done:,} of {event.total:,})" if event.total else ""
        step.update(f"Compacting: [{event.step}/{event.steps}] {event.label}{counted}")

    # -- showing -------------------------------------------------------

    def _show(self, rows: list[HealthRow]) -> None:
        table = self.table
        row_index = table.cursor_row
        colours = self.app.theme_variables
        root = str(self.repo.root) if self.repo is not None else None
        table.clear()
        rows = sorted(rows, key=lambda r: STATUS_ORDER.get(r.status.value, len(STATUS_ORDER)))  # stable
        self._rows = rows
        reasons: list[Text] = []
        for n, health_row in enumerate(rows):
            status = health_row.status.value
            style = colours.get(STATUS_COLOURS[status], "")
            reason = health_row.reason
            if root:
                reason = reason.replace(root, display_path(self.repo.root))  # type: ignore[union-attr]
            reason_text = Text(clean(reason), end="")
            reasons.append(reason_text)
            table.add_row(
                Text(status, style=f"bold {style}" if status != "OK" else style, end=""),
                Text(clean(health_row.name), no_wrap=True, overflow="ellipsis", end=""),
                Text(health_row.fix_key or "", style="bold", end=""),
                # Whole: the pane clips what does not fit, and the line under the
                # table shows it all.
                reason_text,
                key=f"{n}:{health_row.name}",
            )
        fit_column(table, "reason", reasons)
        table.move_cursor(row=min(max(row_index, 0), max(len(rows) - 1, 0)))
        self._show_detail()
        fails = sum(r.status.value == "FAIL" for r in rows)
        warns = sum(r.status.value == "WARN" for r in rows)
        table.border_title = f"Health {fails} FAIL · {warns} WARN" if fails or warns else "Health: all OK"

    @on(DataTable.RowHighlighted, "#health-rows")
    def _highlighted(self) -> None:
        self._show_detail()

    @on(DataTable.RowSelected, "#health-rows")
    def _selected(self) -> None:
        """Enter on a row: run its fix (the key the fix column names), else show the whole check."""
        row_index = self.table.cursor_row
        if not 0 <= row_index < len(self._rows):
            return
        health_row = self._rows[row_index]
        if health_row.fix_key:
            active = self.screen.active_bindings.get(health_row.fix_key)  # the fix is whatever that key does here
            if active is not None:
                self.call_later(self.app.run_action, active.binding.action, active.node)
                return
        from ..widgets.text_screen import TextScreen

        reason = health_row.reason
        if self.repo is not None:
            reason = reason.replace(str(self.repo.root), display_path(self.repo.root))
        self.app.push_screen(TextScreen(f"Health: {health_row.name}", f"{health_row.status.value}: {reason}"))

    def _show_detail(self) -> None:
        """Show the highlighted row's whole reason and its fix under the table."""
        row_index = self.table.cursor_row
        detail = self.query_one("#health-detail", Static)
        if not 0 <= row_index < len(self._rows):
            detail.update("")
            return
        health_row = self._rows[row_index]
        reason = health_row.reason
        if self.repo is not None:
            reason = reason.replace(str(self.repo.root), display_path(self.repo.root))
        fix = f" · fix: press {health_row.fix_key}" if health_row.fix_key else ""
        detail.update(clean(f"{health_row.status.value} {health_row.name}: {reason}{fix}"))

    # -- actions -------------------------------------------------------

    def action_compact(self) -> None:
        """Compact the history after a y/n question (docs/architecture.md §5)."""
        if self.repo is None:
            self.notify("The memory repo is not open yet", severity="warning", timeout=3, markup=False)
            return
        if self._compacting:
            self.notify("A compaction is already running", severity="warning", timeout=3, markup=False)
            return
        self.compact_history()
