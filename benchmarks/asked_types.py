"""The answer types :mod:`asked_part_study` reads: what a question asks for by its opening words, and whether a line
holds it, loosely and strictly (rec18, issue 30; docs/benchmarks.md "Round 18").

Loose (:func:`has_type`): a time is any digit, month, weekday or part of the day; a number any digit or number word;
a person any capitalised word the question lacks, or a role; a place the same, or a host, path or URL.

The strict reading (a time, a count, money) is the one hybrid recall ships: :mod:`memrepo.engine.read.recallstrict`.
"""

from __future__ import annotations

import re

MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday weekday weekdays weekend weekends"
WHEN = re.compile(
    rf"\d|\b(?:{'|'.join(MONTHS.split())}|{'|'.join(WEEKDAYS.split())}|yesterday|tomorrow|tonight|morning|"
    r"mornings|afternoon|evening|night|noon|midnight|daily|weekly|monthly|yearly|annually|quarterly|every|each|"
    r"spring|summer|autumn|fall|winter|week|month|year|ago|since|until|before|after|soon|later|o'clock|am|pm)s?\b",
    re.IGNORECASE,
)
"""What holds a time: a digit, a month or weekday, a part of the day, a period."""
ASKS = {
    "when": re.compile(
        r"^\s*(?:when|since when|what time|what date|what day|which day|which month|which year)\b", re.I
    ),
    "number": re.compile(r"\bhow\s+(?:many|much|long|often|big|large|old|far|fast)\b", re.I),
    "who": re.compile(r"^\s*(?:who|whom|whose)\b|\bwho\s+(?:is|are|was|owns|runs|leads|manages)\b", re.I),
    "where": re.compile(r"^\s*where\b", re.I),
}
"""The answer types a question asks for by its opening words."""
NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|"
    r"thousand|million|half|once|twice|dozen|few|several|daily|weekly|monthly|every)\b",
    re.I,
)
ROLES = re.compile(
    r"\b(?:i|me|my|she|he|her|him|they|team|owner|lead|manager|boss|engineer|developer|founder|partner|wife|"
    r"husband|sister|brother|mother|father|mom|dad|friend|colleague|maintainer|admin|oncall|on-call)\b",
    re.I,
)
PLACE = re.compile(r"https?://|\w\.\w|/\w|\b(?:in|at|on|under|from|to)\s+[A-Z]", re.I)
CAP = re.compile(r"\b[A-Z][\w'’-]*")


def answer_type(query: str) -> str:
    """The answer type ``query`` asks for (:data:`ASKS`), or ""."""
    return next((name for name, pattern in ASKS.items() if pattern.search(query)), "")


def has_type(kind: str, query: str, text: str) -> bool:
    """Whether ``text`` holds an answer of type ``kind`` for ``query`` (module docstring)."""
    if kind == "when":
        return bool(WHEN.search(text))
    if kind == "number":
        return bool(NUMBER.search(text))
    qwords = {w.lower().rstrip("'’s") for w in re.findall(r"[\w'’-]+", query)}
    new_caps = [w for w in CAP.findall(text) if w.lower().rstrip("'’s") not in qwords]
    if kind == "who":
        return bool(new_caps) or bool(ROLES.search(text))
    if kind == "where":
        return bool(new_caps) or bool(PLACE.search(text))
    return True
