"""Whether two lines can state the same fact: the same owner and the same subject (docs/architecture.md §4).

The context block's word rules (:func:`.contextselect.replaced`: shared topic words and a change word, the same
words said again, a version bump, the same leading label, "X, not Y", a swapped value) take two lines for one fact
changed. Two different facts often share most of their words: "I am allergic to penicillin" and "My daughter is
now allergic to penicillin", "Web uses Python 3.11" and "Api now uses Python 3.12", "Web team standup is at 9:30"
and "Web team retro moved to 16:00", "Always run ruff before committing" and "... mypy ...". What tells them
apart is where the differing word stands: in the line's subject (its owner or the thing it is about), not in
its value. Read from the lines' structure, not from a list of words:

- :func:`subject_differs`: each line's subject holds a word the other line never says. The subject is the words
  of the line's first clause before the first word the other line also says, when both lines go on from the
  same word (the lead: "Staging" of "Staging uses Redis" against "Prod no longer uses Redis"), or when that word
  follows another word in each line ("Backend PRs" / "payments PRs"); or the words before the line's verb (the
  phrase: "web team standup" of "Web team standup is at 9:30", up to a form of "be", "have", "do", a modal, a
  negation or a change word); or its leading label ("web" of "web: Node 18"; a newer line that says no word of
  an older line's label is about something else; a note marker such as "Reminder:" names no subject and is read
  past). "I" counts as a subject word (the owner), "my" does not ("my daughter": the daughter). In CJK text the
  lines differ in a run of CJK characters at their head and are the same after it (测试环境 / 生产环境, 我 /
  我女儿: :func:`.samecjk.cjk_head_differs`, split out).
- :func:`_scope_differs` (breaker15, round 10): a fronted scope each line holds apart ("In staging, ..." / "In
  prod, ..."), a denial of a word the older line never says ("Redis is no longer used in prod" after "... in
  staging"), a newer line that narrows the older one's head ("Prod deploys ..." after "Deploys ..."), an ending
  told apart when the lines differ elsewhere too ("... pytest in the api repo" / "... vitest in the web repo"), a
  "for/of <another thing>" after a shared head ("The cron job for invoices / for emails"). "The user" is the
  owner, "the user's" a possessive; a contraction's tail ("we're") and a CJK change word (现在) are no subject.
- :mod:`.samevalue` (split out): whether the newer line's value replaces the older one's or stands beside it
  (``parallel``, ``adds``, ``moved_value``, a "switched from" that never happened or happened in the past).
- a value after another preposition is another attribute ("Log errors in JSON" / "... to Sentry now"); two rules
  that start with one verb have no subject ("Use spaces ..." / "Use tabs ... from now on": breaker14 B14-6); a
  "from X to Y for <scope>" the older line never names holds for that scope only.
- :func:`from_subject`: a line of another owner or subject hides by "from <value>" only when it names the older
  line's subject or both are the user's ("My wife switched from Vim" keeps "I use Vim").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from memrepo.engine.format.terms import fold, is_cjk, split_folded

from .changeframe import common_ends, frame_tokens, times_differ, unled
from .changewords import CHANGE_WORDS, named_versions
from .samecjk import CJK_CHANGE_RE, cjk_head_differs
from .samerule import NOT_VERBS, other_duty, purpose_differs, role_passed

LABEL_RE = re.compile(r"^([^\W\d_][^:;,.!?\d]{0,40}?):\s")
"""A line's leading label ("Current focus: ...", "web: Node 18")."""

NOTE_LABELS = frozenset(
    {"note", "notes", "nb", "reminder", "important", "fyi", "tip", "todo", "warning", "heads up", "update", "psa"}
)
"""Leading labels that mark a note, not what it is about ("Reminder: the retro moved to Thursdays"): read past."""

PHRASE_END = frozenset(
    {
        "is", "are", "was", "were", "am", "be", "been", "has", "have", "had", "do", "does", "did", "don", "doesn",
        "didn", "will", "would", "can", "could", "should", "must", "may", "might", "shall", "no", "not", "never",
        "isn", "aren", "wasn", "won", "cannot", "got", "gets", "get",
    }
)  # fmt: skip
"""Words that end a line's subject phrase: forms of "be", "have", "do", modals, negations (and change words)."""

