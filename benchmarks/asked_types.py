"""The answer types :mod:`asked_part_study` reads: what a question asks for by its opening words, and whether a line
holds it, loosely and strictly (rec18, issue 30; docs/benchmarks.md "Round 18").

Loose (:func:`has_type`): a time is any digit, month, weekday or part of the day; a number any digit or number word;
a person any capitalised word the question lacks, or a role; a place the same, or a host, path or URL.

Strict (:func:`strict_type`), for three types only:

- **when** (the question opens with "when", "what time" (not "time zone"), "what/which day" ...): a time expression,
  not any digit: a month or weekday, ``hh:mm``, ``9am``, a year 19xx/20xx, an ordinal day ("the 2nd"), "every",
  "daily", "nightly" ..., a part of the day, "until", "since", "ago", or a CJK date or time character;
- **count** ("how many"): a number that is not part of a date ("15 May 2026"), a year, a clock time or an identifier
  or version ("NS-64", "TC52", "3.11");
- **money** ("how much" with "cost", "pay", "charge", "price", "budget" ...; "what is the budget/price/cost/fee"):
  a currency sign, code or word.
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

STRICT_ASKS = {
    "when": re.compile(
        r"^\s*(?:when|since when|what time(?!\s+zone)|what date|what day|which day|which month|which year)\b", re.I
    ),
    "count": re.compile(r"\bhow\s+many\b", re.I),
    "money": re.compile(
        r"\bhow\s+much\b.*\b(?:cost|costs|pay|paid|charge|charges|price|budget|spend|fee|salary|worth)\b"
        r"|\bwhat\s+(?:is\s+)?the\s+(?:budget|price|cost|fee|salary)\b",
        re.I,
    ),
}
"""The strict types a question asks for (module docstring)."""
_MONTH_ALT = "|".join(MONTHS.split())
WHEN_STRICT = re.compile(
    rf"\b(?:{_MONTH_ALT}|{'|'.join(WEEKDAYS.split())}|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b"
    r"|\d{1,2}:\d\d|\b\d{1,2}\s*(?:am|pm)\b|\b(?:19|20)\d\d\b|\b\d+(?:st|nd|rd|th)\b"
    r"|\b(?:every|daily|weekly|nightly|monthly|yearly|quarterly|annually|mornings?|afternoons?|evenings?|nights?|noon"
    r"|midnight|tonight|tomorrow|yesterday|until|since|ago)\b|[月日时時시점曜]|매일|每",
    re.I,
)
"""What holds a time, strictly: a time expression, not any digit."""
MONEY = re.compile(
    r"[$€£¥₩]|\b(?:eur|euros?|usd|dollars?|sek|nok|dkk|chf|gbp|pounds?|kr|kronor|yen|won|cents?|pln|zł|brl|reais|jpy"
    r"|krw|cny|rmb|yuan)\b|元|円|원",
    re.I,
)
"""What holds an amount of money: a currency sign, code or word."""
_NOT_COUNTS = (
    re.compile(r"\b\w+(?:[-./_]\w+)+\b"),  # identifiers, versions, dates with separators
    re.compile(rf"\b\d+\s+(?:{_MONTH_ALT})\b|\b(?:{_MONTH_ALT})\s+\d+\b|\b(?:19|20)\d\d\b|\d{{1,2}}:\d\d", re.I),
    re.compile(r"\b[A-Za-z]+\d+\w*\b"),  # model numbers: TC52, SF9
)
COUNT = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty"
    r"|hundred|thousand|dozen|half|several|few)\b|[〇零一二三四五六七八九十百千万两]",
    re.I,
)
"""What holds a count once dates, years, clock times and identifiers are taken out."""


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


def strict_type(query: str) -> str:
    """The strict type ``query`` asks for (:data:`STRICT_ASKS`; money before count), or ""."""
    return next((name for name in ("money", "count", "when") if STRICT_ASKS[name].search(query)), "")


def holds_strict(kind: str, text: str) -> bool:
    """Whether ``text`` holds an answer of the strict type ``kind`` (module docstring); True for no type."""
    if kind == "when":
        return WHEN_STRICT.search(text) is not None
    if kind == "money":
        return MONEY.search(text) is not None
    if kind == "count":
        for pattern in _NOT_COUNTS:
            text = pattern.sub(" ", text)
        return COUNT.search(text) is not None
    return True
