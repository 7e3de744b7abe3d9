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
- **Acronym plurals**: an upper-case acronym with a lower-case plural ``s``
  ("PRs", "GPUs", "SLOs", whose ``s`` Snowball keeps) is its singular in a
  query, and an entry holds both forms (:func:`variant_terms`).
- **German transliteration**: an entry's word with ä, ö or ü also holds its
  ae/oe/ue spelling ("Müller" holds ``muller`` and ``mueller``), so "Mueller"
  and "Muller" both find it (:func:`variant_terms`).

Each stem is remembered per word (a vocabulary is small next to its text).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

from .terms import fold, is_cjk, split_folded

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


_HANGUL_ENDINGS_TEXT = """
    에서 에게 께서 한테 으로 부터 까지 처럼 보다 이랑 이나 예요 에요 어요 아요 해요 니다
    은 는 이 가 을 를 에 의 와 과 도 로 만 야 요 다 랑 께 해 어 아 줘 지 죠 네 니 까 고 게
"""
HANGUL_ENDINGS = tuple(_HANGUL_ENDINGS_TEXT.split())
"""Particles and endings that close a Korean word (``회의는``, ``언제야``, ``김민준이``), two syllables first:
:func:`hangul_stem` cuts one off so that a query word and an entry's word with another particle meet."""


def hangul_stem(word: str) -> str | None:
    """A Hangul word without its closing particle or ending (:data:`HANGUL_ENDINGS`), when two syllables stay.

    Args:
        word: one CJK word of a folded query (a run cut at spaces and function characters).

    Returns:
        str | None: the word with one ending cut (``담당자는`` -> ``담당자``, ``회의는`` -> ``회의``), or whole when
        no ending closes it or the cut would leave fewer than two syllables; None when it is not all Hangul syllables.
    """
    if not word or not all("\uac00" <= ch <= "\ud7a3" for ch in word):
        return None
    for ending in HANGUL_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            return word[: -len(ending)]
    return word


def cjk_pieces(folded: str) -> dict[str, frozenset[str]]:
    """The pieces a hit must hold for a bigram of the folded query to count (docs/architecture.md §4).

    Two kinds of CJK word get them (:mod:`memrepo.engine.read.recallrank`, "Repeated syllables" and "Korean
    three-syllable words"): a word of one character repeated three or more times (``하하하하``: its bigram needs
    ``하하하``), and a Hangul word of three syllables once :func:`hangul_stem` has cut its ending (``박지원``: both
    bigrams need ``박지원``). A bigram that is also a whole two-character word of the query needs nothing.

    Args:
        folded: the folded query.

    Returns:
        dict[str, frozenset[str]]: bigram -> the pieces around it, one of which a hit must hold; empty for
        a query without such a word.
    """
    if folded.isascii():
        return {}
    words: list[str] = []
    run: list[str] = []
    for ch in folded + " ":
        if ch not in CJK_FUNCTION_CHARS and is_cjk(ch):
            run.append(ch)
        elif run:
            words.append("".join(run))
            run = []
    alone = {word for word in words if len(word) == 2}
    out: dict[str, frozenset[str]] = {}
    for word in words:
        stem = hangul_stem(word)
        if len(word) >= 3 and len(set(word)) == 1:
            out[word[:2]] = out.get(word[:2], frozenset()) | {word[:3]}
        elif stem is not None and len(stem) == 3:
            for pair in (stem[:2], stem[1:]):
                out[pair] = out.get(pair, frozenset()) | {stem}
    return {pair: around for pair, around in out.items() if pair not in alone}


_ACRONYM_PLURAL_RE = re.compile(r"\b([A-Z][A-Z0-9]*[A-Z])s\b")
"""An acronym of two or more capitals (digits inside allowed) with a lower-case plural s: "PRs", "APIs", "GPUs"
(never "K8s", "iOS" or "DNS")."""
_UMLAUT_WORD_RE = re.compile(r"(?<![^\W_])[^\W_]*[äöüÄÖÜ][^\W_]*")  # from a word's start: docs/architecture.md §3
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def acronym_singulars(text: str) -> dict[str, str]:
    """The folded acronym plurals of ``text`` ("PRs": ``prs``) -> their folded singular (``pr``); empty for most text."""
    if not _ACRONYM_PLURAL_RE.search(text):
        return {}
    return {fold(m[0]): fold(m[1]) for m in _ACRONYM_PLURAL_RE.finditer(text)}


def query_variants(query: str, raw: list[str]) -> list[str]:
    """A query's terms ``raw`` (folded) with each acronym plural made singular ("open PRs" -> open, pr).

    Args:
        query: the query as typed (the case says what an acronym is).
        raw: its folded terms (:func:`memrepo.engine.format.terms.query_terms`).

    Returns:
        list[str]: ``raw``, its acronym plurals replaced by their singulars (the same list when it has none).
    """
    singular = acronym_singulars(query)
    return [singular.get(t, t) for t in raw] if singular else raw


def variant_terms(text: str) -> list[str]:
    """The index terms an entry holds besides those of its words: each acronym plural's singular ("GPUs": ``gpu``)
    and each umlaut word's ae/oe/ue spelling ("Müller": ``mueller``, "König": ``koenig``). A variant the word's own
    term already is ("DAGs": Snowball's ``dag``) is left out, and the ranking does not count variants in an entry's
    length (:func:`memrepo.engine.read.recallrank.rank`): an entry's BM25 score moves only for a query holding one.

    Args:
        text: an entry's text (or context), as written.

    Returns:
        list[str]: the extra index terms, in order (empty for most text).
    """
    out = [t for word, one in acronym_singulars(text).items() if (t := index_term(one)) not in (None, index_term(word))]
    if not text.isascii():
        for word in _UMLAUT_WORD_RE.findall(unicodedata.normalize("NFC", text)):
            out.extend(index_terms(split_folded(fold(word.translate(_UMLAUTS)))))
    return out
