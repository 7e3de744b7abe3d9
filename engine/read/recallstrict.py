"""Hybrid recall's strict answer types: a question asking when something happens, how many there are or how much it
costs is answered only when one of the answer's first three hits holds a time, a count or an amount of money.

:mod:`.recalltype` asks a quantity of any digit, and lines hold digits whatever is asked: "how many robots will run in
the Sueca pilot" was answered by "Firmware freeze for the Sueca pilot: 15 May 2026", "how much does one NS-64 lidar
cost" by "Upgraded to the NS-64 (64 channels, 20 Hz)", "when is the next route-planner release" by "route-planner is
a FastAPI service on Python 3.11 with PostgreSQL 15" (benchmarks/asked_part_study.py, rec18). Read strictly (English
questions only):

- **when** ("when is/are/was/were/will ...", "what time" but not "what time zone", "what date", "what/which day",
  "which month/year"): a time expression, not any digit: a month or weekday, ``hh:mm``, ``9am``, a year 19xx/20xx, an
  ordinal day ("the 2nd"), a clock time in words ("a quarter past ten", "at nine"), a period ("every", "daily",
  "nightly" ...), a part of the day, or a word placing it against
  something else ("until", "since", "before", "after", "once", "never", "now" ...), or a CJK date or time character;
  "when do I use X" asks for a condition and is left alone;
- **count** ("how many"): a number that is not part of a date ("15 May 2026"), a year, a clock time, an identifier or
  version ("NS-64", "v2.4", "3.11") or a model number ("TC52");
- **money** ("how much" with "cost", "pay", "charge", "price", "budget", "spend", "fee", "salary", "worth"; "what is
  the budget/price/cost/fee/salary"): a currency sign, code or word, a number right after a money word ("costs 400"),
  a number with ``k`` ("5k") or "free".

Unlike :func:`.recalltype.answers_type`, which reads the best hit and the hits tied with it, the rule reads the first
:data:`TOP` hits of the answer (the prompt hook's places): the answer's line is often second or third (read for
"when do/does" too, "when does the band practise" has "The band plays in E flat standard ..." first, its rehearsal
day second).

Measured on the tuning splits (docs/benchmarks.md "Round 18"): of the 16 questions asking one of these types that
hybrid recall answered (9 answerable with a gold line in the top 5, 7 with no answer), every answerable one keeps its
answer and 4 of the no-answer ones get none (E 3, G 1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

TOP = 3
"""The answer's hits read."""

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DAYS = "mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekdays?|weekends?"

ASKS = {
    "money": re.compile(
        r"\bhow\s+much\b.*\b(?:cost|costs|pay|paid|charge|charges|price|budget|spend|fee|salary|worth)\b"
        r"|\bwhat\s+(?:is\s+|was\s+|'s\s+)?the\s+(?:budget|price|cost|fee|salary)\b",
        re.IGNORECASE,
    ),
    "count": re.compile(r"\bhow\s+many\b", re.IGNORECASE),
    "when": re.compile(
        r"^\s*(?:when\s+(?:is|are|was|were|will)\b|what\s+time\b(?!\s+zone)|what\s+date\b|(?:what|which)\s+day\b"
        r"|which\s+(?:month|year)\b)",
        re.IGNORECASE,
    ),
}
"""What asks for each strict type, in the order they are tried."""

WHEN = re.compile(
    rf"\b(?:{_MONTHS}|{_DAYS})\b|\d{{1,2}}:\d\d|\b\d{{1,2}}\s*(?:am|pm)\b|\b(?:19|20)\d\d\b|\b\d+(?:st|nd|rd|th)\b"
    r"|\b(?:every|daily|weekly|nightly|monthly|yearly|quarterly|annually|biweekly|fortnightly|mornings?|afternoons?"
    r"|evenings?|nights?|noon|midnight|tonight|tomorrow|yesterday|today|now|until|till|since|ago|before|after|once"
    r"|during|while|never|always|anytime|soon|later|next|last|holidays?|q[1-4]|h[12])\b"
    r"|\b(?:quarter|half)\s+(?:past|to)\b|\bo'?clock\b"
    r"|\bat\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    r"|[月日时時시점曜]|매일|每",
    re.IGNORECASE,
)
"""What holds a time: a time expression, not any digit (module docstring)."""

MONEY = re.compile(
    r"[$€£¥₩]|\b(?:eur|euros?|usd|dollars?|sek|nok|dkk|chf|gbp|pounds?|kr|kronor|kroner|yen|won|cents?|pln|zł|brl"
    r"|reais|jpy|krw|cny|rmb|yuan|free)\b|元|円|원"
    r"|\b(?:costs?|priced?|paid|pays?|charges?|budget(?:ed)?|fees?|salary|worth)\b\D{0,12}\d|\b\d+(?:[.,]\d+)?\s?k\b",
    re.IGNORECASE,
)
"""What holds an amount of money (module docstring)."""

_NOT_COUNTS = (
    re.compile(r"\b\w+(?:[-./_:]\w+)+\b"),  # identifiers, versions, dates and times with separators
    re.compile(rf"\b\d+\s+(?:{_MONTHS})\b|\b(?:{_MONTHS})\s+\d+\b|\b(?:19|20)\d\d\b", re.IGNORECASE),
    re.compile(r"\b[^\W\d_]+\d+\w*\b"),  # model numbers: TC52, SF9
)
"""What a digit of a line is part of when it counts nothing."""

COUNT = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
    r"|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?"
    r"|millions?|dozens?|half|single|couple|few|several|both|none)\b|[〇零一二三四五六七八九十百千万萬两兩]",
    re.IGNORECASE,
)
"""What holds a count, once :data:`_NOT_COUNTS` are taken out."""


def strict_asked(query: str) -> str:
    """The strict type ``query`` asks for: "money", "count", "when", or "" for none (module docstring)."""
    return next((name for name, asks in ASKS.items() if asks.search(query)), "")


def holds_strict(kind: str, text: str) -> bool:
    """Whether ``text`` holds an answer of the strict type ``kind`` (:func:`strict_asked`); True for ""."""
    if kind == "when":
        return WHEN.search(text) is not None
    if kind == "money":
        return MONEY.search(text) is not None
    if kind == "count":
        for pattern in _NOT_COUNTS:
            text = pattern.sub(" ", text)
        return COUNT.search(text) is not None
    return True


def answers_strict(query: str, texts: Iterable[str]) -> bool:
    """Whether an answer whose first hits' lines are ``texts`` (at most :data:`TOP` read) can answer ``query``: False
    only when the query asks for a strict type (:func:`strict_asked`) that none of them holds.

    Args:
        query: the question as asked.
        texts: the answer's hits' lines, best first.

    Returns:
        bool: True when the query asks for no strict type, or one of the first :data:`TOP` lines holds it.
    """
    kind = strict_asked(query)
    if not kind:
        return True
    return any(holds_strict(kind, text) for _n, text in zip(range(TOP), texts, strict=False))
