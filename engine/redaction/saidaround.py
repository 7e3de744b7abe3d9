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
from .spanends import line_at

Span = tuple[int, int, str]

_NAMES = (
    r"(?P<name>login|log-in|password|passcode|passphrase|pass|pw|pwd|PIN|wi-?fi(?:\s+(?:password|key))?|"
    r"(?:door|gate|garage|alarm|safe|locker|wi-?fi)\s+code)"
)
_QUOTED_BEFORE_RE = lazyre.compile(
    r"(?P<q>[\"“'‘`])(?P<value>[^\s\"“”'‘’`]{4,64})[\"”'’`][ \t]*(?:(?:[—–-]{1,2}>?|,|:|\(|\.{2,3}|->)[ \t]*)?"
    r"(?:(?:that['’]s|that\s+is|it['’]s|this\s+is|is|=)[ \t]+)?(?:the|my|our|his|her|their|your)?[ \t]*"
    r"(?:[\w+.&'-]+[ \t]+){0,3}?" + _NAMES + r"[ \t]*(?=[.,;!)\n]|$)",
    re.I,
)
_STOPPED_RE = lazyre.compile(
    r"(?<![^\s(\"'“‘])(?P<value>[^\s\"'“”‘’]{6,64})[\"'”’]?[ \t]+(?:doesn['’]t|does\s+not|no\s+longer|won['’]t|stopped|"
    r"is\s+not|isn['’]t)[ \t]+(?:work(?:s|ing)?|valid)(?:[ \t]+any\s?more)?",
    re.I,
)
_NAMED_ON_LINE_RE = lazyre.compile(
    r"(?i)(?:" + PASSWORD_WORD + r"|passcode|passphrase|\bpw\b|\bpwd\b|\bPIN\b|\blogin\b)"
)
_VERSION_RE = lazyre.compile(r"\d\.\d|@")
"""A version or a package (``node@18.19.0``, ``python3.12``, ``Ubuntu22.04``): what stops working as often (B25R-11)."""
_ASKED_RE = lazyre.compile(
    r"(?i)(?:"
    + PASSWORD_WORD
    + r"|passcode|passphrase|\bpw\b|\bPIN\b)(?:[ \t]+again)?[ \t]*\?+[ \t]*(?:(?:oh|ah|yes|yeah|ok|okay|right|"
    r"found\s+it|got\s+it|here|it['’]s|it\s+is)[ \t,]*){0,3}[ \t]*[:—–-]?[ \t]*(?P<value>[^\s\"'“”]{6,64})"
)
"""The password word ending the question (``what's the Plex password again? oh right: …``), so a question about
something else (``the password check``, ``PIN policy``, ``password manager``) asks for no value (B25R-14)."""
_THING_ONE_RE = lazyre.compile(
    r"(?i)\b(?P<thing>wi-?fi|wlan|hotspot|alarm|gate|door|garage)(?:['’]s)?[ \t]+(?:one|pw|pwd|pass)"
    r"(?:['’]s|[ \t]+(?:is|=)|[ \t]*:)[ \t]+(?P<value>[^\s\"'“”,;]{4,64})"
)
"""A network's or a door's "one": a router's or a laptop's "one" is as often its model (B25R-12)."""
_ANSWER_RE = lazyre.compile(
    r"(?i)\b(?:(?:secret|security)[ \t]+(?:question[ \t]+)?answer|answer[ \t]+to[ \t]+(?:my|the)[ \t]+security[ \t]+"
    r"question|memorable[ \t]+(?:word|phrase|info(?:rmation)?)|(?:mother|mom|mum)['’]?s?[ \t]+maiden[ \t]+name)"
    r"(?:[ \t]+(?:for|to|on|of|at)[ \t]+[^\n:,;.=]{1,40}?(?P<link1>[ \t]*[:=—–][ \t]*|[ \t]+(?:is|was)[ \t]+)|"
    r"(?P<link2>[ \t]*[:=—–][ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]+))[\"“']?"
    r"(?P<value>(?:(?:Mrs?|Ms|Dr|St)\.[ \t]+)?[^\s,;:.!?()\"'“”]{2,30}(?:[ \t]+[^\s,;:.!?()\"'“”]{2,30}){0,2})"
)
_NOT_AN_ANSWER_RE = lazyre.compile(
    r"(?i)(?:in|on|at|to|for|stored|saved|written|kept|the\s+same|unknown|not|something|required|optional|set|"
    r"changed|reset|question|questions|field|hint|is|was|a|an|the|and|or|if|when|of|requirements?|features?|rules?|"
    r"policy|prompt|options?|settings?|page|screen|check|must|should|can|will)(?:\s|$)"
)


def spans(text: str) -> Iterator[Span]:
    """Every value in ``text`` said around a word naming it (module doc).

    Args:
        text: any text.

    Returns:
        Iterator of ``(start, end, type)``: ``password`` or ``security-answer``.
    """
    for m in _QUOTED_BEFORE_RE.finditer(text):
        value = m.group("value")
        code = m.group("name").lower().endswith(("code", "pin")) and value.isdigit() and 4 <= len(value) <= 8
        if code or (looks_like_credential(value, min_len=6) and not _VERSION_RE.search(value)):
            yield m.start("value"), m.end("value"), "password"
    for m in _STOPPED_RE.finditer(text):
        value = m.group("value").rstrip(".,;:")
        line = line_at(text, m.start())
        if _NAMED_ON_LINE_RE.search(line) and looks_like_credential(value, min_len=6) and not _VERSION_RE.search(value):
            yield m.start("value"), m.start("value") + len(value), "password"
    for regex in (_ASKED_RE, _THING_ONE_RE):
        for m in regex.finditer(text):
            value = m.group("value").rstrip(".,;:?)")  # a closing ``!`` stays: it is a password's own as often
            thing = (m.groupdict().get("thing") or "").lower()
            code = thing in ("alarm", "gate", "door", "garage") and value.isdigit() and 4 <= len(value) <= 8
            if thing in ("alarm", "gate", "door", "garage") and not code:
                continue
            if code or (looks_like_credential(value, min_len=6) and not _VERSION_RE.search(value)):
                yield m.start("value"), m.start("value") + len(value), "password"
    for m in _ANSWER_RE.finditer(text):
        value = m.group("value")
        if _NOT_AN_ANSWER_RE.match(value):
            continue
        if m.group("link2") is not None and not m.group("link2").strip() and not value[:1].isupper():
            continue  # with only a space after its name, an answer is a name ("secret answer Mrs. Alvarez", B25R-10)
        yield m.start("value"), m.end("value"), "security-answer"
