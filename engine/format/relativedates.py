"""A statement's relative time made absolute when it is kept (breaker14 B14-8, docs/architecture.md §7).

"I'm on call this week", "I'm on vacation next week", "The release is frozen until Monday", said in a session and
kept for good, were shown in every later block as if still true. :func:`dated` writes the time as the dates it
meant on the day it was said, and how long the statement holds (the ``until:`` date):

- "this week" / "next week" -> "the week of 2026-11-30" (weeks start on Monday), until that week's Sunday;
- "this weekend" -> "the weekend of 2026-12-05", until its Sunday;
- "today" / "tonight" / "tomorrow" -> "on 2026-12-06" (tonight: "on the night of 2026-12-06"), until that day;
- "until Monday" / "till Friday" -> "until Monday 2026-12-07" (the next such day after today), until that day;
- "this Friday" -> "on Friday 2026-12-11" (the coming one, today when it is Friday), until that day;
- "this month" / "next month" -> "in December 2026", until its last day;
- "for the next two weeks" / "jusqu'à la fin du mois prochain" / "until the end of next month" -> "until
  2026-12-20" / "jusqu'au 2027-01-31", until that day; "until 2025-03-31" (a date said) is kept as said, until that
  day (:func:`until_date`, corr14: heldout5's time-bound scenarios);
- the same in Chinese, Japanese and Korean ("다음 달 말까지", "来月末まで", "周五之前", "앞으로 3주 동안"):
  the date with the language's "until" ("2027-01-31까지"), until that day (:mod:`.cjkdates`).

After "as of", "from", "starting", "since", "beginning" or "after" the time starts something that lasts ("As of
today we use pnpm", "From next week, deploys are on Thursdays"): the dates are written, no ``until:``. Never
dated: a possessive ("this week's release"), "today I learned", "every week", "last week" (a past event, not a state
that ends), a time inside code or quotes. Pure function of text and a date.

A change or an event said with such a time is dated but gets no ``until:`` (breaker22 B22-3): "I switched to Neovim
today", "We moved our deploys to Thursdays this week", "Bob took over the budget this week", "We upgraded to
Postgres 16 tonight", "Our team decided today: ..." start a state that lasts; with an ``until:`` the block dropped
them the next day and showed the older line as current. So ``until:`` is written only for a state that holds for
that time: no change verb ("switched", "moved", "upgraded", "took over", "started", "decided", "now" ...), and for
"today"/"tonight" a state said as one ("I'm out today", "the office is closed tonight", "I work from home today");
a plain fact said with "today" ("We use pnpm today") lasts. An explicit "until Monday" always ends.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from typing import NamedTuple

from .cjkdates import cjk_span

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_LOCAL_DAYS = (
    "montag lundi lunes lunedì segunda maandag måndag",
    "dienstag mardi martes martedì terça dinsdag tisdag",
    "mittwoch mercredi miércoles mercoledì quarta woensdag onsdag",
    "donnerstag jeudi jueves giovedì quinta donderdag torsdag",
    "freitag vendredi viernes venerdì sexta vrijdag fredag",
    "samstag samedi sábado sabato zaterdag lördag",
    "sonntag dimanche domingo domenica zondag söndag",
)
_WEEKDAY = {day: i for i, words in enumerate(_LOCAL_DAYS) for day in words.split()} | {
    d: i for i, d in enumerate(_DAYS)
}
"""A day's name in en/de/fr/es/it/pt/nl/sv -> its weekday (Monday 0): "hasta el viernes" ends on a Friday (sess15)."""
NOW_WORDS = (
    r"yesterday|today|tonight|just|gestern|heute|hier|aujourd['’]hui|ayer|hoy|ieri|oggi|ontem|hoje|gisteren|vandaag"
    r"|igår|idag|wczoraj|dzisiaj"
)
"""Words that put a sentence at a moment, not in a standing state ("yesterday", "today", "just"), in ten languages:
what :mod:`.ruleforms` and :mod:`.unasked` read as an event rather than how things are."""
_UNTIL_WORDS = r"until|till|til|hasta(?:\s+el)?|bis(?:\s+zum)?|jusqu['’]à|fino\s+a|até(?:\s+[àa])?|tot|tills"
_DAY_WORDS = "|".join(sorted(_WEEKDAY, key=len, reverse=True))
_WHEN_RE = re.compile(
    r"(?P<start>\b(?:as\s+of|from|starting(?:\s+from)?|since|beginning|after)\s+)?"
    r"\b(?P<when>this\s+week|next\s+week|this\s+weekend|today|tonight|tomorrow|this\s+month|next\s+month"
    rf"|(?P<until>{_UNTIL_WORDS}|this)\s+(?P<day>{_DAY_WORDS}))(?![\w-])"
    r"(?!['’]s|\s+(?:i\s+learned|i\s+learnt))",
    re.IGNORECASE,
)
_SKIP_RE = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”", re.DOTALL)
_CHANGE = (
    r"switch|mov|upgrad|downgrad|migrat|start|decid|chang|adopt|replac|join|launch|ship|releas|install|renam"
    r"|retir|deprecat|promot|hir|marri|confirm|agre|merg|announc|approv|finish|complet|swapp|convert"
    r"|transfer|relocat|updat|select"
)
_CHANGE_RE = re.compile(
    rf"\b(?:(?:{_CHANGE})(?:ed|ing)|(?:{_CHANGE})e?\s+(?:to|over)\b"
    r"|took\s+over|taking\s+over|take[sn]?\s+over|began|begun|became|bought|chose|chosen|set\s+up"
    r"|now)\b",
    re.IGNORECASE,
)
_STATE_RE = re.compile(
    r"\b(?:am|is|are|was|were|be|being|been)\b|['’](?:m|re|s)\b"
    r"|\b(?:from\s+home|wfh|off|out|away|offline|online|on\s+call|on\s+leave|sick|busy|unavailable|closed|frozen"
    r"|freeze|down|blocked|travell?ing|vacation|holiday|pto|remote)\b",
    re.IGNORECASE,
)
_UNTIL_DATE_RE = re.compile(
    r"\b(?:until|till|through|thru|bis(?:\s+zum)?|jusqu['’](?:au|à)|hasta(?:\s+el)?|tot(?:\s+en\s+met)?)\s+"
    r"(?P<date>\d{4}-\d{2}-\d{2})\b",
    re.IGNORECASE,
)
"""An end said as a date ("Until 2025-03-31 the build signs with the legacy key", "bis 2026-01-15"): ``until:``."""
_NUMBERS = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a couple of": 2, "a few": 3}
_SPAN_RE = re.compile(
    r"\b(?:for|over)\s+the\s+next\s+(?P<n>\d{1,2}|one|two|three|four|five|six|a\s+couple\s+of|a\s+few)\s+"
    r"(?P<unit>day|week|month)s?\b"
    r"|\bjusqu['’]à\s+la\s+fin\s+(?:du\s+mois(?P<frnext>\s+prochain)?|de\s+la\s+semaine(?P<frweek>\s+prochaine)?)\b"
    r"|\buntil\s+the\s+end\s+of\s+(?:the|this|(?P<ennext>next))\s+(?P<enunit>month|week)\b",
    re.IGNORECASE,
)
"""A span from today ("for the next two weeks", "jusqu'à la fin du mois prochain", "until the end of next month"):
written as its last day, which is its ``until:``."""
_MONTH_WORDS = (
    "january januar janvier enero gennaio janeiro januari stycznia",
    "february februar février febrero febbraio fevereiro februari lutego",
    "march märz mars marzo março maart marca",
    "april avril abril aprile kwietnia",
    "may mai mayo maggio maio mei maj maja",
    "june juni juin junio giugno junho czerwca",
    "july juli juillet julio luglio julho lipca",
    "august août agosto augustus augusti sierpnia",
    "september septembre septiembre settembre setembro września",
    "october oktober octobre octubre ottobre outubro października",
    "november novembre noviembre novembro listopada",
    "december dezember décembre diciembre dicembre dezembro grudnia",
)
_MONTH = {word: i + 1 for i, words in enumerate(_MONTH_WORDS) for word in words.split()}
"""A month's name in en/de/fr/es/it/pt/nl/sv/pl (Polish in the genitive a date takes) -> its number."""
MONTH_NAMES = "|".join(sorted(_MONTH, key=len, reverse=True))
DAY_MONTH = (
    rf"(?:\d{{1,2}}(?:st|nd|rd|th|\.|º)?\s+(?:of\s+|de\s+)?(?:{MONTH_NAMES})|(?:{MONTH_NAMES})\s+\d{{1,2}}(?:st|nd|rd|th)?)"
    r"(?![\w-])"
)
"""A day and a month's name, either order ("18 December", "December 18th", "18. Dezember", "18 de diciembre")."""
_UNTIL_DM_RE = re.compile(
    r"\b(?:until|till|through|thru|hasta|bis|jusqu['’](?:au|à)|fino\s+al?|até|tot(?:\s+en\s+met)?|tills|do)"
    r"(?:\s+(?:the|el|zum|le|il|ao|o|dia|den|och\s+med))?\s+"
    rf"(?:(?:{_DAY_WORDS}),?\s+)?(?P<dm>{DAY_MONTH})(?P<year>,?\s+\d{{4}})?",
    re.IGNORECASE,
)
"""An end said as a day and a month ("until December 18", "Fino al 18 dicembre", "bis zum 18. Dezember", "until Friday
11 December"): dated to the next such day (this year's, or next year's when it has passed), which is its ``until:``
(sess16; a weekday before it, breaker30 B30-5: "until Friday 2026-12-11 11 December" was written)."""


