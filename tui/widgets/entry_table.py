"""The entries of the open file, one row each, with their provenance.

Columns are text, by, added, source and kind, read from each entry's
metadata. The text column takes the width the others leave, so the table
reads well at 80 columns and wider.

The table draws only the rows on screen (Textual's Line API): a hand-made
file with 60,000 entries opens, scrolls and updates as fast as one with three.
Showing new entries, a resize and a theme change cost one pass over the
entries at most and redraw only what is visible; ``DataTable`` measured and
stored every cell on the event loop, which froze the app for seconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..plain import clean, plain

if TYPE_CHECKING:
    from memrepo.engine.models import EntryView

TEXT_MIN = 28
"""Narrowest text column that still shows every column; when the table is narrower,
source and kind move past the right edge (``l`` scrolls to them, and the
highlighted entry's metadata is always under the table)."""
SOURCE_MAX = 16
KIND_MAX = 12
GAP = " "
"""Cells carry their own one-space gap on the left: two spaces waste too much at 80 columns."""


def _clip(value: str, width: int, style: Style | str = "") -> Text:
    """Exactly ``width`` terminal cells (wide CJK and emoji count two): one line, "…" when cut."""
    text = Text(" ".join(clean(value).split()), style=style, no_wrap=True, end="")
    text.truncate(width, overflow="ellipsis", pad=True)
    return text


class EntryTable(ScrollView, can_focus=True, inherit_bindings=False):
    """The open file's entries under a header row, with a row cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Next entry", id="entries.down", show=False),
        Binding("up,k", "cursor_up", "Previous entry", id="entries.up", show=False),
        Binding("pagedown", "page_down", "Page down", id="entries.page-down", show=False),
        Binding("pageup", "page_up", "Page up", id="entries.page-up", show=False),
        Binding("home,g", "scroll_top", "First entry", id="entries.first", show=False),
        Binding("end,G", "scroll_bottom", "Last entry", id="entries.last", show=False),
        Binding("right,l", "scroll_right", "Scroll right", id="entries.right", show=False),
        Binding("left,h", "scroll_left", "Scroll left", id="entries.left", show=False),
        Binding("enter", "select_cursor", "Open the entry", id="entries.open"),
    ]
    """Keys of the entries table (``enter`` shows the entry's line in the preview)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "entry-table--header",
        "entry-table--cursor",
        "entry-table--by-user",
        "entry-table--by-agent",
        "entry-table--meta",
    }
    """
    | Class | Description |
    | :- | :- |
    | `entry-table--header` | The header row with the column names. |
    | `entry-table--cursor` | The highlighted entry's row. |
    | `entry-table--by-user` | The by column for ``by: user`` entries. |
    | `entry-table--by-agent` | The by column for ``by: agent`` entries. |
    | `entry-table--meta` | The added, source and kind columns. |
    """

    COLUMNS: ClassVar[tuple[str, ...]] = ("text", "by", "added", "source", "kind")
    """Column names, left to right (the header row shows them)."""

    class EntryHighlighted(Message):
        """The cursor is on another entry (a key, a click, or new entries shown).

        Attributes:
            table: the table.
            entry: the highlighted entry.
        """

        def __init__(self, table: EntryTable, entry: EntryView) -> None:
            super().__init__()
            self.table = table
            self.entry = entry

        @property
        def control(self) -> EntryTable:
            """The table (for ``@on(..., "#id")`` selectors)."""
            return self.table

    class EntrySelected(Message):
        """The user chose the highlighted entry (``enter`` or a second click).

        Attributes:
            table: the table.
            entry: the chosen entry.
        """

        def __init__(self, table: EntryTable, entry: EntryView) -> None:
            super().__init__()
            self.table = table
            self.entry = entry

        @property
        def control(self) -> EntryTable:
            """The table (for ``@on(..., "#id")`` selectors)."""
            return self.table

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        """Create an empty table; fill it with :meth:`show_entries`.

        Args:
            id: the widget id.
            classes: CSS classes.
        """
        super().__init__(id=id, classes=classes)
        self._entries: list[EntryView] = []
        self._marks: dict[int, str] = {}
        self._cursor = 0
        self._natural = {"source": 0, "kind": 0}
        self._widths: dict[str, int] = {}
        self._laid_out_for = -1
        self._lines: LRUCache[tuple[int, bool], Strip] = LRUCache(256)
        self._header: Strip | None = None
        self.empty_text: list[str] = []
        """Lines drawn under the header while the table holds no entry (what to do next)."""

    # -- contents ------------------------------------------------------

    @property
    def entries(self) -> list[EntryView]:
        """The entries shown, in file order."""
        return list(self._entries)

    @property
    def row_count(self) -> int:
        """How many entries the table holds."""
        return len(self._entries)

    @property
    def cursor_row(self) -> int:
        """The row index of the highlighted entry (0 when empty)."""
        return self._cursor

    @property
    def highlighted_entry(self) -> EntryView | None:
        """The entry under the cursor, or None when the table is empty."""
        if not 0 <= self._cursor < len(self._entries):
            return None
        return self._entries[self._cursor]

    @property
    def column_widths(self) -> dict[str, int]:
        """Each column's width in cells, gap included, as last laid out."""
        return dict(self._widths)

    def show_entries(
        self,
        entries: list[EntryView],
        keep_cursor: bool = False,
        empty: list[str] | None = None,
        marks: dict[int, str] | None = None,
    ) -> None:
        """Replace the rows.

        Args:
            entries: the file's entries.
            keep_cursor: keep the cursor on the same row number (a live
                update of the same file) instead of going to the first row.
            empty: lines to show when there is no entry (what to do next); none by default.
            marks: what the context block says of a line, by line number ("replaced by L9":
                :func:`memrepo.engine.block_marks`), shown before its text; none by default.
        """
        self.empty_text = list(empty or [])
        self._marks = dict(marks or {})
        self._lines.clear()
        self._entries = list(entries)
        self._natural = {
            "source": max((len(e.meta.get("source", "")) for e in self._entries), default=0),
            "kind": max((len(e.meta.get("kind", "")) for e in self._entries), default=0),
        }
        count = len(self._entries)
        self.border_title = f"Entries {count:,}" if count else "Entries"
        self._lay_out(force=True)
        row = min(self._cursor if keep_cursor else 0, max(count - 1, 0))
        if not keep_cursor:
            self.scroll_to(x=0, y=0, animate=False, immediate=True, force=True)
        self._cursor = row
        self._cursor_moved()

    def move_cursor(self, row: int) -> None:
        """Highlight another entry, scrolling it into view.

        Args:
            row: the row index; clamped to the entries shown.
        """
        row = min(max(row, 0), max(len(self._entries) - 1, 0))
        if row == self._cursor:
            return
        old, self._cursor = self._cursor, row
        self._refresh_row(old)
        self._refresh_row(row)
        self._cursor_moved()

    def _cursor_moved(self) -> None:
        self._scroll_to_cursor()
        entry = self.highlighted_entry
        if entry is None:
            self.border_subtitle = ""
            return
        meta = [f"{k}: {v}" for k, v in entry.meta.items() if k not in ("by", "added")]
        self.border_subtitle = plain(" · ".join([f"L{entry.line}", *meta]))
        self.post_message(self.EntryHighlighted(self, entry))

    # -- layout --------------------------------------------------------

    def _lay_out(self, force: bool = False) -> None:
        """Size the columns for the current width; redraw only when something changed."""
        room = self.scrollable_content_region.width
        if room == self._laid_out_for and not force:
            return
        self._laid_out_for = room
        gap = len(GAP)
        widths = {
            "by": 5 + gap,
            "added": 10 + gap,
            "source": min(max(6, self._natural["source"]), SOURCE_MAX) + gap,
            "kind": min(max(4, self._natural["kind"]), KIND_MAX) + gap,
        }
        left = room - sum(widths.values())
        if left < TEXT_MIN:
            # Too narrow for all five: text, by and added fill the view.
            left = max(TEXT_MIN, room - widths["by"] - widths["added"])
        widths = {"text": left, **widths}
        if widths != self._widths or force:
            self._widths = widths
            self._clear_lines()
        self.virtual_size = Size(sum(widths.values()), len(self._entries) + 1)

    def _scroll_to_cursor(self, again: bool = True) -> None:
        """Scroll the cursor's row into view; when the layout has not caught up with new rows yet (a search hit's
        file just shown: no height, or a scroll cut short), once more after the next refresh (breaker29 B29-3).

        The scroll is forced: Textual allows a scroll only once a layout pass has given the table its
        scrollbar, and rows just shown have none yet; on a loaded machine that pass can come after the
        one refresh we wait, which left a search hit's row below the view. ``max_scroll_y`` (the rows
        shown against the height) still bounds the scroll."""
        rows = self.scrollable_content_region.height - 1  # the header row stays put
        if rows < 1:
            if again:
                self.call_after_refresh(self._scroll_to_cursor, False)
            return
        top = round(self.scroll_y)
        if self._cursor < top:
            want = self._cursor
        elif self._cursor >= top + rows:
            want = self._cursor - rows + 1
        else:
            return
        self.scroll_to(y=want, animate=False, immediate=True, force=True)
        if again and round(self.scroll_y) != want:
            self.call_after_refresh(self._scroll_to_cursor, False)

    def on_resize(self, event: events.Resize) -> None:
        """Give the text column the width the other columns leave; keep the cursor in view."""
        self._lay_out()
        self._scroll_to_cursor()

    # -- drawing -------------------------------------------------------

    def _clear_lines(self) -> None:
        self._lines.clear()
        self._header = None
        self.refresh()

    def notify_style_update(self) -> None:
        """Forget drawn rows when the styles change (a theme, focus)."""
        super().notify_style_update()
        self._clear_lines()

    def _refresh_row(self, row: int) -> None:
        self._lines.discard((row, False))
        self._lines.discard((row, True))
        self.refresh_line(row + 1)

    def _style(self, name: str, partial: bool = True) -> Style:
        # Whole-row styles (header, cursor) blend their backgrounds with the widget's.
        return self.get_component_rich_style(name, partial=partial)

    def _strip(self, text: Text, row_style: Style, over: bool = False) -> Strip:
        if over:
            text.stylize(row_style)  # over the cells' own colours
        else:
            text.stylize_before(row_style)
        return Strip(text.render(self.app.console), text.cell_len)

    def _header_strip(self) -> Strip:
        if self._header is None:
            text = Text(end="", no_wrap=True)
            for name in self.COLUMNS:
                text.append_text(self._cell(name, self._widths[name]))
            self._header = self._strip(text, self._style("entry-table--header", partial=False))
        return self._header

    def _row_strip(self, row: int) -> Strip:
        cursor = row == self._cursor
        strip = self._lines.get((row, cursor))
        if strip is not None:
            return strip
        entry = self._entries[row]
        widths = self._widths
        meta = self._style("entry-table--meta")
        by = self._style("entry-table--by-user" if entry.by == "user" else "entry-table--by-agent")
        text = Text(end="", no_wrap=True)
        mark = self._marks.get(entry.line)
        if mark:  # the block hides it, or shows it struck: say so first, in the metadata's colour (breaker31 B31-11)
            cell = self._cell(f"({mark}) {entry.text}", widths["text"])
            cell.stylize(meta, len(GAP), len(GAP) + len(mark) + 2)
            text.append_text(cell)
        else:
            text.append_text(self._cell(entry.text, widths["text"]))
        text.append_text(self._cell(entry.by, widths["by"], by))
        for name in ("added", "source", "kind"):
            text.append_text(self._cell(entry.meta.get(name, ""), widths[name], meta))
        # The cursor's colours win over the cells' (as in DataTable): green on blue is unreadable.
        row_style = self._style("entry-table--cursor", partial=False) if cursor else Style.null()
        strip = self._strip(text, row_style, over=True)
        self._lines[(row, cursor)] = strip
        return strip

    @staticmethod
    def _cell(value: str, width: int, style: Style | str = "") -> Text:
        cell = Text(GAP, end="", no_wrap=True)
        cell.append_text(_clip(value, width - len(GAP), style))
        return cell

    def render_line(self, y: int) -> Strip:
        """Draw one line of the view: the header row on top, then the visible entries.

        Args:
            y: the line, 0 at the top of the view.

        Returns:
            Strip: the line, cropped to the view's width.
        """
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not self._widths:
            return Strip.blank(width, base)
        row = scroll_y + y - 1
        if y == 0:
            strip = self._header_strip()
        elif row < len(self._entries):
            strip = self._row_strip(row)
        elif not self._entries and 0 <= y - 2 < len(self.empty_text):  # what to do, under the header
            strip = Strip(
                [Segment(" " + self.empty_text[y - 2], base + self.get_component_rich_style("entry-table--meta"))]
            )
            return strip.crop_extend(0, width, None)
        else:
            return Strip.blank(width, base)
        return strip.crop_extend(scroll_x, scroll_x + width, None).apply_style(base)

    def row_text(self, row: int) -> str:
        """The row as drawn (every column, uncropped), for tests and debugging.

        Args:
            row: the row index.

        Returns:
            str: the row's cells, one string.
        """
        return self._row_strip(row).text

    def row_segments(self, row: int) -> list[Segment]:
        """The row as drawn, with its styles (every column, uncropped).

        Args:
            row: the row index.

        Returns:
            list[Segment]: the row's segments.
        """
        return list(self._row_strip(row))

    # -- input ---------------------------------------------------------

    def action_cursor_down(self) -> None:
        """Highlight the next entry."""
        self.move_cursor(self._cursor + 1)

    def action_cursor_up(self) -> None:
        """Highlight the previous entry."""
        self.move_cursor(self._cursor - 1)

    def action_page_down(self) -> None:
        """Move the cursor down a screenful."""
        self.move_cursor(self._cursor + max(self.scrollable_content_region.height - 1, 1))

    def action_page_up(self) -> None:
        """Move the cursor up a screenful."""
        self.move_cursor(self._cursor - max(self.scrollable_content_region.height - 1, 1))

    def action_scroll_top(self) -> None:
        """Highlight the first entry."""
        self.move_cursor(0)

    def action_scroll_bottom(self) -> None:
        """Highlight the last entry."""
        self.move_cursor(len(self._entries) - 1)

    def _column_starts(self) -> list[int]:
        starts, x = [], 0
        for name in self.COLUMNS:
            starts.append(x)
            x += self._widths.get(name, 0)
        return starts

    def action_scroll_right(self) -> None:
        """Scroll right to the next column."""
        x = round(self.scroll_x)
        later = [s for s in self._column_starts() if s > x]
        self.scroll_to(x=later[0] if later else self.max_scroll_x, animate=False, immediate=True)

    def action_scroll_left(self) -> None:
        """Scroll left to the previous column."""
        x = round(self.scroll_x)
        earlier = [s for s in self._column_starts() if s < x]
        self.scroll_to(x=earlier[-1] if earlier else 0, animate=False, immediate=True)

    def action_select_cursor(self) -> None:
        """Choose the highlighted entry (the Folder pane opens it full screen)."""
        entry = self.highlighted_entry
        if entry is not None:
            self.post_message(self.EntrySelected(self, entry))

    def on_click(self, event: events.Click) -> None:
        """Highlight the clicked entry; a click on the highlighted one chooses it."""
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        row = round(self.scroll_y) + offset.y - 1
        if row >= len(self._entries):
            return
        if row == self._cursor:
            self.action_select_cursor()
        else:
            self.move_cursor(row)
