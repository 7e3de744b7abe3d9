"""A user's correction and the stored line it corrects by the subject both sentences are about (corr9).

The context block's change rule (:func:`memrepo.engine.read.contextselect.replaced`) relates two lines by shared topic
words; a correction said in a few words often shares only its subject with the line it corrects: "Nope, the CDN
is Fastly now" and "The shop CDN is Cloudflare" share one word, "Terraform is on 1.9 now" and "Infra uses
Terraform 1.6" name no version the rule reads as changed, "my manager is Dana Wu now" and "My manager is Alice Kim"
share one word, and "We moved the deploy window to Wednesday last week" has no "now".

This relation reads each sentence as a subject and a value (:func:`statement`): "<subject> is [now] <value> [now]",
"<subject> goes to / runs on / lives in <value>", "<subject> moved to <value>", "we moved / switched / upgraded
<subject> [from X] to <value>". A newer sentence corrects an older line (:func:`corrects_line`) when

- both have the same subject: the same last word (its head: "CDN", "manager", "window"), every other word of the
  newer one's among the older one's ("the CDN" and "The shop CDN"; never "the CDN bill", "the staging DB" for "The
  shop DB", "my manager's team" or "my brother's manager" for "My manager"), both or neither said with "my";
- the same link ("is", "is on", "goes to"...: "My manager is in Berlin now" says where, not who), the same kind of
  value (a lowercase word replaces only a lowercase word: "the CDN is down now" is no new CDN);
- the value changed: neither value holds the other;
- and the newer one says it changed: "now", "these days", "last week", a change verb ("moved", "switched",
  "upgraded"). A lead-in alone ("Actually, the CDN is Fastly") is not enough: the statement is kept without it.

Or, a version: the newer sentence's subject is a name alone and its value a version ("Terraform is on 1.9 now",
"We upgraded Terraform to 1.9"), and the older line names that name once, with another version.

Both sentences must be short: a value of at most :data:`MAX_VALUE_WORDS` words with no word that scopes it ("on
the marketing site", "after the review"), an older line of one clause (a correction of one value never hides a line
that says more). A newer sentence that relates to more than one stored line relates to none
(:func:`corrects_one`). Pure functions of text: no file, no repo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from .claims import ExistingEntry
from .subjectwords import NOT_SUBJECTS, SCOPING, STATES, VERSION_CHANGE, VERSION_WORDS

MAX_SUBJECT_WORDS = 4
"""Most words of a subject, its determiner left out ("the shop's payment provider")."""
MAX_VALUE_WORDS = 4
"""Most words of a value, its leading preposition and article and its time words left out ("Dana Wu", "a MacBook
Air", "Postgres 15")."""

_WORD = r"[\w'’.+#/:@-]+"
_DETERMINERS = frozenset({"the", "our", "my", "a", "an", "this", "your", "their"})
_LINKS = {
    "goes to": "to",
    "go to": "to",
    "point to": "to",
    "points to": "to",
    "deploys to": "to",
    "deploy to": "to",
    "runs on": "on",
    "run on": "on",
    "lives in": "in",
    "live in": "in",
    "is hosted on": "on",
    "are hosted on": "on",
    "is hosted at": "at",
}
"""Verbs that say one value of a subject, each as the preposition it links with ("runs on Postgres 15" is "is on")."""
_COPULA_RE = re.compile(
    rf"^(?P<np>(?:{_WORD}\s+){{0,{MAX_SUBJECT_WORDS}}}?{_WORD})\s+"
    rf"(?P<link>is|are|(?:is|are)\s+hosted\s+(?:on|at)|goes\s+to|go\s+to|points?\s+to|deploys?\s+to|runs?\s+on|lives?\s+in)"
    rf"\s+(?P<value>.+)$",
    re.I,
)
"""A subject, a linking verb, a value: "the CDN is Fastly now", "Error tracking goes to Rollbar now"."""
_MOVED_RE = re.compile(
    rf"^(?:we|i|they)(?:['’]ve|\s+have)?\s+(?P<verb>moved|switched|changed|migrated|upgraded|bumped|updated|downgraded)\s+"
    rf"(?P<np>(?:{_WORD}\s+){{0,{MAX_SUBJECT_WORDS}}}?{_WORD})\s+(?:from\s+(?P<was>(?:{_WORD}\s+){{0,3}}?{_WORD})\s+)?"
    rf"(?:over\s+)?to\s+(?P<value>.+)$",
    re.I,
)
""""We moved the deploy window to Wednesday", "We switched CI from CircleCI to GitHub Actions"."""
_SUBJECT_MOVED_RE = re.compile(
    rf"^(?P<np>(?:{_WORD}\s+){{0,{MAX_SUBJECT_WORDS}}}?{_WORD})\s+(?:has\s+|have\s+)?"
    rf"(?P<verb>moved|switched|changed|migrated)\s+(?:over\s+)?to\s+(?P<value>.+)$",
    re.I,
)
""""The deploy window moved to Thursday"."""
_MOVED_TO_VERSION_RE = re.compile(
    r"^(?:we|i)(?:['’]ve|\s+have|['’]re|\s+are)?\s+(?:now\s+|just\s+|since\s+|already\s+|finally\s+|recently\s+)?"
    r"(?P<verb>moved|switched|migrated|upgraded|updated|bumped|downgraded)\s+(?:over\s+)?to\s+"
    r"(?P<name>[A-Za-z][\w.+#-]*?)\s*v?(?P<num>\d+(?:\.\d+)*)(?P<rest>(?:\s+\w+){0,3})$",
    re.I,
)
""""We moved to Postgres 16 last week", "we upgraded to Node 22 now", "We've since moved to Postgres 16": a name and its
new version (breaker11 B11-2)."""
_NAME_VERSION_RE = re.compile(r"(?<![\w.])(?P<name>[A-Za-z][\w.+#-]*?)\s*v?(?P<num>\d+(?:\.\d+)*)(?![\w.])")
"""A name and its version: "Postgres 16", "Terraform 1.9", "Node22"."""
_VERB_FIRST_RE = re.compile(
    r"^(?:nutzen|sind|haben|benutzen|verwenden|laufen|migrieren|wechseln|est-ce|sommes|utilisons|avons)\s+(?:wir|nous|on)\b",
    re.I,
)
"""A German or French yes/no question without its mark ("Nutzen wir jetzt Postgres 16", "Sommes-nous ...")."""
_DOES_RE = re.compile(
    rf"^(?:we|i)\s+(?P<verb>[a-z]+)\s+(?:(?P<np>(?:{_WORD}\s+){{0,3}}?{_WORD})\s+)?"
    rf"(?P<link>with|via|using|through|on|from)\s+(?P<value>.+)$",
    re.I,
)
""""We deploy the blog with Heroku", "We deploy on Tuesdays": what we do (to a thing), and with what or when (corr10); the
verb is part of the subject."""
_NOW_WORDS_RE = re.compile(
    r"(?:^|\s)(?:now|these\s+days|nowadays|anymore|again|as\s+of\s+(?:last\s+\w+|yesterday|today)|"
    r"(?:since|as\s+of|from)\s+(?:last\s+)?(?:week|month|monday|tuesday|wednesday|thursday|friday)|"
    r"last\s+(?:week|month|year|sprint|quarter)|yesterday|recently)(?=\s|$)",
    re.I,
)
"""Time words around a value: they say it changed ("now", "these days", "last week"), and are no part of it."""
_VERSION_VALUE_RE = re.compile(r"^(?:(?:on|at|to)\s+)?(?:v(?:ersion)?\s*)?(?P<num>\d+(?:\.\d+)*)$", re.I)
"""A value that is a version alone: "1.9", "on 1.9", "version 22"."""
_LEAD_PREP_RE = re.compile(r"^(?P<prep>on|in|at|to)\s+", re.I)
_ARTICLE_RE = re.compile(r"^(?:a|an|the)\s+", re.I)


_TIME_RE = re.compile(
    r"^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|(?:jan|febr)uary|march|april|may|june|july|august|"
    r"september|october|november|december|noon|midnight|morning|afternoon|evening|night|every|daily|weekly|monthly|"
    r"\d{1,2}(?::\d\d)?(?:am|pm)?|am|pm|utc|\d{4}-\d\d(?:-\d\d)?)$",
    re.I,
)
"""A word of a time or date: a value of this kind replaces only another of the same kind ("on Mondays" is not "on
Zoom")."""
_ADJECTIVE_ENDS = ("y", "ful", "less", "ous", "ive", "ic", "ish", "ed", "able", "ible", "ing", "ent", "ant", "al")
"""Endings of a lowercase word that says how a thing is ("laggy", "useless", "deprecated"), not which it is."""


def value_kind(words: Sequence[str]) -> str:
    """:func:`_kind` of a value in its own case, a ``name`` split by its first letter: ``name`` (a capital) or
    ``word`` (lowercase: "zsh", "the evening")."""
    kind = _kind(words)
    return kind if kind != "name" or words[:1] == [] else ("name" if words[0][:1].isupper() else "word")


def state_word(word: str) -> bool:
    """Whether a lowercase word says how a thing is (:data:`STATES`, :data:`_ADJECTIVE_ENDS`), not a time ("evening")."""
    ends = [end for end in _ADJECTIVE_ENDS if word.endswith(end) and len(word) - len(end) >= 3]  # not "fish" (B30-1)
    return word in STATES or (bool(ends) and not _TIME_RE.match(word))


def _kind(words: Sequence[str]) -> str:
    """A value's kind: ``time`` (a day, a month, an hour), ``number`` (a word with a digit: "port 8080",
    "Postgres 15"), else ``name``."""
    if any(_TIME_RE.match(w) for w in words):
        return "time"
    return "number" if any(ch.isdigit() for w in words for ch in w) else "name"


class Said(NamedTuple):
    """A sentence read as a subject and one value (:func:`statement`).

    Attributes:
        subject: the subject's words, folded, its determiner left out ("shop", "cdn").
        mine: whether the subject was said with "my".
        link: how the value is linked: "" for "is", else its preposition ("on" for "runs on" and "is on").
        value: the value's words, folded, its preposition, article and time words left out.
        lower: whether every word of the value is a lowercase word ("vim", "trunk").
        version: the value's number when it is a version alone ("1.9" of "is on 1.9 now"), else "".
        change: whether the sentence says it changed: a time word ("now", "these days") or a change verb.
        plain: whether the value is one value: at most :data:`MAX_VALUE_WORDS` words, none that scopes it
            (:data:`SCOPING`: "Fastly on the marketing site"), not a state ("down", "deprecated": :data:`STATES`).
        state: whether the value says how the subject is, not which it is: lowercase words of :data:`STATES` or
            with an ending of :data:`_ADJECTIVE_ENDS` ("down", "closed", "laggy").
        kind: the value's kind (:func:`_kind`): ``time``, ``number`` or ``name``.
        verb: the change verb of "we moved X to Y", "X moved to Y" ("" for "X is Y").
    """

    subject: tuple[str, ...]
    mine: bool
    link: str
    value: tuple[str, ...]
    lower: bool
    version: str
    change: bool
    plain: bool = True
    state: bool = False
    kind: str = "name"
    verb: str = ""


def _words(text: str) -> list[str]:
    return re.findall(_WORD, text)


def _fold(word: str) -> str:
    word = word.casefold().replace("’", "'").strip(".:")
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "'s", "us", "is")) else word