_END_OF_MONTH_RE = re.compile(
    r"\b(?:until|till|through)\s+the\s+end\s+of\s+|\bbis\s+(?:zum\s+)?ende\s+|\bjusqu['’]à\s+(?:la\s+)?fin\s+(?:de\s+|d['’])?"
    r"|\bhasta\s+(?:el\s+)?(?:final(?:es)?|fin)\s+de\s+|\bfino\s+alla\s+fine\s+di\s+|\baté\s+o\s+(?:final|fim)\s+de\s+"
    r"|\btot\s+(?:het\s+)?eind\s+(?:van\s+)?",
    re.IGNORECASE,
)
"""The words of "until the end of" a month, before its name ("until the end of January", "bis Ende Januar", "jusqu'à
fin janvier", "hasta finales de enero", "fino alla fine di gennaio"): an end on that month's last day (round 18)."""


def _end_of_month(text: str, today: date) -> tuple[re.Match[str], date] | None:
    """The "until the end of <month>" in ``text`` and that month's last day on or after ``today``, or None."""
    for found in _END_OF_MONTH_RE.finditer(text):
        name = re.match(r"[^\W\d_]+", text[found.end() :])
        month = _MONTH.get(name.group(0).casefold()) if name else None
        if month is None:
            continue
        year = today.year + (month < today.month)
        last = date(year, month, calendar.monthrange(year, month)[1])
        return found, last
    return None


