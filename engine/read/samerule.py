"""Whether two rules or two roles are one (:mod:`.samefact`'s tests of a rule's purpose and a role's holder).

- :func:`purpose_differs`: two rules that start with one word but name two purposes, conditions or objects are
  two rules ("Use ruff for linting" / "Use ruff for formatting", "Ask before deleting files" / "Ask before running
  migrations", "Always write tests first" / "Write docs first": breaker19 B19-1, B19-12).
- :func:`role_passed`: a role one person holds at a time passes to another person ("Bob now owns billing" after
  "Alice owns billing"), never a thing many hold ("a Tesla", "two engineers": breaker19 B19-2).
- :func:`other_duty`: one person's role over another object is a second duty, not the first one changed ("Alice
  manages the hiring now" after "Alice manages the budget": breaker22 B22-7).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memrepo.engine.format.terms import fold

from .changeframe import common_ends, frame_tokens, unled

Norm = Callable[[str], str]
"""A folded word -> its topic stem, or "" when it is no topic word."""

PHRASE_END = frozenset(
    {
        "is", "are", "was", "were", "am", "be", "been", "has", "have", "had", "do", "does", "did", "don", "doesn",
        "didn", "will", "would", "can", "could", "should", "must", "may", "might", "shall", "no", "not", "never",
        "isn", "aren", "wasn", "won", "cannot", "got", "gets", "get",
    }
)  # fmt: skip
"""Forms of "be", "have", "do", modals and negations (as :data:`.samefact.PHRASE_END`): a head holding one is
no rule's verb and purpose ("The window is before 5pm")."""

NOT_VERBS = frozenset({"the", "a", "an", "our", "my", "its", "their", "his", "her", "your", "this", "that", "these"})
"""Words a rule never starts with."""

_LAST_NOW_RE = re.compile(r"(?:[\s,]+(?:now|anymore|any more|nowadays|these days))*[\s.!]*$")


_PRONOUNS = frozenset({"i", "we", "you", "he", "she", "they", "it"})
_PURPOSES = frozenset({"for", "before", "after", "when", "while", "until", "unless", "whenever", "once"})
"""Words that name what a rule is for or when it applies ("Use ruff for linting", "Ask before deleting files")."""


def purpose_differs(old_text: str, new_text: str, norm: Norm) -> bool:
    """Whether two rules that start with one word name two purposes or objects, so they are two rules (breaker19
    B19-1, B19-12): the words they differ in follow a word of purpose ("for": "Use ruff for linting" / "... for
    formatting") or a condition on an action ("before deleting files" / "before running migrations"), in a head
    with no form of "be" or "have" (a rule, not "The window is before 5pm"); or they follow the first word itself
    and the words shared after them name no topic ("Always write tests first" / "Write docs first"): the object is
    then what the rule is about. The value a rule swaps follows the verb with its purpose said again after it
    ("Use spaces for indentation" / "Use tabs for indentation"), or another preposition ("Reply in French", "Check
    with Alice before merging")."""
    old, new = (unled(frame_tokens(t, True)) for t in (old_text, new_text))
    head, tail = common_ends(old, new)
    if not head or len(old) - head - tail < 1 or len(new) - head - tail < 1 or old[0] in _PRONOUNS | NOT_VERBS:
        return False
    if any(w in PHRASE_END for w in old[:head]):
        return False
    slot_old = {norm(w) for w in old[head : len(old) - tail]} - {""}
    if slot_old & {norm(w) for w in new[head : len(new) - tail]}:
        return False  # "before pushing" / "before you push changes": the same condition said again
    if old[head - 1] == "for" or (
        old[head - 1] in _PURPOSES and (old[head].endswith("ing") or new[head].endswith("ing"))
    ):
        return True
    return head == 1 and tail >= 1 and not any(norm(w) and w not in _WHEN_WORDS for w in old[len(old) - tail :])


_WHEN_WORDS = frozenset({"first", "last", "again", "later", "early", "often", "daily", "weekly", "always", "too"})
"""Words after a rule's object that say when or how often, not what for ("Write tests first")."""


_ROLE_RE = re.compile(r"^([A-Z][\w'’-]*)\s+(?:now\s+)?(owns|leads|manages|heads|chairs)\s+(.+?)[\s.!]*$")
"""A role one person holds at a time, named by its verb ("Alice owns billing", "Priya leads the mobile team")."""


def role_passed(old_text: str, new_text: str) -> bool:
    """Whether the newer line gives the older one's role, the same verb and the same object, to another person ("Bob
    now owns billing" after "Alice owns billing"): one role, its holder changed, not two people side by side
    (ctx10's noted cost). "Alice is on the payments team" names no such role: a team holds many."""
    old_at, new_at = _ROLE_RE.match(old_text.strip()), _ROLE_RE.match(_LAST_NOW_RE.sub("", new_text.strip()))
    if not old_at or not new_at or old_at[1] == new_at[1] or not _single_holder(old_at[3]):
        return False
    return old_at[2] == new_at[2] and fold(old_at[3]) == fold(new_at[3])


_MANY_HOLD_RE = re.compile(
    r"(?:a|an|one|two|three|four|five|six|several|some|many|few|multiple|various|\d[\d,.]*%?|well|badly|poorly|fine)\b"
    r"|\w+ly\b|.*%"
)
"""An object many people hold at once: an indefinite or a count ("a Tesla", "two engineers", "10% of the company"), or
no object but an adverb ("manages well under pressure"): breaker19 B19-2."""


def other_duty(old_text: str, new_text: str) -> bool:
    """Whether the newer line gives the older one's holder a role over something else ("Alice manages the hiring now"
    after "Alice manages the budget", "Alice now leads the web team" after "... the mobile team"): a person holds
    several such roles at once, so both stay (breaker22 B22-7). Not when the newer object holds every word of the
    older one ("Alice now owns billing and invoicing": the same duty, widened)."""
    old_at, new_at = _ROLE_RE.match(old_text.strip()), _ROLE_RE.match(_LAST_NOW_RE.sub("", new_text.strip()))
    if not old_at or not new_at or fold(old_at[1]) != fold(new_at[1]):
        return False
    old_obj, new_obj = (set(frame_tokens(m[3], False)) - NOT_VERBS for m in (old_at, new_at))
    return bool(old_obj - new_obj)


def _single_holder(obj: str) -> bool:
    """Whether a role verb's object names a role one person holds at a time ("billing", "the mobile team", "our AWS
    account"), not something many hold (:data:`_MANY_HOLD_RE`)."""
    return _MANY_HOLD_RE.match(fold(obj)) is None
