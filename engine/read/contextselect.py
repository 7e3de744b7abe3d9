"""Which entries of a file the context block shows in its budget: the selection rule (docs/architecture.md §4).

The block shows what is true now. For each file, in this order:

1. **Replaced lines are hidden** (:func:`replaced`). A newer line replaces an older one of the same
   file when both carry the same ``subject:``; when the newer one names it (``supersedes:`` holding
   a piece of its text or its subject); or, for lines without a subject, when they are about the
   same thing (:func:`.contexttopic.topic_terms`: at least two shared topic words, most of the older line's)
   and the newer one says it changed (a change word: "now", "moved", "switched", "no longer", 现在,
   変更, ...; or "X, not Y" naming its value) or says the same again (restated: the same numbers and
   most of the same words). Neither rule replaces a line about another item (:mod:`.sameitem`: "(item 2899)"
   / "(item 2910)"; a shared subject alone hides nothing). An agent's line never hides the user's, nor undoes
   what a user's line replaced. A hidden line stays in the file, its history and recall.
2. **The rest is ranked** (:func:`.contextrank.rank_key`): the user's own lines where the file asks for them
   (``user_first``: MEMORY.md, me.md, lessons.md) or the user's rules and decisions (``kind: rule``,
   ``decision``, ``correction``), then index lines (``- [[me]]``, in file order: a pointer to a file
   ``memory_read`` opens never outranks a preference the agent must act on), then lines that name the block's
   workspace, then the newest first (``added:``; a line without it counts as new as the newest
   line above it; then the later line). Before relevance and date comes what a line is to an agent
   (:func:`.contextrank.need`): in a file about the user, who the user is and what keeps them safe (name, pronouns,
   place and timezone; allergies, diet, medical), even when an agent saved it, then rules and preferences,
   then the rest; in every file a line that is more than half redaction markers comes last.
3. **The budget is filled in that order**, a line too long for what is left skipped; the lines
   shown keep their file order (when everything fits, the file is shown as it is, less its
   replaced lines).

Everything here is a pure function of the file's entries: the same file gives the same choice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple  # not dataclasses: recall asks replaced() too, and dataclasses imports inspect

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.hearsay import users_hearsay
from memrepo.engine.format.itemids import ids
from memrepo.engine.format.terms import fold, split_folded
from memrepo.engine.read.changeframe import (
    RESIDENCE_RE,
    cjk_count,
    moved_home,
    one_frame,
    reversed_value,
    swapped_frame,
)
from memrepo.engine.read.contexttopic import SINGLE_LABELS, _has_change, _norm, _stem, _topic_word
from memrepo.engine.read.contexttopic import Topic as Topic  # re-exported, as the next two: checkpoints and recall
from memrepo.engine.read.contexttopic import topic_terms as topic_terms
from memrepo.engine.read.contexttopic import topic_words as topic_words
from memrepo.engine.read.samefact import from_subject, subject_differs
from memrepo.engine.read.sameitem import items_apart, says_own_change
from memrepo.engine.read.samevalue import adds, moved_value, names_piece, parallel

RULE_KINDS = frozenset({"rule", "decision", "correction"})
"""Kinds of the user's lines that outrank their other lines in a file whose user lines do not all come first."""

COMMON_SHARE = 0.25
"""A word in more than this share of a file's entries (and in more than 3) is no topic word there:
in a workspace file its name is in almost every line."""

MIN_SHARED = 2
"""Topic words a newer line must share with an older one to replace it."""

MIN_COVER = 0.5
"""The newer line must hold more than this share of the older line's topic words to replace it."""

MIN_RESTATED = 0.6
"""Jaccard overlap of topic words at which a newer line with the same numbers says the same again."""

TOPIC_WINDOW = 600
"""The words' rules (supersedes:, topic words) compare a file's last this many entries (the subject rule
all of them): a budget shows a few dozen lines, and a hand-grown file of thousands would cost a new
process about a second (measured: 3,200 entries, 0.8 s)."""


