"""A request to keep a bare statement of how things are (issue 30, sess17).

"so keep in mind the health check lives under /v2, not /v1", "ok, keep in mind lantern's uploads go to the
lantern-uploads bucket", "Remember the backup job runs pg_dump every night": "keep in mind", "bear in mind",
"remember" or "don't forget" at a clause's start, then a clause that is a statement of how things are
(:func:`.unasked.state_clause`: a subject, a verb of state, whatever that verb is; no event, fault, progressive or
hedge), is a request to keep that clause. :mod:`.remembering` reads "keep in mind" only before "that" or a colon, and
a bare clause after "remember" only with "we/our/my ..." or "the X is": "Keep in mind this is only a prototype, so
skip the tests" is the task's context. Here the clause's subject must not point at the work at hand (this, that, it,
these, those, here), so that stays unread. Never in a question, a text under review, pasted lines (the user's own
last line after them is read) or a message that takes something back; never after a verb of saying ("I told you to
keep in mind ..." has "to" before it: no clause start). Pure text: no file.
"""

from __future__ import annotations

import re

from .irony import under_review
from .pasted import pasted_lines
from .remembering import retraction, said
from .unasked import state_clause

_MIND_RE = re.compile(
    r"(?:^|[,;:]\s*|\s[-–—]\s+|\s(?=(?:so|and|also|but|just|oh)\s))"
    r"(?:(?:so|and|also|but|just|oh|ok|okay|please|pls)[,\s]+)*(?:(?:keep|bear)\s+in\s+mind|remember|don['’]?t\s+forget)"
    r"[,\s]+(?!that\b|th(?:is|e\s+following)\s*:)",
    re.IGNORECASE,
)
""""keep in mind", "bear in mind", "remember" or "don't forget" at a clause's start, after nothing but a lead word
("so", "and", "ok", "please")."""
_DEICTIC_RE = re.compile(r"^(?:this|that|it|it['’]s|these|those|here|there['’]s|there\s+is)\b", re.IGNORECASE)
"""A subject that points at the work at hand: "keep in mind this is only a prototype" is the task's context."""
_SAYING_RE = re.compile(r"\b(?:says?|said|told|tells|telling|according\s+to|asked|wants?|wrote)\b", re.IGNORECASE)
"""A verb of saying before the request: "My colleague says, keep in mind ..." is someone else's."""


def kept_in_mind(texts: list[str]) -> list[str]:
    """The statements the user asked to keep in mind with no "that" or colon (the module docstring), in order.

    Args:
        texts: the user's messages.

    Returns:
        list[str]: each statement as said, less its end mark.
    """
    out: list[str] = []
    for text in texts:
        if under_review(text) or retraction(text) is not None:
            continue
        pasted = pasted_lines(text)  # only the user's own lines: "here's my .env: ... and remember X" keeps X
        for sentence in said(text):
            at = text.find(sentence)
            if any(start <= at < end for start, end in pasted):
                continue
            found = _MIND_RE.search(sentence)
            if found is None or _SAYING_RE.search(sentence[: found.start()]):
                continue
            rest = sentence[found.end() :].strip()
            if rest and not _DEICTIC_RE.match(rest) and state_clause(rest):
                out.append(rest)
    return out


__all__ = ["kept_in_mind"]
