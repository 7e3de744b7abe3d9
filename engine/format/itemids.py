"""Id-shaped tokens: two lines that name different items state different facts (docs/dreams.md, "lines that
replace each other").

A memory folder holds lines written from one template for many items: "Team uses squash merges for api (item
4722)" and the same for item 4745, "数据库迁移需要人工审核（migrations-4011）" and the same for docs-4036. Each is a
fact about its own item: neither restates nor replaces the other, whatever their words share. The rules dream asks
:func:`different_items` of every pair it would propose as a restatement, an extension or a replacement; the
context block asks it of every line a shared ``subject:`` or words would replace (:mod:`memrepo.engine.read.sameitem`).

Two kinds of token:

* an item's number: a number after an item word ("item 12", "ticket #12", "PR 12", "issue no. 12") or "#12". Lines
  naming different items are different facts, always.
* another id-shaped token: a code with a number ("JIRA-123", "migrations-4011", "ckpt-41"; at least two digits, so
  a region "eu-west-1" is none), a version ("v2", "version 3", "1.2.3"), a commit hash ("a1b2c3d"). It may be a
  value that changed ("API version bumped to v3"): lines differing in one are different facts unless the newer says
  in its own words that it changed (a change word the older lacks, ``supersedes:``, "X, not Y").

A line that names the other's id too ("ckpt-57, replacing ckpt-41") links the two: only ids neither line shares
with the other make them different facts.

A count in words is a value: "Reviews need one approver" and "Security-sensitive changes still need two approvers"
share their words but are no restatement (:func:`other_counts`); a replacement's "one word replaces another (two /
three)" is the likeness rules' to find.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

ITEM_WORDS = (
    "item",
    "items",
    "ticket",
    "tickets",
    "issue",
    "issues",
    "bug",
    "bugs",
    "pr",
    "prs",
    "mr",
    "pull request",
    "merge request",
    "case",
    "order",
    "invoice",
    "incident",
    "task",
    "story",
    "req",
    "request",
    "job",
    "build",
    "id",
    "no",
    "nr",
    "number",
)
"""Words whose number names an item: "item 4722", "ticket #12", "issue no. 3" (folded)."""

_A = r"(?<![A-Za-z0-9_.-])"
"""No ASCII letter, digit or joiner before (CJK text may touch the token: 审核（migrations-4011）)."""
_Z = r"(?![A-Za-z0-9_-])(?!\.\d)"
"""No ASCII letter, digit or joiner after, nor a decimal part."""

_ITEM_RE = re.compile(
    _A + r"(?:(" + "|".join(w.replace(" ", r"\s+") for w in ITEM_WORDS) + r")\.?\s*(?:no\.?\s*)?#?\s*|#)(\d+)" + _Z
)
_CODE_RE = re.compile(_A + r"([a-z][a-z0-9]*(?:[-_][a-z][a-z0-9]*)*)[-_](\d{2,})" + _Z)
_VERSION_RE = re.compile(_A + r"(?:v|version\s+)(\d+(?:\.\d+)*)" + _Z + r"|" + _A + r"(\d+\.\d+\.\d+)" + _Z)
_HASH_RE = re.compile(_A + r"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])([0-9a-f]{7,40})" + _Z)


class Ids:
    """The id-shaped tokens of one line's text.

    Attributes:
        items: item numbers, each as ``word#number`` ("item#4722"; "#12" for a bare "#12").
        other: the other id-shaped tokens (codes, versions as ``v1.2``, hashes), folded.
    """

    __slots__ = ("items", "other")

    def __init__(self, items: frozenset[str], other: frozenset[str]) -> None:
        self.items = items
        self.other = other


@lru_cache(maxsize=16_384)
def ids(text: str) -> Ids:
    """The id-shaped tokens of ``text`` (:class:`Ids`), found in its NFKC-folded form (fullwidth digits are digits).

    Args:
        text: a line's text (no metadata).

    Returns:
        Ids: its item numbers and other id-shaped tokens; both empty for a line with none.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    items: set[str] = set()
    other: set[str] = set()
    for m in _ITEM_RE.finditer(folded):
        word = " ".join(m[1].split()) if m[1] else ""
        word = {"pull request": "pr", "merge request": "mr", "nr": "no", "number": "no"}.get(word, word).rstrip("s")
        items.add(f"{word}#{int(m[2])}")
    rest = _ITEM_RE.sub(" ", folded)
    other.update(f"{m[1]}-{m[2]}" for m in _CODE_RE.finditer(rest))
    other.update(f"v{m[1] or m[2]}" for m in _VERSION_RE.finditer(rest))
    other.update(m[1] for m in _HASH_RE.finditer(rest))
    return Ids(frozenset(items), frozenset(other))


def _apart(a: frozenset[str], b: frozenset[str]) -> str:
    """An id only ``a`` holds, when each of the two holds one the other lacks; else "" (one names the other's)."""
    only_a, only_b = a - b, b - a
    return min(only_a) if only_a and only_b else ""


def different_items(old: str, new: str, *, says_changed: bool) -> str:
    """Whether two lines state facts about different items, so neither restates nor replaces the other.

    Args:
        old: the older line's text (or either, for a restatement).
        new: the newer line's text.
        says_changed: whether the newer line says in its own words that it changed (a change word the older line
            lacks, ``supersedes:``, "X, not Y"): then a version or code that differs may be the value it changed.
            Pass False for a restatement or an extension.

    Returns:
        str: the older line's id that tells them apart ("item#4722", "migrations-4011"), or "" when none does.
    """
    a, b = ids(old), ids(new)
    apart = _apart(a.items, b.items)
    if apart or says_changed:
        return apart
    return _apart(a.other, b.other)


COUNT_WORDS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "single",
        "double",
        "twice",
        "thrice",
        "once",
    ]
)
"""Counts in words (folded); digits are :func:`memrepo.engine.dreams.same.numbers`."""
_WORD_RE = re.compile(r"[a-z]+")


def other_counts(a: str, b: str) -> str:
    """A count in words only ``a`` holds when ``b`` holds one ``a`` lacks too ("one" / "two"), else "": then two alike
    lines state different values, no restatement or extension (a lone "one" may be a pronoun: it tells nothing).

    Args:
        a: one line's text.
        b: the other's.

    Returns:
        str: the first such word of ``a``, or "".
    """
    wa = COUNT_WORDS.intersection(_WORD_RE.findall(a.casefold()))
    wb = COUNT_WORDS.intersection(_WORD_RE.findall(b.casefold()))
    return _apart(frozenset(wa), frozenset(wb))


def clear_caches() -> None:
    """Forget the cached ids (a long-running app keeps none of a dream's)."""
    ids.cache_clear()


__all__ = ["COUNT_WORDS", "ITEM_WORDS", "Ids", "clear_caches", "different_items", "ids", "other_counts"]
