"""The History pane: the repo's commits, each one's diff, and undo.

The log comes from ``repo.log()`` (newest first), a diff from ``repo.diff()``,
undo from ``repo.undo()`` after a y/n question. The pane reads the log again
whenever HEAD moves (the app passes on every fresh status).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static

from ..messages import RepoWritten, WriteFailed
from ..plain import clean
from ..tablefit import fit_column
from ..widgets.dialogs import Confirm
from .base import Pane

if TYPE_CHECKING:
    from engine.models import CommitInfo, RepoStatus

LOG_LIMIT = 200
"""The pane lists at most this many commits."""

DIFF_MAX_LINES = 5000
"""A diff shows at most this many lines."""

HINT = "enter shows the highlighted commit's changes"


def diff_content(patch: str) -> Content:
    """A unified diff as plain content, added and removed lines in the theme's diff colours.

    Args:
        patch: the unified diff.

    Returns:
        Content: never parsed as markup.
    """
    lines = clean(patch, one_line=False).split("\n")
    cut = len(lines) > DIFF_MAX_LINES
    lines = lines[:DIFF_MAX_LINES]
    if cut:
        lines.append(f"… cut at {DIFF_MAX_LINES:,} lines")
    content = Content("\n".join(lines))
    offset = 0
    for line in lines:
        style = None
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("+"):
            style = "$diff-added"
        elif line.startswith("-"):
            style = "$diff-removed"
        elif line.startswith("@@"):
            style = "$foreground-muted"
        if style is not None:
            content = content.stylize(style, offset, offset + len(line))
        offset += len(line) + 1
    return content


class HistoryPane(Pane):
    """Commits newest first; ``enter`` shows a diff, ``u`` undoes a commit."""

    PANE_ID = "history"
    PANE_TITLE = "History"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor(1)", "Next commit", id="history.down", show=False),
        Binding("k", "cursor(-1)", "Previous commit", id="history.up", show=False),
        Binding("enter", "show_diff", "Diff", id="history.diff"),
        Binding("escape", "back", "Back to commits", id="history.back", show=False),
        Binding("u", "undo", "Undo commit", id="history.undo",
                tooltip="Revert the highlighted commit in a new commit, after a y/n question"),
    ]
    """Keys of the History pane."""

    def __init__(self) -> None:
        """Create the pane; it reads the log once the app attaches the repo."""
        super().__init__()
        self._commits: list[CommitInfo] = []
        self._head: str | None = None
        self._diff_of: str | None = None

    def compose(self) -> ComposeResult:
        """Yield the commits table and the diff box."""
        table: DataTable[Text] = DataTable(id="history-commits", cursor_type="row")
        table.border_title = "History"
        yield table
        with VerticalScroll(id="history-diff") as box:
            box.border_title = "Diff"
            yield Static(HINT, id="history-diff-text", markup=False)

    def on_mount(self) -> None:
        """Add the columns."""
        table = self.table
        table.add_column("id", key="id", width=7)
        table.add_column("time", key="time", width=16)
        table.add_column("origin", key="origin", width=12)
        table.add_column("summary", key="summary")

    # -- state ---------------------------------------------------------

    @property
    def table(self) -> DataTable[Text]:
        """The commits table."""
        return self.query_one("#history-commits", DataTable)

    @property
    def commits(self) -> list[CommitInfo]:
        """The commits listed, newest first."""
        return list(self._commits)

    @property
    def diff_text(self) -> str:
        """The text the diff box shows."""
        return str(self.query_one("#history-diff-text", Static).visual)

    @property
    def highlighted(self) -> CommitInfo | None:
        """The commit under the cursor, or None."""
        row = self.table.cursor_row
        return self._commits[row] if 0 <= row < len(self._commits) else None

    # -- Pane contract -------------------------------------------------

    def reload(self) -> None:
        """Read the log again."""
        self.load_log()

    def work_tree_changed(self, paths: list[str]) -> None:
        """Nothing: the log follows HEAD (see :meth:`repo_status_changed`)."""

    def repo_status_changed(self, status: RepoStatus) -> None:
        """Read the log again when HEAD moved.

        Args:
            status: the fresh status with HEAD's id.
        """
        if status.head != self._head and self.repo is not None:
            self._head = status.head
            self.load_log()

    def focus_default(self) -> None:
        """Focus the commits table."""
        self.table.focus()

    # -- workers -------------------------------------------------------

    @work(group="history-log", exclusive=True, exit_on_error=False, description="Reading the history")
    async def load_log(self) -> None:
        """Read the newest commits and list them."""
        if self.repo is None:
            return
        commits = await self.repo.log(LOG_LIMIT)
        self._show(commits)

    @work(group="history-diff", exclusive=True, exit_on_error=False, description="Reading a diff")
    async def load_diff(self, commit: CommitInfo) -> None:
        """Show the changes one commit made."""
        if self.repo is None:
            return
        patch = await self.repo.diff(commit.id)
        self._diff_of = commit.id
        box = self.query_one("#history-diff", VerticalScroll)
        box.border_title = Content(f"Diff {commit.short_id}")
        self.query_one("#history-diff-text", Static).update(
            diff_content(patch) if patch.strip() else Content("No changes in this commit"))
        box.scroll_home(animate=False)
        box.focus()

    @work(group="history-undo", exit_on_error=False, description="Undoing a commit")
    async def undo_commit(self, commit: CommitInfo) -> None:
        """Ask, then revert the commit in a new one; a conflict is a notice and changes nothing."""
        from engine.errors import MemrepoError

        if self.repo is None:
            return
        question = f"Undo {commit.short_id} {clean(commit.summary)}?\nA new commit reverts it."
        if not await self.app.push_screen_wait(Confirm(question)):
            return
        try:
            result = await self.repo.undo(commit.id, origin="tui")
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="Cannot undo", severity="error",
                        timeout=8, markup=False)
            self.post_message(WriteFailed(str(exc)))
            return
        self.notify(f"Undid {commit.short_id}", timeout=3, markup=False)
        self.post_message(RepoWritten(result.commit))
        self.load_log()

    # -- showing -------------------------------------------------------

    def _show(self, commits: list[CommitInfo]) -> None:
        table = self.table
        keep = self.highlighted.id if self.highlighted is not None else None
        if table.cursor_row <= 0:
            keep = None  # the newest was highlighted: follow it to the new newest at the top
        self._commits = list(commits)
        if commits:
            self._head = commits[0].id
        table.clear()
        summaries: list[Text] = []
        for info in commits:
            summaries.append(Text(clean(info.summary), no_wrap=True, overflow="ellipsis", end=""))
            table.add_row(
                Text(info.short_id, end=""),
                Text(info.time.strftime("%Y-%m-%d %H:%M"), end=""),
                Text(clean(info.origin or "—"), no_wrap=True, overflow="ellipsis", end=""),
                summaries[-1],
                key=info.id,
            )
        fit_column(table, "summary", summaries)
        ids = [c.id for c in commits]
        table.move_cursor(row=ids.index(keep) if keep in ids else 0)
        table.border_title = f"History {len(commits)}"

    # -- actions -------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        """Highlight the next or previous commit."""
        table = self.table
        if self._commits:
            table.move_cursor(row=min(max(table.cursor_row + step, 0), len(self._commits) - 1))

    def action_show_diff(self) -> None:
        """Show the highlighted commit's diff."""
        commit = self.highlighted
        if commit is not None:
            self.load_diff(commit)

    @on(DataTable.RowSelected, "#history-commits")
    def _row_selected(self) -> None:
        # The table takes enter first (its own select key): show the diff from its message.
        self.action_show_diff()

    def action_back(self) -> None:
        """Go back from the diff to the commits."""
        self.table.focus()

    def action_undo(self) -> None:
        """Undo the highlighted commit after a y/n question."""
        commit = self.highlighted
        if commit is not None:
            self.undo_commit(commit)
