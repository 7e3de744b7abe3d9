"""Recall's "how many" rule: a question asking for a quantity is answered only by a line holding a number.

Of the 110 questions with no answer in the tuning splits of benchmarks/recall_quality (A, C, D, E, G, K, T;
docs/benchmarks.md), 47 got a confident lexical hit: a line naming the person, place or thing the question is
about, holding none of what it asks ("how many people work at Parcelwise" -> "I'm Tomás Okafor, a backend developer
at Parcelwise", "李娜的手机号是多少" -> the line naming 李娜). Coverage of the question's term weight, its absent
words, the entry's own cosine and embeddings of the question's missing words all fail leave-one-repo-out (rec10's
study, benchmarks/coverage_study.py): a paraphrase holds as little of its question. What a question asks for is
sometimes plain from its words, though: a question asking "how many" or "how much" (多少, 几, 몇, 얼마, いくら, 何人)
is answered by a number. So when such a question's best hit holds no number (a digit of any script, an English
number word, a CJK numeral: :func:`holds_number`), nothing answers: lexical recall (:func:`.recallrank.rank`) and
hybrid recall (:meth:`.semantic_fuse.SemanticRecall.fuse`) give no hits, or the nearest entries marked as not an
answer, as for any question under the confidence minimum.

Measured leave-one-repo-out on the tuning splits (hybrid, the best hit): no-answer questions left empty +6 (D 3,
E 1, G 1, K 1), no answerable one lost on any split; lexical +4, none lost. A count given as names ("how many people
are on the team" -> "the team is Ana, Bo and Cy") is not answered: the rule's known cost.
"""

from __future__ import annotations

import re
from typing import Any

ASKS_QUANTITY = re.compile(
    r"(?:^|[.?!;:,]\s*)(?:and\s+|so\s+)?how\s+(?:many|much)\b"  # an English question's own "how many/much"
    r"|多少|几(?!乎)|幾[つ個人]|いくつ|いくら|何[人個台本枚回件名]|몇|얼마",
    re.IGNORECASE,
)
"""Words that ask for a quantity: "how many"/"how much" opening an English question (or a clause of it), and the
question words of Chinese, Japanese and Korean (几乎, "almost", is no question)."""

NUMBER = re.compile(
    r"\d|[〇零一二三四五六七八九十百千万萬億亿两兩半]"
    r"|\b(?:zero|none|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?"
    r"|thousands?|millions?|billions?|dozens?|half|once|twice|single|couple|few|several|both)\b",
    re.IGNORECASE,
)
"""What holds a quantity: a digit of any script, a CJK numeral, an English number word."""


def asks_quantity(query: str) -> bool:
    """Whether ``query`` asks for a quantity ("how many", "how much", 多少, 몇 ...: :data:`ASKS_QUANTITY`)."""
    return ASKS_QUANTITY.search(query) is not None


def holds_number(text: str) -> bool:
    """Whether ``text`` holds a number (:data:`NUMBER`)."""
    return NUMBER.search(text) is not None


def answers_type(query: str, best: str | None) -> bool:
    """Whether ``best``, a query's best hit (None: none), can answer it: False only for a question asking for a
    quantity whose best hit holds no number (module docstring)."""
    return best is None or not asks_quantity(query) or holds_number(best)


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
