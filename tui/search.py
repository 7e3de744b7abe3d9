"""The search screen: ``/`` from any pane searches the whole memory folder (docs/architecture.md §4).

Typing runs :meth:`memrepo.engine.repo.repo.MemoryRepo.recall` in an exclusive worker
(each keystroke cancels the search before it, after a short pause), so the
screen never waits on a search. Results list file, line and entry text;
``enter`` dismisses with the hit and the app opens it in the Folder pane.
When nothing answers confidently, the nearest entries are listed dimmed and
marked "nearest, not an answer", and the status line says so (docs/architecture.md §4).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from memrepo.engine import since_mark

from .plain import clean, plain
from .workers import ReportWorkerErrors

if TYPE_CHECKING:
    from memrepo.engine.models import RecallHit, RecallMode
    from memrepo.engine.repo.repo import MemoryRepo

SEARCH_LIMIT = 100
"""The screen lists at most this many hits."""

PAUSE_S = 0.05
"""Typing pauses this long (seconds) before a search starts; a new key cancels it. A warm
search takes milliseconds (docs/architecture.md §4), so the pause only skips keys typed in a burst."""


def hit_label(hit: RecallHit) -> Text:
    """One result line: ``path:line  text`` with the block's ``(replaced by L<n>)`` mark for a line a newer line
    replaces or ``(an agent line since says: L<n>)`` for one a newer agent line corrects, an ``unreviewed`` tag for inbox hits, plain text; a nearest entry
    (``answer`` False) dimmed and tagged ``nearest, not an answer``.

    Args:
        hit: a recall hit.

    Returns:
        Text: never parsed as markup.
    """
    label = Text(f"{clean(hit.path)}:{hit.line}", style="bold")
    label.append("  ")
    label.append(clean(hit.text))
    mark = since_mark(hit)  # replaced or corrected by a newer line, or past its date: the block's mark (docs/recall.md)
    if mark:
        label.append(mark, style="italic")
    if hit.by == "agent":
        label.append("  (agent)", style="dim")
    if hit.unreviewed:
        label.append("  unreviewed", style="italic")
    if not hit.answer:
        label.stylize("dim")
        label.append("  nearest, not an answer", style="italic")
    return label


def mode_label(mode: RecallMode) -> str:
    """`` · hybrid (37% with vectors)`` when semantic recall answered, `` · lexical: why`` when it could not; else empty."""
    if mode.mode == "hybrid":
        from memrepo.engine.read.modeline import vector_share

        return f" · hybrid ({vector_share(mode.covered)} with vectors)"
    return f" · lexical: {mode.note}" if mode.note else ""


class SearchScreen(ReportWorkerErrors, ModalScreen["RecallHit | None"], inherit_bindings=False):
    """Type to search every memory file; ``enter`` opens the highlighted entry.

    Args:
        repo: the open memory repo.
        query: text to start with.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Close search", id="search.close"),
        Binding("down", "move(1)", "Next result", id="search.down", show=False),
        Binding("up", "move(-1)", "Previous result", id="search.up", show=False),
        Binding("pagedown", "move(10)", "Ten results down", id="search.page-down", show=False),
        Binding("pageup", "move(-10)", "Ten results up", id="search.page-up", show=False),
    ]
    """Keys of the search screen (``enter`` opens the highlighted entry)."""

    def __init__(self, repo: MemoryRepo, query: str = "") -> None:
        super().__init__()
        self._repo = repo
        self._query = query
        self.hits: list[RecallHit] = []
        """The hits listed, in order."""
        self.searches = 0
        """How many searches finished (tests wait on it)."""
        self._hits_for = ""
        self._open_when_ready = False

    def compose(self) -> ComposeResult:
        """Yield the title, the query box, the result count and the results."""
        with Vertical(classes="dialog"):
            yield Label("Search memory", classes="dialog-title")
            yield Input(value=self._query, placeholder="words, a phrase, 中文, 日本語", id="search-query")
            yield Label("Type to search every memory file", id="search-status", classes="dialog-keys")
            yield OptionList(id="search-results")

    def on_mount(self) -> None:
        """Focus the query box (and search for the starting text)."""
        self.query_one(Input).focus()
        if self._query:
            self.search(self._query)

    @on(Input.Changed, "#search-query")
    def _changed(self, event: Input.Changed) -> None:
        self.search(event.value)

    @work(group="search", exclusive=True, exit_on_error=False, description="Searching memory")
    async def search(self, query: str) -> None:
        """Search after a short pause; a newer keystroke cancels this one.

        Args:
            query: what the user typed.
        """
        status = self.query_one("#search-status", Label)
        if not query.strip():
            self._show([], "Type to search every memory file")
            return
        await asyncio.sleep(PAUSE_S)
        status.update("Searching…")
        started = time.perf_counter()
        hits = await self._repo.recall(query, limit=SEARCH_LIMIT, max_bytes=1 << 20, related=True)
        took = (time.perf_counter() - started) * 1000
        how = mode_label(await self._repo.recall_mode())
        count = f"{len(hits)} hit{'s' if len(hits) != 1 else ''}" if hits else "No memory matches"
        if hits and not hits[0].answer:
            count = f"No confident answer: {len(hits)} nearest"
        more = " (first 100)" if len(hits) == SEARCH_LIMIT else ""
        # The keys first: a long "lexical: why" note is cut at the screen's edge, never the keys (breaker27 B27-6).
        self._show(hits, f"enter opens · esc closes · {count}{more} · {took:.0f} ms{how}")
        self._hits_for = query
        if self._open_when_ready:  # enter was pressed before these hits arrived
            self._open_when_ready = False
            if hits:
                self.dismiss(hits[0])

    def _show(self, hits: list[RecallHit], status: str) -> None:
        self.hits = hits
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(hit_label(h)) for h in hits])
        if hits:
            options.highlighted = 0
        self.query_one("#search-status", Label).update(plain(status))
        self.searches += 1

    @on(Input.Submitted, "#search-query")
    def _submitted(self, event: Input.Submitted) -> None:
        if event.value != self._hits_for:  # the hits listed belong to an older query
            if event.value.strip():
                self._open_when_ready = True
            return
        index = self.query_one(OptionList).highlighted
        if index is not None and 0 <= index < len(self.hits):
            self.dismiss(self.hits[index])

    @on(OptionList.OptionSelected, "#search-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.hits[event.option_index])

    def action_move(self, step: int) -> None:
        """Highlight another result; the query box keeps the focus."""
        options = self.query_one(OptionList)
        if not self.hits:
            return
        current = options.highlighted or 0
        options.highlighted = min(max(current + step, 0), len(self.hits) - 1)