@lru_cache(maxsize=4096)
def statement(text: str) -> Said | None:
    """A sentence read as a subject and one value, or None when it is not one (:class:`Said`; the forms in the
    module docstring). Cached: a checkpoint asks it of each stored line once per sentence.

    Args:
        text: one sentence, less its lead-in and end mark.

    Returns:
        Said | None: the reading, or None.
    """
    text = " ".join(text.split()).rstrip(".!")
    if not text or (any(mark in text for mark in ',;:()"“”?') and not re.search(r"\w:\w|://", text)):
        return None  # more than one clause, a quote or a question
    short = _short_version(text)
    if short is not None:
        return short
    moved = _MOVED_TO_VERSION_RE.match(text)
    if moved and not _NOW_WORDS_RE.sub(" ", moved["rest"]).strip():
        return Said(
            (_fold(moved["name"]),), False, "to", (moved["num"],), False, moved["num"], True, True, False, "number",
            moved["verb"].casefold(),
        )  # fmt: skip
    change = False
    for rx in (_MOVED_RE, _SUBJECT_MOVED_RE, _COPULA_RE, _DOES_RE):
        found = rx.match(text)
        if found:
            break
    else:
        return None
    if rx is _DOES_RE:
        link = found["link"].casefold()
    elif rx is not _COPULA_RE:
        change, link = True, ""
    else:
        link = _LINKS.get(" ".join(found["link"].casefold().split()), "")
    np = _words(found["np"] or "")
    if rx is _DOES_RE:
        np = [found["verb"], *(w for w in np if w.casefold() not in _DETERMINERS)]
    mine = np[0].casefold() == "my" or (rx is _DOES_RE and text[:2].casefold() == "i ")  # "I deploy" is no "we"
    if np[0].casefold() in _DETERMINERS:
        np = np[1:]
    if not np or len(np) > MAX_SUBJECT_WORDS or any(w.casefold() in NOT_SUBJECTS for w in np):
        return None
    value = found["value"].strip()
    if _NOW_WORDS_RE.search(value):
        change = True
        value = _NOW_WORDS_RE.sub(" ", value).strip()
    prep = _LEAD_PREP_RE.match(value)
    if prep:
        link = link or prep["prep"].casefold()
        value = value[prep.end() :]
    value = _ARTICLE_RE.sub("", value).strip()
    version = _VERSION_VALUE_RE.match(value)
    words = _words(value)
    lower = all(w.isalpha() and w.islower() for w in words)
    plain = bool(words) and len(words) <= MAX_VALUE_WORDS and not any(w.casefold() in SCOPING for w in words)
    state = lower and (any(w in STATES for w in words) or any(w.endswith(_ADJECTIVE_ENDS) for w in words))
    plain = plain and not state  # how a thing is ("down", "deprecated", "laggy"), not which it is
    return Said(
        tuple(_fold(w) for w in np),
        mine,
        link,
        tuple(_fold(w) for w in words),
        lower,
        version["num"] if version else "",
        change,
        plain,
        state,
        _kind(words),
        found["verb"].casefold() if rx is not _DOES_RE and "verb" in found.groupdict() and found["verb"] else "",
    )