def _until_day_month(found: re.Match[str], today: date) -> date | None:
    """The day an end said as a day and a month (:data:`_UNTIL_DM_RE`) falls on, on or after ``today`` (or in the
    year said), or None when it is no real date."""
    words = re.findall(r"\d+|[^\W\d_]+", found.group("dm").casefold())
    day = int(next(w for w in words if w.isdigit()))
    month = next((_MONTH[w] for w in words if w in _MONTH), 0)
    year = int(found.group("year").strip(" ,")) if found.group("year") else today.year
    try:
        when = date(year, month, day)
        if not found.group("year") and when < today:
            when = date(year + 1, month, day)
    except ValueError:
        return None
    return when


_TIL_RE = re.compile(r"\btoday\s+i\s+(?:learned|learnt)\b|\bTIL\b", re.IGNORECASE)


class Dated(NamedTuple):
    """A statement with its relative time written as dates, and the last day it holds (None: it lasts)."""

    text: str
    until: str | None


def _month(day: date, ahead: int) -> tuple[str, date]:
    year, month = divmod(day.month - 1 + ahead, 12)
    first = date(day.year + year, month + 1, 1)
    last = first.replace(day=calendar.monthrange(first.year, first.month)[1])
    return f"in {calendar.month_name[first.month]} {first.year}", last


