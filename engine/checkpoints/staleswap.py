"""A correction that says the stored value is stale and gives one of the same kind, in any wording (issue 30, corr14).

Users correct memory by pointing at it rather than by restating its line: "the staging db port in your notes is wrong,
it goes through pgbouncer on 6432", "Scratch that 9:30 thing for standup, we meet at 10:15", "Nobody has touched
Capistrano in ages, deploys go through Kamal", "Die Node-versie in je notities klopt niet meer, we zitten op Node 22",
"覆盖率门槛已经提到 85% 了，你记的那个是旧的", "heron 用的是 Dagster，不是 Airflow". The line's frame is not said again,
so :mod:`.slotframe` relates nothing. What they share:

- **A stale cue** (:data:`_STALE_RE`): words saying memory or the old value is wrong, stale or over ("in your notes",
  "is stale", "klopt niet meer", "zu deinen Notizen", "你记的", "c'est fini", "nobody has touched X"), a denial
  "X, not Y" / "nicht Y" / "pas Y" / "不是 Y" (the old value it names), or a cue lead-in the caller heard (``cued``).
- **A value of the same kind** (:func:`values`): the sentence holds a new value of a kind the line holds (a time,
  a percentage, a version, a number, an identifier's shape, a weekday), not the line's.
- **The same subject**: the line's old value is named in the sentence ("that 9:30 thing", "the 3.11 step"), or the
  sentence shares a content word of the line's beside its values, or the same name precedes both values ("Node 18" /
  "Node 22"). A capitalised name as the value ("Capistrano" -> "Kamal") counts only when the old one is named.

Exactly one listed line may match (those whose old value is named first). Pure functions of text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import TypeVar

from memrepo.engine.format.hearsay import hearsay

from .slotframe import _adds_words as adds_scope
from .slotframe import _content as content
from .slotframe import tokens

T = TypeVar("T")

_STALE_RE = re.compile(
    r"\b(?:(?:in|from|on)\s+(?:your|my|the|our)\s+notes|you\s+(?:have|had|wrote|noted)\b|(?:we|you|i)\s+(?:had\s+)?"
    r"(?:written|noted|jotted)\s+down|(?:is|was|are|were)\s+(?:wrong|stale|outdated|out\s+of\s+date|old\s+news)"
    r"|short-lived|scratch\s+(?:that|what)|nobody\s+(?:has\s+)?(?:touched|uses|used)|no\s+one\s+(?:has\s+)?(?:touched|uses)"
    r"|(?:zu|in)\s+(?:deinen|meinen|unseren)\s+notizen|stimmt\s+(?:\w+\s+){0,2}?nicht(?:\s+mehr)?|ist\s+(?:veraltet|falsch|überholt)"
    r"|in\s+(?:je|jouw|mijn)\s+notities|klopt\s+(?:\w+\s+){0,2}?niet|is\s+verouderd"
    r"|dans\s+(?:tes|mes|vos|nos)\s+notes|c['’]est\s+fini|n['’]est\s+plus|(?:petite\s+)?mise\s+à\s+jour"
    r"|en\s+(?:tus|mis)\s+notas|me\s+equivoqué|ya\s+no\s+(?:es|está|vale)|está\s+desactualizad[oa]"
    r"|w\s+(?:twoich|moich)\s+notatkach|nieaktualn"
    r"|(?:has|have|is|are)n['’]t\s+been\s+(?:on|in|at|with|using)\b|no\s+longer\s+(?:on|in|at|with|using|uses?|runs?)\b"
    r"|(?:è|e)\s+cambiat[oa]|ha\s+cambiado|a\s+changé|hat\s+sich\s+geändert|mudou|har\s+ändrats|is\s+veranderd"
    r"|(?:has|have)\s+changed"
    r"|estaba\s+mal|era\s+sbagliat[oa]|estava\s+errad[oa]|était\s+faux|war\s+falsch|var\s+fel|was\s+niet\s+goed)"
    r"|你记的|记错|旧的|过时|不对|不再|メモの|古い|間違|기록(?:한|된)|예전|틀렸|じゃなくて|ではなく|に変わ|(?:으)?로\s*바뀌",
    re.IGNORECASE,
)
"""Words that say memory's value is wrong, stale or over, in the languages the benchmarks hold."""
_DENIAL_RE = re.compile(
    r"(?:,|，)\s*(?:not|nicht|pas|no|non|não|niet|nie|inte|ikke|不是|而不是)\s+(?:mehr\s+|plus\s+)?(?:(?:à|a|at|on|in|um|en|op|om|på|alle|às|a\s+las)\s+)?"
    r"([^\s,，.。]+)"
    r"|\b(?:statt|instead\s+of|au\s+lieu\s+de|en\s+vez\s+de|in\s+plaats\s+van)\s+([^\s,.]+)",
    re.IGNORECASE,
)
"""A denial naming the old value: "X, not Y", "X, nicht Y", "X, pas Y", "X，不是 Y", "X instead of Y"."""
_WEEKDAYS = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "montag",
        "dienstag",
        "mittwoch",
        "donnerstag",
        "freitag",
        "samstag",
        "sonntag",
        "lundi",
        "mardi",
        "mercredi",
        "jeudi",
        "vendredi",
        "samedi",
        "dimanche",
        "lunes",
        "martes",
        "miércoles",
        "jueves",
        "viernes",
        "sábado",
        "domingo",
        "maandag",
        "dinsdag",
        "woensdag",
        "donderdag",
        "vrijdag",
        "zaterdag",
        "zondag",
        "lunedì",
        "martedì",
        "mercoledì",
        "giovedì",
        "venerdì",
        "måndag",
        "tisdag",
        "onsdag",
        "torsdag",
        "fredag",
        "lördag",
        "söndag",
        "poniedziałek",
        "wtorek",
        "środa",
        "czwartek",
        "piątek",
    ]
)
_MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "januar",
        "februar",
        "märz",
        "juni",
        "juli",
        "oktober",
        "dezember",
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ]
)
"""Month names: a date, no capitalised name of a thing ("we moved it there in May")."""
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("time", re.compile(r"^\d{1,2}(?::|h)\d{2}$|^\d{1,2}(?:am|pm|h)$")),
    ("percent", re.compile(r"^\d+(?:[.,]\d+)?%$")),
    ("version", re.compile(r"^v?\d+\.\d+(?:\.\d+)?$")),
    ("number", re.compile(r"^\d+$")),
    ("shape", re.compile(r"^(?=.*\d)(?=.*[^\W\d_])[\w]+(?:[-_./][\w]+)+$")),
)
_FUNCTION_SHORT = 3
"""Shortest Latin content word that counts as the shared subject (a CJK character counts alone)."""
_FRENCH_ON_RE = re.compile(r"(?:^|(?<=,\s))on\s+(?=(?:a|est|va|doit|fait|utilise)\b)", re.IGNORECASE)
"""French "on" as a clause's subject ("on a déplacé ..."), no scope as English "on my laptop" is."""
_SHARED = 2
"""Fewest content words a statement that names no old value must share with the line ("staging", "port"), unless
it says the line's first one again (its subject: "el servidor está en eu-west-3")."""
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def stale_cue(text: str) -> bool:
    """Whether ``text`` says memory's value is wrong, stale or over, or denies a value (:data:`_STALE_RE`)."""
    return bool(_STALE_RE.search(text) or _DENIAL_RE.search(text))


