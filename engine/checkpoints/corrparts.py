"""The lead-in a correction is said after, and the clause of a line a correction leaves true (split from
:mod:`.corrections`; docs/architecture.md §7).

Pure functions of text and entries: no file, no repo.
"""

from __future__ import annotations

import re

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.remembering import said, without_leadin

from .claims import ExistingEntry
from .cues import cued_statement
from .oldvalue import names_old
from .samesubject import clauses, corrects_line

CUE_RE = re.compile(
    r"^(?:actually|no|nope|correction|scratch\s+that|update|wait|sorry|that['’]s\s+(?:outdated|old|stale)"
    r"|en\s+fait|en\s+réalité|eigentlich|tatsächlich|en\s+realidad|de\s+hecho)\b",
    re.I,
)
"""A lead-in that says the sentence corrects something ("Actually, ...", "No, ...", "Correction: ...", "No wait, ...",
"That's outdated: ...", "En fait, ...", "Eigentlich ...", "En realidad, ...")."""


def cued(text: str, texts: list[str]) -> bool:
    """Whether the user said the statement ``text`` after a lead-in that says it corrects (:data:`CUE_RE`: "No wait,
    the deploy window is Thursday"; :func:`.cues.cued_statement`: a cue lead-in or a cue sentence before it), in one
    of ``texts`` (their messages).

    Args:
        text: a kept statement (less its lead-in).
        texts: the user's messages it was read from.

    Returns:
        bool: True when one of their sentences is the statement after such a lead-in.
    """
    want = fmt.normalize_text(text)
    for message in texts:
        sentences = said(message)
        for i, sentence in enumerate(sentences):  # "Me equivoqué con la región: X", "아 그거 바뀌었어요. X" (corr14)
            stated, cue = cued_statement(sentence, sentences[i - 1] if i else "")
            if not (cue or CUE_RE.match(sentence)):
                continue
            for whole in (fmt.normalize_text(without_leadin(stated)), fmt.normalize_text(without_leadin(sentence))):
                if whole == want or (whole.startswith(want) and whole[len(want) : len(want) + 1] in (",", ";")):
                    return True  # the statement after its cue (its reason clause left out: "..., così il giovedì ...")
    return False


def remainder(text: str, target: ExistingEntry) -> str | None:
    """The clause of the two-clause line ``target`` that the correction ``text`` leaves true, or None (corr10): "We
    deploy the blog with Heroku" of "We deploy the blog with Heroku and use Postgres 14" when the user says "We're on
    Postgres 16 now". Written beside the correction, so hiding the old line loses nothing the user did not correct.

    Args:
        text: the user's correction, less its lead-in.
        target: the line it corrects (:func:`corrects`).

    Returns:
        str | None: the other clause, or None for a line of one clause or a correction of both or neither.
    """
    parts = clauses(target.text)
    hit = [corrects_line(text, part, None, True) or names_old(text, part) for part in parts]
    return parts[hit.index(False)] if sum(hit) == 1 else None


__all__ = ["CUE_RE", "cued", "remainder"]
