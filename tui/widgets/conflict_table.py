"""The merge-conflicts box of the Inbox pane: entries a sync kept in two versions.

One row per version, grouped by conflict. ``o`` keeps the highlighted version
(the other goes), ``b`` keeps both; the pane runs the engine call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable

from ..plain import clean
from .list_table import LIST_BINDINGS

if TYPE_CHECKING:
    from memrepo.engine.models import ConflictView, EntryView


class ConflictTable(DataTable[Text], inherit_bindings=False):
    """Both versions of every entry two machines changed differently."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_BINDINGS,
        Binding(
            "o",
            "keep('this')",
            "Keep this version",
            id="conflicts.keep-this",
            tooltip="Keep the highlighted version; the other version goes",
        ),
        Binding(
            "b",
            "keep('both')",
            "Keep both versions",
            id="conflicts.keep-both",
            tooltip="Keep both versions as separate entries",
        ),
    ]
    """Keys of the merge-conflicts box."""

    class ResolveRequested(Message):
        """The person picked a version of a conflict.

        Attributes:
            path: the file holding the versions.
            conflict_id: the ``conflict:`` value.
            keep: ``first``, ``second`` or ``both``.
            text: the kept version's text (for the notice).
        """

        def __init__(self, path: str, conflict_id: str, keep: str, text: str) -> None:
            super().__init__()
            self.path = path
            self.conflict_id = conflict_id
            self.keep = keep
            self.text = text

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **kwargs)  # type: ignore[arg-type]
        self._rows: list[tuple[ConflictView, int, EntryView]] = []

    def on_mount(self) -> None:
        """Add the columns."""
        self.add_column("#", key="n", width=1)
        self.add_column("version", key="text", width=48)
        self.add_column("file", key="file", width=16)

    @property
    def conflicts(self) -> list[ConflictView]:
        """The conflicts shown, in order."""
        out: list[ConflictView] = []
        for conflict, _n, _v in self._rows:
            if not out or out[-1] is not conflict:
                out.append(conflict)
        return out

    def show(self, conflicts: list[ConflictView]) -> None:
        """Show these conflicts (one row per version); the box hides when there are none."""
        row = self.cursor_row
        self._rows = [(c, n, v) for c in conflicts for n, v in enumerate(c.versions)]
        self.clear()
        for conflict, n, version in self._rows:
            cells = [
                Text(str(n + 1), end=""),
                Text(clean(version.text), no_wrap=True, overflow="ellipsis"),
                Text(clean(conflict.path), no_wrap=True, overflow="ellipsis"),
            ]
            self.add_row(*cells, key=f"{conflict.path}#{conflict.id}#{n}")
        if self._rows:
            self.move_cursor(row=min(max(row, 0), len(self._rows) - 1))
        self.border_title = f"Merge conflicts {len(conflicts)}: o keeps the highlighted version, b keeps both"
        self.set_class(bool(self._rows), "-shown")

    def action_keep(self, which: str) -> None:
        """Ask the pane to keep the highlighted version (``this``) or both.

        With no conflict shown (the palette can ask for it any time) it says so.
        """
        if not 0 <= self.cursor_row < len(self._rows):
            self.notify("No merge conflicts: nothing to keep.", title="Merge conflicts")
            return
        conflict, n, version = self._rows[self.cursor_row]
        keep = "both" if which == "both" else ("first" if n == 0 else "second")
        self.post_message(self.ResolveRequested(conflict.path, conflict.id, keep, version.text))
