"""A correction found by its shape, in any language: the stored line's frame with one value slot changed (sess12).

The word rules of :mod:`.sameframe`, :mod:`.samesubject` and :mod:`.corrections` read English (and a few other)
phrasings; a user who writes "My mistake earlier: wren's CI is on Buildkite.", "Ojo, eso cambió: los tests de
integración ahora usan testdb3." or "不对，现在 wren 的代码审查改成王芳负责了。" corrects a line in words nobody wrote a
rule for. What these share is structure, not words:

- **One slot changed** (:func:`_aligned`): the new sentence, aligned token by token with the stored line (a CJK
  character is a token: no word breaks to rely on), keeps most of the line's content tokens in order and replaces
  exactly one run of them, its value, with new content ("GitHub Actions" -> "Buildkite", "la base testdb1" ->
  "testdb3", "由李伟" -> "改成王芳"). Other differences may only be function tokens: a copula or a link ("runs" ->
  "is"), a time word added ("ahora", "inzwischen", "现在"), kana endings ("にある" -> "に移りました").
- **A value of the same shape** (:func:`_same_shape`): both hold an identifier with the same letters and other
  digits ("db-stage-2" -> "db-stage-5", "testdb1" -> "testdb3"), and share another content word.
- **A name with a new value** (:func:`_anchored`): both hold the same name followed by a different value
  ("Node 18" -> "Node 22", "MacBook Intel" -> "MacBook M3").

Guards: a negation the line did not have (:data:`_NEGATION`) is never a new value ("wren's CI is not on Buildkite");
nothing is added only ("We deploy on Tuesdays and Thursdays" corrects nothing); exactly one stored line may match.
A lead-in before a colon or a first comma ("My mistake earlier:", "Stimmt nicht mehr:", "不对，") is read as a
lead-in when the rest matches (:func:`tails`). Pure functions of text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from difflib import SequenceMatcher
from itertools import pairwise
from typing import NamedTuple, TypeVar

T = TypeVar("T")

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff66-\uff9f"
_TOKEN_RE = re.compile(rf"[{_CJK}]|[^\s{_CJK},;:!?()\[\]\"“”„«»、。，：；！？]+")
_HIRAGANA_RE = re.compile(r"^[\u3040-\u309f]+$")
_VALUE_RE = re.compile(r"\d|[A-Z]|[-_./@:#]\w")
"""A token that reads as a value by its form: a digit, a capital, an identifier's joiner."""


def _set(words: str) -> frozenset[str]:
    """A set of words written as one space-separated string (the lists below hold a few languages each)."""
    return frozenset(words.split())


_FUNCTION = _set(
    # Articles, copulas, links and time words of the languages the benchmarks hold; a run of these alone is no value.
    "a an the is are was were be been am 's it its it's this that these those we we're our us i i'm my me you your "
    "they their on in at to of for from by with via and or but so as now currently nowadays runs run uses use using "
    "lives live works work since actually "
    "der die das den dem des ein eine einen ist sind war auf im in am an zu mit von für und jetzt inzwischen nun "
    "mittlerweile heißt "
    "le la les l' un une des du de d' est sont c'est on en au aux à avec pour et maintenant désormais "
    "el la los las lo un una unos unas es son está están en de del al a con para y ahora ya usa usan "
    "现 在 的 了 是 在 由 我 你 他 她 们 は が を に で の へ と も 私 이 가 은 는 을 를 에 의 로"
)
_ADDED = _set("also too well additionally auch ebenfalls aussi également también 也 还 還 も 도")
"""Words that add a value beside the old one ("as well", "auch"): no new value in its place."""
_NEGATION = _set(
    "not no never isn't aren't wasn't don't doesn't didn't won't can't nicht kein keine keinen nie pas jamais ne n' "
    "nunca 不 没 沒 別 ない 안 못"
)
LEADIN_WORDS = 6
"""The most tokens a lead-in before a colon or a first comma may have ("My mistake earlier:", "Ojo, eso cambió:")."""


class Slot(NamedTuple):
    """How a sentence restates a stored line: which rule related them and whether only the value changed."""

    rule: str
    tight: bool


