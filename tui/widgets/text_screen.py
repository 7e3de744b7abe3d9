"""A few lines of plain text filling the terminal: what ``enter`` opens where a row has no other action.

The Health pane opens a row's whole check this way when the row has no fix key
(a row with one runs its fix instead), so ``enter`` is never a dead key.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ..plain import clean


class TextScreen(ModalScreen[None], inherit_bindings=False):
    """Plain text in a scrolling box over the whole terminal; ``esc`` or ``q`` goes back.

    Args:
        title: the box's title.
        text: what to show (never parsed as markup; control characters shown as symbols).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Back", id="text.close"),
        Binding("down,j", "scroll(1)", "Scroll down", id="text.down", show=False),
        Binding("up,k", "scroll(-1)", "Scroll up", id="text.up", show=False),
    ]
    """Keys of the text screen."""

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self._title = title
        self._text = text

    def compose(self) -> ComposeResult:
        """Yield the text in a scrolling box."""
        with VerticalScroll(id="text-body") as body:
            body.border_title = Content(clean(self._title))
            body.border_subtitle = "esc back"
            yield Static(Content(clean(self._text, one_line=False)), id="text-text", markup=False)

    def action_scroll(self, lines: int) -> None:
        """Scroll the text by ``lines`` (negative: up)."""
        self.query_one("#text-body", VerticalScroll).scroll_relative(y=lines, animate=False)
