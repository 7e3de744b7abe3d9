"""The one list widget of the app's panes: a row table that answers to the app's list keys.

Every list of the app moves the same way (docs/architecture.md §8): ``j``/``k``
and the arrows a row, PgUp/PgDn a page, ``g``/Home the first row, ``G``/End
the last, ``h``/``l`` and the side arrows scroll sideways. Textual's own
DataTable keys (End scrolled sideways, ctrl+home was the first row) are left out.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, OptionList

LIST_BINDINGS: list[BindingType] = [
    Binding("down,j", "cursor_down", "Next row", id="list.down", show=False),
    Binding("up,k", "cursor_up", "Previous row", id="list.up", show=False),
    Binding("pagedown", "page_down", "Page down", id="list.page-down", show=False),
    Binding("pageup", "page_up", "Page up", id="list.page-up", show=False),
    Binding("home,g", "scroll_top", "First row", id="list.first", show=False),
    Binding("end,G", "scroll_bottom", "Last row", id="list.last", show=False),
    Binding("right,l", "scroll_right", "Scroll right", id="list.right", show=False),
    Binding("left,h", "scroll_left", "Scroll left", id="list.left", show=False),
]
"""The list keys, shared by every row list of the panes."""


class ListTable(DataTable[Text], inherit_bindings=False):
    """A row-cursor DataTable with the app's list keys; ``enter`` selects the row."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_BINDINGS,
        Binding("enter", "select_cursor", "Open", id="list.open", show=False),
    ]
    """Keys of every list (a pane adds its own actions)."""

    def __init__(self, *, id: str, zebra_stripes: bool = False) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=zebra_stripes)


class ListOptions(OptionList, inherit_bindings=False):
    """An option list with the app's list keys (the Context pane's workspaces)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Next row", id="list.down", show=False),
        Binding("up,k", "cursor_up", "Previous row", id="list.up", show=False),
        Binding("pagedown", "page_down", "Page down", id="list.page-down", show=False),
        Binding("pageup", "page_up", "Page up", id="list.page-up", show=False),
        Binding("home,g", "first", "First row", id="list.first", show=False),
        Binding("end,G", "last", "Last row", id="list.last", show=False),
        Binding("enter", "select", "Open", id="list.open", show=False),
    ]
    """The list keys, as :data:`LIST_BINDINGS` (an option list does not scroll sideways)."""
