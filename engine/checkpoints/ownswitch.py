"""A switch the user states about their own stored preference (breaker30 B30-1, docs/agents.md "switched from Y").

"I switched from pnpm to bun now", "Now I use bun instead of pnpm for installs", "I prefer bun over pnpm now", "I use
fish now, not bash": the user says, in the first person, that they changed what they use and names the value they
left. The line it replaces is the user's own line about themselves (me.md or lessons.md, not a project's workspace
file: "Run `pnpm test` before every commit" is the project's rule, not the user's habit) that names that old value
as a word and not yet the new one: "I prefer pnpm over npm for every JavaScript project", a line of one value (one
of several, "I prefer pnpm, I use tmux, and I use fish", is left to the other rules: replacing it hides the rest). The user's own line is
preferred to an agent's paraphrase of it ("User prefers pnpm ..."); of several of one author, the newest. A switch
that names no old value ("I use bun now") relates no line here: which stored value it replaces is not said.

Pure functions of text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memrepo.engine.format.layout import is_workspace_file

from .claims import ExistingEntry

_V = r"[\w.+#@/-]+"
_SWITCH_RE = re.compile(
    rf"^(?:(?:now|so|and|but|also)\s*,?\s+)?i(?:['’]ve|\s+have)?\s+(?:now\s+|just\s+|recently\s+|finally\s+|since\s+)?"
    rf"(?:(?:switched|moved|migrated|changed|went)\s+(?:over\s+)?from\s+(?P<old1>{_V})\s+(?:over\s+)?to\s+(?P<new1>{_V})"
    rf"|(?:use|prefer|run|pick|go\s+with)\s+(?P<new2>{_V})(?:\s+now)?,?\s+(?:instead\s+of|rather\s+than|over|not)\s+"
    rf"(?P<old2>{_V}))"
    rf"(?:\s+(?:now|these\s+days|nowadays))?(?:\s+as\s+(?:my|the)\s+[\w\s-]{{1,40}})?(?:\s+now)?$",
    re.IGNORECASE,
)
"""A first-person switch that names the value it left: "I switched from X to Y", "I use Y instead of X (as my Z)"; not
one for a part ("from vim to Helix for Rust", "bun instead of pnpm for installs"): that scopes the new value."""
_CHANGE_RE = re.compile(r"\b(?:switched|moved|migrated|changed|went|now|these\s+days|nowadays)\b", re.IGNORECASE)
"""What says the use changed: "I prefer Y over X" alone is a preference, not a switch."""
_MORE_RE = re.compile(r"[,;]|\s(?:and|but)\s", re.IGNORECASE)
"""A line of more than one value ("I prefer pnpm, I use tmux, and I use fish"): replacing it would hide the rest."""
_NOT_DONE_RE = re.compile(r"\b(?:almost|nearly|never|didn['’]t|tried|wanted|thought|considered|might|may)\b", re.I)


def switch_values(text: str) -> tuple[str, str] | None:
    """The old and the new value of a first-person switch (the module docstring), folded, or None.

    Args:
        text: one sentence of the user's, less its lead-in.

    Returns:
        tuple[str, str] | None: (old value, new value), or None when the sentence is no such switch.
    """
    said = " ".join(text.split()).rstrip(".!")
    found = _SWITCH_RE.match(said)
    if found is None or not _CHANGE_RE.search(said) or _NOT_DONE_RE.search(said):
        return None
    old = (found["old1"] or found["old2"]).casefold()
    new = (found["new1"] or found["new2"]).casefold()
    return (old, new) if old != new else None


def _names(value: str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-])", text, re.IGNORECASE))


def switched_line(text: str, lines: Sequence[ExistingEntry]) -> ExistingEntry | None:
    """The user's stored line that the switch ``text`` replaces (the module docstring), or None.

    Args:
        text: one sentence of the user's, less its lead-in.
        lines: the stored lines the checkpoint listed (the caller drops other people's lines).

    Returns:
        ExistingEntry | None: the user's own line naming the old value (else an agent's line about the user), the
        newest first; None when the sentence is no switch or no such line is listed.
    """
    values = switch_values(text)
    if values is None:
        return None
    old, new = values
    found = [
        e
        for e in lines
        if not is_workspace_file(e.path)
        and _names(old, e.text)
        and not _names(new, e.text)
        and _about_user(e)
        and not _MORE_RE.search(e.text)
    ]
    return max(found, key=lambda e: (e.by == "user", e.meta.get("added", ""), e.line), default=None)


def _about_user(entry: ExistingEntry) -> bool:
    """Whether a stored line is about the user: theirs in the first person, or an agent's "User ..." line."""
    first = entry.text.split(maxsplit=1)[:1]
    word = first[0].casefold().strip(",:") if first else ""
    return word in ("i", "i'm", "i’m", "my", "user", "user's") and (
        entry.by == "user" or word in ("user", "user's") or entry.meta.get("kind") == "preference"
    )


__all__ = ["switch_values", "switched_line"]
