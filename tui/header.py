"""The one-line header: panes, the repo's path, HEAD and clean/dirty state.

No clock and no host name: the header shows only what the repo says, so
snapshots are stable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Label

from .plain import plain

if TYPE_CHECKING:
    from datetime import datetime

    from memrepo.engine.models import RepoStatus, SyncState

STATE_LABELS = {
    "clean": "clean",
    "hand_edited": "hand-edited",
    "blocked": "blocked",
}
"""How each ``RepoState`` value reads in the header."""


INBOX_TITLE = "Inbox"
"""The Inbox pane's title: the header says beside it how many entries wait for review ("2 Inbox (3)")."""

PATH_ROOM = 14
"""Columns the repo's path keeps before the pane titles shrink to numbers."""


def short_path(path: str, room: int) -> str:
    """The repo's path in ``room`` cells: whole when it fits, else ``…/`` and its last component (the folder
    people know the repo by: ``~/work/agent-memory`` -> ``…/agent-memory``), else that cut at its end.

    Args:
        path: the path as shown (``~/agent-memory``).
        room: cells the label has for it (0 or less: as much as the label shows).
    """
    if room <= 0 or cell_len(path) <= room:
        return path
    last = path.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1]
    return f"…/{last}" if last and last != path else path


def path_cells(path: str) -> int:
    """Cells the header keeps for the repo's path at least: all of it or ``…/`` and its last component, whichever
    is shorter (docs/architecture.md §8)."""
    last = path.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1] or path
    return min(cell_len(path), cell_len(f"…/{last}"))


def sync_age(when: datetime | None) -> str:
    """How long ago the last sync succeeded, in a few characters: ``now``, ``3m``, ``2h``, ``4d``, ``never``."""
    from datetime import UTC, datetime

    if when is None:
        return "never"
    seconds = max(int((datetime.now(UTC) - when).total_seconds()), 0)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return "now"


def show_sized(label: Label, text: str, cells: int | None = None) -> None:
    """Set a header label's text and a width that fits it exactly.

    Textual 8.2 keeps a widget's box model in a cache whose key moves only
    when a layout request is new: a second ``update`` before the label's
    idle turn reuses the width laid out for the first text. HEAD's label,
    laid out empty at start, then stayed 0 cells wide for good (about 1
    start in 4 at 2,000 files; the header of docs/architecture.md §8). A width
    set from the text changes the styles, and with them the cache key.

    Args:
        label: a label with ``width: auto`` in the stylesheet.
        text: what it shows (markup when the label takes markup).
        cells: the text's width in terminal cells when markup makes it
            differ from ``cell_len(text)``.
    """
    label.update(text)
    label.styles.width = (cell_len(text) if cells is None else cells) + label.styles.gutter.width