_SINCE_RE = re.compile(r"(?<!\s)\s*\b(?:as\s+of|starting|from)\s+(?:today|this\s+morning|now)\b", re.IGNORECASE)
"""When the new value began ("Saffron is on 3.12 as of today"): a change's date, not a scope (:func:`rest`)."""


_DOWN_RE = re.compile(r"\b(?:had\s+)?(?:written|wrote|noted|jotted)\s+down\b", re.IGNORECASE)
""""We had written down": memory's words, not someone's report (a stale clause with "said" or "told" stays hearsay)."""


def rest(text: str) -> str:
    """``text`` less its stale clauses and a "since today" (what it says is true now), or ``text`` when no clause is
    left: "that 30 second figure we had written down is stale, the client waits 45 seconds" -> "the client waits 45
    seconds". Asked in place of the sentence whether it is hearsay or scoped ("written down" is no one's report)."""
    clauses = re.split(r"(?<=[,;，；])\s*", text)
    kept = (
        [c for c in clauses if not _STALE_RE.search(c) or hearsay(_DOWN_RE.sub("", c))] if stale_cue(text) else clauses
    )
    out = _SINCE_RE.sub("", " ".join(kept).strip(" ,;，；")) if kept else ""
    return out or text


def _kind(token: str) -> str | None:
    if token in _WEEKDAYS:
        return "weekday"
    for name, pattern in _KINDS:
        if pattern.match(token):
            return "shape:" + re.sub(r"\d+", "#", re.sub(r"[^\W\d_]+", "a", token)) if name == "shape" else name
    return None