def tokens(text: str) -> list[str]:
    """``text`` as folded tokens: words (with their joiners) and single CJK characters."""
    return [t.casefold().strip(".'’") or t for t in _TOKEN_RE.findall(text)]


def _cased(text: str) -> list[str]:
    return [t.strip(".'’") or t for t in _TOKEN_RE.findall(text)]


def _content(token: str) -> bool:
    return token not in _FUNCTION and not _HIRAGANA_RE.match(token)


def tails(sentence: str) -> list[str]:
    """``sentence`` and what follows a short lead-in before its first colon or comma (the whole sentence first)."""
    out = [sentence.strip()]
    for mark in (":", "：", ",", "，"):
        head, sep, rest = sentence.partition(mark)
        if sep and rest.strip() and len(tokens(head)) <= LEADIN_WORDS and len(tokens(rest)) >= 3:
            out.append(rest.strip(" .。"))
    return out


def _valued(token: str) -> bool:
    """Whether a (cased) token reads as a value by its form: CJK, a digit, a capital, a joiner (:data:`_VALUE_RE`)."""
    return bool(re.match(rf"[{_CJK}]", token) or _VALUE_RE.search(token))


def _aligned(old: list[str], new: list[str], cased: list[str]) -> bool:
    """Whether ``new`` is ``old`` with exactly one run of content replaced by new content (the module docstring);
    ``cased`` is ``new`` as written: the new value's content tokens must read as values (:func:`_valued`)."""
    ops = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    value = 0
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        was = [t for t in old[i1:i2] if _content(t)]
        now = [t for t in new[j1:j2] if _content(t)]
        if was and now:
            value += 1
            if (
                len(new[j1:j2]) > 6
                or not set(now) - set(old)
                or not all(_valued(t) for t in cased[j1:j2] if _content(t.casefold()))
            ):
                return False  # "is a pain", "tests now pass", "Wednesday once": a state or a scope, not a new value
        elif was:
            return False  # content dropped with nothing in its place: a narrower statement, not a new value
    content = [t for t in old if _content(t)]
    kept = sum(1 for tag, i1, i2, _j1, _j2 in ops if tag == "equal" for t in old[i1:i2] if _content(t))
    return value == 1 and kept >= 2 and kept * 2 >= len(content)


_SKELETON_RE = re.compile(r"\d+")


def _same_shape(old: list[str], new: list[str]) -> bool:
    """Whether both hold an identifier of one shape with other digits ("db-stage-2", "db-stage-5") and share
    another content token."""

    def ids(words: list[str]) -> dict[str, str]:
        return {_SKELETON_RE.sub("#", w): w for w in words if re.search(r"\d", w) and re.search(r"[^\W\d]", w)}

    a, b = ids(old), ids(new)
    shape = [k for k in a.keys() & b.keys() if a[k] != b[k]]
    shared = {t for t in old if _content(t) and not re.search(r"\d", t)} & set(new)
    return len(shape) == 1 and bool(shared)


def _anchored(old: str, new: str) -> bool:
    """Whether both hold one name followed by a different value ("Node 18" / "Node 22", "MacBook Intel" /
    "MacBook M3"): the name a capitalised word not first in its sentence, the values of a value's form."""

    def pairs(text: str) -> dict[str, str]:
        words = _cased(text)
        return {
            a.casefold(): b.casefold()
            for i, (a, b) in enumerate(pairwise(words))
            if i and a[:1].isupper() and _VALUE_RE.search(b) and _content(b.casefold())
        }

    a, b = pairs(old), pairs(new)
    changed = [k for k in a.keys() & b.keys() if a[k] != b[k] and a[k] not in b.values()]
    if len(changed) != 1:
        return False
    named = {changed[0], a[changed[0]], b[changed[0]]}
    return bool({t for t in tokens(old) if _content(t)} & set(tokens(new)) - named)  # the subject said again


