"""A relative end or span said in Chinese, Japanese or Korean, made a date (issue 30, sess19; split beside
:mod:`.relativedates`, which reads the languages with spaces).

"다음 달 말까지 lynx 베타 빌드는 ... 배포해요" (until the end of next month), "来月末まで ..." , "下个月底之前 ...",
"금요일까지" / "金曜日まで" / "周五之前" (until Friday), "12월 20일까지" / "12月20日まで" / "12月20日之前" (until a day),
"앞으로 3주 동안" / "今後3週間" / "接下来三周" (for the next three weeks): :func:`cjk_span` finds such a time at the
start of a sentence and gives its last day, counted from the day it was said as :mod:`.relativedates` counts ("until
Friday" is the next Friday after today; a week ends on Sunday). The time words are written as the date with the
language's own "until" ("2027-01-31까지", "2027-01-31まで", "2027-01-31之前"). Pure function of text and a date.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from typing import NamedTuple

_NUM = {"한": 1, "두": 2, "세": 3, "네": 4, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_DAY = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_DAY |= {"月": 0, "火": 1, "水": 2, "木": 3, "金": 4, "土": 5, "日": 6}
_ZH_DAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_N = r"\d{1,2}|[한두세네一两二三四五六]"

_SPAN_RE = re.compile(
    # Korean: 다음 달 말까지, 이번 주 말까지, 다음 달까지, 금요일까지, 12월 20일까지, 1월 말까지, 앞으로 3주 동안
    r"(?P<ko_rel>다음|이번)\s*(?P<ko_unit>달|주)\s*(?P<ko_end>말)?\s*까지"
    r"|(?P<ko_day>[월화수목금토일])요일\s*까지"
    r"|(?P<ko_m>\d{1,2})월\s*(?:(?P<ko_d>\d{1,2})일|(?P<ko_mend>말))\s*까지"
    rf"|(?:앞으로\s*)?(?P<ko_n>{_N})\s*(?P<ko_span>주|일|달|개월)\s*(?:동안|간)"
    # Japanese: 来月末まで, 今週末まで, 来月いっぱい, 金曜日まで, 12月20日まで, 今後3週間
    r"|(?P<ja_rel>来|今)(?P<ja_unit>月|週)(?:(?P<ja_end>末)まで|いっぱい)"
    r"|(?P<ja_day>[月火水木金土日])曜日?まで"
    r"|(?P<ja_m>\d{1,2})月(?:(?P<ja_d>\d{1,2})日|(?P<ja_mend>末))まで"
    rf"|(?:今後|これから)の?\s*(?P<ja_n>{_N})\s*(?P<ja_span>週間|日間|か月|ヶ月|カ月)"
    # Chinese: 下个月底之前, 这个月底前, 周五之前, 12月20日之前, 接下来三周
    r"|(?P<zh_rel>下|这|本)个?(?P<zh_unit>月|周|星期)(?P<zh_end>底|末)?\s*(?:之前|以前|前|为止)"
    r"|(?:周|星期|礼拜)(?P<zh_day>[一二三四五六日天])\s*(?:之前|以前|前|为止)"
    r"|(?P<zh_m>\d{1,2})月(?:(?P<zh_d>\d{1,2})[日号]|(?P<zh_mend>底))\s*(?:之前|以前|前|为止)"
    rf"|(?:接下来|未来|之后)的?\s*(?P<zh_n>{_N})\s*(?P<zh_span>周|个星期|天|个月)"
)
"""A CJK end or span (the module docstring), at the start of what it bounds."""
_UNTIL = {"ko": "까지", "ja": "まで", "zh": "之前"}


class Span(NamedTuple):
    """A CJK end or span found: where it is, its last day, and the language's "until" to write after the date."""

    start: int
    end: int
    last: date
    until: str


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _ahead(today: date, months: int) -> date:
    year, month = divmod(today.month - 1 + months, 12)
    return _month_end(today.year + year, month + 1)


def _number(raw: str) -> int:
    return int(raw) if raw.isdigit() else _NUM[raw]


def _last(found: re.Match[str], lang: str, today: date) -> date | None:
    """The last day ``found`` (of :data:`_SPAN_RE`, in ``lang``) says, counted from ``today``; None when no real day."""
    g = found.groupdict()
    monday = today - timedelta(days=today.weekday())
    if g[f"{lang}_rel"]:
        ahead = g[f"{lang}_rel"] in ("다음", "来", "下")
        if g[f"{lang}_unit"] in ("달", "月"):
            return _ahead(today, int(ahead))
        return monday + timedelta(days=6 + 7 * ahead)  # a week ends on Sunday
    day = g[f"{lang}_day"]
    if day:
        target = (_ZH_DAY if lang == "zh" else _DAY)[day]
        return today + timedelta(days=(target - today.weekday()) % 7 or 7)
    if g[f"{lang}_m"]:
        month = int(g[f"{lang}_m"])
        if not 1 <= month <= 12:
            return None
        year = today.year + (month < today.month)
        if g[f"{lang}_mend"]:
            return _month_end(year, month)
        try:
            when = date(year, month, int(g[f"{lang}_d"]))
        except ValueError:
            return None
        return when if when >= today else when.replace(year=when.year + 1)
    n, unit = _number(g[f"{lang}_n"]), g[f"{lang}_span"]
    if unit in ("달", "개월", "か月", "ヶ月", "カ月", "个月"):
        return _add_months(today, n)
    return today + timedelta(days=n * (7 if unit in ("주", "週間", "周", "个星期") else 1))


def _add_months(today: date, n: int) -> date:
    year, month = divmod(today.month - 1 + n, 12)
    year += today.year
    return date(year, month + 1, min(today.day, calendar.monthrange(year, month + 1)[1]))


def cjk_span(text: str, today: date, anywhere: bool = False) -> Span | None:
    """The CJK end or span ``text`` starts with (or holds anywhere, ``anywhere``), and its last day, or None.

    Args:
        text: a sentence the user said.
        today: the day they said it.
        anywhere: look past the sentence's start.

    Returns:
        Span | None: where the time words are, their last day and the "until" word to write after the date.
    """
    found = _SPAN_RE.search(text) if anywhere else _SPAN_RE.match(text.lstrip())
    if found is None:
        return None
    lang = next(k.split("_")[0] for k, v in found.groupdict().items() if v)
    last = _last(found, lang, today)
    if last is None:
        return None
    offset = 0 if anywhere else len(text) - len(text.lstrip())
    return Span(found.start() + offset, found.end() + offset, last, _UNTIL[lang])


__all__ = ["Span", "cjk_span"]
