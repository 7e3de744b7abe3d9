"""A rule or a way of working the user labels as one before a colon (issue 30, round 18).

"House rule for this repo: nobody pushes straight to main, everything goes through a PR", "One thing about how I
work: show me a diff first", "Regel in diesem Projekt: ...", "Règle du projet : ...", "Mi forma de trabajar: ...":
a short head (at most ten words, no question, no one else's words) that names what follows as a rule, a convention
or the user's way of working, then the colon and a statement or an order. The head, not the body's words, says the
body is standing; :func:`labelled_rule` gives the body (with the head when the head scopes it to the project, so
the rule goes to the project's file). Pure text.
"""

from __future__ import annotations

import re

_HEAD_RE = re.compile(
    r"^(?P<head>[^:：?!.]{0,80}?\b(?:(?:house|ground|team|project|repo|golden|one|our|my|a|the|new)\s+rules?|rules?\s+(?:for|of|in|here)"
    r"|rule\s+of\s+thumb|convention|policy|practice|guideline|how\s+(?:i|we)\s+(?:work|do\s+things|like\s+to\s+work)"
    r"|my\s+(?:workflow|way\s+of\s+working)|the\s+way\s+i\s+work|regel|règle|regla|regola|regra|zasada|pravidlo"
    r"|konvention|convención|convenzione|convenção|wie\s+ich\s+arbeite|comment\s+je\s+travaille|c[oó]mo\s+trabajo"
    r"|come\s+lavoro|como\s+eu\s+trabalho|hoe\s+ik\s+werk|hur\s+jag\s+jobbar|jak\s+pracuję)\b[^:：?!.]{0,60}?)"
    r"\s*[:：]\s*(?P<body>\S.*)$",
    re.IGNORECASE,
)
"""A head naming a rule or the user's way of working, then a colon and the body."""
_OTHERS_RE = re.compile(
    r"\b(?:says?|said|wants?|thinks?|proposed|suggests?|asked|their|his|her|bob|alice)\b|\b(?:if|when|maybe|perhaps)\b",
    re.IGNORECASE,
)
_PROJECT_HEAD_RE = re.compile(
    r"\b(?:this\s+(?:repo|repository|project|codebase)|(?:house|project|repo|team)\s+rules?|here|diese[mr]?\s+(?:repo|projekt)"
    r"|ce\s+(?:projet|dépôt)|du\s+projet|este\s+(?:repo|proyecto)|del\s+proyecto|questo\s+(?:repo|progetto)|del\s+progetto"
    r"|deze\s+repo|dit\s+project)\b",
    re.IGNORECASE,
)
"""A head that scopes the rule to the project at hand ("House rule for this repo", "Regel in diesem Projekt")."""
_WORDS_RE = re.compile(r"[^\W\d_][\w'’+#./-]*|\d[\w.]*")


def labelled_rule(sentence: str) -> str | None:
    """The rule a sentence labels as one before its colon (the module docstring), or None.

    Args:
        sentence: one of the user's sentences, less its end mark.

    Returns:
        str | None: the head and the body when the head scopes it to the project ("House rule for this repo: X"),
        else the body; None when the head names no rule, is a question or someone else's, or the body has fewer
        than three words.
    """
    found = _HEAD_RE.match(sentence.strip())
    if found is None:
        return None
    head, body = found["head"].strip(), found["body"].strip().rstrip(".!")
    if len(head.split()) > 10 or _OTHERS_RE.search(head) or "?" in body or len(_WORDS_RE.findall(body)) < 3:
        return None
    return f"{head}: {body}" if _PROJECT_HEAD_RE.search(head) else body[:1].upper() + body[1:]


__all__ = ["labelled_rule"]
