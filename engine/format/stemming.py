"""Index terms of folded words: English stop words dropped, Snowball stems (docs/architecture.md §4).

Recall indexes and searches *index terms*, made from the terms of
:func:`memrepo.engine.terms.split_folded` by one rule, so a query and an
entry meet on the same terms:

- **Stop words**: the small English list :data:`STOP_WORDS` (articles,
  pronouns, auxiliaries, question words) is dropped: "which", "we", "does"
  say nothing about which entry is meant, and they sit in nearly every entry.
- **CJK function characters**: a CJK bigram holding a Japanese particle
  (の は が を に で と も へ や か) or a Chinese function character
  (的 了 是 在 和 与 吗 呢 吧 谁 么) is dropped: it spans a word boundary
  ("の案", "是谁") and says nothing of the topic, as a stop word does.
- **Filler words**: :data:`FILLER_WORDS` ("now", "often", "use", "good")
  stay index terms, but a question's confidence leaves them out
  (:mod:`memrepo.engine.read.recallrank`).
- **Stems**: a word of ASCII letters, three or more long, becomes its English
  Snowball stem (PyStemmer, the Snowball project's own C build): "deploys",
  "deployed", "deploying" are all ``deploy``. Words with digits
  (``node18``, ``q2``), non-Latin words and CJK bigrams stay as they are.

Each stem is remembered per word (a vocabulary is small next to its text).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

_STOP_TEXT = """
    a about above after again against all am an and any are as at be because been before being below between both
    but by can could did do does doing done down during each either else few for from further had has have having he
    her here hers herself him himself his how i if in into is it its itself just let lets me might more most must my
    myself no nor not of off on once only or other our ours ourselves out over own s same shall she should so some
    such t than that the their theirs them themselves then there these they this those through to too under until up
    upon us very was we were what whats when where which while who whom whose why will with would you your yours
    yourself yourselves d ll m re ve don doesn didn isn aren wasn weren won wouldn shouldn couldn hasn haven hadn
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
"""English words dropped from entries and queries alike (a query made of nothing else finds nothing)."""


_FILLER_TEXT = """
    now currently nowadays today still already yet ever anymore lately recently often usually always sometimes
    normally generally typically really actually exactly basically also maybe perhaps probably quite rather much many
    lot lots use used using make made get got gets getting want need know tell like come comes thing things stuff way
    ways kind sort good well whether please
"""
FILLER_WORDS = frozenset(_FILLER_TEXT.split())
"""Conversational words of a question (time and frequency adverbs, hedges, light verbs, vague nouns) that say
nothing of which entry answers it. Unlike stop words they are indexed and ranked ("use" still finds "uses"),
but a question's confidence is the share of its other terms (docs/architecture.md §4, "Confidence"): "how often
is Lena on night duty" is answered by an entry holding lena, night and duty. "go", "run" and "work" are left
out on purpose: in a developer's memory they are content (Go, a test run)."""


@functools.cache
def filler_terms() -> frozenset[str]:
    """The index terms (stems) of :data:`FILLER_WORDS`, made on first use."""
    return frozenset(t for t in map(index_term, FILLER_WORDS) if t is not None)


CJK_FUNCTION_CHARS = frozenset("のはがをにでともへやか的了是在和与吗呢吧谁么")
"""A two-character CJK term holding one of these is dropped (a lone character is kept)."""


@functools.cache
def _stem_word() -> Callable[[str], str]:
    """The English Snowball stemmer's ``stemWord``, made on first use."""
    import Stemmer  # type: ignore[import-not-found]  # PyStemmer ships no type information

    stem: Callable[[str], str] = Stemmer.Stemmer("english").stemWord
    return stem


@functools.lru_cache(maxsize=200_000)
def index_term(term: str) -> str | None:
    """The index term of one folded term: its stem, itself, or None for a stop word.

    Args:
        term: one term of :func:`memrepo.engine.terms.split_folded` (folded already).

    Returns:
        str | None: the Snowball English stem of an ASCII-letter word of three or
        more letters; the term itself for any other term; None for a stop word
        or a CJK bigram holding a function character.
    """
    if term in STOP_WORDS:
        return None
    if not term.isascii():
        if len(term) == 2 and (term[0] in CJK_FUNCTION_CHARS or term[1] in CJK_FUNCTION_CHARS):
            return None
        return term
    if len(term) < 3 or not term.isalpha():
        return term
    return _stem_word()(term)


def index_terms(terms: list[str]) -> list[str]:
    """The index terms of ``terms`` in order, repeats kept, stop words dropped (:func:`index_term`)."""
    out = []
    for term in terms:
        got = index_term(term)
        if got is not None:
            out.append(got)
    return out
