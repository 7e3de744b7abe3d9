"""Command palette entries built from the app's current state.

``ctrl+p`` then a few letters of a path opens any file of the repo, which is
the fast way around a 2,000-file folder.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from .messages import FileOpenRequested
from .plain import clean

if TYPE_CHECKING:
    from textual.widget import Widget

DISCOVER_LIMIT = 20
"""Files offered before anything is typed."""


def _highlight(matcher: Matcher, path: str) -> Content:
    # Matcher.highlight() parses the path as markup; a file may be called "[draft].md".
    shown = clean(path)
    content = Content(shown)
    _score, offsets = matcher.fuzzy_search.match(matcher.query, shown)
    for offset in offsets:
        content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class FileCommands(Provider):
    """Open a file of the memory repo by (fuzzy) path."""

    def _paths(self) -> list[str]:
        from .panes import FolderPane

        panes = self.app.query(FolderPane)
        return list(panes.first().files) if panes else []

    def _open(self, path: str) -> None:
        self.app.post_message(FileOpenRequested(path))

    async def discover(self) -> Hits:
        """Offer the top-level files before anything is typed."""
        top = [p for p in self._paths() if "/" not in p][:DISCOVER_LIMIT]
        for path in top:
            yield DiscoveryHit(
                Content(f"Open {clean(path)}"), partial(self._open, path), text=f"Open {path}", help="Files pane"
            )

    async def search(self, query: str) -> Hits:
        """Yield every file whose path matches ``query``.

        Args:
            query: what the user typed.
        """
        matcher = self.matcher(query)
        for path in self._paths():
            score = matcher.match(path)
            if score > 0:
                yield Hit(
                    score,
                    _highlight(matcher, path),
                    partial(self._open, path),
                    text=path,
                    help="Open in the Files pane",
                )


class KeyCommands(Provider):
    """Every key's action from the palette, named by its description (the bindings are the one source).

    A pane's keys read ``<Pane>: <description>`` (``Dreams: Accept``) and show
    that pane first; the app's keys read as their description (``Sync now``).
    Moving keys (lists, trees, scrolling) are not offered: the palette is for
    actions. See :func:`tui.keys.palette_commands`.
    """

    def _run(self, action: str, pane_id: str | None, box: str | None = None) -> None:
        from textual.widget import Widget

        from .panes import Pane

        app = self.app
        target: object = app
        reading = None
        if pane_id is not None:
            pane = target = app.main_screen.query_one(f"#{pane_id}", Pane)  # type: ignore[attr-defined]
            reading = None if pane.loaded else pane  # shown for the first time: it starts reading now
            app.action_show_pane(pane_id)  # type: ignore[attr-defined]
            if box is not None:  # a box's own key: it acts on that box's highlighted row
                focused = pane.query_one(f"#{box}", Widget)
                focused.focus()
                target = focused
        elif action.startswith("app."):
            target = app.main_screen  # type: ignore[attr-defined]
        app.call_later(self._act, action, target, reading)

    async def _act(self, action: str, target: object, pane: Widget | None) -> None:
        """Run ``action``, once ``pane`` (a pane shown for the first time, or None) has read what it shows."""
        from textual.worker import WorkerCancelled, WorkerFailed, WorkerState

        app = self.app
        while pane is not None:
            busy = [w for w in app.workers if w.node is pane and w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
            if not busy:
                break
            for worker in busy:  # one cancelled by a newer read of the same kind: that one is waited for next
                with contextlib.suppress(WorkerCancelled, WorkerFailed):
                    await worker.wait()
        await app.run_action(action, target)  # type: ignore[arg-type]

    def _commands(self) -> list[tuple[str, str, partial[None]]]:
        from .keys import palette_commands

        if getattr(self.app, "repo", None) is None:
            return []  # the keys act on the open repo
        return [(c.name, c.help, partial(self._run, c.action, c.pane_id, c.box)) for c in palette_commands()]

    async def discover(self) -> Hits:
        """Offer every action before anything is typed."""
        for name, help_text, run in self._commands():
            yield DiscoveryHit(Content(name), run, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        """Yield the actions whose name matches ``query``.

        Args:
            query: what the user typed.
        """
        matcher = self.matcher(query)
        for name, help_text, run in self._commands():
            score = matcher.match(name)
            if score > 0:
                # Half weight: a file whose path holds the letters typed ("red" in notes/[red]x.md)
                # comes before a key whose name merely scatters them.
                yield Hit(score / 2, matcher.highlight(name), run, text=name, help=help_text)
