"""Compound words written closed or open meet in recall: "bugfix" and "bug fix", "time zone" and "timezone".

English writes many compounds both ways ("bug fix" / "bugfix", "time zone" /
"timezone", "in place" / "inplace", "code base" / "codebase"), and an entry and
a question about it often pick different ones. Stemming cannot join them: they
are one index term in one spelling and two in the other. So
:func:`memrepo.engine.read.recallrank.rank` asks the index, for the query's own
words only (docs/architecture.md §4):

- **Split**: a query word of :data:`MIN_SPLIT` letters or more that no entry
  holds (in its text or context) and that cuts into two words of
  :data:`MIN_PART` letters or more that entries do hold stands for those two
  ("bugfix" asks for bug and fix). Of several cuts, the most even.
- **Join**: two neighbouring query words whose join is a word entries hold
  ("time zone": timezone), that is neither word's own index term ("Maya's":
  maya), stand for it too: an entry holding the joined word holds both.

Only ASCII letters are cut and joined (names, digits and CJK stay as they are),
and only index terms the repo holds are asked for, so a query's cost grows by
a few posting-list counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from memrepo.engine.format.stemming import index_term
from memrepo.engine.format.terms import MAX_QUERY_TERMS, split_folded

MIN_SPLIT = 6
"""The shortest query word that is cut in two (two parts of :data:`MIN_PART` letters)."""
MIN_PART = 3
"""The shortest part of a cut word."""


def compounds(
    folded: str, qterms: list[str], held: Callable[[str], bool]
) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """The query terms with closed compounds no entry holds cut in two, and the open ones entries hold closed.

    Args:
        folded: the folded query.
        qterms: its index terms.
        held: whether any entry holds an index term (in its text or its context).

    Returns:
        tuple: the query terms (:func:`split_words` applied); the joined index terms entries hold, each
        with the query terms it stands for (:func:`joined_words`).
    """
    words = [w for w in split_folded(folded) if w.isascii()]
    if not words:
        return qterms, {}
    splits = split_words(words, held)
    if splits:
        qterms = list(dict.fromkeys(p for t in qterms for p in splits.get(t, (t,))))[:MAX_QUERY_TERMS]
    joins = {j: parts for j, parts in joined_words(words, held).items() if j not in qterms}
    return qterms, {j: kept for j, parts in joins.items() if (kept := tuple(p for p in parts if p in qterms))}


def split_words(words: list[str], held: Callable[[str], bool]) -> dict[str, tuple[str, str]]:
    """The query's closed compounds that no entry holds, each with the two index terms it stands for.

    Args:
        words: the query's folded words, in order (stop words too).
        held: whether any entry holds an index term (in its text or its context).

    Returns:
        dict[str, tuple[str, str]]: a word's index term -> the index terms of its two parts.
    """
    out: dict[str, tuple[str, str]] = {}
    for word in words:
        if len(word) < MIN_SPLIT or not (word.isascii() and word.isalpha()):
            continue
        term = index_term(word)
        if term is None or term in out or held(term):
            continue
        best: tuple[int, tuple[str, str]] | None = None
        for cut in range(MIN_PART, len(word) - MIN_PART + 1):
            left, right = index_term(word[:cut]), index_term(word[cut:])
            if left is None or right is None or left == right:
                continue
            even = min(cut, len(word) - cut)
            if (best is None or even > best[0]) and held(left) and held(right):
                best = (even, (left, right))
        if best is not None:
            out[term] = best[1]
    return out


def joined_words(words: list[str], held: Callable[[str], bool]) -> dict[str, tuple[str, ...]]:
    """The query's open compounds whose closed form entries hold, each with the query terms it stands for.

    Args:
        words: the query's folded words, in order (stop words too: "in place" is ``inplace``).
        held: whether any entry holds an index term (in its text or its context).

    Returns:
        dict[str, tuple[str, ...]]: the joined word's index term -> the index terms of the two words
        (one when the other is a stop word).
    """
    out: dict[str, tuple[str, ...]] = {}
    for first, second in itertools.pairwise(words):
        if not (first.isascii() and first.isalpha() and second.isascii() and second.isalpha()):
            continue
        if len(first) < 2 or len(second) < 2:
            continue
        joined = index_term(first + second)
        parts = tuple(t for t in (index_term(first), index_term(second)) if t is not None)
        if joined is None or not parts or joined in parts or joined in out or not held(joined):
            continue
        out[joined] = parts
    return out


def compound_keys(folded: str) -> set[str]:
    """Every index term :func:`split_words` and :func:`joined_words` may ask about for a folded query.

    A scan of the files (:mod:`.recallscan`) reads the entries holding them too, so it ranks as the index does.
    """
    words = [w for w in split_folded(folded) if w.isascii()]
    out: set[str] = set()
    for word in words:
        if len(word) >= MIN_SPLIT and word.isascii() and word.isalpha():
            for cut in range(MIN_PART, len(word) - MIN_PART + 1):
                out.update(t for t in (index_term(word[:cut]), index_term(word[cut:])) if t is not None)
    for first, second in itertools.pairwise(words):
        if first.isascii() and first.isalpha() and second.isascii() and second.isalpha():
            joined = index_term(first + second)
            if joined is not None:
                out.add(joined)
    return out