def _short_version(text: str) -> Said | None:
    """A short sentence that names one name and its version and no other word than "we are on ... now" says, in
    English, French, German or Spanish (:data:`.subjectwords.VERSION_WORDS`: "We're on Postgres 16 now", "on est
    passé à Postgres 16", "wir nutzen jetzt Postgres 16", "ahora usamos Postgres 16"), read as that name's new
    version; it says it changed only with a word of :data:`.subjectwords.VERSION_CHANGE` ("now", "jetzt", "ya")."""
    pairs = list(_NAME_VERSION_RE.finditer(text))
    if len(pairs) != 1 or len(text.split()) > 8 or _VERB_FIRST_RE.match(text):
        return None  # "Nutzen wir jetzt Postgres 16": German asks with the verb first (breaker15 B15-38)
    pair = pairs[0]
    rest = [w.casefold().replace("’", "'") for w in _words(text[: pair.start()] + " " + text[pair.end() :])]
    if not rest or any(w not in VERSION_WORDS for w in rest) or pair["name"].casefold() in VERSION_WORDS:
        return None
    change = any(w in VERSION_CHANGE for w in rest)
    num = pair["num"]
    return Said((_fold(pair["name"]),), False, "to", (num,), False, num, change, True, False, "number", "moved")


def other_subject(new_text: str, old_text: str) -> bool:
    """Whether both sentences read as a subject and a value (:func:`statement`) and the newer one says no new value
    of the older one's subject: another subject ("We moved the deploy window tests to a new folder" is about no
    "deploy window", however many words they share), or a state for a value ("the deploy window is closed now"
    names no new window).

    Args:
        new_text: the user's sentence, less its lead-in.
        old_text: a stored line's text.

    Returns:
        bool: True when both read so and the newer one gives the older one's subject no new value.
    """
    new, old = statement(new_text), statement(old_text)
    if new is None or old is None:
        return False
    return not _same_subject(new, old) or (new.state and not old.state)