SUBJECT_WINDOW = 100
"""A line of a subject is compared with this many of the subject's newest lines still shown: lines of one subject
stay side by side only when an id tells them apart (a template's items), and a file of thousands of them would cost
a pair of lines each."""


class Candidate(NamedTuple):
    """One entry line of a file, as the selection sees it.

    Attributes:
        number: its 1-based line number.
        entry: the parsed entry.
        date: its ``added:`` date, or the newest date above it when it has none ("" when none above).
    """

    number: int
    entry: fmt.Entry
    date: str


def candidates(entries: Sequence[tuple[int, fmt.Entry]]) -> list[Candidate]:
    """The entries in file order with their effective dates (:class:`Candidate`)."""
    out: list[Candidate] = []
    newest = ""
    for number, entry in entries:
        added = entry.meta.get("added", "").strip()[:10]
        newest = max(newest, added)
        out.append(Candidate(number, entry, added or newest))
    return out


def same_fact(old_text: str, new_text: str) -> bool:
    """Whether a newer line may state the same fact as an older one (:mod:`.samefact`): it adds no value beside it
    ("as well", "also") and their owners and subjects agree ("I" / "my daughter", "web" / "api")."""
    return not adds(new_text) and not subject_differs(old_text, new_text, _norm)


def _newer(a: Candidate, b: Candidate) -> bool:
    """Whether ``a`` is newer than ``b``: a later date; the same day, the one that says it changed (a change word, or
    that it undoes one: :func:`_reverts`); else the later line (memrepo appends each entry).

    A line's place is its age only until someone tidies the file by hand (breaker8 B8-17: "MSRV is now Rust 1.79"
    moved above "MSRV is Rust 1.74", both of one day, showed the outdated line again): "now" marks the newer of
    the two wherever it stands.
    """
    if a.date != b.date:
        return a.date > b.date
    said_a, said_b = says_change(a.entry.text), says_change(b.entry.text)
    return said_a if said_a != said_b else a.number > b.number


def says_change(text: str) -> bool:
    """Whether a line says it changed something or undoes a change (:func:`_says_change`, :func:`_reverts`): on the
    same day, such a line is the newer of two (:func:`_newer`)."""
    return _says_change(text) or _reverts(text)


@lru_cache(maxsize=4096)
def _says_change(text: str) -> bool:
    """Whether an entry's text holds a change word (:data:`CHANGE_WORDS`, :data:`CHANGE_PAIRS`)."""
    return _has_change(split_folded(fold(text)))


_REVERT_RE = re.compile(r"\b(?:again|back (?:to|at|on|in)|reverted|rolled back)\b")


@lru_cache(maxsize=4096)
def _reverts(text: str) -> bool:
    """Whether a line says it undoes a change ("My editor is Vim again", "rolled back to Postgres 15"): on the same
    day it is as new as the change it undoes, and the later line wins (breaker13 B13-14)."""
    return _REVERT_RE.search(fold(text)) is not None


def _subject(entry: fmt.Entry) -> str:
    return fold(entry.meta.get("subject", ""))


def replaced(
    cands: Sequence[Candidate], disputed: dict[int, int] | None = None, subjects: bool = True
) -> dict[int, int]:
    """Which lines a newer line of the same file replaces (the rule in the module docstring, step 1).

    Args:
        cands: the file's entries (:func:`candidates`).
        disputed: filled, when given, with the user's lines a newer agent line would replace by the same
            rule (an agent's line never hides the user's): the user's line's number -> the agent line's.
        subjects: whether the same ``subject:`` alone replaces (the block's rule). False for a dream, which
            removes a line only when words relate the two (docs/dreams.md): lines of one subject are then asked
            the words' rule as lines without one; lines of two subjects still never meet.

    Returns:
        dict[int, int]: a replaced line's number -> the number of the line that replaces it.

    A user's line that a newer line of the user's replaces stays replaced whatever agent lines come later: the rule
    is also asked of the user's lines alone (breaker7 B7-1: an agent's "deploy window moved to Friday" made "deploy"
    a common word of a small file, and the user's own "is now Thursday" no longer replaced "is Tuesday").
    """
    said: dict[int, int] = {}  # the user's line -> the newest agent line the by: rule kept from replacing it
    known_topics: dict[str, Topic] = {}  # the user's lines are asked twice: their topics are found once
    out = _replaced(cands, said, known_topics, subjects)
    users = [c for c in cands if c.entry.by == "user"]
    if 1 < len(users) < len(cands):
        for old, new in _replaced(users, {}, known_topics, subjects).items():
            out.setdefault(old, new)
    if disputed is not None:
        disputed.update({old: new for old, new in said.items() if old not in out and new not in out})
    return out