def _one_swap(old: list[str], new: list[str]) -> bool:
    """Whether the line's subject is said again and one run of its content at most is swapped for other content:
    the line's first content token is in ``new``, and one aligned region at most replaces content by content
    ("Staging database is Postgres 14" / "Production database is now Postgres 16", "The cron job for invoices
    runs at 2am" / "... for emails now runs at 3am": another subject, not a new value)."""
    content = [t for t in old if _content(t)]
    if not content or content[0] not in new:
        return False
    ops = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    swaps = sum(
        1
        for tag, i1, i2, j1, j2 in ops
        if tag == "replace" and any(map(_content, old[i1:i2])) and any(map(_content, new[j1:j2]))
    )
    return swaps <= 1


def _keeps_values(old: str, new: str) -> bool:
    """Whether ``new`` holds every value of ``old`` (a word of :data:`_VALUE_RE`, its first word aside) but one:
    "We moved the frontend to React 19" drops "Vite 5" of "The frontend uses React 18 and Vite 5", a line it would
    hide whole. (A CJK character is no word: the alignment's one swapped run already bounds what CJK drops.)"""
    words = set(tokens(new))
    dropped = [bool(_VALUE_RE.search(t)) and t.casefold() not in words for t in _cased(old)[1:]]
    runs = sum(1 for i, gone in enumerate(dropped) if gone and (not i or not dropped[i - 1]))
    return runs <= 1  # "GitHub Actions" dropped for "Buildkite" is one value


_SCOPE = _set("on in for at only auf im bei für sur dans pour en sólo solo 只 仅 で 에서")
"""Words that open a scope ("on my laptop", "in staging", "for the demo"): words after them narrow the value."""
_DETERMINERS = _set("the a an my our your his her their this that new old mein meine unser le la les mon ma el la mi")


def _adds_words(old: list[str], tail: str) -> bool:
    """Whether ``tail`` adds a scope the line does not have: a word neither in the line nor of a value's form, after
    "on", "in", "for" ... ("... is on Postgres 17 now on my laptop", "... now on the new cluster": breaker9 item 4,
    proposed in the inbox, hiding nothing). A reason ("since the upgrade") narrows nothing."""
    was = set(old)
    words, cased = tokens(tail), _cased(tail)
    for i, (t, c) in enumerate(zip(words, cased, strict=True)):
        if not _content(t) or t in was or _valued(c) or t in _DETERMINERS:
            continue
        j = i - 1
        while j >= 0 and (words[j] in _DETERMINERS or (words[j] not in was and not _valued(cased[j]))):
            if words[j] in _SCOPE:
                break
            j -= 1
        if j >= 0 and words[j] in _SCOPE:
            return True
    return False


def _guarded(old: str, tail: str) -> bool:
    a, b = tokens(old), tokens(tail)
    return (
        not set(b) & (_NEGATION | _ADDED) - set(a)
        and not _adds_words(a, tail)
        and _one_swap(a, b)
        and _keeps_values(old, tail)
    )


def relate(new: str, old: str) -> Slot | None:
    """How the user's sentence ``new`` restates the stored line ``old`` with one value changed, or None."""
    for tail in tails(new):
        a, b = tokens(old), tokens(tail)
        if not _guarded(old, tail):
            continue
        if _aligned(a, b, _cased(tail)):
            return Slot("aligned", True)
        if _same_shape(a, b):
            return Slot("shape", True)
        if _anchored(old, tail):
            return Slot("anchored", True)
    return None


def slot_line(text: str, lines: Iterable[T], key: Callable[[T], str] = str) -> T | None:
    """The one line of ``lines`` that ``text`` restates with one value changed (:func:`relate`), or None."""
    hits = [line for line in lines if relate(text, key(line)) is not None]
    return hits[0] if len(hits) == 1 else None


def statement(text: str, old: str) -> str:
    """The part of ``text`` that restates ``old``: ``text`` less a lead-in :func:`tails` found (the shortest)."""
    for tail in sorted(tails(text), key=len):
        a, b = tokens(old), tokens(tail)
        if _guarded(old, tail) and (_aligned(a, b, _cased(tail)) or _same_shape(a, b) or _anchored(old, tail)):
            return tail
    return text


__all__ = ["Slot", "relate", "slot_line", "statement", "tails", "tokens"]