def _same_subject(new: Said, old: Said, spare: frozenset[str] | None = None) -> bool:
    """The same head, the newer subject's other words all the older one's, and the older one's words it leaves out
    all in ``spare`` (when given: "shop" of "The shop CDN" in the shop's file; never "default" of "The default
    branch" for "the branch")."""
    if new.subject[-1] != old.subject[-1] or not set(new.subject) <= set(old.subject) or new.mine != old.mine:
        return False
    return spare is None or all(w.removesuffix("'s") in spare for w in set(old.subject) - set(new.subject))


def _changed(new: tuple[str, ...], old: tuple[str, ...]) -> bool:
    return new != old and not set(new) <= set(old) and not set(old) <= set(new)


def _versions(name: str, text: str) -> list[str]:
    """The versions ``text`` gives ``name`` ("Terraform 1.6": 1.6), and [] when it names it without one. ``name`` is
    folded (:func:`_fold`: "postgre" for "Postgres"), so a plural ``s`` may follow it."""
    found = re.findall(rf"(?<![\w.-]){re.escape(name)}s?(?:\s+v?(\d+(?:\.\d+)*))?(?![\w-])", text, re.I)
    return found


def corrects_line(new_text: str, old_text: str, spare: frozenset[str] | None = frozenset(), cued: bool = False) -> bool:
    """Whether ``new_text`` (the user's sentence) corrects the stored line ``old_text`` by the subject both are
    about (the rule in the module docstring).

    Args:
        new_text: the user's sentence, less its lead-in.
        old_text: a stored line's text.
        spare: words of the older line's subject the newer one may leave out (:func:`spare_words`; None: any).
        cued: the user said it with a lead-in that says it corrects ("No wait, ...", "Scratch that, ...", corr10):
            no time word or change verb is needed then.

    Returns:
        bool: True when it does.
    """
    new = statement(new_text)
    if new is None or not (new.change or cued) or not new.plain:
        return False
    named = len(new.value) == 2 and new.value[0].isalpha() and new.value[1][:1].isdigit() and new.verb
    if named and re.search(rf"(?<![\w-]){re.escape(new.subject[-1])}s?(?![\w-])", old_text, re.I):
        new = new._replace(subject=new.value[:1], version=new.value[1])  # "moved the frontend to React 19"
    if new.version and len(new.subject) == 1 and not new.mine:
        versions = _versions(new.subject[0], old_text)
        numbers = re.findall(r"(?<![\w.])\d+(?:\.\d+)+|(?<=\s)v?\d+(?![\w.])", old_text)
        if len(versions) == 1 and versions[0] and versions[0] != new.version and len(numbers) <= 1:
            return ";" not in old_text and " and " not in old_text and "," not in old_text
    old = statement(old_text)
    if old is None or not old.plain or new.version or old.version:
        return False
    if not _same_subject(new, old, spare) or new.link != old.link or new.kind != old.kind:
        return False
    if new.lower and not old.lower:
        return False  # "the staging host is offline now" names no host
    if new.verb == "moved" and new.kind != "time" and old.link not in ("in", "on", "at", "to"):
        return False  # "I moved my laptop to the office" says where it is, not which laptop
    return _changed(new.value, old.value)


