"""The ``?`` screen: every key of the app, generated from the bindings themselves."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class HelpScreen(ModalScreen[None], inherit_bindings=False):
    """Lists every binding by where it works; any of its keys closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close this help", id="help.close"),
        Binding("down,j", "scroll_down", "Scroll down", id="help.down", show=False),
        Binding("up,k", "scroll_up", "Scroll up", id="help.up", show=False),
        Binding("pagedown,space", "page_down", "Page down", id="help.page-down", show=False),
        Binding("pageup", "page_up", "Page up", id="help.page-up", show=False),
    ]
    """Keys of the help screen."""

    def compose(self) -> ComposeResult:
        """Yield one scrolling table of every section."""
        from .keys import binding_sections

        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", style="bold", no_wrap=True)
        table.add_column()
        for title, rows in binding_sections():
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

    def action_page_up(self) -> None:
        """Scroll the list up a page."""
        self.query_one("#help-body", VerticalScroll).scroll_page_up(animate=False)
