"""Every key binding of the app, gathered from the code for the help screen and docs.

The widgets declare their bindings with ``inherit_bindings=False``, so each
class's ``BINDINGS`` is the whole list of keys it answers to, every one with
an id (for remapping) and a description (STYLE.md habit 7).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType

KEY_NAMES = {
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "home": "Home",
    "end": "End",
    "enter": "Enter",
    "escape": "Esc",
    "tab": "Tab",
    "space": "Space",
    "question_mark": "?",
}


def key_display(keys: str) -> str:
    """How a binding's keys read in help: ``down,j`` becomes ``↓ j``.

    Args:
        keys: Textual key string, comma-separated.

    Returns:
        str: the keys for people, space-separated.
    """
    shown = []
    for key in keys.split(","):
        *mods, base = key.strip().split("+")
        name = KEY_NAMES.get(base, base)
        shown.append("+".join([*(m.capitalize() for m in mods), name]))
    return " ".join(shown)


@dataclass(frozen=True)
class KeyRow:
    """One binding as the help screen lists it.

    Attributes:
        id: the binding id (for remapping).
        keys: the keys, for people.
        description: what it does.
    """

    id: str
    keys: str
    description: str


def _rows(bindings: list[BindingType]) -> list[KeyRow]:
    rows = []
    for b in bindings:
        assert isinstance(b, Binding), "declare bindings as Binding(...) with an id"
        rows.append(KeyRow(b.id or "", key_display(b.key), b.description))
    return rows


def binding_sections() -> list[tuple[str, list[KeyRow]]]:
    """Every binding of the app, grouped by where it works.

    Returns:
        list[tuple[str, list[KeyRow]]]: section title and its rows, app-wide first.
    """
    from .app import MainScreen, MemrepoApp
    from .help import HelpScreen
    from .panes import PANES
    from .widgets.entry_table import EntryTable
    from .widgets.file_tree import FileTree
    from .widgets.preview import PreviewText

    sections = [("Everywhere", _rows([*MemrepoApp.BINDINGS, *MainScreen.BINDINGS]))]
    for pane in PANES:
        sections.append((f"{pane.PANE_TITLE} pane", _rows(pane.BINDINGS)))
    sections += [
        ("File tree", _rows(FileTree.BINDINGS)),
        ("Entries", _rows(EntryTable.BINDINGS)),
        ("Preview", _rows(PreviewText.BINDINGS)),
        ("This help", _rows(HelpScreen.BINDINGS)),
    ]
    return sections


def keybinding_markdown() -> str:
    """The key table as Markdown, for the README (generated, never hand-written).

    Returns:
        str: one ``###`` section per group with a Keys / Action / Id table.
    """
    out: list[str] = []
    for title, rows in binding_sections():
        out += [f"### {title}", "", "| Keys | Action | Id |", "| :- | :- | :- |"]
        out += [f"| `{r.keys}` | {r.description} | `{r.id}` |" for r in rows]
        out.append("")
    return "\n".join(out)
