"""Recall's expected answer types: a question asking for a quantity, a phone number or an e-mail address is answered
only by a line that holds one.

Of the 110 questions with no answer in the tuning splits of benchmarks/recall_quality (A, C, D, E, G, K, T;
docs/benchmarks.md), 47 got a confident lexical hit: a line naming the person, place or thing the question is
about and holding none of what it asks ("how many people work at Parcelwise" -> "I'm Tomás Okafor, a backend
developer at Parcelwise"; "what is Lars Østergaard's email address" -> "Lars Østergaard is their ML engineer ...").
The share of the question's term weight a line holds, its words no entry holds, the line's own cosine and the
cosines of the question's missing words all fail leave-one-repo-out (rec10's study, benchmarks/coverage_study.py):
a paraphrase holds as little of its question. What some questions ask for is plain from their words, though, and
so is whether a line holds it (the expected answer type of question answering):

- a **quantity** ("how many" or "how much" opening an English question or a clause of it; 多少, 几, 幾つ, いくつ,
  いくら, 何人 ..., 몇, 얼마) is held by a number: a digit of any script, a CJK numeral, an English number word;
- a **phone number** ("phone number", "mobile number", 手机号, 电话号, 電話番号, 전화번호) by seven digits or more
  (spaces, dashes, dots, brackets and a leading + between them) or a line naming the phone;
- an **e-mail address** ("email address", "X's email", "what is her email", 邮箱, メールアドレス, 이메일 주소)
  by an ``@`` or a line naming the e-mail.

When such a question's best hit holds none (:func:`answers_type`), nothing answers: lexical recall
(:func:`.recallrank.rank`) and hybrid recall (:meth:`.semantic_fuse.SemanticRecall.fuse`) give no hits, or the
nearest entries marked as not an answer, as for a question under the confidence minimum; the prompt hook adds
nothing. Any other question is unchanged.

Measured leave-one-repo-out on the tuning splits (rec10; hybrid's best hit): no answerable question lost on any split;
no-answer questions left empty: quantity +6, phone and e-mail +7, one counted by both. A count given as names ("how
many people are on the team" -> "the team is Ana, Bo and Cy") is not answered: the rule's known cost. No answerable
question of the tuning splits asks for a phone number or an e-mail address, so that half is checked by its tests only.
"""

from __future__ import annotations

import re
from typing import Any

ASKS_QUANTITY = re.compile(
    r"(?:^|[.?!;:,]\s*)(?:and\s+|so\s+)?how\s+(?:many|much)\b"  # an English question's own "how many/much"
    r"|多少|几(?!乎)|幾[つ個人]|いくつ|いくら|何[人個台本枚回件名]|몇|얼마",
    re.IGNORECASE,
)
"""Words that ask for a quantity (几乎, "almost", is no question)."""

NUMBER = re.compile(
    r"\d|[〇零一二三四五六七八九十百千万萬億亿两兩半]"
    r"|\b(?:zero|none|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?"
    r"|thousands?|millions?|billions?|dozens?|half|once|twice|single|couple|few|several|both)\b",
    re.IGNORECASE,
)
"""What holds a quantity: a digit of any script, a CJK numeral, an English number word."""

ASKS_PHONE = re.compile(
    r"\b(?:tele)?phone\s+number|\bmobile\s+number|手机号|电话号|電話番号|전화\s*번호|휴대폰\s*번호", re.I
)
"""Words that ask for a phone number ("phone battery" asks for none)."""

PHONE = re.compile(r"\+?\d(?:[\d .()-]{5,}\d)|\b(?:tele)?phones?\b|手机|电话|電話|전화|휴대폰", re.IGNORECASE)
"""What holds a phone number: seven digits or more with separators, or the phone named."""

ASKS_EMAIL = re.compile(
    r"\be-?mail\s+address|\be-?mail\s+of\b|'s\s+e-?mail\b|\bwhat(?:'s|\s+is)\s+(?:the\s+|his\s+|her\s+|their\s+)?e-?mail\b"
    r"|邮箱|メールアドレス|이메일\s*주소|메일\s*주소",
    re.IGNORECASE,
)
"""Words that ask for an e-mail address ("draft an email to the client" asks for none)."""

EMAIL = re.compile(r"@|\be-?mails?\b|邮箱|邮件|メール|이메일|메일", re.IGNORECASE)
"""What holds an e-mail address: an ``@``, or the e-mail named."""

TYPES = ((ASKS_QUANTITY, NUMBER), (ASKS_PHONE, PHONE), (ASKS_EMAIL, EMAIL))
"""Each expected answer type: what asks for it, what holds it."""


def asks_quantity(query: str) -> bool:
    """Whether ``query`` asks for a quantity (:data:`ASKS_QUANTITY`)."""
    return ASKS_QUANTITY.search(query) is not None


def holds_number(text: str) -> bool:
    """Whether ``text`` holds a number (:data:`NUMBER`)."""
    return NUMBER.search(text) is not None


def answers_type(query: str, best: str | None) -> bool:
    """Whether ``best``, a query's best hit (None: none), can answer it: False only when the query asks for a type of
    :data:`TYPES` that ``best`` does not hold (module docstring)."""
    return best is None or all(holds.search(best) for asks, holds in TYPES if asks.search(query))


def typed(index: Any, query: str, out: list[tuple[int, tuple]], info: Any, related: bool) -> list[tuple[int, tuple]]:
    """Hybrid recall's fused list ``out`` if it answers ``query`` by :func:`answers_type` (its best hit's text from
    ``index``); else ``info.answered`` is set False and the list is ``out`` for ``related`` (the nearest entries,
    :mod:`.recallnear`), else empty."""
    if not out or not info.answered:
        return out
    row = index.row(out[0][0])
    if answers_type(query, row[3] if row is not None else None):
        return out
    info.answered = False
    return out if related else []
