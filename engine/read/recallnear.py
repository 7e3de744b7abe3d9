"""Recall's answer, or with ``related`` its nearest entries marked as not an answer (docs/architecture.md §4).

Recall's confidence gate is all or nothing per query: lexical recall leaves
out every hit under its minimum (:mod:`.recallrank`), and hybrid recall
answers a query no word matched confidently only with a neighbour at
``[semantic] answer_similarity`` or above (:mod:`.semantic_fuse`). A
question with no answer then gets nothing, which is right for context no one
asked for (the prompt hook), and a question whose answer is worded otherwise
gets nothing too. An explicit recall (the MCP tool, ``memrepo recall``, the
app's search pane) asks with ``related``: when the gate says "no confident
answer", it gets up to :data:`RELATED_MAX` nearest entries instead, each with
``answer`` False, so nothing downstream takes them for an answer:

- hybrid: the fused list the gate held back (the cosine neighbours over
  ``[semantic] min_similarity`` and the lexical hits under the minimum);
- lexical: the ranking with no confidence minimum, keeping only hits that
  hold at least one query term (confidence above 0).

Without ``related`` (the default) recall is exactly what it was.

The prompt hook asks more of each hit (:func:`each_answers`). Hybrid recall's gate lets a query through on its
best hit, and then every hit of the fused list came along, also lexical hits with any share of the query (the
pool has no minimum): "item 4041" got its line and two lines holding only "item" (breaker4 F6). In the hook each
hit must pass one of recall's per-hit rules alone: a lexical confidence of at least :data:`~.recallrank.HIT_SHARE`
of the minimum the query's answer needed (the share lexical recall lists a hit at), or a place in the semantic
list (a cosine at ``min_similarity``), a neighbour of a query naming an identifier only if it holds one; the
hook's places are filled from the fused list past its limit. Measured on the tuning splits through the recall
door (docs/architecture.md §4): hit@3 and no-answer unchanged on all five. Also asking a neighbour for the hook's semantic answer floor
cut the hits that are no gold entry (2nd and 3rd place) from 1.53-1.69 to 1.00-1.33 per answered prompt but cost
hit@3 up to 0.054 (repo D: paraphrase answers sit at 0.81-0.85) and, on a make_corpus repo, put a worse line in
place of the only answer; the whole minimum per hit halved them again at twice the cost: neither taken.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .recallorder import holds_any, id_terms
from .recallrank import HIT_SHARE, Found

if TYPE_CHECKING:
    from .recall import RecallIndex
    from .semantic_fuse import RecallInfo, SemanticRecall

RELATED_MAX = 3
"""The most nearest entries a recall with ``related`` gives when nothing answers confidently: enough to show the
likeliest one and two alternatives, few enough that an agent does not read a list as an answer."""

NEAREST_LINE = "No entry answers this confidently. The nearest entries, which may not answer it:"
"""The line every front end shows above the nearest entries (hits with ``answer`` False): ``memrepo recall`` on
stderr, the first line of MCP's ``memory_recall`` result (docs/architecture.md §4)."""


def nearest_lexical(
    index: RecallIndex,
    query: str,
    *,
    workspace_file: str | None,
    workspace_id: str | None,
    scoped: bool,
    limit: int = RELATED_MAX,
) -> list[tuple[int, tuple]]:
    """The lexical nearest entries: the ranking with no confidence minimum, hits holding a query term only.

    Args:
        index: the recall index.
        query: the query.
        workspace_file, workspace_id, scoped: the scope (as for :meth:`.recall.RecallIndex.search`).
        limit: the most hits the caller asked for (``-n``); at most :data:`RELATED_MAX` are given.

    Returns:
        list: at most ``min(limit, RELATED_MAX)`` item ids with sort keys, best first.
    """
    found = index.search(
        query,
        workspace_file=workspace_file,
        workspace_id=workspace_id,
        scoped=scoped,
        limit=RELATED_MAX,
        min_confidence=0.0,
    )
    return [(iid, key) for iid, key in found if float(key[1]) > 0.0][: min(limit, RELATED_MAX)]


def search(
    index: RecallIndex,
    semantic: SemanticRecall | None,
    query: str,
    scope: tuple[str | None, str | None, bool],
    limit: int,
    min_confidence: float | None = None,
    related: bool = False,
) -> tuple[Found, RecallInfo | None, bool]:
    """Recall's ranked item ids: lexical, or fused with semantic neighbours (the module's rule).

    Args:
        index: the recall index.
        semantic: hybrid recall's semantic half, or None for lexical recall.
        query: the query.
        scope: (workspace id, workspace file, scoped), as the store resolved them.
        limit: the most hits (1..200).
        min_confidence: as for :meth:`.recall.RecallIndex.search` (None: the documented minimum).
        related: with no confident answer, give the nearest entries (at most :data:`RELATED_MAX`) instead of none.

    Returns:
        tuple: (item ids with sort keys, best first, with the confidence an answer needs (``answer_floor``:
        the ranking's for lexical hits, so ``--all`` marks the hits under the minimum; none for the nearest
        entries; any for a hybrid answer); how hybrid recall answered, None for lexical; whether they answer:
        False for the nearest entries given with ``related``).
    """
    ws_id, ws_file, scoped = scope
    depth = limit if semantic is None else limit + semantic.depth
    lexical = index.search(
        query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=depth, min_confidence=min_confidence
    )
    floor = lexical.answer_floor
    found: list[tuple[int, tuple]] = lexical
    gate, lowered = answers_only(lexical)
    info = None
    answered = True
    if semantic is not None:  # hybrid recall: one fusion step (docs/architecture.md §4)
        pool = index.search(  # the hits under the confidence minimum too
            query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=depth, min_confidence=0.0
        )
        found, info = semantic.fuse(
            index,
            query,
            gate,  # what answers decides whether the fused list does (a lower minimum only lists more)
            workspace_file=ws_file,
            workspace_id=ws_id,
            scoped=scoped,
            limit=limit,
            pool=pool,
            related=related or lowered,
        )
        if info.mode != "hybrid":
            found = lexical[:limit]
        answered = info.answered
    if related and not found:
        found = nearest_lexical(index, query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=limit)
        answered = False
    if not answered and not lowered:
        found = found[: min(limit, RELATED_MAX)]
    return answering(found, floor, info, answered), info, answered