OWNER = "i"
"""The user as a subject word ("I am allergic ..."): a function word elsewhere, the owner here."""

CLAUSE_RE = re.compile(r"[;!?()]|[,.](?=\s|$)|\s[-\u2013\u2014]\s")


class Shape(NamedTuple):
    """What :func:`subject_differs` reads of one line.

    Attributes:
        words: all its subject-capable words (stems of topic words, and "i").
        first: the words of its first clause, in order.
        phrase: its subject phrase (the label's words for a labelled line), or None when no verb ends one.
        moved: a change word ends its subject phrase ("Standup moved to ...", "Standup got moved to ...").
        pairs: each two neighbouring words that are both subject-capable ("backend", "pr" of "Backend PRs").
        labelled: its subject phrase is its leading label.
        scope: the words of a fronted place or scope ("In staging, ...", "For the api, ...").
    """

    words: frozenset[str]
    first: tuple[str, ...]
    phrase: tuple[str, ...] | None
    moved: bool = False
    pairs: frozenset[tuple[str, str]] = frozenset()
    labelled: bool = False
    scope: frozenset[str] = frozenset()


Norm = Callable[[str], str]
"""A folded word -> its topic stem, or "" when it is no topic word (:func:`.contextselect._norm`)."""


@lru_cache(maxsize=8192)
def shape(text: str, norm: Norm) -> Shape:
    """A line's :class:`Shape`."""
    folded = CJK_CHANGE_RE.sub("", fold(text)) if any(is_cjk(c) for c in text) else named_versions(fold(text))
    label_at = LABEL_RE.match(folded)
    label: tuple[str, ...] | None = None
    if label_at:
        rest = folded[label_at.end() :]
        if label_at[1].strip() not in NOTE_LABELS:
            label = tuple(s for w in split_folded(label_at[1]) if (s := norm(w)))
        folded = rest
    front = _FRONT_RE.match(folded)
    scope = frozenset(s for w in split_folded(front[1]) if (s := norm(w))) if front else frozenset()
    if front and scope:
        folded = folded[front.end() :]
    clauses = [c for c in CLAUSE_RE.split(folded) if c.strip()]
    words: set[str] = set(label or ()) | scope
    first: list[str] = []
    phrase: list[str] = []
    end = -1  # where the subject phrase ends in the first clause's words
    moved = False
    pairs: set[tuple[str, str]] = set()
    for n, clause in enumerate(clauses):
        split = split_folded(clause)
        prev = ""
        for k, w in enumerate(split):
            s = _word(w, split[k + 1 : k + 2], norm)
            if prev and s:
                pairs.add((prev, s))
            prev = s
            if n == 0:
                if end < 0 and (w in PHRASE_END or w in CHANGE_WORDS):
                    end = k
                    after = split[k + 1 : k + 2]
                    moved = w in CHANGE_WORDS or (bool(after) and after[0] in CHANGE_WORDS and after[0] != "now")
                elif end < 0 and s:
                    phrase.append(s)
                if s:
                    first.append(s)
            if s:
                words.add(s)
    if label is not None:
        return Shape(frozenset(words), tuple(first), label or None, False, frozenset(pairs), bool(label), scope)
    if end < 0 or not phrase:
        return Shape(frozenset(words), tuple(first), None, False, frozenset(pairs), scope=scope)
    return Shape(frozenset(words), tuple(first), tuple(phrase), moved, frozenset(pairs), scope=scope)


_FRONT_RE = re.compile(r"^(?:in|for|on|at|within|during|across) ([^,;:.!?]{1,40}),\s")
"""A fronted place or scope, its own clause before the sentence: "In staging, we use Redis" (breaker15 B15-1)."""

_TAILS = frozenset({"re", "ve", "ll", "s", "m", "d", "t"})
"""What a contraction leaves after its apostrophe ("we're", "I've", "it's"): no subject (breaker15 B15-29)."""

