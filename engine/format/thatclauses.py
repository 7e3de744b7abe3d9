"""A request's two facts joined by "and that": "Remember that A and that B" keeps A and B (docs/architecture.md §7).

Split from :mod:`.remembering` (the user's requests to keep), which is at its size limit. Pure text: no file.
"""

from __future__ import annotations

import re

_AND_THAT_RE = re.compile(
    r"(?:,\s*|\s+)and\s+that\s+(?!(?:is|was|were|are|isn['’]t|wasn['’]t|will|would|should|could|can|might|must|may|"
    r"has|had|does|did|means|meant|way|one|much|many|too|also|kind|sort|part|time|day|week|again|said|of|for|to|"
    r"with|from|in|on|at|by|or|and)\b)(?=[\w\"'“`/])",
    re.IGNORECASE,
)
"""Where a second "that"-clause of the same request starts: ", and that B" / " and that B". Not "and that is why",
"and that one", "and that way", "and that will ...": there "that" points back, it opens no clause of its own."""


_REFUSED_RE = re.compile(
    r"(?:[,;:]\s*(?:(?:but|and|though)\s+)?|\s+(?:but|though)\s+)(?:please\s+)?(?:don['’]?t|do\s+not|never|no\s+need\s+to)\s+"
    r"(?:remember|save|store|keep|note|write\s+down|memori[sz]e|record)\s+(?:that|this|it|anything|about)\b.*\Z",
    re.IGNORECASE | re.DOTALL,
)
"""Where a request's words go on to refuse what follows: "..., but don't remember that X" (breaker32 B32-15)."""


def without_refused(fact: str) -> str:
    """``fact`` up to where it asks NOT to keep what follows ("A and that B, but don't remember that C" -> "A and
    that B"): the refused part is never a line (breaker32 B32-15; docs/architecture.md §7).

    Args:
        fact: the words after a request to keep.

    Returns:
        str: the words before the refusal (``fact`` itself when it refuses nothing; "" when it refuses all).
    """
    return _REFUSED_RE.sub("", fact).rstrip(" ,;:")


def that_clauses(fact: str) -> list[str]:
    """The facts of one request to keep, split where it says "and that" again (breaker30 B30-20).

    "the Stripe live key is [REDACTED] and that webhooks go to /api/stripe/webhook" (from "Remember that ... and
    that ...") gives the two clauses, each without its "that", so each is a line of its own: the first one's value
    is a secret (:func:`.secretclauses.without_secrets` drops it), the second is kept as "Webhooks go to ...", not
    "That webhooks go to ...". A part under two words stays joined to the one before it ("remember that X and
    that Y" with a one-word Y reads as one fact).

    Args:
        fact: the words after a request to keep ("remember that", "keep in mind that", "note to self:").

    Returns:
        list[str]: the clauses in order, or ``[fact]`` when it says "and that" nowhere a clause starts.
    """
    parts: list[str] = []
    start = 0
    for cut in _AND_THAT_RE.finditer(fact):
        head, tail = fact[start : cut.start()].strip(), fact[cut.end() :].strip()
        if len(head.split()) < 2 or len(tail.split()) < 2:
            continue
        parts.append(head)
        start = cut.end()
    parts.append(fact[start:].strip())
    return [part for part in parts if part]


__all__ = ["that_clauses", "without_refused"]
