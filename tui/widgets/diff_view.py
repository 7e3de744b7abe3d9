"""A unified diff drawn line by line: only the rows on screen are ever rendered.

The History pane showed a commit's diff as one ``Static`` in a scroll box:
Textual wrapped and styled every one of its up to 5,000 lines to learn its
height, on the event loop, each time the cursor rested on a commit (a third
of the app's start-up work on the 2,000-file corpus, and tens of MB held in
rendered lines). :class:`DiffView` keeps the lines as strings and draws a row
only when it is on screen (Textual's line API); a line wider than the box
scrolls sideways instead of wrapping.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..plain import clean

DIFF_MAX_LINES = 5000
"""A diff shows at most this many lines."""

ADDED, REMOVED, HUNK, FILE, CONTEXT = "added", "removed", "hunk", "file", "context"
"""The kinds of diff line, each drawn in its own style (``diff-view--<kind>``)."""


def line_kind(line: str) -> str:
    """The kind of one unified-diff line.

    Args:
        line: one line of a unified diff, without its line end.

    Returns:
        str: :data:`FILE` (``---``/``+++``), :data:`ADDED`, :data:`REMOVED`,
        :data:`HUNK` (``@@``) or :data:`CONTEXT`.
    """
    if line.startswith(("+++", "---")):
        return FILE
    if line.startswith("+"):
        return ADDED
    if line.startswith("-"):
        return REMOVED
    if line.startswith("@@"):
        return HUNK
    return CONTEXT


def diff_lines(patch: str, limit: int = DIFF_MAX_LINES, files_left_out: int = 0) -> list[str]:
    """A unified diff's lines, cleaned for the screen, cut at ``limit`` with a last line saying so.

    Args:
        patch: the unified diff.
        limit: the most lines kept.
        files_left_out: changed files not in ``patch``; the last line says how many instead.

    Returns:
        list[str]: lines without line ends, control characters shown as
        symbols (:func:`~memrepo.tui.plain.clean`), tabs expanded.
    """
    lines = clean(patch, one_line=False).split("\n")
    cut = len(lines) > limit
    lines = [line.expandtabs(8) for line in lines[:limit]]
    if files_left_out:
        lines.append(f"… {files_left_out:,} more changed file{'s' if files_left_out != 1 else ''} not shown")
    elif cut:
        lines.append(f"… cut at {limit:,} lines")
    return lines


class DiffView(ScrollView, can_focus=False):
    """Lines of a diff (or a short note), each drawn in its kind's style, only when on screen.

    It never takes the focus unless a pane sets ``can_focus`` (the History
    pane does while the diff fills the screen).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "diff-view--added",
        "diff-view--removed",
        "diff-view--hunk",
        "diff-view--file",
    }
    """
    | Class | Description |
    | :- | :- |
    | `diff-view--added` | An added line (``+``). |
    | `diff-view--removed` | A removed line (``-``). |
    | `diff-view--hunk` | A hunk header (``@@``). |
    | `diff-view--file` | A file header (``---``/``+++``). |
    """

    DEFAULT_CSS = """
    DiffView > .diff-view--file { text-style: bold; }
    """
    """The colours of added and removed lines are the theme's (``app.tcss``)."""

    def __init__(self, note: str = "", *, id: str | None = None) -> None:
        """Create the view showing a note (plain text, never styled as a diff).

        Args:
            note: the text shown until :meth:`show_diff`.
            id: the widget id.
        """
        super().__init__(id=id)
        self._lines: list[str] = []
        self._kinds: list[str] = []
        self._strips: LRUCache[tuple[int, int, int], Strip] = LRUCache(256)
        self.show_note(note)

    @property
    def text(self) -> str:
        """Every line shown, joined with line ends."""
        return "\n".join(self._lines)

    @property
    def line_count(self) -> int:
        """How many lines the view holds (not how many are on screen)."""
        return len(self._lines)

    def show_diff(self, patch: str, files_left_out: int = 0) -> None:
        """Show a unified diff (at most :data:`DIFF_MAX_LINES` lines) from its top.

        Args:
            patch: the diff's text.
            files_left_out: changed files not in ``patch`` (said on a last line).
        """
        lines = diff_lines(patch, files_left_out=files_left_out)
        self._set(lines, [line_kind(line) for line in lines])

    def show_note(self, note: str) -> None:
        """Show plain lines (a hint, "no changes") from the top.

        Args:
            note: the text; control characters are shown as symbols.
        """
        lines = [line.expandtabs(8) for line in clean(note, one_line=False).split("\n")]
        self._set(lines, [CONTEXT] * len(lines))

    def _set(self, lines: list[str], kinds: list[str]) -> None:
        self._lines, self._kinds = lines, kinds
        self._strips.clear()
        width = max((cell_len(line) for line in lines), default=0)
        self.virtual_size = Size(width, len(lines))
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def notify_style_update(self) -> None:
        """Draw again in the new theme's colours."""
        super().notify_style_update()
        self._strips.clear()

    def render_line(self, y: int) -> Strip:
        """The row ``y`` of the box: one diff line, cropped to the box and scrolled sideways.

        Args:
            y: the row in the box (0 is its top).

        Returns:
            Strip: exactly the box's width of cells.
        """
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = scroll_y + y
        key = (index, scroll_x, width)
        cached = self._strips.get(key)
        if cached is not None:
            return cached
        base = self.rich_style
        if 0 <= index < len(self._lines):
            kind = self._kinds[index]
            style = base if kind == CONTEXT else base + self.get_component_rich_style(f"diff-view--{kind}")
            strip = Strip([Segment(self._lines[index], style)])
            strip = strip.crop(scroll_x, scroll_x + width).extend_cell_length(width, base)
        else:
            strip = Strip.blank(width, base)
        self._strips[key] = strip
        return strip