_USERS = frozenset({"user", "users"})
"""The user named in the third person, as agents write ("User is allergic ..."): the owner, as "I" is."""


def _word(w: str, after: list[str], norm: Norm) -> str:
    """A folded word as a subject word: "I" and "the user" are the owner; "the user's" is a possessive, as "my" is
    ("the user's son": the son, breaker15 B15-3); a contraction's tail ("we're") or a word that ends a phrase ("don" of "don't") is nothing; else its topic stem."""
    if w == OWNER:
        return OWNER
    if w in _USERS:
        return "" if after == ["s"] else OWNER
    return "" if w in _TAILS or w in PHRASE_END else norm(w)


def _verb_first(old_text: str, new_text: str, norm: Norm) -> bool:
    """Whether both lines start with the same verb, past a leading adverb and a "from now on" ("Always use spaces for
    indentation" / "Use tabs for indentation from now on", "Run tests with pytest" / ...): a rule says no subject,
    the words after its verb are its value, not a subject of their own (breaker14 B14-6)."""
    old, new = (unled(frame_tokens(t, True)) for t in (old_text, new_text))
    return bool(old) and bool(new) and old[0] == new[0] and old[0] not in NOT_VERBS and not norm(old[0])


def _same_head(old_text: str, new_text: str, lead_old: tuple[str, ...], lead_new: tuple[str, ...], norm: Norm) -> bool:
    """Whether two different leads name one subject after all: a rule's verb comes first (:func:`_verb_first`), one
    noun named short (:func:`_one_noun`), or one role passed to another person (:func:`.samerule.role_passed`)."""
    return _verb_first(old_text, new_text, norm) or _one_noun(lead_old, lead_new) or role_passed(old_text, new_text)


def _one_noun(lead_old: tuple[str, ...], lead_new: tuple[str, ...]) -> bool:
    """Whether two one-word heads are one noun, one of them a compound ending on the other ("website" / "site",
    "homepage" / "page"): the same thing named short (breaker15 B15-30)."""
    if len(lead_old) != 1 or len(lead_new) != 1 or min(len(lead_old[0]), len(lead_new[0])) < 4:
        return False
    return lead_old[0].endswith(lead_new[0]) or lead_new[0].endswith(lead_old[0])


def _lead(words: tuple[str, ...], other: frozenset[str]) -> tuple[tuple[str, ...], str]:
    """The words before the first one ``other`` holds, and that word (((), "") when it holds none)."""
    for k, w in enumerate(words):
        if w in other:
            return words[:k], w
    return (), ""


def subject_differs(old_text: str, new_text: str, norm: Norm) -> bool:
    """Whether the two lines are about different owners or subjects (module docstring): each one's subject holds a
    word the other line never says."""
    if cjk_head_differs(old_text, new_text):
        return True
    old, new = shape(old_text, norm), shape(new_text, norm)
    (lead_old, at_old), (lead_new, at_new) = _lead(old.first, new.words), _lead(new.first, old.words)
    if lead_old and lead_new and at_old == at_new and not _same_head(old_text, new_text, lead_old, lead_new, norm):
        return True  # "Staging uses Redis" / "Prod no longer uses Redis": two heads, then the same word
    if lead_old and not lead_new and at_old == at_new and _one_environment(set(lead_old), norm):
        return True  # "The staging database is Postgres 14" / "The database is now Postgres 16" (B19-10)
    if _new_environment(old, new_text, norm):
        return True  # "The database is Postgres 14" / "The database is now Postgres 16 in staging" (B22-10)
    if old.labelled and old.phrase and new.words.isdisjoint(old.phrase) and not _kind_label(old, new, norm, new_text):
        return True  # "worker: Python 3.11" / "We moved to Python 3.13": the newer line never names the worker
    if lead_old and _other_modifier(old, new, lead_old, at_old) and not role_passed(old_text, new_text):
        return True  # not "Alice manages" / "Bob manages ... now": one role passed on (B19-9)  # "Backend PRs need review" / "Alice no longer reviews payments PRs": another kind of PR
    if old.phrase and new.phrase and set(old.phrase) - new.words and set(new.phrase) - old.words:
        return True
    return _scope_differs(old_text, new_text, old, new, norm)