def words(text: str) -> list[str]:
    """``text`` as folded tokens, a number and its "%" or "am" one token ("85%", "10am"), a time one token ("9:30" as
    "9h30", the kind :data:`_KINDS` reads)."""
    glued = re.sub(r"(\d)\s+(%|am\b|pm\b)", r"\1\2", text, flags=re.I)
    glued = re.sub(r"\b(\d{1,2}):(\d{2})\b", r"\1h\2", glued)  # "9:30" one token, a time (tokens split at ":")
    return [t.rstrip(".") for t in tokens(glued)]


def values(text: str) -> dict[str, str]:
    """The values of ``text`` by token: each token of a value's kind (:data:`_KINDS`, a weekday) and its kind."""
    return {t: k for t in words(text) if (k := _kind(t)) is not None}


def _names(text: str) -> dict[str, str]:
    """Capitalised names not first in ``text`` and the value-like token after each ("Node 18", "MariaDB 10.6")."""
    words = [w.strip(".,;:") for w in text.split()]
    return {
        a.casefold(): b.casefold()
        for i, (a, b) in enumerate(pairwise(words))
        if i and a[:1].isupper() and _kind(b.casefold())
    }


def _content(text: str, skip: set[str]) -> set[str]:
    """Content tokens of ``text`` that can name its subject: no value, no function word, no word of ``skip``."""
    return {
        t
        for t in words(text)
        if t not in skip and content(t) and (len(t) >= _FUNCTION_SHORT or _CJK_RE.match(t)) and not _kind(t)
    }


def _caps(text: str) -> set[str]:
    """Capitalised names of ``text`` not first in it ("Capistrano", "GitHub"), folded."""
    words = [w.strip(".,;:!?()") for w in text.split()]
    return {w.casefold() for w in words[1:] if w[:1].isupper() and not _kind(w.casefold())} - _MONTHS


def _denied(text: str) -> dict[str, str]:
    """The values ``text`` denies by name ("pas à 4h", "non alle 10:00", "not Tuesday"), by token (:func:`values`)."""
    return {v: k for m in _DENIAL_RE.finditer(text) for v, k in values(m.group(1) or m.group(2) or "").items()}


def _disowned(text: str, value: str) -> bool:
    """Whether ``text`` names ``value`` in its stale or denial clause, not as what is true now."""
    if any(value in words(m.group(1) or m.group(2) or "") for m in _DENIAL_RE.finditer(text)):
        return True
    return any(value in words(c) and _STALE_RE.search(c) for c in re.split(r"[,;，；。]", text))


def _after_cue(text: str, value: str) -> bool:
    """Whether ``value`` follows the stale cue of its clause ("hasn't been on Fly.io"), not precedes it as the
    subject does ("the falcon API")."""
    for clause in re.split(r"[,;，；。]", text):
        cue = _STALE_RE.search(clause)
        if cue and value in words(clause[cue.end() :]):
            return True
    return False


def _other_subject(text: str, line: str, shared: set[str], skip: set[str]) -> bool:
    """Whether the line's first shared word has another content word before it in each ("The blog CDN" / "The shop
    CDN"): another subject of the same kind, not a new value of the line's (hostile_words2)."""

    def before(text: str, word: str, own: set[str]) -> str | None:  # the content word before ``word`` in its clause
        for clause in re.split(r"[,;，；。]", text):
            said = words(clause)
            if word in said:
                i = said.index(word)
                prev = said[i - 1] if i else ""
                return prev if prev and prev not in own and content(prev) and not _kind(prev) else None
        return None

    head = next((w for w in words(line) if w in shared), None)  # the subject's head: the line's first shared word
    x, y = (before(line, head, set()), before(text, head, skip)) if head else (None, None)
    return bool(x and y and x != y)


