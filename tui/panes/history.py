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
from textual.content import Content
from textual.widgets import DataTable

from ..messages import RepoWritten, WriteFailed
from ..plain import clean
from ..tablefit import fit_column
from ..widgets.dialogs import Confirm
from ..widgets.diff_view import ADDED, DIFF_MAX_LINES, FILE, HUNK, REMOVED, DiffView, diff_lines, line_kind
from ..widgets.list_table import ListTable
from .base import Pane

if TYPE_CHECKING:
    from textual.timer import Timer

    from memrepo.engine.models import CommitInfo, RepoStatus

LOG_PAGE = 200
"""Commits read at a time; more are read as the cursor nears the end of the list."""

MORE_AT = 20
"""Read the next page when the cursor is this many rows from the end."""

DIFF_DELAY = 0.12
"""Seconds the cursor rests on a commit before its diff is read (a held key reads no diff on the way)."""

HINT = "The highlighted commit's changes show here"

_STYLES = {FILE: "bold", ADDED: "$diff-added", REMOVED: "$diff-removed", HUNK: "$foreground-muted"}
"""The style of each diff line kind in :func:`diff_content`."""


def diff_content(patch: str) -> Content:
    """A unified diff as plain content, added and removed lines in the theme's diff colours.

    The Dreams pane shows a review diff under its operations with it; the
    History pane draws a commit's diff line by line instead (:class:`DiffBox`).

    Args:
        patch: the unified diff (at most :data:`~memrepo.tui.widgets.diff_view.DIFF_MAX_LINES` lines are kept).

    Returns:
        Content: never parsed as markup.
    """
    lines = diff_lines(patch)
    content = Content("\n".join(lines))
    offset = 0
    for line in lines:
        style = _STYLES.get(line_kind(line))
        if style is not None:
            content = content.stylize(style, offset, offset + len(line))
        offset += len(line) + 1
    return content


ORIGIN_WORDS = {
    "agent_tool": "agent",
    "mcp": "agent (MCP)",
    "cli": "command",
    "tui": "app",
    "hand_edit": "hand edit",
    "inbox_triage": "inbox",
}
"""The Log's words for a commit's ``Origin:`` trailer; the trailer's own word where it is plain (``dream``)."""


def origin_word(origin: str | None) -> str:
    """``agent`` for ``agent_tool``: the Log names who wrote, not memrepo's internal word (breaker27 B27-6)."""
    return ORIGIN_WORDS.get(origin or "", origin or "—")


class DiffBox(DiffView, can_focus=False, inherit_bindings=False):
    """The diff of the highlighted commit; it takes the focus only while zoomed (``z``), so the list keys
    move the list, and the same keys scroll the diff once it fills the screen (``l`` did nothing there)."""

    ALLOW_MAXIMIZE = True

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "scroll_down", "Scroll down", id="diff.down", show=False),
        Binding("up,k", "scroll_up", "Scroll up", id="diff.up", show=False),
        Binding("right,l", "scroll_right", "Scroll right", id="diff.right", show=False),
        Binding("left,h", "scroll_left", "Scroll left", id="diff.left", show=False),
        Binding("pagedown", "page_down", "Page down", id="diff.page-down", show=False),
        Binding("pageup", "page_up", "Page up", id="diff.page-up", show=False),
        Binding("home,g", "scroll_home", "Top", id="diff.first", show=False),
        Binding("end,G", "scroll_end", "Bottom", id="diff.last", show=False),
    ]
    """Keys of the zoomed diff (the History pane's keys work too)."""