KIND_LABELS = frozenset(
    {"db", "database", "datastore", "runtime", "language", "lang", "editor", "ide", "shell", "os", "ci", "cloud"}
    | {"hosting", "host", "orm", "framework", "cache", "queue", "broker", "stack", "storage", "toolchain"}
)
"""Labels that name the kind of thing a line's value is ("DB: Postgres 14", "Runtime: Node 18"), not a part of the
project ("worker:", "api:"): a newer line naming that value replaces the line without repeating the label (B15-36)."""


def _kind_label(old: Shape, new: Shape, norm: Norm, new_text: str) -> bool:
    """Whether every word of the older line's label is a :data:`KIND_LABELS` word and the newer line names a word of
    the older line's value, with no subject phrase of its own ("We upgraded to Postgres 16" after "DB: Postgres 14";
    not "The analytics service upgraded to Postgres 16") and no environment or part of its own ("... in staging",
    "... on the reporting replica": one part moved, the general line holds, breaker22 B22-10)."""
    kinds = {norm(w) or w for w in KIND_LABELS}
    if not old.phrase or not set(old.phrase) <= kinds:
        return False
    if new.phrase and not set(new.phrase) <= {OWNER, "we"}:
        return False
    if not (new.words - old.words).isdisjoint({norm(w) or w for w in ENVIRONMENTS}):
        return False
    part = _PART_RE.search(fold(new_text))
    if part and any(not _said(norm(w) or w, old.words) for w in split_folded(part.group(1))):
        return False
    return not (old.words - set(old.phrase)).isdisjoint(new.words)


_PART_RE = re.compile(r"\b(?:on|in|for)\s+(?:the|our|a|an|one|each)\s+([\w\s-]+?)\W*$")

ENVIRONMENTS = frozenset({"staging", "stage", "dev", "development", "sandbox", "qa", "uat", "preview", "test", "local"})
"""Words naming one environment of a system: a line about it says nothing of the others."""


_ENV_TAIL_RE = re.compile(r"\b(?:in|on|for) (?:the |our )?(\w+)(?: (?:environment|env|cluster|server|box|stack))?$")


def _new_environment(old: Shape, new_text: str, norm: Norm) -> bool:
    """Whether the newer line ends on an environment the older line never names ("... now Postgres 16 in staging"):
    it is about that environment only; the older, general line holds (breaker22 B22-10's rest)."""
    at = _ENV_TAIL_RE.search(_LAST_NOW_RE.sub("", fold(new_text).strip()))
    return at is not None and at[1] in ENVIRONMENTS and not _said(norm(at[1]) or at[1], old.words)


def _one_environment(only_old: set[str], norm: Norm) -> bool:
    """Whether the words that lead the older line's subject, which the newer line never says, name an environment
    (:data:`ENVIRONMENTS`): the newer, broader line is about the main system, not that environment."""
    return not only_old.isdisjoint({norm(w) or w for w in ENVIRONMENTS})