class RepoHeader(Horizontal):
    """The header line; the app sets its reactives, it draws them."""

    panes: reactive[tuple[str, ...]] = reactive(tuple)
    """Pane titles in number-key order."""
    active: reactive[int] = reactive(0)
    """Index of the pane on screen."""
    repo_path: reactive[str] = reactive("")
    """The repo's path as people read it (``~/agent-memory``)."""
    head: reactive[str | None] = reactive(None)
    """HEAD's full id, None while unborn."""
    state: reactive[str] = reactive("")
    """A ``RepoState`` value, or ``""`` before the first status read."""
    changed: reactive[int] = reactive(0)
    """How many files were changed by hand."""
    pending: reactive[int] = reactive(0)
    """Writes kept while the work tree was blocked, waiting to be applied."""
    inbox: reactive[int] = reactive(0)
    """Entries waiting in inbox.md for review."""

    def compose(self) -> ComposeResult:
        """Yield the labels, left to right."""
        yield Label("memrepo", id="header-brand")
        yield Label("", id="header-panes")
        yield Label("", id="header-path", markup=False)
        yield Label("", id="header-head")
        yield Label("", id="header-state")
        yield Label("", id="header-sync")

    def show_status(self, status: RepoStatus, inbox: int = 0) -> None:
        """Show a freshly read status.

        Args:
            status: from ``MemoryRepo.status()``.
            inbox: entries waiting in inbox.md for review.
        """
        self.head = status.head
        self.state = status.state.value
        self.changed = len(status.changed)
        self.pending = status.pending
        self.inbox = inbox

    def show_sync(self, state: SyncState, syncing: bool = False) -> None:
        """Show where sync stands: commits to push and to merge, the last sync.

        Hidden while no remote is set.

        Args:
            state: from ``MemoryRepo.sync_state()``.
            syncing: a sync is running now.
        """
        label = self.query_one("#header-sync", Label)
        if state.remote is None:
            label.display = False
            self._draw()
            return
        if syncing:
            text = "⇅ syncing…"
        else:
            text = f"⇅ ↑{state.ahead} ↓{state.behind}"
            # Short: the header is one line of 80 columns.
            if state.last_error:
                text += " offline" if "reach" in state.last_error else " failed"
            else:
                text += f" {sync_age(state.last_sync)}"
        label.set_class(bool(state.last_error) and not syncing, "-error")
        show_sized(label, text)
        label.display = True
        self._draw()

    def watch_panes(self) -> None:
        self._draw()

    def watch_active(self) -> None:
        self._draw()

    def watch_repo_path(self) -> None:
        self._draw()

    def watch_head(self) -> None:
        self._draw()

    def watch_state(self) -> None:
        self._draw()

    def watch_changed(self) -> None:
        self._draw()

    def watch_pending(self) -> None:
        self._draw()

    def watch_inbox(self) -> None:
        self._draw()

    def on_mount(self) -> None:
        """Draw the initial values."""
        self._draw()

    def on_resize(self) -> None:
        """Fit the pane titles to the new width (after this layout pass, so the labels lay out again)."""
        self.call_after_refresh(self._draw)

    def _draw(self) -> None:
        if not self.is_mounted:
            return
        head = "" if not self.state else f"HEAD {self.head[:7]}" if self.head else "HEAD unborn"
        if not self.state:
            text = "opening…"
        elif self.state == "hand_edited":
            text = f"● hand-edited {self.changed}"
        else:
            text = f"● {STATE_LABELS.get(self.state, self.state)}"
        if self.pending:
            # Blocked writes are kept, not lost: say how many wait to be applied.
            text += f" · {self.pending} kept"
        # Wide: the brand, every pane's title and a readable path. Narrower (80
        # columns): no brand, the titles set tight, HEAD's id without "HEAD"
        # (or no id when the titles and the path's last component need its room),
        # the path in what is left. Narrower still: numbers, with the title
        # of the pane on screen only (lazygit's habit).
        sync = self.query_one("#header-sync", Label)
        sync_width = len(str(sync.visual)) + 2 if sync.display else 0
        width = self.size.width

        def row(names: tuple[str, ...], tight: bool, numbers_only: bool = False) -> list[str]:
            parts = []
            for index, name in enumerate(names):
                label = f"{index + 1}" if numbers_only and index != self.active else f"{index + 1} {name}"
                if name == INBOX_TITLE and self.inbox:
                    # "● clean" alone read as "nothing to do" while entries waited for review (breaker30 B30-18).
                    label += f" ({self.inbox})"
                if index == self.active:
                    parts.append(f"[reverse] {label} [/]")
                else:
                    parts.append(f"{label} " if tight else f" {label} ")
            return parts

        def cells(parts: list[str]) -> int:
            return sum(len(p.replace("[reverse]", "").replace("[/]", "")) for p in parts)

        state_width = len(f" {text} ") + sync_width
        # The path keeps room for its last component at least (`…/agent-memory`): which repo this is must
        # stay readable; the pane titles give way first.
        path_room = max(PATH_ROOM, path_cells(self.repo_path) + 2)
        full = row(self.panes, tight=False)
        brand = True
        if not width or cells(full) + len(" memrepo ") + len(f" {head} ") + state_width + path_room <= width:
            parts = full
        else:
            brand = False
            head = head.removeprefix("HEAD ")
            short = row(self.panes, tight=True)
            need = cells(short) + state_width + path_cells(self.repo_path) + 2
            if need + len(f" {head} ") > width and need <= width:
                # HEAD's id gives way before the pane titles: a new user finds panes by their names.
                head = ""
            fits = need + (len(f" {head} ") if head else 0) <= width
            parts = short if fits else row(self.panes, tight=True, numbers_only=True)
        self.query_one("#header-brand", Label).display = brand
        show_sized(self.query_one("#header-panes", Label), "".join(parts), cells(parts))
        room = (
            width
            - cells(parts)
            - (len(f" {head} ") if head else 0)
            - state_width
            - 2
            - (len(" memrepo ") if brand else 0)
        )
        self.query_one("#header-path", Label).update(plain(short_path(self.repo_path, room if width else 0)))
        head_label = self.query_one("#header-head", Label)
        show_sized(head_label, head)
        head_label.display = bool(head)  # an empty label's padding is room the path was counted to have
        state = self.query_one("#header-state", Label)
        for value in STATE_LABELS:
            state.set_class(value == self.state, f"-{value.replace('_', '-')}")
        show_sized(state, text)
