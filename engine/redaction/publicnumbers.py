"""Numbers beside a password or PIN word that are no secret: dates, postal PIN codes, pass numbers (§3).

Issue 32 round 25, false alarms of a second hostile trial (breaker25b); each span is kept verbatim, so a rule that
took the number for the secret is cancelled by :func:`.public.drop_public`:

- a year with its date unit (``2024年``, ``2024년``, ``2024'te``, ``2024 में``) or a whole date (``2024-05-12``,
  ``12-05-2024``): "the password was changed in 2024" in Japanese, Korean, Chinese, Turkish, Hindi or Arabic;
- an Indian postal PIN code: six digits, the first 1 to 8, after ``pincode`` or ``PIN (code)``, with a place
  after it (``(Bangalore)``, ``, Maharashtra``) or an address word on the line (India's everyday term for a
  postal code; a card's PIN with a place beside it is rare);
- the number of a travel or membership pass (``boarding pass: 4471 2291 0034``, ``ski pass number 01-1614-…``).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import lazyre
from .spanends import line_at

Span = tuple[int, int]

_DATED_YEAR_RE = lazyre.compile(
    r"(?<!\d)(?:19|20)\d{2}(?=[ \t]?(?:年|년)|['’](?:te|de|da|ta|e|a)\b|[ \t]+(?:में|को|से)|/\d{1,2}/\d{1,2})"
)
_DATE_RE = lazyre.compile(r"(?<![\w-])(?:(?:19|20)\d{2}-[01]\d-[0-3]\d|[0-3]\d-[01]\d-(?:19|20)\d{2})(?![\w-])")
_POSTAL_PIN_RE = lazyre.compile(
    r"(?i:\bpin[ \t]?code|\bpincode|\bPIN)\b[ \t]*(?:is[ \t]+)?[:\-–][ \t]*(?P<v>[1-8]\d{5})(?!\d)|"
    r"(?i:\bpin[ \t]?code|\bpincode|\bPIN)\b[ \t]*(?:is[ \t]+)?(?P<w>[1-8]\d{5})(?!\d)"
)
_PLACE_AFTER_RE = lazyre.compile(r"[ \t]*[(,\-–][ \t]*[A-Z][a-z]{2,}|[ \t]*\([A-Z]")
_ADDRESS_RE = lazyre.compile(
    r"(?i)\b(?:address|delivery|deliver|ship(?:ping)?|postal|courier|zone|district|city|state|village|nagar|road|"
    r"marg|street|flat|colony|sector)\b"
)
_PASS_RE = lazyre.compile(
    r"(?i)\b(?:boarding|bus|rail|ski|gym|annual|season|museum|transit|visitor|eurail|interrail|metro|train|day|week|"
    r"month|parking|festival|park|zoo|travel|ferry|lift)[ \t]+pass(?:[ \t]+(?:number|no\.?|id|#))?[ \t]*[:#]?[ \t]*"
    r"(?P<v>[A-Z0-9][\w-]{2,40}(?:[ \t]\d{3,8}){0,3})"
)


def spans(text: str) -> Iterator[Span]:
    """``(start, end)`` of every number in ``text`` that is a date, a postal PIN code or a pass's number.

    Args:
        text: any text.

    Returns:
        Iterator[Span]: the numbers' spans.
    """
    if any(c.isdigit() for c in text):
        for regex in (_DATED_YEAR_RE, _DATE_RE):
            for m in regex.finditer(text):
                yield m.span()
        low = text.lower()
        if "pin" in low:
            for m in _POSTAL_PIN_RE.finditer(text):
                group = "v" if m.group("v") else "w"
                postal = "pincode" in m.group(0).lower() or _PLACE_AFTER_RE.match(text, m.end())
                if postal or _ADDRESS_RE.search(line_at(text, m.start())):
                    yield m.start(group), m.end(group)
        if "pass" in low:
            for m in _PASS_RE.finditer(text):
                yield m.start("v"), m.end("v")