def _scope_differs(old_text: str, new_text: str, old: Shape, new: Shape, norm: Norm) -> bool:
    """The scope tests of :func:`subject_differs` (breaker15): each line's fronted scope holds a word the other line
    never says ("In staging, ..." / "In prod, ..."); the newer line denies something the older line never names
    ("Redis is no longer used in prod" after "... in staging"); the newer line narrows the older one's head ("Prod
    deploys now need two approvals" after "Deploys need one approval") or names one of its list ("Prod no longer
    uses Redis" after "Staging and prod use Redis"); or both end on one kind of place told apart by another word
    and differ elsewhere too ("... pytest in the api repo" / "... vitest in the web repo"); or the older line
    forbids ("Never", "No", "Don't") and the newer one ends on "for/in <a scope>" it never names: an exception
    ("Deploying on Fridays is now OK for hotfixes" after "Never deploy on Fridays")."""
    if old.scope - new.words and new.scope - old.words:
        return True
    if any(not _said(w, old.words) for w in _denied(new_text, norm)):
        return True
    lead_new, at_new = _lead(new.first, old.words)
    narrows = lead_new and old.first and at_new == old.first[0] and not _lead(old.first, new.words)[0]
    if narrows and not _adverb(split_folded(fold(new_text))[:1]):  # "Always run make lint": "Run make lint" again
        return True
    if _narrower_phrase(old, new):
        return True  # "Deploys to prod now need two approvals" after "Deploys need one approval" (ctx10's open case)
    if _PROHIBITION_RE.match(fold(old_text)) and any(not _said(w, old.words) for w in _scope_words(new_text, norm)):
        return True  # "Deploying on Fridays is now OK for hotfixes": an exception to "Never deploy ...", B15-37
    lead_old, at_old = _lead(old.first, new.words)
    if lead_old and not lead_new and new.first[:1] == (at_old,) and _before(old_text, at_old, norm) in ("and", "or"):
        return True  # "Staging and prod use Redis" / "Prod no longer uses Redis": one of the list (B15-15)
    if _relation_differs(old_text, new_text) or _scoped_switch(old_text, new_text, old, norm):
        return True
    if purpose_differs(old_text, new_text, norm) or times_differ(old_text, new_text) or other_duty(old_text, new_text):
        return True  # "... before deploying" / "... before merging"; "on weekends" / "during the week"; a 2nd duty
    return _tail_differs(old_text, new_text, norm) or _modifier_differs(old_text, new_text, old, new, norm)


_SWITCH_RE = re.compile(r"\bfrom\b.*\bto\b")


def _scoped_switch(old_text: str, new_text: str, old: Shape, norm: Norm) -> bool:
    """Whether the newer line switched "from X to Y" for a scope the older line never names ("We switched from Stripe
    to Adyen for refunds" after "We use Stripe for payments": breaker15 B15-17): the older value holds elsewhere."""
    if not _SWITCH_RE.search(fold(new_text)):
        return False
    return any(not _said(w, old.words) for w in _scope_words(new_text, norm))


RELATIONS = frozenset({"in", "to", "on", "at", "with", "for", "by", "from", "through", "via", "into", "as", "under"})
"""Prepositions: the word that ties a value to its sentence says which attribute the value is ("in JSON": a format;
"to Sentry": a destination)."""


def _relation_differs(old_text: str, new_text: str) -> bool:
    """Whether the lines are one sentence whose values follow two different prepositions ("Log errors in JSON" / "Log
    errors to Sentry now"): two attributes of one thing, not one changed (breaker15 B15-43)."""
    old, new = (unled(frame_tokens(t, True)) for t in (old_text, new_text))
    head, tail = common_ends(old, new)
    if not head or len(old) - head - tail < 1 or len(new) - head - tail < 1:
        return False
    return old[head] in RELATIONS and new[head] in RELATIONS and old[head] != new[head]


def _narrower_phrase(old: Shape, new: Shape) -> bool:
    """Whether the newer line's subject phrase, with words after it in its clause, starts with the older line's head
    and holds a word the older line never says, and the older line goes on from that head straight to a word the
    newer one says after its phrase (its verb): it is about a part of the older line's thing ("Deploys to prod now
    need two approvals" / "Deploys need one approval"; not "Shop DB is now ..." / "Shop backend runs ...")."""
    if not new.phrase or len(new.first) <= len(new.phrase):
        return False  # "I write tests with Vitest now": the change word ends the sentence, no subject phrase
    k = 0
    while k < len(old.first) and old.first[k] in new.phrase:
        k += 1
    if not k or k == len(old.first) or set(new.phrase) <= old.words:
        return False
    return old.first[k] in new.words and old.first[k] not in new.phrase


_PROHIBITION_RE = re.compile(r"(?:never|no|don'?t|do not)\b")
_EXCEPTION_RE = re.compile(r"\b(?:for|in) (?:the |our |a |an )?((?:[\w.-]+ ){0,2}[\w.-]+)[.!]?$")


