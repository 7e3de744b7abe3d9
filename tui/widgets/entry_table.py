"""The entries of the open file, one row each, with their provenance.

Columns are text, by, added, source and kind, read from each entry's
metadata. The text column takes the width the others leave, recomputed when
the table is resized, so the table reads well at 80 columns and wider.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from ..plain import clean, plain

if TYPE_CHECKING:
    from engine.models import EntryView

TEXT_MIN = 28
"""Narrowest text column that still shows every column; when the table is narrower,
source and kind move past the right edge (``l`` scrolls to them, and the
highlighted entry's metadata is always under the table)."""
SOURCE_MAX = 16
KIND_MAX = 12
GAP = " "
"""Cells carry their own one-space gap (``cell_padding`` 0): two spaces waste too much at 80 columns."""


def _clip(value: str, width: int, style: Style | str = "") -> Text:
    """One line of at most ``width`` terminal cells (wide CJK and emoji count two), "…" when cut."""
    text = Text(" ".join(clean(value).split()), style=style, no_wrap=True, overflow="ellipsis")
    text.truncate(width, overflow="ellipsis")
    return text


class EntryTable(DataTable[Text], inherit_bindings=False):
    """The open file's entries; the row key is the entry's ref (``repo:<path>#L<n>``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Next entry", id="entries.down", show=False),
        Binding("up,k", "cursor_up", "Previous entry", id="entries.up", show=False),
        Binding("pagedown", "page_down", "Page down", id="entries.page-down", show=False),
        Binding("pageup", "page_up", "Page up", id="entries.page-up", show=False),
        Binding("home,g", "scroll_top", "First entry", id="entries.first", show=False),
        Binding("end,G", "scroll_bottom", "Last entry", id="entries.last", show=False),
        Binding("right,l", "scroll_right", "Scroll right", id="entries.right", show=False),
        Binding("left,h", "scroll_left", "Scroll left", id="entries.left", show=False),
        Binding("enter", "select_cursor", "Show line", id="entries.show-line"),
    ]
    """Keys of the entries table (``enter`` shows the entry's line in the preview)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = DataTable.COMPONENT_CLASSES | {
        "entry-table--by-user",
        "entry-table--by-agent",
        "entry-table--meta",
    }
    """
    | Class | Description |
    | :- | :- |
    | `entry-table--by-user` | The by column for ``by: user`` entries. |
    | `entry-table--by-agent` | The by column for ``by: agent`` entries. |
    | `entry-table--meta` | The added, source and kind columns. |
    """

    COLUMNS: ClassVar[tuple[str, ...]] = ("text", "by", "added", "source", "kind")

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        """Create an empty table; fill it with :meth:`show_entries`.

        Args:
            id: the widget id.
            classes: CSS classes.
        """
        super().__init__(
            id=id, classes=classes, cursor_type="row", zebra_stripes=False, cell_padding=0
        )
        self._entries: list[EntryView] = []
        self._laid_out_width = -1

    @property
    def entries(self) -> list[EntryView]:
        """The entries shown, in file order."""
        return list(self._entries)

    @property
    def highlighted_entry(self) -> EntryView | None:
        """The entry under the cursor, or None when the table is empty."""
        if not self._entries or not 0 <= self.cursor_row < len(self._entries):
            return None
        return self._entries[self.cursor_row]

    def show_entries(self, entries: list[EntryView], keep_cursor: bool = False) -> None:
        """Replace the rows.

        Args:
            entries: the file's entries.
            keep_cursor: keep the cursor on the same row number (a live
                update of the same file) instead of going to the first row.
        """
        row = self.cursor_row if keep_cursor else 0
        self._entries = list(entries)
        self._rebuild(row)
        self.border_title = f"Entries {len(entries)}" if entries else "Entries"
        if not entries:
            self.border_subtitle = ""

    def _widths(self) -> dict[str, int]:
        sources = [len(e.meta.get("source", "")) for e in self._entries]
        kinds = [len(e.meta.get("kind", "")) for e in self._entries]
        gap = len(GAP)
        widths = {
            "by": 5 + gap,
            "added": 10 + gap,
            "source": min(max([6, *sources]), SOURCE_MAX) + gap,
            "kind": min(max([4, *kinds]), KIND_MAX) + gap,
        }
        room = self.scrollable_content_region.width - 1  # keep a column free for the scrollbar
        left = room - sum(widths.values())
        if left < TEXT_MIN:
            # Too narrow for all five: text, by and added fill the view.
            left = max(TEXT_MIN, room - widths["by"] - widths["added"])
        widths["text"] = left
        return widths

    def _rebuild(self, row: int = 0) -> None:
        widths = self._widths()
        self._laid_out_width = self.size.width
        self.clear(columns=True)
        for name in self.COLUMNS:
            self.add_column(GAP + name, width=widths[name], key=name)
        user = self.get_component_rich_style("entry-table--by-user", partial=True)
        agent = self.get_component_rich_style("entry-table--by-agent", partial=True)
        meta = self.get_component_rich_style("entry-table--meta", partial=True)
        for entry in self._entries:
            self.add_row(
                self._cell(entry.text, widths["text"]),
                self._cell(entry.by, widths["by"], user if entry.by == "user" else agent),
                self._cell(entry.meta.get("added", ""), widths["added"], meta),
                self._cell(entry.meta.get("source", ""), widths["source"], meta),
                self._cell(entry.meta.get("kind", ""), widths["kind"], meta),
                key=entry.ref,
            )
        if self._entries:
            self.move_cursor(row=min(row, len(self._entries) - 1), animate=False)

    @staticmethod
    def _cell(value: str, width: int, style: Style | str = "") -> Text:
        return Text(GAP, no_wrap=True) + _clip(value, width - len(GAP), style)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the highlighted entry's line and metadata under the table."""
        entry = self.highlighted_entry
        if entry is None:
            self.border_subtitle = ""
            return
        meta = [f"{k}: {v}" for k, v in entry.meta.items() if k not in ("by", "added")]
        self.border_subtitle = plain(" · ".join([f"L{entry.line}", *meta]))

    def on_resize(self, event: events.Resize) -> None:
        """Give the text column the width the other columns leave."""
        if event.size.width != self._laid_out_width:
            self._rebuild(self.cursor_row)

    def on_mount(self) -> None:
        """Follow theme changes: the cells carry their colours, so redraw them."""
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        # The new theme's CSS is applied on the next refresh; read the colours after it.
        self.call_after_refresh(self.restyle)

    def restyle(self) -> None:
        """Redraw the rows with the current theme's colours (after a theme change)."""
        self._rebuild(self.cursor_row)