def _replaced(
    cands: Sequence[Candidate], said: dict[int, int], known_topics: dict[str, Topic], subjects: bool = True
) -> dict[int, int]:
    """:func:`replaced` of these lines, with ``said`` filled with the user's lines newer agent lines would replace
    (``known_topics``: the topics found so far, by text; filled; ``subjects``: whether the same subject replaces)."""
    out: dict[int, int] = {}
    by_number = {c.number: c for c in cands}
    by_subject: dict[str, list[Candidate]] = {}  # a subject -> its lines no other line of it replaced
    gone: set[int] = set()
    for cand in cands:
        subject = _subject(cand.entry)
        if not subject or not subjects:
            continue
        held = by_subject.setdefault(subject, [])
        for other in held[-SUBJECT_WINDOW:]:
            new, old = (cand, other) if _newer(cand, other) else (other, cand)
            if _apart(old, new, known_topics):
                continue  # another item of the same subject: a shared subject alone hides nothing
            if old.entry.by == "user" and new.entry.by == "agent":
                if old.number not in said or _newer(new, by_number[said[old.number]]):
                    said[old.number] = new.number
                continue  # the user's line outranks an agent's (docs/architecture.md §3)
            out[old.number] = new.number
            if old is other:
                gone.add(other.number)
        if gone:
            held[:] = [c for c in held if c.number not in gone]
            gone.clear()
        if cand.number not in out:
            held.append(cand)
    cands = cands[-TOPIC_WINDOW:]  # the words' rules: the newest lines only (a hand-grown file may hold thousands)
    parts = []
    for c in cands:
        part = known_topics.get(c.entry.text)
        if part is None:
            part = known_topics[c.entry.text] = topic_terms(c.entry.text)
        parts.append(part)
    seen: dict[str, int] = {}
    for part in parts:
        for word in part.words:
            seen[word] = seen.get(word, 0) + 1
    common = {w for w, n in seen.items() if n > 3 and n > COMMON_SHARE * len(cands)}
    if common:  # a word only lines of one changed fact hold is that fact's topic, not the file's common word
        common = {
            w
            for w in common
            if not one_frame([c.entry.text for c, p in zip(cands, parts, strict=True) if w in p.words])
        }
    topics = [p.words - common for p in parts]
    postings: dict[str, list[int]] = {}
    for i, topic in enumerate(topics):
        for word in topic:
            postings.setdefault(word, []).append(i)
    folded = [fold(c.entry.text) for c in cands]
    numbered: dict[str, list[int]] = {}
    for i, part in enumerate(parts):
        for name, _num, _changed in part.versions:
            numbered.setdefault(name, []).append(i)
    homes = [i for i, text in enumerate(folded) if RESIDENCE_RE.match(text)]  # where the user lives: no word shared
    names = {  # line -> the lines its supersedes: names; those never replace it back by words (h5-chain-python)
        i: set(_superseded(named, c, cands, folded, {}))
        for i, c in enumerate(cands)
        if (named := fold(c.entry.meta.get("supersedes", "")))
    }
    for i, new in enumerate(cands):
        named = fold(new.entry.meta.get("supersedes", ""))
        if named:
            for j in _superseded(named, new, cands, folded, out):
                old = cands[j]
                if old.entry.by == "user" and new.entry.by == "agent":  # the user's line outranks an agent's
                    if old.number not in said or _newer(new, by_number[said[old.number]]):
                        said[old.number] = new.number
                    continue
                out[old.number] = new.number
            if new.number in out.values():
                continue  # it named the line it replaces: no other by words (breaker9: pg-stage-12 hid pg-prod-1)
        topic, part = topics[i], parts[i]
        was = part.was - common if part.change else frozenset()
        values = part.named - common if part.change else frozenset()
        found = False
        best: tuple[float, int] | None = None  # (share of its words shared, j) of the older line "from" names
        best_user: tuple[float, int] | None = None  # the same among the user's lines, when this line is an agent's
        if users_hearsay(new.entry):
            continue  # it replaces no line by its words (may_replace): the others are not asked
        near = {j for word in topic for j in postings[word]}
        # a name it says it renumbered, however common in the file ("Postgres 15" after "Postgres 14")
        near.update(j for name, _num, changed in part.versions if changed for j in numbered.get(name, ()))
        if part.change and homes and RESIDENCE_RE.match(folded[i]):
            near.update(homes)  # "I moved to Montreal" after "I live in Lyon"
        for j in sorted(near - {i}, reverse=True):
            old = cands[j]
            if (
                old.number in out
                or not _newer(new, old)
                or not _kinds_meet(new, old)  # may_replace(by=False): its hearsay test was asked above
                or i in names.get(j, ())
            ):
                continue
            user_over_agent = old.entry.by == "user" and new.entry.by == "agent"
            if _subject(new.entry) and _subject(old.entry) and (subjects or _subject(new.entry) != _subject(old.entry)):
                continue  # both have a subject: only the same subject replaces (a dream asks it the words' rule)
            turned = _turned(old.entry.text, new.entry.text, common)  # the same head and frame, the value turned
            shared = len(topic & topics[j])
            close = shared >= MIN_SHARED and shared > MIN_COVER * len(topics[j])
            restated = (
                close
                and part.numbers == parts[j].numbers
                and shared >= MIN_RESTATED * len(topic | topics[j])
                and not parallel(old.entry.text, new.entry.text)  # "run ruff" / "run mypy": two facts side by side
            )
            changed = (
                (part.change and close)
                or _says_it_changed(part, parts[j], topics[j])
                or (part.change and shared >= MIN_SHARED and _bumped(part, parts[j]))
                or _denies(part, topic, parts[j], topics[j])
                or (part.change and _swapped(old.entry.text, new.entry.text, common))
                or (part.change and moved_value(old.entry.text, new.entry.text, _norm))
                or bool(turned)
            )
            named_was = was & topics[j] or (values & (topics[j] - parts[j].named) and shared >= MIN_SHARED)
            if not (changed or restated or named_was):
                continue  # nothing relates them, whatever their owners and subjects: same_fact is not asked
            if _apart(old, new, known_topics):
                continue  # "(item 4722)" / "(item 4745)", "（migrations-4011）" / "（docs-4036）": two items
            if turned != "named" and not same_fact(old.entry.text, new.entry.text):  # another owner or subject:
                if from_subject(old.entry.text, new.entry.text, was & topics[j], _norm):  # "from" its value
                    pick = (len(topic & topics[j]) / len(topics[j]), j)
                    if not user_over_agent and (best is None or pick[0] > best[0]):
                        best = pick
                    elif user_over_agent and (best_user is None or pick[0] > best_user[0]):
                        best_user = pick
                continue
            if changed and user_over_agent:  # a correction, not the same said again
                if old.number not in said or _newer(new, by_number[said[old.number]]):
                    said[old.number] = new.number
            elif (changed or restated) and not user_over_agent:
                out[old.number] = new.number
                found = True
            elif named_was:
                pick = (shared / len(topics[j]), j)
                if not user_over_agent and (best is None or pick[0] > best[0]):
                    best = pick
                elif user_over_agent and (best_user is None or pick[0] > best_user[0]):
                    best_user = pick  # the user's line outranks an agent's: marked, not replaced
        if not found and best is not None:  # "switched from npm": the older line about npm this one covers most
            out[cands[best[1]].number] = new.number
        if not found and best_user is not None:  # the user's line too, beside an agent's copy of it (B30-16)
            old = cands[best_user[1]]
            if old.number not in said or _newer(new, by_number[said[old.number]]):
                said[old.number] = new.number
    return out