def spare_words(path: str, texts: Iterable[str]) -> frozenset[str]:
    """Words a correction may leave out of the subject of a line of file ``path``: the workspace's name (its file's
    stem: "shop" of ``workspaces/shop.md``) and words in 3 or more of the file's ``texts`` (the project's name
    said in most of its lines).

    Args:
        path: the file's path in the memory repo.
        texts: the texts of the lines of that file the checkpoint listed.

    Returns:
        frozenset[str]: folded words.
    """
    counts: dict[str, int] = {}
    for text in texts:
        for word in {_fold(w).removesuffix("'s") for w in _words(text)}:
            counts[word] = counts.get(word, 0) + 1
    stem = path.rsplit("/", 1)[-1].removesuffix(".md").casefold() if path.startswith("workspaces/") else ""
    return frozenset({w for w, n in counts.items() if n >= 3} | ({stem} if stem else set()))


_CLAUSE_AND_RE = re.compile(r"(?<!\s)\s+and\s+", re.I)  # from a run's start: docs/architecture.md §3
_SUBJECT_START_RE = re.compile(r"^(?:we|i|they)\b", re.I)
_ELLIPTIC = frozenset(
    {"it", "its", "it's", "they", "them", "so", "too", "also", "either", "neither", "that", "this", "those", "these",
     "one", "ones", "same", "there"}
)  # fmt: skip
"""Words of a clause that leans on the other one ("so does the shop", "I use it for Go"): it cannot stand alone."""
_NOT_VERB = frozenset({"the", "a", "an", "our", "my", "its", "their", "this", "that", "we", "i", "it", "they", "you"})