def _match(text: str, line: str, skip: set[str]) -> tuple[bool, bool]:
    """Whether ``text`` gives ``line`` a new value of a kind it holds, and whether it names the line's old value."""
    if adds_scope(tokens(line), _FRENCH_ON_RE.sub("", rest(text))):
        return (
            False,
            False,
        )  # "... is on Postgres 17 now on my laptop": a narrower value, for the inbox (breaker9 item 4)
    new, old = values(text), values(line)
    said = set(words(text))
    if any(v in said and not _disowned(text, v) for v in old):
        return False, False  # the old value said as true too: no swap ("15 for iOS, 16 for Android")
    if any(k in old.values() and v not in old for v, k in _denied(text).items()):
        return False, False  # "c'est à 5h, pas à 4h" of "... à 3h": the value denied is not this line's
    named = {v for v in old if v in said}
    fresh = {k for v, k in new.items() if v not in old}
    shared = _content(line, skip) & _content(text, skip)
    if _other_subject(text, line, shared, skip):
        return False, False
    anchored = any(a in _names(text) and _names(text)[a] != b for a, b in _names(line).items())
    first = next((w for w in words(line) if w in _content(line, skip)), None)  # the line's subject, said again
    paired = bool(_names(text)) and bool(_names(line)) and not set(_names(text)) & set(_names(line))
    paired = paired and bool(
        shared
    )  # "... klopt niet meer, we draaien op MariaDB 11" for "... PostgreSQL 15 als database"
    said_first = first is not None and len(first) >= 5 and first[:5] in {w[:5] for w in _content(text, skip)}
    said_first = said_first and not shared - {first}  # "i rilasci" for "Il rilascio": the subject inflected (round 18)
    if fresh & {old[v] for v in old} and (
        named or len(shared) >= _SHARED or first in shared or anchored or paired or said_first
    ):
        return True, bool(named)
    gone = {n for n in _caps(line) if n in said and _disowned(text, n)}
    gone = {n for n in gone if _after_cue(text, n)} or gone  # "the falcon API hasn't been on Fly.io": not "API"
    if gone and _caps(text) - _caps(line) and shared - gone:
        return True, True  # "Nobody has touched Capistrano in ages, deploys go through Kamal"
    return _name_in_slot(text, line, skip) or _id_swap(text, line, shared), False


_ID_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
"""A lowercase identifier of hyphened parts ("bramble-logs", "pg-stage"): a bucket's, a host's or a queue's name."""


def _id_swap(text: str, line: str, shared: set[str]) -> bool:
    """Whether ``text`` gives the line's one hyphened identifier another of the same family, its first part the same
    ("bramble-logs" -> "bramble-archive"), the old one not said, two or more content words (or CJK characters) of
    the line said again ("ログ", "バケット"): heldout9's "S3じゃなくてGCSのバケット bramble-archive に変わりました"
    (sess19). A stale cue is the caller's."""
    olds = [w for w in words(line) if _ID_RE.match(w)]
    news = [w for w in words(text) if _ID_RE.match(w) and w not in olds]
    if len(olds) != 1 or len(news) != 1 or olds[0] in words(text) or len(shared) < 2:
        return False
    return olds[0].split("-")[0] == news[0].split("-")[0]


# fmt: off
_SLOT_PREP = frozenset([
    "to", "on", "onto", "at", "via", "through", "in", "into", "with", "using", "auf", "über", "nach", "zu", "bei",
    "sur", "vers", "chez", "avec", "en", "con", "a", "por", "em", "para", "com", "naar", "op", "bij", "met", "su",
    "tramite", "da", "till", "på", "hos", "med",
])
# fmt: on
"""Prepositions a platform, host or tool stands after ("deploys to Heroku", "we're on Fly.io", "läuft auf Hetzner")."""


def _slot_names(text: str) -> set[str]:
    """Capitalised or dotted names of ``text`` that stand right after a preposition (:data:`_SLOT_PREP`), never first
    in their clause, a weekday or a month: the value of a slot ("to Heroku", "on Fly.io"), folded."""
    out: set[str] = set()
    for clause in re.split(r"[,;:，；。]", text):
        said = [w.strip(".!?()\"'") for w in clause.split()]
        for before, word in pairwise(said):
            folded = word.casefold()
            if before.casefold() not in _SLOT_PREP or len(word) < 2 or not (word[:1].isupper() or _NAME_RE.match(word)):
                continue
            if folded.rstrip("s") in _WEEKDAYS or folded in _WEEKDAYS or folded in _MONTHS or _kind(folded):
                continue
            out.add(folded)
    return out