def answers_only(lexical: Found) -> tuple[list[tuple[int, tuple]], bool]:
    """The lexical hits that answer, and whether the list holds others (a caller's lower minimum, ``--all``).

    Hybrid recall fuses with the answers deciding whether the fused list answers, as it would at the minimum;
    the hits under it are still fused (its ``pool``) and listed, marked by :func:`answering`.
    """
    answers = lexical.answers()
    gate = [(iid, key) for iid, key in lexical if iid in answers]
    return gate, len(gate) < len(lexical)


def answering(found: list[tuple[int, tuple]], floor: float, info: RecallInfo | None, answered: bool) -> Found:
    """``found`` with the confidence an answer needs, so each front end marks every hit alike (docs/recall.md).

    Args:
        found: the hits, best first.
        floor: the lexical ranking's ``answer_floor`` (:class:`.recallrank.Ranked`).
        info: how hybrid recall answered (None: lexical).
        answered: False for the nearest entries (none answers).

    Returns:
        Found: ``found`` whose ``answer_floor`` is ``floor`` for a lexical list, none for a hybrid answer (the
        fusion decides per query: every hit answers) and ``math.inf`` when nothing answers.
    """
    out = Found(found)
    hybrid = info is not None and info.mode == "hybrid"
    out.answer_floor = math.inf if not answered else -math.inf if hybrid else floor
    return out


def each_answers(
    found: list[tuple[int, tuple]],
    minimum: float,
    info: RecallInfo | None,
    holds_id: Callable[[int], bool] | None = None,
) -> list[tuple[int, tuple]]:
    """The hits that answer on their own, in order: the prompt hook's rule (the module docstring).

    Args:
        found: the hits with their sort keys (confidence second), best first.
        minimum: the confidence the query's answer needed (:attr:`.recallrank.Ranked.minimum`); a hit needs
            :data:`~.recallrank.HIT_SHARE` of it.
        info: how hybrid recall answered (None: lexical); a hybrid answer's ``near`` ids are the semantic list.
        holds_id: for a query with identifiers (:func:`.recallorder.id_terms`), whether a hit holds one;
            a hit that does not answers on its confidence only, never on its cosine: the model reads
            numbers by their look ("item 4041" is at 0.88 from "project-0041 workspace", breaker4 F2).

    Returns:
        list: the hits whose confidence reaches the share of ``minimum`` or that are in the semantic list.
    """
    near = info.near if info is not None and info.mode == "hybrid" else frozenset()
    floor = minimum * HIT_SHARE
    return [
        (iid, key)
        for iid, key in found
        if float(key[1]) >= floor or (iid in near and (holds_id is None or holds_id(iid)))
    ]


def hook_hits(
    found: list[tuple[int, tuple]], lexical: Found, info: RecallInfo | None, query: str, index: RecallIndex, limit: int
) -> list[tuple[int, tuple]]:
    """The prompt hook's hits (``coldrecall.recall`` with ``quick``): each passing alone (:func:`each_answers`, with
    the confidence ``lexical``'s answer needed, :attr:`~.recallrank.Found.minimum`) when recall answered, cut to
    ``limit`` (the hook fuses to its depth, so the places are filled with hits that pass), and the whole-prompt line
    of the lexical ranking ``lexical`` kept (:func:`whole_kept`) when hybrid recall answered."""
    if info is None or info.answered:
        found = each_answers(found, lexical.minimum, info, holds_any(id_terms(query), index))
    if info is not None and info.mode == "hybrid" and info.answered:
        return whole_kept(found, lexical, limit)
    return found[:limit]


def whole_kept(
    found: list[tuple[int, tuple]], lexical: Sequence[tuple[int, tuple]], limit: int
) -> list[tuple[int, tuple]]:
    """The hook's ``limit`` places of the fused list ``found``, the lexical first hit kept when it alone holds the prompt.

    A line holding every counted word of the prompt (confidence 1: each content term, or the prompt as an exact
    phrase) when no other line does is the strongest evidence recall has; a cosine neighbour is weaker. Fused by
    rank with the semantic list, such a line can fall past the hook's three places when the model reads the
    prompt's numbers or script by their look ("서버 3호기" put "서버 5호기" and "Redis 7 클러스터(3노드)" above
    "서버 3호기는 ...", repo K). Then it takes the last place; the order of the others stands. When the lexical
    second hit holds the whole prompt too ("Team prefers a" on a make_corpus repo), the words single out no line
    and the fused order chooses.

    Args:
        found: the fused hits that pass (:func:`each_answers`), best first.
        lexical: the lexical ranking, best first (sort keys with the confidence second).
        limit: the hook's places.

    Returns:
        list: at most ``limit`` hits.
    """
    top = found[:limit]
    holds = [float(key[1]) >= 1.0 for _iid, key in lexical[:2]]
    if limit < 1 or holds[:1] != [True] or holds[1:] == [True]:
        return top  # no line holds the whole prompt, or several do: the fused order chooses among them
    first = lexical[0]
    if any(iid == first[0] for iid, _key in top):
        return top
    return [*top[: limit - 1], first]
