"""Passwords and answers said around their name, not after a label (docs/architecture.md §3).

Issue 32 round 25: classes read on the tune half of ``speech4`` (its held half was not read). Each needs a word
naming a credential on the same line and a value in the shape that word promises:

- a quoted value before what it opens: ``"lant3rn!" — that's the Netflix login``;
- an old value that stopped working beside its new one: ``Ding0#11 doesn't work anymore — the new password is …``
  (the old value is a password the user may still use elsewhere);
- a value after a question about it: ``what's the Disney+ password again? oh right: CopperComet1981!``;
- a value after a thing's "one" or "pw": ``the wifi one is LilyLobster1987``;
- a security question's answer or a memorable word: ``secret answer Mrs. Alvarez``, ``memorable word for the
  bank phone line is ravioli``, ``mother's maiden name: Alvarez`` (words, so no credential shape is asked; what
  says where the answer is kept, "is in the vault", is not one).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import lazyre
from .keynames import PASSWORD_WORD
from .rules import looks_like_credential

Span = tuple[int, int, str]

_NAMES = r"(?:login|log-in|password|passcode|passphrase|pass|pw|pwd|PIN|wi-?fi(?:\s+(?:password|key))?|code)"
_QUOTED_BEFORE_RE = lazyre.compile(
    r"(?P<q>[\"“'‘`])(?P<value>[^\s\"“”'‘’`]{4,64})[\"”'’`][ \t]*(?:[—–-]{1,2}|,|:)[ \t]*(?:that['’]s|that\s+is|it['’]s|"
    r"this\s+is|is|=)[ \t]+(?:the|my|our|his|her|their|your)?[ \t]*(?:[\w+.&'-]+[ \t]+){0,3}?" + _NAMES + r"\b",
    re.I,
)
_STOPPED_RE = lazyre.compile(
    r"(?<![^\s(\"'“‘])(?P<value>[^\s\"'“”‘’]{6,64})[ \t]+(?:doesn['’]t|does\s+not|no\s+longer|won['’]t|stopped)[ \t]+"
    r"(?:work(?:s|ing)?|valid)(?:[ \t]+any\s?more)?",
    re.I,
)
_NAMED_ON_LINE_RE = lazyre.compile(
    r"(?i)(?:" + PASSWORD_WORD + r"|passcode|passphrase|\bpw\b|\bpwd\b|\bPIN\b|\blogin\b)"
)
_ASKED_RE = lazyre.compile(
    r"(?i)(?:"
    + PASSWORD_WORD
    + r"|passcode|passphrase|\bpw\b|\bPIN\b)[^\n?]{0,40}\?[ \t]*(?:(?:oh|ah|yes|yeah|ok|okay)"
    r"[ \t,]*)?(?:right|found\s+it|got\s+it|here|it['’]s)?[ \t]*[:—–-][ \t]*(?P<value>[^\s\"'“”]{6,64})"
)
_THING_ONE_RE = lazyre.compile(
    r"(?i)\b(?:wi-?fi|router|wlan|network|hotspot|alarm|gate|door|safe|locker|laptop|router)[ \t]+(?:one|pw|pwd|pass)"
    r"[ \t]+(?:is|=|:)[ \t]+(?P<value>[^\s\"'“”,;]{6,64})"
)
_ANSWER_RE = lazyre.compile(
    r"(?i)\b(?:(?:secret|security)[ \t]+(?:question[ \t]+)?answer|memorable[ \t]+(?:word|phrase|information)|"
    r"mother['’]s[ \t]+maiden[ \t]+name)(?:[ \t]+(?:for|to|on|of)[ \t]+[^\n:,;.=]{1,40}?"
    r"(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+)|[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]+)"
    r"(?P<value>(?:(?:Mrs?|Ms|Dr|St)\.[ \t]+)?[^\s,;:.!?()\"'“”]{2,30}(?:[ \t]+[^\s,;:.!?()\"'“”]{2,30}){0,2})"
)
_NOT_AN_ANSWER_RE = lazyre.compile(
    r"(?i)(?:in|on|at|to|for|stored|saved|written|kept|the\s+same|unknown|not|something|required|optional|set|"
    r"changed|reset|question|field|hint|is|was|a|an|the|and|or|if|when|of)(?:\s|$)"
)


def spans(text: str) -> Iterator[Span]:
    """Every value in ``text`` said around a word naming it (module doc).

    Args:
        text: any text.

    Returns:
        Iterator of ``(start, end, type)``: ``password`` or ``security-answer``.
    """
    for m in _QUOTED_BEFORE_RE.finditer(text):
        if looks_like_credential(m.group("value"), min_len=6):
            yield m.start("value"), m.end("value"), "password"
    for m in _STOPPED_RE.finditer(text):
        value = m.group("value").rstrip(".,;:")
        line = _line(text, m.start())
        if _NAMED_ON_LINE_RE.search(line) and looks_like_credential(value, min_len=6):
            yield m.start("value"), m.start("value") + len(value), "password"
    for regex in (_ASKED_RE, _THING_ONE_RE):
        for m in regex.finditer(text):
            value = m.group("value").rstrip(".,;:?)")  # a closing ``!`` stays: it is a password's own as often
            if looks_like_credential(value, min_len=6):
                yield m.start("value"), m.start("value") + len(value), "password"
    for m in _ANSWER_RE.finditer(text):
        value = m.group("value")
        if _NOT_AN_ANSWER_RE.match(value):
            continue
        yield m.start("value"), m.end("value"), "security-answer"


def _line(text: str, pos: int) -> str:
    """The line of ``text`` holding ``pos``."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start : len(text) if end < 0 else end]
