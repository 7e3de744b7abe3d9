"""Column widths set when a table's rows are listed, not when the table next idles.

Textual's DataTable measures an auto-width column's cells on its next idle
event; until then the column is as wide as its header. A screen painted in
between (a pane that lists its rows again right before a paint, on a loaded
machine) cut every cell of that column to the header's width.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey


def fit_column(table: DataTable[Any], key: str, cells: Iterable[Text]) -> None:
    """Make column ``key`` exactly as wide as its widest cell (or its header), now.

    Args:
        table: the table, with its rows just listed.
        key: the column's key, as given to ``add_column``.
        cells: the column's cells as added (terminal cells are counted, so
            wide CJK characters count two).

    Raises:
        KeyError: the table has no column ``key``.
    """
    column = table.columns[ColumnKey(key)]
    column.auto_width = False
    column.width = max([column.label.cell_len, *(cell.cell_len for cell in cells)])
