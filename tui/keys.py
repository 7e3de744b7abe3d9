"""Every key binding of the app, gathered from the code for the help screen and docs.

The widgets declare their bindings with ``inherit_bindings=False``, so each
class's ``BINDINGS`` is the whole list of keys it answers to, every one with
an id (for remapping) and a description.
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
    "slash": "/",
    "plus": "+",
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
    from .appkeys import APP_BINDINGS, HELP_BINDINGS, SCREEN_BINDINGS
    from .handedits import HandEditQuestionScreen
    from .panes import PANES
    from .panes.history import DiffBox
    from .search import SearchScreen
    from .widgets.conflict_table import ConflictTable
    from .widgets.dialogs import Confirm, EditText, FilePicker
    from .widgets.entry_detail import EntryScreen, InboxEntryScreen
    from .widgets.entry_table import EntryTable
    from .widgets.file_tree import FileTree
    from .widgets.list_table import LIST_BINDINGS, ListTable
    from .widgets.preview import PreviewText

    sections = [("Everywhere", _rows([*APP_BINDINGS, *SCREEN_BINDINGS]))]
    for pane in PANES:
        sections.append((f"{pane.PANE_TITLE} pane", _rows(pane.BINDINGS)))
    own = [b for b in ConflictTable.BINDINGS if b not in LIST_BINDINGS]
    sections += [
        ("Every list (Inbox, Log, Health, Dreams, Context)", _rows(ListTable.BINDINGS)),
        ("Merge conflicts (Inbox pane)", _rows(own)),
        ("File tree", _rows(FileTree.BINDINGS)),
        ("Entries", _rows(EntryTable.BINDINGS)),
        ("Preview", _rows(PreviewText.BINDINGS)),
        ("Search", _rows(SearchScreen.BINDINGS)),
        ("File picker", _rows(FilePicker.BINDINGS)),
        ("Edit box", _rows(EditText.BINDINGS)),
        ("An entry full screen", _rows(EntryScreen.BINDINGS)),
        ("An inbox entry full screen (also)", _rows(InboxEntryScreen.BINDINGS[len(EntryScreen.BINDINGS) :])),
        ("The zoomed diff (Log pane, z)", _rows(DiffBox.BINDINGS)),
        ("Yes/no question", _rows(Confirm.BINDINGS)),
        ("A hand edit memrepo asks about", _rows(HandEditQuestionScreen.BINDINGS)),
        ("This help", _rows(HELP_BINDINGS)),
    ]
    return sections


MOVING = ("list.", "tree.", "entries.", "preview.", "help.", "search.", "picker.", "entry.", "inbox-entry.", "diff.")
"""Id prefixes of keys that move or scroll; the palette offers actions, not these."""

PALETTE_SKIP = {"app.command-palette", "app.quit-now"}
"""Bindings the palette does not repeat: itself, and a second key for Quit."""


@dataclass(frozen=True)
class PaletteCommand:
    """One key's action as the command palette offers it.

    Attributes:
        name: what the palette lists (``Dreams: Accept``).
        help: the line under it (the binding's tooltip, or its keys).
        action: the binding's action.
        pane_id: the pane to show first, or None for the app's keys.
        binding_id: the binding's id.
        box: the id of the box in the pane the action runs on (focused
            first), or None when the pane runs it.
    """

    name: str
    help: str
    action: str
    pane_id: str | None
    binding_id: str
    box: str | None = None


def palette_commands() -> list[PaletteCommand]:
    """Every action with a key, for the command palette: the app's keys, then each pane's.

    Returns:
        list[PaletteCommand]: in help-screen order.
    """
    from .appkeys import APP_BINDINGS, SCREEN_BINDINGS
    from .panes import PANES

    out = []
    for pane_id, prefix, bindings, box in [
        (None, "", [*APP_BINDINGS, *SCREEN_BINDINGS], None),
        *((p.PANE_ID, f"{p.PANE_TITLE}: ", p.BINDINGS, None) for p in PANES),
        *((p.PANE_ID, f"{p.PANE_TITLE}: ", cls.BINDINGS, box_id) for p in PANES for box_id, cls in p.BOX_ACTIONS),
    ]:
        for b in bindings:
            assert isinstance(b, Binding)
            if b.id in PALETTE_SKIP or (b.id or "").startswith(MOVING):
                continue
            keys = key_display(b.key)
            help_text = f"{b.tooltip} ({keys})" if b.tooltip else f"key: {keys}"
            out.append(PaletteCommand(prefix + b.description, help_text, b.action, pane_id, b.id or "", box))
    return out


def keybinding_markdown() -> str:
    """The key table as Markdown, for docs/keys.md (generated, never hand-written).

    Returns:
        str: one ``###`` section per group with a Keys / Action / Id table.
    """
    out: list[str] = []
    for title, rows in binding_sections():
        out += [f"### {title}", "", "| Keys | Action | Id |", "| :- | :- | :- |"]
        out += [f"| `{r.keys}` | {r.description} | `{r.id}` |" for r in rows]
        out.append("")
    return "\n".join(out)


README_START = "<!-- keys:start (generated by `python -m memrepo.tui.keys --readme docs/keys.md`) -->"
README_END = "<!-- keys:end -->"


def write_readme(path: str) -> bool:
    """Replace the key table between the README markers with :func:`keybinding_markdown`.

    Args:
        path: the README file.

    Returns:
        bool: True when the file changed.

    Raises:
        ValueError: the README lacks the markers.
    """
    from pathlib import Path

    readme = Path(path)
    text = readme.read_text(encoding="utf-8")
    start, end = text.index(README_START) + len(README_START), text.index(README_END)
    new = text[:start] + "\n\n" + keybinding_markdown() + "\n" + text[end:]
    if new != text:
        readme.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--readme"] and len(sys.argv) == 3:
        print("updated" if write_readme(sys.argv[2]) else "up to date")
    else:
        print(keybinding_markdown())
