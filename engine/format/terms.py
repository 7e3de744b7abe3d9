"""Search terms of a text: Unicode folding, words and CJK bigrams (docs/architecture.md §4).

Recall and its index see text only through :func:`fold` and :func:`terms`,
so a query and an entry are cut into terms the same way:

- **Folding**: NFKC, case folding, and accents removed from Latin, Greek and
  Cyrillic letters ("Café" and "cafe" are one term); Latin letters with no
  decomposition are folded too (ø→o, æ→ae, ł→l, đ→d, þ→th, ð→d, œ→oe, ı→i;
  case folding already makes ß ss), so "Soren" finds "Søren". Kana voicing
  marks are kept: が and か are different words.
- **Words**: runs of letters and digits outside the CJK scripts
  (``pgvector``, ``16``, ``müller`` → ``muller``).
- **CJK**: runs of Han, Hiragana, Katakana and Hangul characters become
  overlapping character bigrams (``部署前`` → ``部署``, ``署前``); a lone
  character is its own term. Chinese and Japanese have no spaces, and Korean
  glues particles to its words (``카카오톡으로``, "by KakaoTalk"), so bigrams
  are the usual lexical unit for all three (Lucene's CJK analyzer does the
  same); a query word (``카카오톡``) then matches the glued form.

Nothing here raises on odd input: lone surrogates and control characters are
dropped, and a query is cut to :data:`MAX_QUERY_CHARS` first.
"""

from __future__ import annotations

import functools
import re
import unicodedata

MAX_QUERY_CHARS = 1000
"""A query longer than this (characters) is cut before it is split into terms."""

MAX_QUERY_TERMS = 64
"""At most this many distinct terms of a query are used (the first ones)."""

_CJK = (
    "\u1100-\u11ff\u3005\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
    "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f"
)
"""Han, Hiragana, Katakana and Hangul (syllables and jamo): the scripts cut into character bigrams."""
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_ASCII_GAPS = bytes(i if i < 128 and chr(i).isalnum() else 0x20 for i in range(256))
"""bytes.translate table: every byte that is not an ASCII letter or digit becomes a space."""


@functools.cache
def _unicode_res() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The token and CJK patterns, compiled on the first non-ASCII text (about 5 ms each; ASCII never needs them)."""
    return re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+"), re.compile(rf"[{_CJK}]")


_LETTERS = str.maketrans({"ø": "o", "æ": "ae", "ł": "l", "đ": "d", "þ": "th", "ð": "d", "œ": "oe", "ı": "i", "ħ": "h"})
"""Latin letters that NFD does not decompose, folded to their base letters (after case folding)."""


def _strip_accents(text: str) -> str:
    """Drop combining marks that sit on Latin, Greek or Cyrillic letters."""
    decomposed = unicodedata.normalize("NFD", text)
    out: list[str] = []
    for ch in decomposed:
        if out and unicodedata.combining(ch) and out[-1] < "\u0530":
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def fold(text: str) -> str:
    """Fold text for matching: NFKC, case-folded, Latin accents removed, spaces collapsed.

    Args:
        text: any text; lone surrogates are dropped.

    Returns:
        str: the folded text, one space between words, no surrounding spaces.
    """
    if text.isascii():  # the common case: NFKC changes nothing, casefold is lower
        return " ".join(text.lower().split())
    text = _SURROGATE_RE.sub("", text)
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not folded.isascii():
        folded = _strip_accents(folded).translate(_LETTERS)
    # str.split() and the regex \s agree on what whitespace is (every code point checked).
    return " ".join(folded.split())


def is_cjk(term: str) -> bool:
    """Whether a term is of the CJK scripts cut into bigrams (Han, Hiragana, Katakana, Hangul); False for any ASCII term."""
    return not term.isascii() and _unicode_res()[1].match(term) is not None


def split_folded(folded: str) -> list[str]:
    """Cut already-folded text into terms, in order, repeats kept.

    Args:
        folded: output of :func:`fold`.

    Returns:
        list[str]: words and CJK bigrams (a one-character CJK run is a term itself).
    """
    if folded.isascii():  # words are runs of ASCII letters and digits; bytes.translate cuts fastest
        return folded.encode("ascii").translate(_ASCII_GAPS).decode("ascii").split()
    token_re, cjk_re = _unicode_res()
    tokens = token_re.findall(folded)
    out: list[str] = []
    for tok in tokens:
        if tok.isascii() or not cjk_re.match(tok) or len(tok) == 1:
            out.append(tok)
        else:
            out.extend([tok[i : i + 2] for i in range(len(tok) - 1)])
    return out


def terms(text: str) -> list[str]:
    """The distinct terms of ``text``, in first-seen order.

    Args:
        text: any text (an entry or a query).

    Returns:
        list[str]: folded words and CJK bigrams, without repeats.
    """
    return list(dict.fromkeys(split_folded(fold(text))))


def query_terms(query: str) -> tuple[str, list[str]]:
    """Fold a query and take its terms, within the query limits.

    Args:
        query: what a person or agent typed; any string.

    Returns:
        tuple[str, list[str]]: the folded query (at most :data:`MAX_QUERY_CHARS`
        characters before folding) and at most :data:`MAX_QUERY_TERMS` distinct terms.
    """
    folded = fold(query[:MAX_QUERY_CHARS])
    return folded, list(dict.fromkeys(split_folded(folded)))[:MAX_QUERY_TERMS]
