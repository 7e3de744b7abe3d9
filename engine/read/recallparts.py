"""A question of several parts is answered a part a line (docs/architecture.md §4, "Confidence").

"How do I build and flash the firmware?" is answered by two lines, "Build: west build -b ..." and "Flash on the
bench: west flash ...". Neither holds the share of the whole question the confidence minimum asks (each holds about
a third of its weight), so the ranking found both and answered nothing: on the tuning splits 15 of 39 questions
asking for several facts ("who supervises my PhD and when do we meet") got no hit at all (9 with this rule).

- **Parts** (:func:`question_parts`): the question cut at "and" (and "et", "und"), "&", "+", a comma, semicolon or
  colon before a space, and the CJK list marks (、，；), each part's counted terms (filler left out,
  :func:`.recallabsent.confidence_weights`). Only a question of two parts or more, each of at most
  :data:`PART_TERMS` counted terms, is cut: a task prompt's clauses are longer ("Write a regex that validates Swiss
  postal codes and add unit tests"). On the tuning splits 30 of the 32 multi-fact questions with a list mark are
  cut, 5 of the 45 task prompts with one (none of the no-answer ones) and 2 of the other questions.
- **Confidence** (:func:`part_share`): a line's confidence (and the answer's gate) is the larger of its share of
  the whole question and :data:`PART_SHARE` of its share of the part it holds most of: a line holding a whole part
  answers, one holding half a part is kept under another that answers.
- **A workspace's name** (:mod:`.recallnames`): a line holding nothing of the question but the name of the
  project it asks about has confidence 0. In a question of parts that another line answers, such a line is kept at
  the hit floor (the minimum times :data:`.recallrank.HIT_SHARE`), under every line holding more of it: "billing-
  service stack, database and job queue" is answered by "billing-service runs on PostgreSQL 16", which holds the
  name only. It never passes the answer's gate by itself, so "how do we deploy lantern" with no deploy line still
  gets no answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .recallterms import query_index_terms

PART_TERMS = 4
"""A part of more counted terms than this is a clause, not an item of a list: the question is not cut. The parts of
30 of the tuning splits' 32 multi-fact questions with a list mark hold 1 to 4 counted terms; every no-answer task
prompt there has a clause of 5 or more."""
PART_SHARE = 0.6
"""A line holding a whole part has this confidence: over :data:`.recallrank.MIN_CONFIDENCE` (0.38), so it answers;
a line holding half a part's weight (0.3) does not. On the tuning splits 0.4 and 0.6 answer the same questions; 1.0
answers two more (one of k-tune, one of t-tune: a line holding half a part) and was left out as the less strict."""
_JOINS = re.compile(r"\s+(?:and|et|und|&|\+)\s+|\s*[,;:]\s+|\s*[、，；]\s*")

Parts = tuple[frozenset[str], ...]
"""Each part's counted terms."""


def question_parts(folded: str, counts: Mapping[str, float]) -> Parts:
    """The parts of a folded question (module docstring), or none when it is not cut.

    Args:
        folded: the folded query (:func:`memrepo.engine.format.terms.fold`).
        counts: the query's counted terms and weights (a term not among them counts in no part).

    Returns:
        Parts: two or more parts, each its counted terms (at most :data:`PART_TERMS`); empty
        when the question has fewer than two parts holding a counted term, or a part of more.
    """
    pieces = _JOINS.split(folded)
    if len(pieces) < 2:
        return ()
    out = []
    for piece in pieces:
        terms = frozenset(t for t in query_index_terms(piece)[1] if counts.get(t))
        if len(terms) > PART_TERMS:
            return ()
        if terms:
            out.append(terms)
    return tuple(out) if len(out) > 1 else ()


def part_share(split: Parts, counts: Mapping[str, float], held: Mapping[str, float]) -> float:
    """:data:`PART_SHARE` times the largest share of a part's weight a line holds (0.0 for no parts).

    Args:
        split: :func:`question_parts` of the question (with ``counts``' weights).
        counts: the weights the shares are of (the confidence's or the gate's).
        held: the query terms the line holds, each with its share (1.0 in its text, less in its context).
    """
    best = 0.0
    for terms in split:
        mass = sum(counts.get(t, 0.0) for t in terms)
        if mass:
            best = max(best, sum(counts.get(t, 0.0) * held.get(t, 0.0) for t in terms) / mass)
    return PART_SHARE * best
