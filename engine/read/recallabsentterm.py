"""Recall's rule for a question naming a thing the repo never mentions: no answer (issue 30).

A word of the query is *held* when some entry holds one of its index terms (its stem, folded form, CJK bigrams and
the variants of :mod:`memrepo.engine.format.stemming`), in its text or its context, or a term of four letters or
more that begins it or that it begins ("Dockerfile": ``docker``; "Postgres": ``postgresql``), or, for a language's
name, a term in its script ("Japanese" over a line in kana); filler and stop words are never counted. A word no
entry holds is *absent*, and *specific* when it names a thing rather than saying something: a capital inside the
question (a product, vendor, person or place), an acronym, a number or an identifier (a digit, ``/``, ``.``, ``_``,
``#`` or ``-`` inside the word). A month or weekday is a date, not a thing (lines write dates in digits), and the
head noun of what is asked (:data:`.recallasked.ASKED`: "what IDE does the user program in", "which real-time OS
does the controller run") is the answer's kind, which the answering line need not name ("Codes in PyCharm
Professional").

The rule (:func:`names_absent`): a question with an absent specific word gets no answer from recall, lexical
(:func:`.recallrank.rank`, rec16) or hybrid, whether lexical recall or the semantic neighbours would answer it, unless the word is an acronym one of the hits recall
would give spells by its words' initials (:func:`spelled`: "JS" by "JavaScript", "PR" by "Pull requests"). The
semantic leg cannot tell such a question from a paraphrase: within a repo a no-answer question's best neighbour is
as near, and stands out as much, as a true paraphrase's (rec14); what it lacks is the thing it asks about. "which
Kubernetes cluster runs the route planner" over a repo no line of which says Kubernetes, "what SD card size do the
AudioMoths use", "Upgrade the Django project": the best neighbour is about the route planner, the AudioMoths,
Python, never about the thing named.

Counted on the tuning splits (benchmarks/absent_term_study.py): 28 of 110 no-answer questions name such a thing and
13 of 379 answerable ones; with the date, prefix, asked-kind and script exceptions 23 and 4 ("a client in France"
over "EU clients", "the Danish gripper company" twice, "open a PR", which a hit spells). Measured in
docs/benchmarks.md (rec15).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from memrepo.engine.format.stemming import filler_terms, index_term

from .recallasked import ASKED
from .recallpost import count_ids
from .recallterms import CONTEXT_KEY, query_index_terms

WORD = re.compile(r"[^\W_](?:[\w./#+'’-]*[^\W_+#])?[+#]*")
"""A word of the question, identifiers whole ("utils/strings.py", "NS-64", "C#")."""

INNER_MARK = re.compile(r"\d|[^\W_][./_#-][^\W_]")
"""What makes a word an identifier or a number: a digit, or a mark between two word characters."""


ACRONYM = re.compile(r"([A-Z][A-Za-z]?[A-Z]{0,4})s?")
"""An acronym, a plural ``s`` aside: two to six letters, capitals but the second (with two capitals at least: "PR",
"PRs", "JS"; not "iOS")."""

WORD_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
"""A word, or a capitalised part of one ("JavaScript": Java, Script)."""

_DATE_TEXT = """
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri sat sun
"""
DATES = frozenset(_DATE_TEXT.split())
"""Month and weekday names (English, folded): a date, which lines write in digits; never a specific word."""

_SCRIPT_RANGES = (
    ("japanese", ("\u3041", "\u3100")),  # hiragana and katakana
    ("korean", ("\uac00", "\ud7a4")),  # hangul syllables
    ("chinese", ("\u4e00", "\ua000")),  # CJK unified ideographs
)
SCRIPTS = {index_term(name): span for name, span in _SCRIPT_RANGES}
"""A language's name and the range of characters a term of its script begins with: a repo holding lines in that
script holds the language ("Japanese label font" over Japanese lines), though no line names it."""

PREFIX = 4
"""The fewest letters of a held term that begins an absent word, or of an absent word a held term begins."""


class Counts(Protocol):
    """What :func:`absent_things` reads of an index."""

    def df(self, key: str) -> int:
        """How many entries hold ``key`` (a term, or :data:`.recallrank.CONTEXT_KEY` + term)."""
        ...


class Stored:
    """The counts of an index's database, every entry in scope (:func:`names_absent`)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def df(self, key: str) -> int:
        """How many entries hold ``key`` (:func:`.recallpost.count_ids`)."""
        return count_ids(self.db, key)


def is_specific(word: str, first: bool) -> bool:
    """Whether ``word`` names a thing: an acronym, a number or identifier, or (inside the question) a capital.

    Args:
        word: one word of :data:`WORD`.
        first: the word opens the question (its capital says nothing).
    """
    if INNER_MARK.search(word):
        return True
    letters = [c for c in word if c.isalpha()]
    if sum(c.isupper() for c in letters) >= 2:  # an acronym, or a name in camel case
        return True
    return not first and bool(letters) and letters[0].isupper()


