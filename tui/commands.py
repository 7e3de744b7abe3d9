"""Command palette entries built from the app's current state (STYLE.md habit 8).

``ctrl+p`` then a few letters of a path opens any file of the repo, which is
the fast way around a 2,000-file folder.
"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from .messages import FileOpenRequested
from .plain import clean

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
            yield DiscoveryHit(Content(f"Open {clean(path)}"), partial(self._open, path),
                               text=f"Open {path}", help="Folder pane")

    async def search(self, query: str) -> Hits:
        """Yield every file whose path matches ``query``.

        Args:
            query: what the user typed.
        """
        matcher = self.matcher(query)
        for path in self._paths():
            score = matcher.match(path)
            if score > 0:
                yield Hit(score, _highlight(matcher, path), partial(self._open, path),
                          text=path, help="Open in the Folder pane")


class HealthCommands(Provider):
    """Compact the history (DESIGN.md §5) and show the Health pane, from the palette."""

    def _commands(self) -> list[tuple[str, str, str]]:
        from .panes import HealthPane

        if not self.app.query(HealthPane) or getattr(self.app, "repo", None) is None:
            return []  # offered only when it can run
        return [
            ("Compact history", "Keep the current files as one commit; forgotten text leaves .git", "compact"),
            ("Show health", "Every health row of the memory repo", "health"),
        ]

    def _run(self, what: str) -> None:
        from .panes import HealthPane

        self.app.action_show_pane(HealthPane.PANE_ID)  # type: ignore[attr-defined]
        pane = self.app.query_one(HealthPane)
        if what == "compact":
            pane.action_compact()

    async def discover(self) -> Hits:
        """Offer compaction and the Health pane before anything is typed."""
        for name, help_text, what in self._commands():
            yield DiscoveryHit(Content(name), partial(self._run, what), text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        """Yield the commands matching ``query``.

        Args:
            query: what the user typed.
        """
        matcher = self.matcher(query)
        for name, help_text, what in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self._run, what), text=name, help=help_text)
