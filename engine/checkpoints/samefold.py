"""The agent's paraphrase of what the user just said, folded into the user's own line (breaker30 B30-3).

When the user says "Remember that X" to an agent with memory tools, the agent stores its own wording of X during the
turn (``memory_remember``, as the agent instructions ask: "User prefers pnpm over npm for every JavaScript project",
"lantern's MSRV is Rust 1.74") and the checkpoint then keeps the user's words (``by: user``). Two lines saying one
thing would spend the context block's budget twice, so the user's line names the agent's with ``supersedes:`` and the
block shows the user's only (docs/agents.md).

The agent's line folded is one that says nothing the user's line does not: written the same day, ``by: agent`` (never
one the user accepted from the inbox, ``via:``), alike by the dreams' likeness rule
(at least two content words and half of the user's shared; no negation only the agent's line says, and no negation
or opposite word between them by :meth:`memrepo.engine.dreams.same.Likeness.relate`), and every content word of it is
in the user's words, once the person is read alike ("User prefers" / "I prefer") and the
project's own name is left out ("lantern's MSRV", "in the shop repo"). An agent's line that says more ("...; the
GitHub token is ...") or another value ("Rust 1.80") is left as it is. Pure functions of text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memrepo.engine.dreams.same import NEGATIONS, Likeness, content, numbers, tokens
from memrepo.engine.format.layout import LESSONS_MD, ME_MD, is_workspace_file
from memrepo.engine.models import Candidate

from .chain import supersedes
from .claims import ExistingEntry

_PERSON_RE = re.compile(r"^(?:the\s+)?user(?:['’]s)?\s+|^(?:i|i['’]m|i\s+am|my)\s+", re.IGNORECASE)
"""Who a line is about, at its start: "User prefers ..." and "I prefer ..." are one person."""
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
"""A year the agent added to a date the user said ("Friday 11 December" -> "... 2026")."""
_PERSON_WORDS = frozenset({"user", "i", "my", "me", "im"})


def _about(text: str) -> str:
    """``text`` less the person it starts with."""
    return _PERSON_RE.sub("", " ".join(text.split()), count=1)


def _negated(text: str) -> bool:
    """Whether ``text`` holds a negation ("no deploys", "don't schedule")."""
    return bool(set(tokens(text)) & NEGATIONS)


def _names(line: ExistingEntry) -> frozenset[str]:
    """The content stems of the project's name, for a line of a workspace file (``workspaces/<name>.md``)."""
    if not is_workspace_file(line.path):
        return frozenset()
    return frozenset(content(line.path.rsplit("/", 1)[-1].removesuffix(".md").replace("-", " ")))


def paraphrase_of(text: str, lines: Sequence[ExistingEntry], day: str) -> ExistingEntry | None:
    """The agent's line of ``day`` that says ``text`` (the user's kept statement) in other words, or None.

    Args:
        text: the statement the checkpoint keeps ``by: user``.
        lines: the entries the checkpoint listed.
        day: the day the user said it (ISO date): the agent's line must be of that day.

    Returns:
        ExistingEntry | None: the most alike such line (the module docstring), or None.
    """
    mine = _about(text)
    have = set(content(mine))
    if not have:
        return None
    folded = mine.casefold()
    likeness = Likeness([e.text for e in lines] + [text])
    best: tuple[tuple[int, float], ExistingEntry] | None = None
    for line in lines:
        if line.by != "agent" or line.meta.get("via") or line.meta.get("added", "") != day:
            continue
        theirs = _about(line.text)
        if not {n for n in numbers(theirs) if not _YEAR_RE.fullmatch(n)} <= set(numbers(mine)):
            continue  # another value ("Rust 1.80" for "Rust 1.74"): a correction's rule, not this one
        extra = set(content(theirs)) - have - _PERSON_WORDS - _names(line)
        if any(stem not in folded for stem in extra):
            continue  # the agent's line says more ("Stripe webhooks ...": "stripe" is in the path said)
        shared = set(content(theirs)) & have
        if len(shared) < max(2, len(have) / 2) or _negated(theirs) > _negated(mine):
            continue  # too little of the user's statement, or a negation only the agent's line says
        relation = likeness.relate(mine, theirs)
        if "negation" in relation.why or "opposite" in relation.why:
            continue  # "Never run ..." / "Run ...": not one thing said twice
        score = (len(shared), relation.score)
        if best is None or score > best[0]:
            best = (score, line)
    return best[1] if best else None


def folded(cand: Candidate, lines: Iterable[ExistingEntry], day: str) -> Candidate:
    """``cand`` (the user's statement, placed) naming the agent's paraphrase of it in its file (:func:`paraphrase_of`)
    as the line it supersedes, so the block shows the user's line only; ``cand`` unchanged when it already replaces
    a line, waits in the inbox, or no such line is in the file it goes to.

    Args:
        cand: the user's statement as the checkpoint writes it (``by: user``, its scope set).
        lines: the entries the checkpoint listed.
        day: the day the user said it (ISO date).

    Returns:
        Candidate: the candidate, with ``supersedes:`` (or the agent line's ``subject:``) when one is folded.
    """
    if cand.by != "user" or cand.untrusted or cand.supersedes or cand.subject or cand.pin:
        return cand
    if cand.scope == "workspace":
        same_file = [e for e in lines if is_workspace_file(e.path)]
    else:
        same_file = [e for e in lines if e.path == (LESSONS_MD if cand.kind == "lesson" else ME_MD)]
    line = paraphrase_of(cand.text, same_file, day)
    if line is None:
        return cand
    subject, piece = supersedes(line)
    return (
        cand.model_copy(update={"subject": subject} if subject else {"supersedes": piece}) if subject or piece else cand
    )


__all__ = ["folded", "paraphrase_of"]
