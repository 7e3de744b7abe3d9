"""Small modal dialogs: pick a file, edit a line of text, confirm yes or no.

Each is a :class:`~textual.screen.ModalScreen` that dismisses with the answer
(None or False when the user backs out with ``esc``). User data (file names,
entry text) reaches them as plain text only (:mod:`memrepo.tui.plain`).
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, TextArea
from textual.widgets.option_list import Option
from textual.widgets.text_area import Edit, EditResult

from ..plain import clean, plain

PICKER_MAX = 200
"""The file picker lists at most this many matches."""


def fuzzy_match(query: str, candidate: str) -> bool:
    """Whether the query's characters appear in the candidate in order (case-insensitive).

    Args:
        query: what the user typed; spaces are ignored.
        candidate: a file path.

    Returns:
        bool: True for an empty query or a subsequence match.
    """
    rest = iter(candidate.lower())
    return all(char in rest for char in query.lower() if not char.isspace())


class FilePicker(ModalScreen[str | None], inherit_bindings=False):
    """Type to filter the files, ``enter`` picks the highlighted one.

    Args:
        title: what the picker is for.
        paths: the files to choose from.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Cancel", id="picker.cancel"),
        Binding("down", "move(1)", "Next file", id="picker.down", show=False),
        Binding("up", "move(-1)", "Previous file", id="picker.up", show=False),
    ]
    """Keys of the file picker (``enter`` in the box picks)."""

    def __init__(self, title: str, paths: list[str]) -> None:
        super().__init__()
        self._title = title
        self._paths = list(paths)
        self._shown: list[str] = []

    def compose(self) -> ComposeResult:
        """Yield the title, the filter box and the matches."""
        with Vertical(classes="dialog"):
            yield Label(plain(self._title), classes="dialog-title")
            yield Input(placeholder="type to filter", id="picker-filter")
            yield OptionList(id="picker-options")

    def on_mount(self) -> None:
        """List every file and focus the filter box."""
        self._filter("")
        self.query_one(Input).focus()

    @property
    def shown(self) -> list[str]:
        """The files listed, in order."""
        return list(self._shown)

    def _filter(self, query: str) -> None:
        self._shown = [p for p in self._paths if fuzzy_match(query, p)][:PICKER_MAX]
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(plain(p)) for p in self._shown])
        if self._shown:
            options.highlighted = 0

    @on(Input.Changed, "#picker-filter")
    def _changed(self, event: Input.Changed) -> None:
        self._filter(event.value)

    @on(Input.Submitted, "#picker-filter")
    def _submitted(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is not None and 0 <= index < len(self._shown):
            self.dismiss(self._shown[index])

    @on(OptionList.OptionSelected, "#picker-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._shown[event.option_index])

    def action_move(self, step: int) -> None:
        """Highlight the next or previous match."""
        options = self.query_one(OptionList)
        if not self._shown:
            return
        current = options.highlighted or 0
        options.highlighted = min(max(current + step, 0), len(self._shown) - 1)


class EntryTextArea(TextArea):
    """A text box for one entry: it wraps over lines, and ``enter`` saves instead of breaking the line.

    Every edit's text (a paste, a key) comes in with control characters shown as symbols (an escape as ``␛``,
    :func:`~memrepo.tui.plain.clean`), as the text the box starts from and as every CLI way out shows them: a
    pasted escape sequence or bare carriage return was kept raw in the box (round 12's B21-9 rest), drawn to
    the terminal, and saved as something else than the box showed (the write drops controls).
    """

    def edit(self, edit: Edit) -> EditResult:
        """Do ``edit`` with its text cleaned (:func:`~memrepo.tui.plain.clean`: one line, controls visible)."""
        edit.text = clean(edit.text)
        return super().edit(edit)

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            screen = self.screen
            if isinstance(screen, EditText):
                screen.action_save()
            return
        await super()._on_key(event)


class EditText(ModalScreen[str | None], inherit_bindings=False):
    """An entry's text to edit in a box that wraps it over lines; ``enter`` saves, ``esc`` cancels.

    An entry is one line in its file, so ``enter`` saves rather than breaking the line, and line
    breaks pasted in are folded to spaces. Before, the box was one line (an ``Input``): a long
    entry scrolled sideways and most of it was out of sight while it was edited. ``ctrl+o`` writes
    the text in ``$VISUAL``/``$EDITOR`` instead (:mod:`memrepo.tui.editor`, lazygit's key for it):
    a changed text is saved as ``enter`` saves it, an emptied one cancels, and a failed or
    unchanged one leaves the box as it was. A text the write policy refuses whatever the file
    (``text_refusal``: over the entry limit once secrets are redacted, over ``RAW_MAX_CHARS``,
    filler, an unsafe link) is never handed on: typed in the box it stays there, written in the
    editor it stays in the editor's file, whose path the one refusal line names.

    Args:
        title: what is being edited.
        text: the text to start from.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+o", "editor", "Edit in $EDITOR", id="edit.editor"),
        Binding("escape", "dismiss(None)", "Cancel", id="edit.cancel"),
    ]
    """Keys of the edit box (``enter`` saves: the text box hands it over, see :class:`EntryTextArea`)."""

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self._title = title
        self._text = clean(text)

    def compose(self) -> ComposeResult:
        """Yield the title, the text box and its keys."""
        with Vertical(classes="dialog"):
            yield Label(plain(self._title), classes="dialog-title")
            yield EntryTextArea(
                self._text, id="edit-text", soft_wrap=True, show_line_numbers=False, tab_behavior="focus"
            )
            yield Label("enter saves · ctrl+o edits in $EDITOR · esc cancels", classes="dialog-keys")

    def on_mount(self) -> None:
        """Focus the text box, cursor at the end: a key typed adds to the text."""
        box = self.query_one(TextArea)
        box.focus()
        box.move_cursor(box.document.end)

    def action_save(self) -> None:
        """Save the text (line breaks folded to spaces); empty or refused text stays in the box with a notice."""
        from memrepo.engine import text_refusal

        text = " ".join(self.query_one(TextArea).text.split())
        if not text:
            self.notify("The text cannot be empty", severity="warning", timeout=3, markup=False)
            return
        refused = text_refusal(text)
        if refused is not None:  # the write would refuse it: the text stays in the box
            self.notify(clean(f"Not saved: {refused}"), severity="warning", timeout=8, markup=False)
        else:
            self.dismiss(text)

    def action_editor(self) -> None:
        """Write the text in the user's editor: save a changed text, cancel on an emptied one, else keep the box."""
        from textual.app import SuspendNotSupported

        from memrepo.engine import text_refusal

        from ..editor import Outcome, edit_in_editor

        box = self.query_one(TextArea)
        try:
            result = edit_in_editor(self.app, box.text, refuse=text_refusal)
        except SuspendNotSupported:
            self.notify("This terminal cannot hand the screen to an editor", severity="warning", markup=False)
            return
        if result.outcome is Outcome.CHANGED:
            self.dismiss(result.text)
        elif result.outcome is Outcome.EMPTIED:
            self.notify(result.message, timeout=4, markup=False)
            self.dismiss(None)
        else:
            failed = result.outcome is Outcome.FAILED
            self.notify(result.message, severity="warning" if failed else "information", timeout=4, markup=False)
            box.focus()


class Confirm(ModalScreen[bool], inherit_bindings=False):
    """A yes/no question.

    ``y`` answers yes and ``esc`` no. Enter answers yes only where the question
    says so (``enter_yes``: a question whose yes loses nothing, like "Dream
    now?"); elsewhere (undo, forget, delete) Enter says which keys answer, so
    it is never a key that does nothing and never a yes by accident
    (docs/keys.md "Yes/no question").

    Args:
        question: what to confirm (plain text).
        enter_yes: True when Enter answers yes too.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "dismiss(True)", "Yes", id="confirm.yes"),
        Binding("escape", "dismiss(False)", "No", id="confirm.cancel"),
    ]
    """Keys of a yes/no question."""

    def __init__(self, question: str, enter_yes: bool = False) -> None:
        super().__init__()
        self._question = question
        self._enter_yes = enter_yes

    def compose(self) -> ComposeResult:
        """Yield the question and the keys that answer it."""
        with Vertical(classes="dialog"):
            yield Label(plain(self._question, one_line=False), classes="dialog-title")
            yield Label("y or enter yes · esc no" if self._enter_yes else "y yes · esc no", classes="dialog-keys")

    def on_key(self, event: events.Key) -> None:
        """Enter: yes where the question allows it, else a note naming the keys that answer.

        Not a binding: across the app Enter opens the highlighted row (docs/keys.md), and a question has no rows;
        what Enter does here is said on the question itself ("y or enter yes").
        """
        if event.key != "enter":
            return
        event.stop()
        if self._enter_yes:
            self.dismiss(True)
        else:
            self.notify("Press y for yes or esc for no", timeout=4)
