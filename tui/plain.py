"""User data on screen as plain text: never parsed as markup, every character visible.

File names, entry text and metadata, engine errors and the repo's path reach
border titles, labels, notices, tree labels and table cells. Textual parses a
``str`` given to most of those as content markup, so ``[/]`` in an entry's
metadata crashed the app and ``[draft].md`` showed as ``.md``. Everything that
comes from the repo goes through :func:`plain` (a
:class:`~textual.content.Content`, which Textual never parses) or :func:`clean`
(a ``str`` for places that take plain text already, such as a ``rich`` Text or
a notice sent with ``markup=False``).

:func:`clean` also makes control characters visible (an escape byte in a file
name must not reach the terminal) and drops the emoji variation selector
U+FE0F: with it, ``⚠️`` is two cells wide for Textual but one for tmux and
many terminals, which pushed box borders a column out; without it every
terminal and Textual agree on one cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # textual is imported only by plain(): the CLI uses clean() without it
    from textual.content import Content

_VS16 = "\ufe0f"
"""Emoji presentation selector: terminals disagree on the width it gives."""


def _pictures(*keep: str) -> dict[int, str | None]:
    """A ``str.translate`` table: C0/C1 controls to visible symbols, U+FE0F dropped."""
    table: dict[int, str | None] = {code: chr(0x2400 + code) for code in range(0x20)}
    table[0x7F] = "\u2421"  # ␡
    table.update({code: "\ufffd" for code in range(0x80, 0xA0)})
    # TextArea splits lines on these too (str.splitlines); the engine splits on "\n" only.
    table[0x2028] = table[0x2029] = "\u2424"  # ␤
    table[ord(_VS16)] = None
    for char in keep:
        del table[ord(char)]
    return table


_ONE_LINE = {**_pictures(), ord("\t"): " ", ord("\n"): " ", ord("\r"): " "}
_MULTI_LINE = _pictures("\t", "\n")


def clean(text: str, *, one_line: bool = True) -> str:
    """Text from the repo, safe to draw as plain text.

    Args:
        text: a file name, path, entry text, metadata value or error message.
        one_line: turn tabs and line breaks into spaces (titles, cells,
            labels); False keeps ``\\n`` and tabs (a note, a file's text) and
            turns ``\\r\\n`` into ``\\n``, so line numbers match the engine's.

    Returns:
        str: the text with control characters shown as symbols (``␛``) and
        U+FE0F removed.
    """
    if one_line:
        return text.translate(_ONE_LINE)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    return text.translate(_MULTI_LINE)


def plain(text: str, *, one_line: bool = True) -> Content:
    """Text from the repo for a border title, label or static: never parsed as markup.

    Args:
        text: what to show, as written.
        one_line: see :func:`clean`.

    Returns:
        Content: plain content of the cleaned text.
    """
    from textual.content import Content

    return Content(clean(text, one_line=one_line))
