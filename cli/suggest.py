"""The hint an unknown command name gets: the closest command, or the one doing the job a common word names.

click suggests only among the commands already loaded, and memrepo loads most of them lazily
(``LAZY_COMMANDS`` in :mod:`memrepo.cli.main`), so ``memrepo recal`` got no hint; a new user's
``memrepo doctor`` or ``memrepo search`` is too far from ``health`` or ``recall`` for any spelling match.
"""

from __future__ import annotations

from difflib import get_close_matches

WORDS_FOR = {
    "doctor": "health",
    "check": "health",
    "search": "recall",
    "find": "recall",
    "add": "remember",
    "save": "remember",
    "delete": "forget",
    "rm": "forget",
    "history": "log",
    "revert": "undo",
}
"""Command names other tools use, and the memrepo command that does that job (a hint, never an alias)."""


def unknown_command(name: str, known: list[str]) -> str:
    """The usage error's message for the unknown command ``name``.

    Args:
        name: what the user typed.
        known: every command name of the group.

    Returns:
        ``No such command 'NAME'``, plus ``. Did you mean 'X'?`` with :data:`WORDS_FOR`'s command,
        or ``'X' or 'Y'?`` with the two closest of ``known`` by spelling (difflib's ratio 0.6 or more).
    """
    near = [WORDS_FOR[name]] if name in WORDS_FOR else get_close_matches(name, known, n=2)
    return f"No such command {name!r}" + (". Did you mean " + " or ".join(map(repr, near)) + "?" if near else "")