def _absolute(match: re.Match[str], today: date) -> tuple[str, date]:
    """The words for ``match``'s time on ``today``, and the last day it covers."""
    when = " ".join(match.group("when").casefold().split())
    monday = today - timedelta(days=today.weekday())
    if match.group("day"):
        target = _WEEKDAY[match.group("day").casefold()]
        ahead = (target - today.weekday()) % 7 or (0 if match.group("until").casefold() == "this" else 7)
        day = today + timedelta(days=ahead)
        if match.group("until").casefold() == "this":
            return f"on {match.group('day')} {day.isoformat()}", day  # "this Friday": the coming one, or today
        return f"{match.group('until')} {match.group('day')} {day.isoformat()}", day
    if when in ("this week", "next week"):
        start = monday + timedelta(days=7 if when == "next week" else 0)
        return f"the week of {start.isoformat()}", start + timedelta(days=6)
    if when == "this weekend":
        saturday = monday + timedelta(days=5)
        return f"the weekend of {saturday.isoformat()}", saturday + timedelta(days=1)
    if when in ("today", "tonight", "tomorrow"):
        day = today + timedelta(days=1 if when == "tomorrow" else 0)
        return ("on the night of " if when == "tonight" else "on ") + day.isoformat(), day
    return _month(today, 1 if when == "next month" else 0)


def _ends(hidden: str) -> bool:
    """Whether ``hidden`` (code and quotes blanked) is a state that ends with its time, not a change that lasts."""
    if re.search(rf"\b(?:{_UNTIL_WORDS})\s+(?:{_DAY_WORDS})(?![\w-])", hidden, re.I):
        return True  # "frozen until Monday": said to end
    if _CHANGE_RE.search(hidden):
        return False  # "I switched to Neovim today": a change that lasts
    if re.search(r"\b(?:today|tonight)\b", hidden, re.I) and not re.search(
        r"\b(?:this|next)\s+(?:week|weekend|month)\b|\btomorrow\b|\bthis\s+\w+day\b", hidden, re.I
    ):
        return bool(_STATE_RE.search(hidden))  # "I'm out today" ends; "We use pnpm today" is a plain fact
    return True


_AFTER_RE = re.compile(
    r";|\b(?:(?<!till\s)(?<!until\s)(?<!before\s)then|afterwards|dann|danach|puis|ensuite|luego|después|depois|poi|dopo|daarna|sedan|potem)\b"
    r"|\b(?:after|from|ab|après|desde|da|vanaf|från|od)\s+(?:(?:that|this|then|now|dann|da)\b|\d)",
    re.IGNORECASE,
)
"""Words that say something holds after the date ("Until 2025-03-31 sign with the old key, then with the new one",
"...; after that ...", "from 2025-04-01 ..."): the date bounds part of the line, not all of it; "from" as a source
("sign-off from Dana") is no such word, nor "till then" / "until then" / "before then" (the same end again: "..., so
mock the gateway till then", sess17; "so don't schedule any deploys before then", breaker30 B30-5)."""


def until_date(text: str) -> str | None:
    """The end a statement says as a date (:data:`_UNTIL_DATE_RE`), a real ``YYYY-MM-DD``, or None: only when the
    date bounds the whole statement (one date in it, nothing said to hold after it: :data:`_AFTER_RE`), as the
    block reads a line's own end date, so a line is never written with an ``until:`` the block would not give it."""
    hidden = _SKIP_RE.sub(lambda m: " " * len(m.group(0)), text)
    if len(re.findall(r"\d{4}-\d{2}-\d{2}", hidden)) != 1 or _AFTER_RE.search(hidden):
        return None
    found = _UNTIL_DATE_RE.search(hidden)
    try:
        return date.fromisoformat(found.group("date")).isoformat() if found else None
    except ValueError:
        return None


def _span(match: re.Match[str], today: date) -> tuple[str, date]:
    """The words and last day of a span from ``today`` (:data:`_SPAN_RE`)."""
    monday = today - timedelta(days=today.weekday())
    if match.group("unit"):
        raw = " ".join(match.group("n").casefold().split())
        n = int(raw) if raw.isdigit() else _NUMBERS[raw]
        unit = match.group("unit").casefold()
        end = _month(today, n)[1] if unit == "month" else today + timedelta(days=n * (7 if unit == "week" else 1))
        return f"until {end.isoformat()}", end
    french = match.group(0).casefold().startswith("jusqu")
    week = "semaine" in match.group(0).casefold() or (match.group("enunit") or "").casefold() == "week"
    ahead = bool(match.group("frnext") or match.group("frweek") or match.group("ennext"))
    end = monday + timedelta(days=6 + 7 * ahead) if week else _month(today, int(ahead))[1]
    return ("jusqu'au " if french else "until ") + end.isoformat(), end