def clauses(text: str) -> list[str]:
    """The two clauses of a stored line joined by one "and" (corr10): "We deploy the blog with Heroku and use Postgres
    14" gives "We deploy the blog with Heroku" and "We use Postgres 14" (the second one's subject borrowed from the
    first when it has none); [] for a line of one clause or of more than two, or one with a comma or a semicolon.

    Args:
        text: a stored line's text.

    Returns:
        list[str]: the two clauses, or [].
    """
    text = " ".join(text.split()).rstrip(".!").replace(", and ", " and ")  # "X, and I use fish as my shell"
    parts = _CLAUSE_AND_RE.split(text)
    if len(parts) != 2 or any(mark in text for mark in ",;:") or min(len(p.split()) for p in parts) < 2:
        return []
    first, second = parts
    subject = _SUBJECT_START_RE.match(first)
    if subject and second.split()[0].casefold() not in _NOT_VERB and second[:1].islower():
        second = f"{subject.group(0)} {second}"
    leans = second.split()[1:2] in ([w] for w in ("never", "always", "not", "also", "too", "only", "so"))
    if leans or any(w.casefold() in _ELLIPTIC for p in (first, second) for w in p.split()):
        return []  # "so does the shop", "the docs too", "never on Fridays", "I use it for Go": no clause alone (B15-31)
    if any(len(p.split()) < 3 or not any(w.isalpha() and w.islower() for w in p.split()[1:3]) for p in (first, second)):
        return []  # "React 18 and Vite 5": two values of one clause, not two clauses
    return [first, second]


def corrected_clause(text: str, old_text: str, spare: frozenset[str] | None, cued: bool = False) -> str | None:
    """The clause of the two-clause line ``old_text`` (:func:`clauses`) that ``text`` leaves true when it corrects the
    other one (:func:`corrects_line`): "We deploy the blog with Heroku" when "We're on Postgres 16 now" corrects "We
    deploy the blog with Heroku and use Postgres 14"; None when it corrects neither or both."""
    parts = clauses(old_text)
    hit = [corrects_line(text, part, spare, cued) for part in parts]
    if sum(hit) != 1:
        return None
    return parts[hit.index(False)]


def _relates(text: str, old_text: str, spare: frozenset[str] | None, cued: bool) -> bool:
    return corrects_line(text, old_text, spare, cued) or corrected_clause(text, old_text, spare, cued) is not None


def corrects_one(text: str, existing: Iterable[ExistingEntry], cued: bool = False) -> ExistingEntry | None:
    """The one stored line ``text`` corrects by its subject (:func:`corrects_line`, the words it may leave out of
    the subject: :func:`spare_words` of the line's file; or one clause of a two-clause line, :func:`corrected_clause`),
    or None: none, or more than one line it would correct leaving out any words ("the CDN is Fastly now" with "The
    shop CDN is Cloudflare" and "The blog CDN is Akamai" stored names neither).

    Args:
        text: the user's sentence, less its lead-in.
        existing: the stored lines the checkpoint listed (the caller drops other people's lines).
        cued: said with a lead-in that says it corrects (:func:`corrects_line`).

    Returns:
        ExistingEntry | None: the corrected line (never one a listed line already replaces: "Standup is now at 10:00"
        with ``supersedes: The standup is at 9:30``, the newest of a chain is the one corrected).
    """
    lines = list(existing)
    by_path: dict[str, list[str]] = {}
    for old in lines:
        by_path.setdefault(old.path, []).append(old.text)
    spares = {path: spare_words(path, texts) for path, texts in by_path.items()}
    gone = {e.meta.get("supersedes", "").casefold() for e in lines} - {""}
    lines = [old for old in lines if not any(old.text.casefold().startswith(piece) for piece in gone)]
    rivals = {old.text.casefold() for old in lines if _relates(text, old.text, None, cued)}
    if len(rivals) > 1:
        return None  # "the CDN" of "The shop CDN is Cloudflare" and "The blog CDN is Akamai"
    found: Sequence[ExistingEntry] = [old for old in lines if _relates(text, old.text, spares[old.path], cued)]
    if not found:
        return None
    return max(found, key=lambda e: (e.by == "user", e.meta.get("added", "")))


__all__ = [
    "Said",
    "clauses",
    "corrected_clause",
    "corrects_line",
    "corrects_one",
    "other_subject",
    "spare_words",
    "state_word",
    "statement",
    "value_kind",
]
