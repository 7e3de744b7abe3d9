"""Lexical recall's kind words: a question naming the kind of value it asks for ("which version", "what day", "which
database") counts that word as held by a line holding a value of the kind.

"Which React version?" over "The frontend uses React 18" and five lines like it: "version" is in no entry, so it
weighed the most of the query (the highest idf) and the line naming React stayed under the confidence minimum
(:data:`.recallrank.MIN_CONFIDENCE`): recall and the prompt hook answered nothing (breaker11 B11-15). Such a line now
holds the version word (:func:`names_version`); a question whose product no line names still gets nothing.

The same held for the other kinds of value a question names without the line naming it (breaker20 B20-3, B20-16):
"What day do we deploy?" over "We deploy on Tuesdays", "What day is the standup?" over "The standup is on Mondays at
10", "Which database version does the shop API use?" over "The shop API runs on Postgres 15" got nothing. A line holds
(:data:`KINDS`):

- **day** (a query's "day" or "weekday") when it names a weekday ("Tuesdays", "Mon");
- **database** ("database", "DB") when it names a database product (Postgres, MySQL, SQLite, MongoDB, Redis ...);
- **version** when it names, right before a number, a word of the query ("React 18") or a value of another kind the
  query asks for ("Postgres 15" for "which database version").

A day or database word is held that way whether or not another entry holds it; the version word only when no entry
holds it (round 11's rule, measured so). The line must hold another word of the query to be a hit at all, so "What day
is the retro?" over the standup's line stays unanswered, and "Which Hugo version does the blog use?" over "The blog is
built with Hugo" too (no number).

Measured on the tuning splits of benchmarks/recall_quality (A, C, D, E, G, K, T; docs/benchmarks.md): leaving every
word no entry holds out of the confidence gained hit@1 on each split but cost the no-answer queries of four (A
empty 0.875 -> 0.688); leaving out "url", "port", "host" and "address" too lost "what is the staging URL of the
invoicing app" (C, no answer): a line naming the product does not hold its URL, while one naming it with a number
holds a version.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Set

from memrepo.engine.format.stemming import index_term
from memrepo.engine.format.terms import fold

VERSION_WORDS = ("version",)
"""The query words that ask for the version of what the rest of the query names."""

WEEKDAY = re.compile(r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|(?:tue|tues|thu|thur|thurs|fri)\b)")
"""A weekday, whole ("Tuesday", "Tuesdays") or short where the short form is no other word ("Thu", not "Sun")."""

DATABASES = (
    r"postgres(?:ql)?|psql|mysql|mariadb|sqlite3?|mongo(?:db)?|redis|valkey|dynamodb|cassandra|scylladb|cockroach(?:db)?"
    r"|clickhouse|duckdb|snowflake|bigquery|oracle|mssql|sql\s+server|firestore|firebase|couchdb|neo4j|timescaledb"
    r"|supabase|elasticsearch|opensearch|influxdb|memcached|spanner|aurora|planetscale|neon|rds"
)
"""Database products a line may name (folded)."""

KINDS: dict[str, re.Pattern[str]] = {
    "day": WEEKDAY,
    "weekday": WEEKDAY,
    "database": re.compile(rf"\b(?:{DATABASES})\b"),
    "db": re.compile(rf"\b(?:{DATABASES})\b"),
}
"""Each kind word (a query's word) and what holds a value of its kind in a line's folded text."""

KIND_TERMS = {index_term(word): pattern for word, pattern in KINDS.items()}
""":data:`KINDS` by index term."""


def absent_versions(qterms: list[str], held: Callable[[str], bool]) -> frozenset[str]:
    """The query's kind words a line may hold by a value (:data:`KINDS`), and its terms of :data:`VERSION_WORDS` no
    entry holds (``held``: in an entry's text or context), when the query has another term; else empty (the usual
    case)."""
    words = {index_term(w) for w in VERSION_WORDS}
    absent = frozenset(t for t in qterms if (t in words and not held(t)) or t in KIND_TERMS)
    return absent if absent and any(t not in absent for t in qterms) else frozenset()


def names_version(text: str, qset: Set[str], asked: frozenset[str] = frozenset(VERSION_WORDS)) -> frozenset[str]:
    """The terms of ``asked`` (:func:`absent_versions`) that ``text`` holds by a value: a kind word by a value of its
    kind (:data:`KINDS`); a version word by a word of the query (its index terms ``qset``), or a value of a kind it
    asks for, with a version number right after it (``React 18``, ``Python 3.12``, ``Go 1.22``, ``Hugo v0.120``,
    ``Postgres 15`` for "which database version")."""
    folded = fold(text)
    kinds = {t for t in asked if t in KIND_TERMS and KIND_TERMS[t].search(folded)}
    named = [m[1] for m in re.finditer(r"([^\W\d_]+)[ -]v?\d+(?:\.\d+)*\b", folded)]
    asks = [KIND_TERMS[t] for t in qset if t in KIND_TERMS]
    if any(index_term(word) in qset or any(p.fullmatch(word) for p in asks) for word in named):
        kinds.update(t for t in asked if t not in KIND_TERMS)
    return frozenset(kinds)