def _scope_words(text: str, norm: Norm) -> frozenset[str]:
    """The words of the "for/in <scope>" a line ends on ("... now OK for hotfixes": hotfix)."""
    at = _EXCEPTION_RE.search(_LAST_NOW_RE.sub("", fold(text).strip()))
    return frozenset(s for w in split_folded(at[1]) if (s := norm(w))) if at else frozenset()


_MEANS = frozenset({"with", "by", "via", "through"})
"""Prepositions that name a means or a person, a rule's value ("Check with Alice before merging": breaker19 B19-13)."""
_PREPOSITIONS = frozenset({"for", "of"})
"""Prepositions that tie a thing to the noun before them ("cron job for invoices"); "on", "in", "to" more often
tie the value to a verb ("runs on two t3.large instances")."""
_ARTICLES = frozenset({"the", "a", "an", "our", "my", "its", "their"})


def _modifier_differs(old_text: str, new_text: str, old: Shape, new: Shape, norm: Norm) -> bool:
    """The lines share a head ("the cron job"), then each names another thing after one preposition before a word
    they share again ("for invoices runs" / "for emails now runs", "of the prod DB" / "of the staging DB"): two
    things of one kind (breaker15 B15-25). A word after a verb ("I use Vim at work" / "I now use Helix at work") is
    the value, not such a modifier."""
    p = 0
    while p < min(len(old.first), len(new.first)) and old.first[p] == new.first[p]:
        p += 1
    if not p:
        return False
    (lead_old, at_old), (lead_new, at_new) = _lead(old.first[p:], new.words), _lead(new.first[p:], old.words)
    if not lead_old or not lead_new or at_old != at_new:
        return False
    if _ends_on(old_text, lead_old[-1], at_old, norm) and _ends_on(new_text, lead_new[-1], at_new, norm):
        return False  # "in the GitHub CI" / "in the Buildkite CI": one compound at the end, the value
    before = {_before(old_text, lead_old[0], norm), _before(new_text, lead_new[0], norm)}
    if len(before) == 1 and before <= RELATIONS - _MEANS and _in_head(old_text, lead_old[0], norm):
        return _in_head(new_text, lead_new[0], norm)  # "Deploys to staging need ..." / "Deploys to prod now need ..."
    return len(before) == 1 and before <= _PREPOSITIONS


def _in_head(text: str, stem: str, norm: Norm) -> bool:
    """Whether the first word of stem ``stem`` follows a preposition that follows only subject words from the line's
    start ("Deploys to prod ...": a part of the subject named before any verb; not "Standup moved to 10:00")."""
    split = split_folded(fold(text))
    for k, w in enumerate(split):
        if norm(w) == stem:
            rest = [v for v in split[:k] if v not in _ARTICLES]
            return len(rest) >= 2 and rest[-1] in RELATIONS and all(norm(v) for v in rest[:-1])
    return False


def _before(text: str, stem: str, norm: Norm) -> str:
    """The word before the first one of stem ``stem`` in a line, past an article ("" when none)."""
    split = split_folded(fold(text))
    for k, w in enumerate(split):
        if norm(w) == stem:
            rest = [v for v in split[:k] if v not in _ARTICLES]
            return rest[-1] if rest else ""
    return ""


def _ends_on(text: str, last: str, at: str, norm: Norm) -> bool:
    """Whether a line ends on a word of stem ``last`` right before one of stem ``at`` ("GitHub CI", then no more)."""
    split = [w for w in split_folded(_LAST_NOW_RE.sub("", fold(text).strip())) if w not in _TAILS]
    return len(split) >= 2 and norm(split[-2]) == last and norm(split[-1]) == at


_ADVERBS = frozenset({"always", "never", "please", "usually", "generally", "still", "just", "often", "also"})


def _adverb(words: list[str]) -> bool:
    """Whether a line starts with an adverb ("Always", "Usually", "Quickly"): it qualifies no head."""
    return bool(words) and (words[0] in _ADVERBS or words[0].endswith("ly"))


def _said(word: str, words: frozenset[str]) -> bool:
    """Whether ``words`` hold ``word``, or a word one of the two begins ("log" of "logs" and "logg" of "logging")."""
    return word in words or any(
        len(w) >= 3 and len(word) >= 3 and (w.startswith(word) or word.startswith(w)) for w in words
    )