def _apart(old: Candidate, new: Candidate, known_topics: dict[str, Topic]) -> bool:
    """Whether an id tells the two lines apart (:func:`.sameitem.items_apart`; ``known_topics``: the topics found so
    far, by text; filled), so neither replaces the other by a shared subject or by words."""
    a, b = ids(old.entry.text), ids(new.entry.text)
    if not (a.items or a.other) or not (b.items or b.other):
        return False  # the common case: a line without an id is told apart by none
    topics = []
    for text in (old.entry.text, new.entry.text):
        part = known_topics.get(text)
        if part is None:
            part = known_topics[text] = topic_terms(text)
        topics.append(part)
    own = says_own_change(
        old.entry.text, new.entry.text, topics[0], topics[1], supersedes=bool(new.entry.meta.get("supersedes"))
    )
    return items_apart(old.entry.text, new.entry.text, says_changed=own)


def _superseded(
    named: str, new: Candidate, cands: Sequence[Candidate], folded: list[str], out: dict[int, int]
) -> list[int]:
    """The older lines a ``supersedes:`` names: its subject, or a piece of 8 characters or more standing in the line
    as whole words. It is said on purpose and always honoured (breaker15 B15-33: "We're on Terraform 1.9" naming
    "Infra uses Terraform 1.6"); only when the piece stands in several lines are those of another subject left
    (breaker13 B13-16: "deploy window" of web is not the api's), unless all of them are. A line above it of the same
    day is older whatever change words it holds: a line names only what was already written (h5-chain-python: "moved
    to Python 3.11" stayed current beside "on 3.12 as of today" naming it)."""
    index = next(i for i, c in enumerate(cands) if c is new)
    older = [
        j
        for j, old in enumerate(cands)
        if old is not new and old.number not in out and (_newer(new, old) or (old.date == new.date and j < index))
    ]
    by_subject = [j for j in older if named == _subject(cands[j].entry)]
    pieces = [j for j in older if j not in by_subject and len(named) >= 8 and names_piece(named, folded[j])]
    if len(pieces) > 1:
        pieces = [j for j in pieces if same_fact(cands[j].entry.text, new.entry.text)] or pieces
    return sorted(by_subject + pieces)