def _name_in_slot(text: str, line: str, skip: set[str]) -> bool:
    """Whether ``text`` (a stale cue heard) gives ``line``'s one named value another name in the same slot: the line
    has one capitalised name after a preposition ("Kestrel deploys to Heroku with ..."), the sentence one new name after
    one ("we're on Fly.io these days"), never the old name said as true, and a word of the line's topic is said again,
    its first five letters enough ("The deploy target you have ... is out of date": "deploys"). A name as a subject
    ("Bob handles deploys now") or a day ("on Fridays") is no such value (sess19, heldout9)."""
    olds, news = _slot_names(line) - skip, _slot_names(text) - _slot_names(line) - skip
    said = set(words(text))
    if len(olds) != 1 or len(news) != 1 or any(o in said and not _disowned(text, o) for o in olds):
        return False
    if values(text).keys() - values(line).keys():
        return False  # a number, a version or a time besides: another fact
    mine = {w[:5] for w in _content(line, skip) - olds if len(w) >= 5 and w not in _caps(line)}
    theirs = {w[:5] for w in _content(text, skip) - news if len(w) >= 5}
    return bool(mine & theirs)


_NAME_RE = re.compile(r"^[^\W\d_][\w]*(?:[./][\w]+)+$")
"""A dotted or slashed name with no digit ("qa.cinder.fr", "release/main"): a value only beside the line's own of the
same shape (:func:`swaps_value`; :data:`_KINDS`' shapes need a digit, "and/or" is no name)."""


def name_values(text: str) -> dict[str, str]:
    """:func:`values` and the dotted or slashed names of ``text`` (:data:`_NAME_RE`), by shape."""
    found = values(text)
    for t in words(text):
        if t not in found and _NAME_RE.match(t):
            found[t] = "name:" + re.sub(r"[^\W\d_]\w*", "a", t)
    return found


def swaps_value(text: str, line: str, project: str = "") -> bool:
    """Whether ``text`` gives ``line`` a new value of a kind the line holds, past :func:`_match`'s guards (an added
    scope, the old value said as true, another subject before the shared word), whatever words say the subject: the
    line was found by meaning (:mod:`.meaningmatch`), not by shared words.

    Args:
        text: the user's statement.
        line: the line it talks about.
        project: project names (space-separated), which alone are no shared subject.

    Returns:
        bool: True when a value of the line's kind is replaced and no guard holds.
    """
    skip = {w.casefold() for w in project.split()}
    if adds_scope(tokens(line), _FRENCH_ON_RE.sub("", rest(text))):
        return False
    new, old = name_values(text), name_values(line)
    said = set(words(text))
    if any(v in said and not _disowned(text, v) for v in old):
        return False  # the old value said as true too
    if _other_subject(text, line, _content(line, skip) & _content(text, skip), skip):
        return False
    return bool({k for v, k in new.items() if v not in old} & set(old.values()))


def stale_line(
    text: str, lines: Iterable[T], key: Callable[[T], str] = str, cued: bool = False, project: str = ""
) -> T | None:
    """The one line of ``lines`` whose value ``text`` says is stale and replaces (the module docstring), or None.

    Args:
        text: the user's statement (less a lead-in, with its stale clause).
        lines: the listed lines (a chain's older links already left out by the caller).
        key: the text of a line.
        cued: a cue lead-in the caller heard ("Kleine Korrektur zu deinen Notizen:").
        project: project names (space-separated), which alone are no shared subject.

    Returns:
        the line, or None when none or more than one match.
    """
    if not (cued or stale_cue(text)):
        return None
    skip = {w.casefold() for w in project.split()}
    hits = [(line, named) for line in lines for ok, named in [_match(text, key(line), skip)] if ok]
    named = [line for line, was in hits if was]
    pick = named or [line for line, _ in hits]
    return pick[0] if len(pick) == 1 else None


__all__ = ["name_values", "rest", "stale_cue", "stale_line", "swaps_value", "values", "words"]