_NEGATIONS = frozenset({"longer", "not", "t", "never", "don", "doesn", "didn", "isn", "aren", "stopped"})
_DENIAL_RE = re.compile(r"\bno longer\b|\b(?:any ?more)\b|\bstopped\b")


def _denied(text: str, norm: Norm) -> frozenset[str]:
    """The subject-capable words of the clause in which a line denies something ("no longer", "... anymore"), but the
    verb right after the negation."""
    for clause in CLAUSE_RE.split(fold(text)):
        if _DENIAL_RE.search(clause):
            split = split_folded(clause)
            verbs = {k + 1 for k, w in enumerate(split) if w in _NEGATIONS}  # "no longer runs": its verb, not what
            return frozenset(  # it denies ("Invoice generation no longer runs from cron")
                s for k, w in enumerate(split) if k not in verbs and (s := _word(w, split[k + 1 : k + 2], norm))
            )
    return frozenset()


_TAIL_RE = re.compile(r"^(.*)\b(in|for|of|on) (?:the |our |my |a |an )?((?:[\w.-]+ ){1,2})([\w.-]+)$")
_LAST_NOW_RE = re.compile(r"(?:[\s,]+(?:now|anymore|any more|nowadays|these days))*[\s.!]*$")
"""A line ending on a place or scope told apart by a word before its noun: "... in the api repo"."""


def _tail_differs(old_text: str, new_text: str, norm: Norm) -> bool:
    """Both lines end on one preposition and one noun with a word before it the other line never says ("in the api
    repo" / "in the web repo"), and the rest of the lines differ too: the ending is then where each one holds,
    not the value one changed (a line that differs only there moved its value: "in the GitHub CI" / "in the
    Buildkite CI")."""
    old_at, new_at = (_TAIL_RE.match(_LAST_NOW_RE.sub("", fold(t).strip())) for t in (old_text, new_text))
    if not old_at or not new_at or old_at[2] != new_at[2] or norm(old_at[4]) != norm(new_at[4]):
        return False
    mods_old = {s for w in split_folded(old_at[3]) if (s := norm(w))}
    mods_new = {s for w in split_folded(new_at[3]) if (s := norm(w))}
    if not mods_old - mods_new or not mods_new - mods_old:
        return False
    rest_old = {s for w in split_folded(old_at[1]) if (s := norm(w))}
    rest_new = {s for w in split_folded(new_at[1]) if (s := norm(w))}
    return rest_old != rest_new


def _other_modifier(old: Shape, new: Shape, lead_old: tuple[str, ...], at: str) -> bool:
    """Whether the word the older line's lead ends on stands right after a word of that lead the newer line never
    says, and in the newer line right after another word the older line never says: two kinds of one thing
    ("backend PRs" / "payments PRs")."""
    mine = {m for m, noun in old.pairs if noun == at and m in lead_old and m not in new.words}
    return bool(mine) and any(noun == at and m not in old.words for m, noun in new.pairs)


def from_subject(old_text: str, new_text: str, was: frozenset[str], norm: Norm) -> bool:
    """Whether a newer line of another owner or subject that names the older line's value with "from" is still about
    the older line's thing: it names the older line's subject ("Farid took over on-call for web from Bob" after
    "The on-call contact for web is Bob"), or it is the user's and the older line is too ("The user switched from
    vim to Helix" after "My editor is vim"). Not "My wife switched from Vim to Emacs" after "I use Vim": her editor
    (breaker15 B15-5), nor "The web app switched from Postgres" after "The api uses Postgres"."""
    if not was:
        return False
    old, new = shape(old_text, norm), shape(new_text, norm)
    if _scoped_switch(old_text, new_text, old, norm):
        return False  # "We switched from Stripe to Adyen for refunds": Stripe still takes the payments
    subject = set(old.phrase or old.first[:1])
    if subject & (new.words | was):
        return True
    mine = OWNER in subject or re.match(r"(?:my|user'?s|the user'?s)\b", fold(old_text)) is not None
    return mine and (new.phrase or new.first[:1]) == (OWNER,)
