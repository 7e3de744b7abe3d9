"""How close a correction is to the line it corrects: whether it says nothing but the new value (docs/architecture.md §7).

A correction said without "remember" is kept ``by: user`` at once only when it says the new value and nothing the
old line did not (:func:`tight`); one found by meaning must say even less (:func:`_only_value`); one that says
nothing new is no correction (:func:`_restated`). Split out of :mod:`.corrections` (corr16), unchanged. Pure text.
"""

from __future__ import annotations

import re

from .claims import ExistingEntry
from .sameframe import common_ends
from .staleswap import name_values
from .staleswap import words as words_of
from .subjectwords import VERSION_WORDS


def _set(words: str) -> frozenset[str]:
    """A set of words written as one space-separated string."""
    return frozenset(words.split())


_OWN_WORDS = _set(
    "a an the is are was were be been it its it's this that these those we we're our us i i'm my me you "
    "your they their on in at to of for from by with and but or so as now not no longer anymore instead "
    "than then again moved switched changed migrated upgraded updated bumped downgraded renamed replaced "
    "went use uses used using run runs ran running last week month year yesterday today recently ago "
    "earlier since days nowadays off"
)
"""Words a correction may add to the line it corrects besides the new value: "is", "now", "not", "we moved",
"last week" (:func:`tight`); so may the words of a short "we are on <name> <version> now" in English, French, German
and Spanish (:data:`.subjectwords.VERSION_WORDS`: "wir nutzen jetzt", "on est passé à")."""


_SLOT_MAX = 2
"""Most words the new value may have in :func:`_slot` (after :data:`_OWN_WORDS`): "main", "the evening"."""


def _slot(fact: str, old: str) -> frozenset[str]:
    """The words of ``fact`` that stand where ``old``'s value stood: both said in the same words but for one run in
    the middle (at most :data:`_SLOT_MAX` words besides :data:`_OWN_WORDS`, replacing a run of at most as many of
    the old line's), so a lowercase value ("zsh", "main", "develop") is read as one (breaker29 B29-7: "Remember that
    my shell is fish." then "No wait, my shell is zsh." kept fish). Empty when the two differ anywhere else: a word
    added before or after the value scopes it ("my shell is zsh on the laptop" is no value swap)."""
    new_words = [w.casefold().replace("’", "'") for w in re.findall(r"[\w'’.-]+", fact)]
    old_words = [w.casefold().replace("’", "'") for w in re.findall(r"[\w'’.-]+", old)]
    head, tail = common_ends(new_words, old_words)  # the frame reading's own ends (.sameframe)
    run = [w for w in new_words[head : len(new_words) - tail] if w not in _OWN_WORDS]
    gone = [w for w in old_words[head : len(old_words) - tail] if w not in _OWN_WORDS]
    if not head or not run or not gone or len(run) > _SLOT_MAX or len(gone) > _SLOT_MAX:
        return frozenset()
    return frozenset(run)


def tight(fact: str, target: ExistingEntry) -> bool:
    """Whether a correction says only the new value of its line: every lowercase word of it is in the corrected
    line, a value (a name, a number, an identifier) or one of :data:`_OWN_WORDS`, but one new word when it names
    the old value ("always answer in imperial units, not metric"). "the deploy window is Thursday,
    not Tuesday" is; "the shop DB is on Postgres 17 now on my laptop", "per the runbook, ...", "in staging ...",
    "... once the migration lands" are not: a word the old line did not have scopes or sources the new value.

    Args:
        fact: the user's correction.
        target: the line it corrects (:func:`corrects`).

    Returns:
        bool: True when nothing but the value changed.
    """
    old = {w.casefold() for w in re.findall(r"[\w'’.-]+", target.text)}
    named = re.search(r"\b(?:not|instead\s+of|from|no\s+longer)\s+([\w'’.-]+)", fact, re.I)
    spare = 1 if named and named.group(1).casefold() in old else 0  # "imperial units, not metric": one new word
    slot = _slot(fact, target.text)  # "my shell is zsh" of "my shell is fish": "zsh" is the value, lowercase
    for word in re.findall(r"[\w'’.-]+", fact):
        plain = word.strip(".-'’")
        if not plain or not plain.isalpha() or not plain.islower():
            continue  # a value: "Thursday", "Postgres", "17", "pg-stage-20", "Next.js"
        folded = plain.casefold().replace("’", "'")
        if folded in slot:
            continue
        if folded not in old and folded not in _OWN_WORDS and folded not in VERSION_WORDS:
            if not spare:
                return False
            spare -= 1
    return True


def _only_value(fact: str, target: ExistingEntry) -> bool:
    """Whether ``fact`` says nothing but a new value of ``target`` (a line found by meaning, :func:`_meant`): every
    word of it, whatever its case ("Das Team-Meeting des Blogs": "Blogs" is no value) and every CJK character, is
    the line's, one of :data:`_OWN_WORDS` or :data:`.subjectwords.VERSION_WORDS`, or a value of a kind the line holds
    (:func:`.staleswap.name_values`), no more of each kind than the line has. Stricter than :func:`tight`, which reads
    a capitalised or CJK word as a value: a line found by meaning has no shared words vouching for its subject."""
    old = {t.replace("’", "'") for t in words_of(target.text)}
    kinds = list(name_values(target.text).values())
    fresh = {v: k for v, k in name_values(fact).items() if k in kinds}  # "am Freitag um 10:15" of "um 9:30": more
    if any(list(fresh.values()).count(k) > kinds.count(k) for k in set(kinds)):
        return False  # "on Thursday and Friday mornings" of "on Tuesday mornings": a second value
    spare = {*_OWN_WORDS, *VERSION_WORDS}
    for word in words_of(fact):
        folded = word.replace("’", "'")
        if folded in old or folded in fresh or folded in spare or not any(ch.isalpha() for ch in folded):
            continue
        return False
    return True


def _restated(fact: str, target: ExistingEntry) -> bool:
    """Whether ``fact`` says nothing its line does not ("Actually, the payment provider is Stripe" of "The shop's
    payment provider is Stripe"): no correction (corr10)."""
    old = {w.casefold().removesuffix("'s").removesuffix("’s") for w in re.findall(r"[\w'’.-]+", target.text)}
    new = {w.casefold().removesuffix("'s").removesuffix("’s") for w in re.findall(r"[\w'’.-]+", fact)}
    return not (new - old - _OWN_WORDS)


__all__ = ["tight"]