def asked_head(query: str) -> frozenset[str]:
    """The index terms of the head noun of what ``query`` asks for (:data:`.recallasked.ASKED`'s phrase, its last
    word: "IDE" in "what IDE does", "version" in "which iOS version does"); empty when it names none."""
    found = ASKED.search(query)
    if found is None:
        return frozenset()
    words = query_index_terms(next(g for g in found.groups() if g))[1]
    return frozenset(words[-1:])


def held_prefix(db: sqlite3.Connection, term: str) -> bool:
    """Whether the index ``db`` holds a term of :data:`PREFIX` letters or more that begins ``term`` or that ``term``
    begins ("dockerfile": ``docker``; "postgr": ``postgresql``), or, for a language's name (:data:`SCRIPTS`), a term
    in its script."""
    if len(term) < PREFIX or not term.isalpha():
        return False
    script = SCRIPTS.get(term)
    if script is not None and db.execute("SELECT 1 FROM post WHERE key >= ? AND key < ? LIMIT 1", script).fetchone():
        return True
    if db.execute("SELECT 1 FROM post WHERE key > ? AND key < ? LIMIT 1", (term, term + "\uffff")).fetchone():
        return True
    shorter = [term[:k] for k in range(PREFIX, len(term))]
    marks = ",".join("?" * len(shorter))
    return (
        bool(shorter)
        and db.execute(f"SELECT 1 FROM post WHERE key IN ({marks}) LIMIT 1", shorter).fetchone() is not None
    )


def absent_things(index: Counts, query: str, prefixed: Callable[[str], bool] | None = None) -> list[tuple[str, bool]]:
    """The words of ``query`` no entry of ``index`` holds, each with whether it is specific (module docstring).

    Args:
        index: the recall index's counts (:meth:`.recall.RecallIndex` gives them through its view).
        query: any text.
        prefixed: whether the index holds a term beginning a term or begun by it (:func:`held_prefix`); None:
            whole terms only.

    Returns:
        list[tuple[str, bool]]: (word, specific) in the query's order; filler and stop words are never listed.
    """
    filler = filler_terms()
    head = asked_head(query)
    out = []
    for n, match in enumerate(WORD.finditer(query)):
        word = match.group()
        terms = [t for t in query_index_terms(word)[1] if t not in filler]
        if not terms:
            continue
        if any(index.df(t) or index.df(CONTEXT_KEY + t) for t in terms):
            continue
        if prefixed is not None and any(prefixed(t) for t in terms):
            continue
        specific = is_specific(word, n == 0) and word.lower() not in DATES and not head.intersection(terms)
        out.append((word, specific))
    return out


def spelled(acronym: str, text: str) -> bool:
    """Whether ``text`` holds words whose initials spell ``acronym`` ("PR": "pull requests"; "JS": "JavaScript", a
    word's capitalised parts counting as words); stop words are skipped ("OS": "operating the system")."""
    letters = ACRONYM.fullmatch(acronym)
    if letters is None or sum(c.isupper() for c in acronym) < 2:
        return False
    want = letters.group(1).lower()
    parts = [p for p in WORD_PART.findall(text) if index_term(p.lower()) is not None]
    return want in "".join(p[0].lower() for p in parts)


def named_absent(index: Counts, query: str, texts: Iterable[str], prefixed: Callable[[str], bool] | None) -> bool:
    """Whether ``query`` names a specific thing no entry of ``index`` holds in any form (module docstring), an
    acronym one of ``texts`` spells aside (:func:`spelled`).

    Args:
        index: the index's counts (scope aside: what the repo holds).
        query: any text.
        texts: the lines recall would answer with (the best of each leg).
        prefixed: whether the index holds a term beginning a term or begun by it (:func:`held_prefix`).
    """
    things = [w for w, specific in absent_things(index, query, prefixed) if specific]
    if not things:
        return False
    lines = list(texts)
    return any(not any(spelled(word, line) for line in lines) for word in things)


def keys_prefixed(keys: Iterable[str], term: str) -> bool:
    """:func:`held_prefix` over a set of index keys in memory (the scan's and a test oracle's posting lists)."""
    if len(term) < PREFIX or not term.isalpha():
        return False
    script = SCRIPTS.get(term)
    shorter = {term[:k] for k in range(PREFIX, len(term))}
    for key in keys:
        if (key.startswith(term) and key != term) or key in shorter:
            return True
        if script is not None and script[0] <= key < script[1]:
            return True
    return False


def names_absent(index: Any, query: str, texts: Iterable[str] = ()) -> bool:
    """Whether ``query`` names a specific thing no entry of ``index`` (a :class:`.recall.RecallIndex`) holds in any
    form: recall then gives no answer (module docstring; :func:`named_absent`).

    Args:
        index: the recall index.
        query: any text.
        texts: the lines recall would answer with (the best of each leg): an acronym one of them spells by its
            words' initials (:func:`spelled`) is held.
    """
    return named_absent(Stored(index.db), query, texts, lambda t: held_prefix(index.db, t))