def _says_it_changed(new: Topic, old: Topic, old_topic: frozenset[str]) -> bool:
    """Whether a newer line names what changed in an older one, beyond sharing most of its words:

    - the same leading label, and the label names one value ("Current focus:") or the line says it changed;
    - it says it changed, and what changed is the older line's: the words before "is now" ("is no longer") are all among its
      topic words ("timezone is now CET"), or a name it gives a higher number next to its change word than
      the older line does ("is now Postgres 15" after "Postgres 14"; a version goes up, a downgrade says
      "downgraded").
    """
    if new.label and new.label == old.label:
        return new.change or not SINGLE_LABELS.isdisjoint(new.label.split())
    if not new.change:
        return False
    if new.head and new.head <= old_topic:
        return True
    names = {name: num for name, num, _changed in old.versions}  # a common word too: "Postgres" in most lines of
    # the shop's file is its subject; the number must be the one the line says changed ("item 38" is no bump)
    return any(
        changed and name in names and _version(num) > _version(names[name]) for name, num, changed in new.versions
    )


def _bumped(new: Topic, old: Topic) -> bool:
    """Whether a newer line gives a name of the older line a higher number anywhere in it ("We upgraded the shop
    database to Postgres 16" after "The shop database is Postgres 14 on a managed RDS instance ..."): asked of a line
    that says it changed and shares :data:`MIN_SHARED` topic words; the older line's other facts stay in the block
    (:mod:`.contextpart`)."""
    names = {name: num for name, num, _changed in old.versions}
    return any(name in names and _version(num) > _version(names[name]) for name, num, _changed in new.versions)


