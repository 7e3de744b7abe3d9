"""Lines a newer line of the same file says again in other words: ranked last in the context block (docs/architecture.md
§4, step 2).

The replacement rule (:func:`.contextselect.replaced`) hides a line only when a newer one says the same again in most
of the same words (:data:`.contextselect.MIN_RESTATED`). A restatement in other words ("Likes answers that lead with
the command to run", then "Put the command to run first in an answer") stays shown beside the newer line, and spends
the budget twice on one fact. Such a line is not hidden (the words may say a little more), but it claims the budget
after every other line of its file: when the file fits, both are shown; when it does not, the budget goes to facts
the block does not hold yet.

Two lines are such a pair when the newer shares at least :data:`MIN_SHARED` topic words with the older, at least
:data:`MIN_SHARE` of the two lines' topic words together (a file's common words left out), the same numbers, and can
state the same fact (:func:`.contextselect.same_fact`, no id telling them apart: :mod:`.sameitem`; not two values
side by side: :func:`.samevalue.parallel`). An agent's line never demotes the user's, and the user's rules,
decisions and corrections (``kind:``) are never demoted.
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.engine.read.contextselect import (
    COMMON_SHARE,
    RULE_KINDS,
    TOPIC_WINDOW,
    Candidate,
    _newer,
    same_fact,
    topic_terms,
)
from memrepo.engine.read.sameitem import items_apart
from memrepo.engine.read.samevalue import parallel

MIN_SHARED = 3
"""Topic words a newer line must share with an older one to say it again in other words."""

MIN_SHARE = 0.4
"""Share of the two lines' topic words (Jaccard) the shared words must reach."""


def said_again(cands: Sequence[Candidate], gone: dict[int, int]) -> set[int]:
    """The lines of a file a newer line not replaced says again in other words (module docstring).

    Args:
        cands: the file's entries (:func:`.contextselect.candidates`); only its last
            :data:`.contextselect.TOPIC_WINDOW` are compared.
        gone: the lines the replacement rule hides (:func:`.contextselect.replaced`): neither side of a pair.

    Returns:
        set[int]: the line numbers of the older lines, to rank last.
    """
    rows = [c for c in cands[-TOPIC_WINDOW:] if c.number not in gone]
    if len(rows) < 2:
        return set()
    parts = [topic_terms(c.entry.text) for c in rows]
    seen: dict[str, int] = {}
    for part in parts:
        for word in part.words:
            seen[word] = seen.get(word, 0) + 1
    common = {w for w, n in seen.items() if n > 3 and n > COMMON_SHARE * len(rows)}
    topics = [p.words - common for p in parts]
    postings: dict[str, list[int]] = {}
    for i, topic in enumerate(topics):
        for word in topic:
            postings.setdefault(word, []).append(i)
    out: set[int] = set()
    for i, new in enumerate(rows):
        counts: dict[int, int] = {}
        for word in topics[i]:
            for j in postings[word]:
                if j != i:
                    counts[j] = counts.get(j, 0) + 1
        for j, shared in counts.items():
            old = rows[j]
            if shared < MIN_SHARED or shared < MIN_SHARE * len(topics[i] | topics[j]) or old.number in out:
                continue
            if parts[i].numbers != parts[j].numbers or not _newer(new, old) or not _may_demote(new, old):
                continue
            old_text, new_text = old.entry.text, new.entry.text
            if parallel(old_text, new_text) or not same_fact(old_text, new_text):
                continue
            if items_apart(old_text, new_text, says_changed=False):
                continue
            out.add(old.number)
    return out


def _may_demote(new: Candidate, old: Candidate) -> bool:
    """Whether ``new`` may push ``old`` last: not an agent's line over the user's, nor over a rule, decision or
    correction, and both of one ``workspace:`` key."""
    if old.entry.by == "user" and new.entry.by != "user":
        return False
    if old.entry.meta.get("kind", "").strip().casefold() in RULE_KINDS:
        return False
    return new.entry.meta.get("workspace", "").strip() == old.entry.meta.get("workspace", "").strip()
