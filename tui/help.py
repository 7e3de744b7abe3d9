"""The ``?`` screen: every key of the app, generated from the bindings themselves."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .appkeys import HELP_BINDINGS


class HelpScreen(ModalScreen[None], inherit_bindings=False):
    """Lists every binding by where it works, the current pane's first; ``esc``, ``q`` or ``?`` closes it.

    Args:
        first: the title of the section to show first (the pane on screen).
    """

    BINDINGS: ClassVar[list[BindingType]] = HELP_BINDINGS
    """Keys of the help screen."""

    def __init__(self, first: str | None = None) -> None:
        super().__init__()
        self._first = first

    def compose(self) -> ComposeResult:
        """Yield one scrolling table of every section, the current pane's first."""
        from .keys import binding_sections

        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", style="bold", no_wrap=True)
        table.add_column()
        sections = binding_sections()
        sections.sort(key=lambda section: section[0] != self._first)  # stable: the rest keep their order
        self.section_titles = [title for title, _rows in sections]
        """The sections in the order shown."""
        for title, rows in sections:
            table.add_row("", "")
            table.add_row("", Text(title, style="bold underline"))
            for row in rows:
                table.add_row(Text(row.keys), Text(row.description))
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Keys"
            body.border_subtitle = "esc closes"
            yield Static(table, id="help-table")

    def action_scroll_down(self) -> None:
        """Scroll the list down a line."""
        self.query_one("#help-body", VerticalScroll).scroll_down(animate=False)

    def action_scroll_up(self) -> None:
        """Scroll the list up a line."""
        self.query_one("#help-body", VerticalScroll).scroll_up(animate=False)

    def action_page_down(self) -> None:
        """Scroll the list down a page."""
        self.query_one("#help-body", VerticalScroll).scroll_page_down(animate=False)

    def action_scroll_home(self) -> None:
        """Scroll to the top of the list (the same as the box's own Home)."""
        self.query_one("#help-body", VerticalScroll).scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        """Scroll to the end of the list (the same as the box's own End)."""
        self.query_one("#help-body", VerticalScroll).scroll_end(animate=False)

    def action_page_up(self) -> None:
        """Scroll the list up a page."""
        self.query_one("#help-body", VerticalScroll).scroll_page_up(animate=False)