def _swapped(old_text: str, new_text: str, common: set[str]) -> bool:
    """Whether a newer line that says it changed is the older one with its value swapped (:func:`.changeframe.swapped_frame`:
    the words around it hold a topic word of the file, not a common one, or two CJK characters) or says where the
    user lives now (:func:`.changeframe.moved_home`)."""
    frame = swapped_frame(old_text, new_text)
    if frame is not None and (
        cjk_count(frame) >= 2 or any(_topic_word(w) and _stem(w) not in common and w.isascii() for w in frame)
    ):
        return True
    return moved_home(old_text, new_text)


def _turned(old_text: str, new_text: str, common: set[str]) -> str:
    """How a newer line turns an older one around (:func:`.changeframe.reversed_value`): "named" when it names the
    older value ("Use npm instead of pnpm" after "Use pnpm", "Indent with 4 spaces; 2 was too cramped"); "again" when
    it says "again" or "back" around a frame holding a topic word of the file, not a common one ("Deploy from the
    release branch again; main is frozen until January" after "Deploy from main"; "Use Redis again" names nothing of
    "Use pnpm"); else "". A named turn holds whatever the lines' subjects look like (their head and frame are the
    same); "again" alone only when they are the same fact (:func:`same_fact`: "Alice owns invoicing again" is a
    second duty)."""
    found = reversed_value(old_text, new_text)
    if found is None:
        return ""
    frame, named = found
    if named:
        return "named"
    return "again" if any(_topic_word(w) and _stem(w) not in common and w.isascii() for w in frame) else ""


def _denies(new: Topic, new_topic: frozenset[str], old: Topic, old_topic: frozenset[str]) -> bool:
    """Whether a newer "X, not Y" corrects an older line: Y is among the older line's topic words (and the older line
    does not deny it itself), and the newer line says all its other topic words, at least one ("Deploy window is
    Tuesday" -> "the deploy window is Thursday, not Tuesday"; "Indent Python files with spaces" is no older value of
    "Indent Go files with tabs, not spaces")."""
    value = new.denied & old_topic - old.denied
    rest = old_topic - value
    return bool(value) and bool(rest) and rest <= new_topic


def _version(number: str) -> tuple[int, ...]:
    """A version number's parts ("1.10" after "1.9"): a bump goes up; a downgrade says so ("downgraded")."""
    return tuple(int(part) for part in number.split("."))


def may_replace(new: Candidate, old: Candidate, by: bool = True) -> bool:
    """Whether ``new`` may replace ``old`` by their words: an agent's line never replaces the user's (unless
    ``by`` is False), nor a user's line that reports others' words (breaker9 B9-4); lines of different ``workspace:``
    keys never meet; a rule, decision or correction is replaced only by one of the same kind (or by a ``supersedes:``)."""
    if (by and old.entry.by == "user" and new.entry.by == "agent") or users_hearsay(new.entry):
        return False
    return _kinds_meet(new, old)


def _kinds_meet(new: Candidate, old: Candidate) -> bool:
    """:func:`may_replace` less its authors' test: the same ``workspace:`` key, and a rule, decision or correction
    replaced only by one of its kind."""
    kind = old.entry.meta.get("kind", "").strip().casefold()
    if kind in RULE_KINDS and new.entry.meta.get("kind", "").strip().casefold() != kind:
        return False
    return new.entry.meta.get("workspace", "").strip() == old.entry.meta.get("workspace", "").strip()