def dated(text: str, today: date) -> Dated:
    """``text`` with its relative times written as the dates they meant on ``today`` (the module docstring).

    Args:
        text: a statement the user made, to be kept.
        today: the day they said it.

    Returns:
        Dated: the statement (``text`` itself when it holds no such time) and its ``until:`` date, or None.
    """
    if _TIL_RE.search(text):
        return Dated(text, None)
    hidden = _SKIP_RE.sub(lambda m: " " * len(m.group(0)), text)
    cjk = cjk_span(hidden, today, anywhere=True)
    if cjk is not None:  # "다음 달 말까지" -> "2027-01-31까지" (sess19)
        return Dated(text[: cjk.start] + cjk.last.isoformat() + cjk.until + text[cjk.end :], cjk.last.isoformat())
    span = _SPAN_RE.search(hidden)
    if span is not None:  # "for the next two weeks": a span said to end
        words, end = _span(span, today)
        words = words if span.start() else words[:1].upper() + words[1:]
        return Dated(text[: span.start()] + words + text[span.end() :], end.isoformat())
    month_end = _end_of_month(hidden, today)
    if month_end is not None and not _AFTER_RE.search(hidden):  # "until the end of January": its last day
        lead, month_last = month_end
        name = re.match(r"[^\W\d_]+", text[lead.end() :])
        stop = lead.end() + (name.end() if name else 0)
        said_year = re.match(r",?\s+(\d{4})\b", text[stop:])
        if said_year:  # "until the end of May 2028": the year said
            y = int(said_year.group(1))
            month_last = date(y, month_last.month, calendar.monthrange(y, month_last.month)[1])
        tail = "" if said_year else f" {month_last.year}"
        return Dated(text[:stop] + tail + text[stop:], month_last.isoformat())
    on_day = _UNTIL_DM_RE.search(hidden)
    end_day = _until_day_month(on_day, today) if on_day else None
    if on_day and end_day and not _AFTER_RE.search(hidden) and not re.search(r"\d{4}-\d{2}-\d{2}", hidden):
        year = "" if on_day.group("year") else f" {end_day.year}"  # "Fino al 18 dicembre" -> "... dicembre 2026"
        text = text[: on_day.end()] + year + text[on_day.end() :]
        # The rest's relative times dated too ("from tomorrow until Friday 11 December"), the end's words left be.
        masked = hidden[: on_day.start()] + " " * (on_day.end() - on_day.start() + len(year)) + hidden[on_day.end() :]
        return Dated(_relative(text, masked, today)[0] or text, end_day.isoformat())
    said, until = _relative(text, hidden, today)
    if said is None:
        return Dated(text, until_date(text))
    if until is not None and not _ends(hidden):
        until = None
    return Dated(said, until.isoformat() if until is not None else None)


def _relative(text: str, hidden: str, today: date) -> tuple[str | None, date | None]:
    """``text`` with each relative time of :data:`_WHEN_RE` found in ``hidden`` (``text`` with quotes blanked) written as
    its date, and the latest end they said; (None, None) when there is none."""
    out, last, until = [], 0, None
    for match in _WHEN_RE.finditer(hidden):
        words, end = _absolute(match, today)
        start = match.group("start") or ""
        if start and words.startswith("on "):
            words = words[3:]  # "as of today" -> "as of 2026-12-06"
        head = text[match.start() : match.start() + len(start)]
        out.append(text[last : match.start()] + head)
        when = text[match.start("when") : match.end("when")]
        out.append(words if when[:1].islower() or match.start("when") else words[:1].upper() + words[1:])
        last = match.end()
        if not start:
            until = max(until, end) if until is not None else end
    if not out:
        return None, None
    out.append(text[last:])
    return "".join(out), until


__all__ = ["DAY_MONTH", "MONTH_NAMES", "Dated", "dated", "until_date"]
