"""The raw text of the open file, read-only, with line numbers.

A file that is not UTF-8 text (or is a symlink, or vanished) shows a note in
place of the text: the engine says why, and the app never tries to decode it.
A file over :data:`PREVIEW_MAX` shows its start only (:func:`preview_head`):
``TextArea`` wraps every line on the event loop when it loads a text.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static, TextArea

from ..plain import clean, plain

PREVIEW_MAX = 256 * 1024
"""The most bytes of a file the preview shows: ``TextArea`` wraps every line on the event
loop as it loads, which took 2.6 s for a 6 MB file and takes about 0.2 s for 256 KB."""


def preview_head(text: str, limit: int = PREVIEW_MAX) -> str | None:
    """The start of a text that fits in ``limit`` UTF-8 bytes, cut after a line end.

    Args:
        text: a file's whole text.
        limit: the most bytes to keep.

    Returns:
        str | None: the head, or None when the whole text fits.
    """
    head = text[:limit]  # a character is at least one byte: nothing after this fits
    data = head.encode("utf-8")
    if len(head) == len(text) and len(data) <= limit:
        return None
    head = data[:limit].decode("utf-8", "ignore")
    line_end = head.rfind("\n")
    return head[: line_end + 1] if line_end > 0 else head


class PreviewText(TextArea, inherit_bindings=False):
    """A read-only text view that moves like a list (``j``/``k``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Next line", id="preview.down", show=False),
        Binding("up,k", "cursor_up", "Previous line", id="preview.up", show=False),
        Binding("pagedown", "cursor_page_down", "Page down", id="preview.page-down", show=False),
        Binding("pageup", "cursor_page_up", "Page up", id="preview.page-up", show=False),
        Binding("home,g", "first_line", "First line", id="preview.first", show=False),
        Binding("end,G", "last_line", "Last line", id="preview.last", show=False),
        Binding("left,h", "cursor_left", "Left", id="preview.left", show=False),
        Binding("right,l", "cursor_right", "Right", id="preview.right", show=False),
    ]
    """Keys of the preview."""

    def __init__(self, *, id: str | None = None) -> None:
        """Create an empty, read-only preview.

        Args:
            id: the widget id.
        """
        super().__init__(
            "",
            id=id,
            read_only=True,
            soft_wrap=True,
            show_line_numbers=True,
            tab_behavior="focus",
        )
        self.cursor_blink = False

    def action_first_line(self) -> None:
        """Move the cursor to the first line."""
        self.move_cursor((0, 0))

    def action_last_line(self) -> None:
        """Move the cursor to the last line."""
        self.move_cursor((self.document.line_count - 1, 0))

    def go_to_line(self, line: int) -> None:
        """Put the cursor on a line and scroll it into the middle of the view.

        Args:
            line: 1-based line number; out-of-range numbers are clamped.
        """
        row = min(max(line - 1, 0), self.document.line_count - 1)
        self.move_cursor((row, 0), center=True)


class FilePreview(Vertical):
    """The preview box: the file's text, or a note saying why there is none."""

    ALLOW_MAXIMIZE = True

    def __init__(self, *, id: str | None = None) -> None:
        """Create an empty preview.

        Args:
            id: the widget id.
        """
        super().__init__(id=id)
        self._loaded: str | None = None

    def compose(self) -> ComposeResult:
        """Yield the text view and the (hidden) note."""
        yield PreviewText(id="preview-text")
        yield Static("", id="preview-note", markup=False)

    @property
    def text_view(self) -> PreviewText:
        """The text view inside the box."""
        return self.query_one(PreviewText)

    def show_text(self, title: str, subtitle: str, text: str, keep_position: bool = False) -> None:
        """Show a file's text.

        Args:
            title: the box title (the file's path).
            subtitle: the box subtitle (size, entries).
            text: the text (at most :data:`PREVIEW_MAX`, see :func:`preview_head`).
            keep_position: keep the cursor and scroll (a live update of the
                same file) instead of going to the top; the text is not loaded
                again when it has not changed.
        """
        view = self.text_view
        self.border_title, self.border_subtitle = plain(title), plain(subtitle)
        self.set_class(False, "-note", "-error")
        text = clean(text, one_line=False)
        if keep_position and text == self._loaded:
            return  # a change past the part shown, or none at all
        cursor, scroll = view.cursor_location, view.scroll_offset
        self._loaded = text
        view.load_text(text)
        if keep_position:
            row = min(cursor[0], view.document.line_count - 1)
            view.move_cursor((row, 0))
            view.scroll_to(scroll.x, scroll.y, animate=False)

    def show_note(self, title: str, note: str, error: bool = False, subtitle: str = "") -> None:
        """Show a note instead of text (a binary file, a folder, a missing file).

        Args:
            title: the box title.
            note: what to say, plain text.
            error: style it as an error.
            subtitle: the box subtitle.
        """
        self.border_title, self.border_subtitle = plain(title), plain(subtitle)
        self._loaded = None
        self.text_view.load_text("")
        self.query_one("#preview-note", Static).update(plain(note, one_line=False))
        self.set_class(True, "-note")
        self.set_class(error, "-error")
