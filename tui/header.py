"""The one-line header: panes, the repo's path, HEAD and clean/dirty state.

No clock and no host name: the header shows only what the repo says, so
snapshots are stable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Label

from .plain import plain

if TYPE_CHECKING:
    from engine.models import RepoStatus

STATE_LABELS = {
    "clean": "clean",
    "hand_edited": "hand-edited",
    "blocked": "blocked",
}
"""How each ``RepoState`` value reads in the header."""


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
    pending: reactive[int] = reactive(0)
    """Writes kept while the work tree was blocked, waiting to be applied."""
    """How many files were changed by hand."""

    def compose(self) -> ComposeResult:
        """Yield the labels, left to right."""
        yield Label("memrepo", id="header-brand")
        yield Label("", id="header-panes")
        yield Label("", id="header-path", markup=False)
        yield Label("", id="header-head")
        yield Label("", id="header-state")

    def show_status(self, status: RepoStatus) -> None:
        """Show a freshly read status.

        Args:
            status: from ``MemoryRepo.status()``.
        """
        self.head = status.head
        self.state = status.state.value
        self.changed = len(status.changed)
        self.pending = status.pending

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

    def on_mount(self) -> None:
        """Draw the initial values."""
        self._draw()

    def on_resize(self) -> None:
        """Fit the pane titles to the new width."""
        self._draw()

    def _draw(self) -> None:
        if not self.is_mounted:
            return
        head = "" if not self.state else f"HEAD {self.head[:7]}" if self.head else "HEAD unborn"
        # Every pane's title when they fit beside the path, HEAD and state;
        # else only the shown pane's title, the others by number (lazygit).
        full = sum(len(f" {n + 1} {t} ") for n, t in enumerate(self.panes))
        room = self.size.width - (len("memrepo") + len(self.repo_path) + len(head) + len("● hand-edited 99") + 8)
        short = self.size.width > 0 and full > room
        parts = []
        for index, title in enumerate(self.panes):
            text = f"{index + 1} {title}"
            if index == self.active:
                parts.append(f"[reverse] {text} [/]")
            else:
                parts.append(f" {index + 1} " if short else f" {text} ")
        self.query_one("#header-panes", Label).update("".join(parts))
        self.query_one("#header-path", Label).update(plain(self.repo_path))
        self.query_one("#header-head", Label).update(head)
        state = self.query_one("#header-state", Label)
        for value in STATE_LABELS:
            state.set_class(value == self.state, f"-{value.replace('_', '-')}")
        if not self.state:
            text = "opening…"
        elif self.state == "hand_edited":
            text = f"● hand-edited {self.changed}"
        else:
            text = f"● {STATE_LABELS.get(self.state, self.state)}"
        if self.pending:
            # Blocked writes are kept, not lost: say how many wait to be applied.
            text += f" · {self.pending} kept"
        state.update(text)
