"""Why a dream's operation needs review under the merge and provenance rules (docs/architecture.md §6).

:mod:`memrepo.engine.dreams.ops` validates an operation, then asks these
checks; each answers a one-line reason, or None when the operation may apply
automatically as far as that rule goes.

* The merge rule: a ``merge`` is automatic only when its lines are equal
  (:func:`memrepo.engine.dreams.same.equal`) and its text is theirs; a ``delete``
  that names the line it keeps, only when the two are equal; an operation
  marked ``replacement``, ``restatement`` or ``extension`` never.
* The provenance rule: an ``add`` is automatic only when its quote is in a
  user message that reads as typed (:func:`memrepo.engine.format.typedwords.paste_reason`),
  its content words are the quote's, and neither is instruction-shaped after
  folding; an ``edit`` or ``merge`` only when it brings in no instruction.
"""

from __future__ import annotations

import re

from memrepo.engine.format.typedwords import fold, instruction_reason, introduced_instruction, paste_reason

from .input import DreamInput, LineRef
from .same import content, equal

RELATION_WORDS = {
    "replacement": "one line replaces the other",
    "restatement": "the lines may say the same in other words",
    "extension": "one line says more than the other",
}
"""Why a marked operation waits for the user."""

_ALIAS_RE = re.compile(r"\b([LT])(\d{1,6})\b")
_WS_RE = re.compile(r"\s+")


def without_aliases(text: str, din: DreamInput) -> str:
    """``text`` with each line alias (``L12``) as ``path:line`` and each task alias as the task's title.

    The input's aliases mean nothing once the dream is over (docs/architecture.md §6):
    reasons are recorded and shown with the file lines they stood for.
    """

    def name(match: re.Match[str]) -> str:
        alias = match.group(0)
        if match.group(1) == "L" and alias in din.lines:
            ref = din.lines[alias]
            return f"{ref.path}:{ref.line}"
        task = din.tasks.get(alias) if match.group(1) == "T" else None
        if task is not None:
            title = " ".join(task.title.split())[:60]
            return f'the task "{title}"' if title else "a task"
        return alias

    return _ALIAS_RE.sub(name, text)


def relation_reason(relation: str | None) -> str | None:
    """A marked operation (replacement, restatement, extension) always waits for the user."""
    words = RELATION_WORDS.get(relation or "")
    return f"{words}: the user decides" if words else None


def merge_reason(text: str, refs: list[LineRef]) -> str | None:
    """Why a merge is not a pure de-duplication: its lines, or its text, differ in more than form."""
    first = refs[0].text
    if any(not equal(first, r.text) for r in refs[1:]):
        return "the merged lines differ in more than form (a word, a negation, a name or a number): the user decides"
    if not equal(first, text):
        return "the merged text differs from the lines it replaces: the user decides"
    return None


def keep_reason(ref: LineRef, kept: LineRef) -> str | None:
    """Why a delete that names the line it keeps is not a pure de-duplication."""
    if not equal(ref.text, kept.text):
        return "the line it keeps says something else (they differ in more than form): the user decides"
    if ref.by == "user" and kept.by != "user":
        return "it deletes the user's line and keeps an agent's: the user decides"
    return None


def _fold_ws(text: str) -> str:
    return _WS_RE.sub(" ", fold(text)).strip().casefold()


def add_reason(text: str, quote: str, evidence: list[str], din: DreamInput) -> str | None:
    """Why a new entry is not the user's typed words (the provenance rule), or None.

    Args:
        text: the entry text (cleaned).
        quote: the user's words it cites.
        evidence: task aliases it names.
        din: the dream's input (the tasks).

    Returns:
        str | None: a one-line reason.
    """
    for what, value in (("new entry", text), ("quote", quote)):
        why = instruction_reason(value)
        if why is not None:
            return f"the {what} {why}: the user decides"
    if not evidence or not quote.strip():
        return "a new entry without the user's words as evidence"
    folded = _fold_ws(quote)
    if len(folded.split()) < 2:
        return "the quote is too short to support a new entry"
    messages = [msg for t in evidence for msg in din.tasks[t].user_messages]
    holding = [msg for msg in messages if folded in _fold_ws(msg)]
    if not holding:
        return "the quote is not verbatim in a user message of its evidence task"
    typed = [msg for msg in holding if paste_reason(msg) is None]
    if not typed:
        return f"the quote is in a message that reads as pasted ({paste_reason(holding[0])}), not typed"
    extra = sorted(set(content(text)) - set(content(quote)))
    if extra:
        return f"the new entry says more than the user's words ({', '.join(extra[:4])}): the user decides"
    return None


def edit_reason(text: str, refs: list[LineRef]) -> str | None:
    """Why new text for agent lines adds an instruction they did not hold (folded first), or None."""
    why = introduced_instruction(text, [r.text for r in refs])
    return f"the new text {why}: the user decides" if why is not None else None


__all__ = [
    "add_reason",
    "edit_reason",
    "keep_reason",
    "merge_reason",
    "relation_reason",
    "without_aliases",
]
