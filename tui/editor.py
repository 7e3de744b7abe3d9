"""Writing an entry in the user's own editor, the way git and lazygit do (docs/architecture.md §8).

The app hands the terminal over (:meth:`textual.app.App.suspend`), runs
``$VISUAL`` or ``$EDITOR`` (``vi`` when neither is set) on a private temporary
file (mode 0600, removed afterwards) holding the entry's text, takes the
terminal back and reads the file. Like ``git commit``: an editor that fails
changes nothing, and an emptied file cancels. An entry is one line in its
file, so the lines written in the editor are joined with spaces, as the edit
box does with pasted line breaks. The caller saves the text through the
engine's write transaction, the same path as the edit box. A text the write
policy would refuse whatever the file (over the entry limit, ``text_refusal``)
is not handed on: its file is kept and named, so nothing written is lost.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from textual.app import App

from .plain import clean


def editor_command() -> list[str]:
    """The user's editor as an argument list: ``$VISUAL``, else ``$EDITOR``, else ``vi`` (git's order).

    Returns:
        list[str]: the command split as a shell would (``code --wait`` is two arguments).
    """
    return shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi") or ["vi"]


LINE_FLAG_EDITORS = frozenset(
    {
        "vi",
        "vim",
        "nvim",
        "gvim",
        "view",
        "nano",
        "pico",
        "emacs",
        "emacsclient",
        "micro",
        "kak",
        "joe",
        "jed",
        "mg",
        "ne",
    }
)
"""Editors that take ``+LINE`` before a file to open it at that line. Any other editor gets the file
alone: ``code --wait +12 me.md`` would open (and the hand-edit commit would then record) a file named ``+12``."""


def at_line(editor: list[str], path: str, line: int) -> list[str]:
    """The command that opens ``path`` in ``editor``, at ``line`` when the editor is known to take ``+LINE``.

    Args:
        editor: :func:`editor_command`'s list.
        path: the file to open.
        line: the line (1-based).

    Returns:
        list[str]: the arguments to run.
    """
    name = Path(editor[0]).name if editor else ""
    if name in LINE_FLAG_EDITORS and line > 0:
        return [*editor, f"+{line}", path]
    return [*editor, path]


def fold(text: str) -> str:
    """``text`` as one entry line: every run of whitespace, line breaks included, becomes one space."""
    return " ".join(text.split())


class Outcome(Enum):
    """How an editor session ended."""

    CHANGED = "changed"
    """The text was changed: save it."""
    UNCHANGED = "unchanged"
    """The file was saved as it was written, or not saved: nothing to do."""
    EMPTIED = "emptied"
    """The file was emptied: the edit is cancelled (git's rule for an empty message)."""
    FAILED = "failed"
    """The editor could not start, exited non-zero, or left an unreadable file: nothing changes."""


@dataclass(frozen=True)
class EditorResult:
    """What an editor session gave back.

    Attributes:
        outcome: how it ended.
        text: the folded text when ``outcome`` is CHANGED, else None.
        message: one line for the user saying what happened (plain text).
    """

    outcome: Outcome
    text: str | None
    message: str


def edit_in_editor(
    app: App[object], text: str, *, cwd: Path | None = None, refuse: Callable[[str], str | None] | None = None
) -> EditorResult:
    """Hand the terminal to the user's editor on ``text``; return what it gave back.

    Args:
        app: the running app, suspended while the editor runs.
        text: the entry's text to start from.
        cwd: the editor's working directory (the memory repo), or None for the app's.
        refuse: gives the reason a new text would be refused before any write (too long), or None. Such a
            text is FAILED and its file is kept (its path is in the message), so what was written is
            never lost (docs/architecture.md §8).

    Returns:
        EditorResult: the folded new text (CHANGED) or why there is none.

    Raises:
        SuspendNotSupported: the terminal cannot be handed over (a web or headless driver).
    """
    command = editor_command()
    handle, name = tempfile.mkstemp(prefix="memrepo-entry-", suffix=".md")  # mode 0600, a name no one else has
    path = Path(name)
    keep = False
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(fold(text) + "\n")
        try:
            with app.suspend():
                done = subprocess.run([*command, str(path)], cwd=cwd, check=False)
        except OSError as exc:
            return EditorResult(Outcome.FAILED, None, clean(f"Cannot start {command[0]}: {exc}: nothing changed"))
        if done.returncode != 0:
            return EditorResult(
                Outcome.FAILED, None, clean(f"{command[0]} exited with {done.returncode}: nothing changed")
            )
        try:
            written = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return EditorResult(Outcome.FAILED, None, clean(f"Cannot read what {command[0]} saved: {exc}"))
        changed = fold(written) != fold(text)
        why = refuse(fold(written)) if refuse is not None and changed and fold(written) else None
        if why is not None:
            keep = True  # what the person wrote stays where they wrote it
            return EditorResult(Outcome.FAILED, None, clean(f"Not saved: {why}; what you wrote is kept in {path}"))
    finally:
        if not keep:
            path.unlink(missing_ok=True)
    new = fold(written)
    if not new:
        return EditorResult(Outcome.EMPTIED, None, "The editor left the text empty: edit cancelled")
    if new == fold(text):
        return EditorResult(Outcome.UNCHANGED, None, "No change in the editor")
    return EditorResult(Outcome.CHANGED, new, "Edited in the editor")