class HistoryPane(Pane):
    """Commits newest first with the highlighted one's diff (tig/lazygit); ``u`` undoes a commit.

    The list keys move the commit list whatever has the focus; ``J``/``K`` and
    ctrl+d/ctrl+u scroll the diff; ``enter`` (or ``z``) fills the screen with it.
    """

    PANE_ID = "history"
    PANE_TITLE = "Log"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("J", "scroll_diff(1)", "Scroll the diff down", id="history.scroll-down", show=False),
        Binding("K", "scroll_diff(-1)", "Scroll the diff up", id="history.scroll-up", show=False),
        Binding("ctrl+d", "scroll_diff(10)", "Diff page down", id="history.scroll-page-down", show=False),
        Binding("ctrl+u", "scroll_diff(-10)", "Diff page up", id="history.scroll-page-up", show=False),
        Binding("z", "zoom", "Zoom diff", id="history.zoom", tooltip="Fill the screen with the diff; z or esc back"),
        Binding("escape", "back", "Back to commits", id="history.back", show=False),
        Binding(
            "u",
            "undo",
            "Undo commit",
            id="history.undo",
            tooltip="Revert the highlighted commit in a new commit, after a y/n question",
        ),
    ]
    """Keys of the History pane."""

    def __init__(self) -> None:
        """Create the pane; it reads the log once the app attaches the repo."""
        super().__init__()
        self._commits: list[CommitInfo] = []
        self._head: str | None = None
        self._diff_of: str | None = None
        self._more = False
        self._loading_more = False
        self._diff_timer: Timer | None = None
        self._log_stale = False
        """HEAD moved while the pane was hidden: the log is read when it is shown."""

    def compose(self) -> ComposeResult:
        """Yield the commits table and the diff box."""
        table = ListTable(id="history-commits")
        table.border_title = "Log"
        yield table
        box = DiffBox(HINT, id="history-diff")
        box.border_title = "Diff"
        yield box

    def on_mount(self) -> None:
        """Add the columns."""
        table = self.table
        table.add_column("id", key="id", width=7)
        table.add_column("time", key="time", width=16)
        table.add_column("origin", key="origin", width=12)
        table.add_column("summary", key="summary")
        # Follow the screen's zoom: esc (Textual's minimize) brings the list and its focus back.
        self.watch(self.screen, "maximized", self._zoom_changed, init=False)

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
        return self.query_one("#history-diff", DiffBox).text

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
        """Read the log again when HEAD moved, or once the pane is shown if it is hidden.

        A hidden pane does not read 200 commits on every write an agent makes.

        Args:
            status: the fresh status with HEAD's id.
        """
        if status.head != self._head and self.repo is not None:
            self._head = status.head
            if self.display:
                self.load_log()
            else:
                self._log_stale = True

    def _zoom_changed(self, maximized: object) -> None:
        box = self.query_one("#history-diff", DiffBox)
        if maximized is None and box.can_focus:
            self.action_back()

    def focus_default(self) -> None:
        """Focus the commits table, read the log if HEAD moved while hidden, show the highlighted diff."""
        if self._log_stale:
            self._log_stale = False
            self.load_log()
        self.table.focus()
        self.call_after_refresh(self._diff_soon)  # once the switcher has made the pane visible

    # -- workers -------------------------------------------------------

    @work(group="history-log", exclusive=True, exit_on_error=False, description="Reading the history")
    async def load_log(self) -> None:
        """Read the newest commits (as many as were listed, at least a page) and list them."""
        if self.repo is None:
            return
        want = max(LOG_PAGE, len(self._commits))
        commits = await self.repo.log(want + 1)
        self._more = len(commits) > want
        self._show(commits[:want])

    @work(group="history-more", exclusive=True, exit_on_error=False, description="Reading older commits")
    async def load_more(self) -> None:
        """Read the next page of older commits and add them under the list."""
        if self.repo is None or not self._more:
            return
        self._loading_more = True
        try:
            older = await self.repo.log(LOG_PAGE + 1, skip=len(self._commits))
        finally:
            self._loading_more = False
        self._more = len(older) > LOG_PAGE
        known = {c.id for c in self._commits}
        self._append([c for c in older[:LOG_PAGE] if c.id not in known])

    @work(group="history-diff", exclusive=True, exit_on_error=False, description="Reading a diff")
    async def load_diff(self, commit: CommitInfo) -> None:
        """Show the changes one commit made."""
        if self.repo is None:
            return
        # Only what the box can show is made: a commit of every file is tens of MB at 20,000 files.
        patch, left_out = await self.repo.diff_start(commit.id, DIFF_MAX_LINES)
        if self.highlighted is None or self.highlighted.id != commit.id:
            return  # the cursor moved on: the next diff is on its way
        self._diff_of = commit.id
        box = self.query_one("#history-diff", DiffBox)
        box.border_title = Content(f"Diff {commit.short_id}")
        if patch.strip():
            box.show_diff(patch, left_out)
        else:
            box.show_note("No changes in this commit")

    @work(group="history-undo", exit_on_error=False, description="Undoing a commit")
    async def undo_commit(self, commit: CommitInfo, lead: str = "") -> None:
        """Ask (after ``lead``, when given), then revert the commit in a new one; a conflict is a notice and changes nothing."""
        from memrepo.engine.errors import MemrepoError

        if self.repo is None:
            return
        question = f"{lead}Undo {commit.short_id} {clean(commit.summary)}?\nA new commit reverts it."
        if not await self.app.push_screen_wait(Confirm(question)):
            return
        try:
            result = await self.repo.undo(commit.id, origin="tui")
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="Cannot undo", severity="error", timeout=8, markup=False)
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
        self._commits = []
        if commits:
            self._head = commits[0].id
        table.clear()
        self._append(commits)
        ids = [c.id for c in commits]
        table.move_cursor(row=ids.index(keep) if keep in ids else 0)
        self._diff_soon()

    def _append(self, commits: list[CommitInfo]) -> None:
        table = self.table
        self._commits += commits
        undone = self._standing_undos()
        muted = self.app.theme_variables.get("foreground-muted", "")
        for info in commits:
            summary = Text(clean(info.summary), no_wrap=True, overflow="ellipsis", end="")
            undo = undone.get(info.id)
            if undo is not None:  # said before `u` is pressed, not only after
                summary = Text(f"undone by {undo.short_id} · ", style=f"italic {muted}", end="") + summary
                summary.no_wrap, summary.overflow = True, "ellipsis"
            table.add_row(
                Text(info.short_id, end=""),
                Text(info.time.strftime("%Y-%m-%d %H:%M"), end=""),
                Text(clean(origin_word(info.origin)), no_wrap=True, overflow="ellipsis", end=""),
                summary,
                key=info.id,
            )
        summaries = [table.get_row_at(i)[3] for i in range(table.row_count)]
        fit_column(table, "summary", summaries)
        more = " · more below" if self._more else ""
        table.border_title = f"Log {len(self._commits):,}{more}"

    def _diff_soon(self) -> None:
        """Read the highlighted commit's diff once the cursor rests (:data:`DIFF_DELAY`)."""
        if self._diff_timer is not None:
            self._diff_timer.stop()
        if not self.display:
            return  # read when the pane is shown (start-up pays nothing for a pane not on screen)
        self._diff_timer = self.set_timer(DIFF_DELAY, self.action_show_diff, name="history diff")

    # -- actions -------------------------------------------------------

    def action_show_diff(self) -> None:
        """Show the highlighted commit's diff (unless it is shown already)."""
        commit = self.highlighted
        if commit is not None and commit.id != self._diff_of:
            self.load_diff(commit)

    @on(DataTable.RowHighlighted, "#history-commits")
    def _row_highlighted(self) -> None:
        self._diff_soon()
        if self._more and not self._loading_more and self.table.cursor_row >= len(self._commits) - MORE_AT:
            self.load_more()

    @on(DataTable.RowSelected, "#history-commits")
    def _row_selected(self) -> None:
        self.action_zoom()

    def action_scroll_diff(self, lines: int) -> None:
        """Scroll the diff by ``lines`` (negative: up), whatever has the focus."""
        box = self.query_one("#history-diff", DiffBox)
        box.scroll_relative(y=lines, animate=False)

    def action_zoom(self) -> None:
        """Fill the screen with the diff, or bring the list back."""
        screen = self.screen
        box = self.query_one("#history-diff", DiffBox)
        if screen.maximized is not None:
            self.action_back()
            return
        box.can_focus = True  # the list is hidden: the diff holds the focus (and the pane's keys) meanwhile
        screen.maximize(box, container=False)
        box.focus()

    def action_back(self) -> None:
        """Back from the full-screen diff to the commits."""
        if self.screen.maximized is not None:
            self.screen.minimize()
        self.query_one("#history-diff", DiffBox).can_focus = False
        self.call_after_refresh(self.table.focus)  # once the list is laid out again

    def _standing_undos(self) -> dict[str, CommitInfo]:
        """Listed commit id -> its listed undo that still stands (an undo of an undo puts the commit back)."""
        reverts: dict[str, list[CommitInfo]] = {}
        for info in self._commits:
            target = info.trailers.get("Reverts")
            if target:
                reverts.setdefault(target, []).append(info)
        known: dict[str, CommitInfo | None] = {}

        def standing(of: str) -> CommitInfo | None:
            if of not in known:
                known[of] = next((u for u in reverts.get(of, []) if standing(u.id) is None), None)
            return known[of]

        return {of: undo for of in reverts if (undo := standing(of)) is not None}

    def undone_by(self, commit: CommitInfo) -> CommitInfo | None:
        """The listed undo of ``commit`` that still stands, or None (an undo is always newer, so it is listed)."""
        return self._standing_undos().get(commit.id)

    def action_undo(self) -> None:
        """Undo the highlighted commit after a y/n question; one that cannot be undone is said before asking."""
        commit = self.highlighted
        if commit is None:
            return
        undone = self.undone_by(commit)
        if undone is not None:
            self.notify(
                f"{commit.short_id} is already undone by {undone.short_id}",
                title="Cannot undo",
                severity="warning",
                timeout=5,
                markup=False,
            )
            return
        if len(commit.parents) != 1:
            merged = self._merged(commit)
            if merged is not None and self.undone_by(merged) is None:
                self.undo_commit(merged, f"{commit.short_id} is a merge: it cannot be undone on its own.\n")
                return  # offered: the change it merged (an accepted dream's review) can be
            what = "the first commit" if not commit.parents else "a merge"
            how = f": undo the commit it merged, {merged.short_id}, instead" if merged is not None else ""
            self.notify(
                f"{commit.short_id} is {what}: it cannot be undone on its own{how}",
                title="Cannot undo",
                severity="warning",
                timeout=5,
                markup=False,
            )
            return
        self.undo_commit(commit)

    def _merged(self, merge: CommitInfo) -> CommitInfo | None:
        """The listed change a two-parent merge brought in (an accepted dream's review commit), or None."""
        if len(merge.parents) != 2:
            return None
        found = next((c for c in self._commits if c.id == merge.parents[1]), None)
        return found if found is not None and len(found.parents) == 1 else None
