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

A long prompt is judged by what a line of it holds, not by its share (:func:`long_prompt`, the hook only). Confidence is
the share of the query's term weight a line holds, and one line holds a few terms: "Can you fix the flaky test in
tests/test_checkout.py? It fails on CI when the retry fires twice, I think it's the double charge bug we tracked."
finds its line at 0.333, under the minimum of 0.38 that questions of two to five content terms were tuned on
(breaker6 B6-12: task-style prompts got nothing, 0 of 7). A prompt of more than :data:`LONG_TERMS` counted terms
needs what an answer to a question of :data:`LONG_TERMS` terms needs: the minimum times :data:`LONG_TERMS` of its
mean term weights (``minimum x LONG_TERMS / n``), and each hit the hook adds must reach that alone (no
:data:`~.recallrank.HIT_SHARE` of it). A short question is judged as before.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .recallorder import holds_any, id_terms
from .recallrank import HIT_SHARE, Found, confidence_weights, entry_index_terms, query_index_terms
from .recallterms import LONG_TERMS

if TYPE_CHECKING:
    from .recall import RecallIndex
    from .semantic_fuse import RecallInfo, SemanticRecall

RELATED_MAX = 3
"""The most nearest entries a recall with ``related`` gives when nothing answers confidently: enough to show the
likeliest one and two alternatives, few enough that an agent does not read a list as an answer."""

NEAREST_LINE = "No entry answers this confidently. The nearest entries, which may not answer it:"
"""The line every front end shows above the nearest entries (hits with ``answer`` False): ``memrepo recall`` on
stderr, the first line of MCP's ``memory_recall`` result (docs/architecture.md §4)."""


def long_minimum(query: str, minimum: float) -> float | None:
    """The confidence a long prompt's line needs: ``minimum x LONG_TERMS / n`` (module docstring), None for a short one.

    Args:
        query: the prompt.
        minimum: the confidence a question needs (:data:`~.recallrank.MIN_CONFIDENCE`, before the per-script scaling).

    Returns:
        float | None: the lower minimum when the prompt counts more than :data:`LONG_TERMS` terms (its index terms
        but filler words, as the confidence counts them), else None.
    """
    _folded, terms = query_index_terms(query)
    counted = len(confidence_weights(dict.fromkeys(terms, 1.0)))
    return minimum * LONG_TERMS / counted if counted > LONG_TERMS else None


def long_prompt(
    index: RecallIndex, query: str, lexical: Found, scope: tuple[str | None, str | None, bool], depth: int
) -> Found:
    """The prompt hook's lexical hits for a long prompt nothing answered at the minimum (module docstring).

    Args:
        index: the recall index.
        query: the prompt.
        lexical: the search at the documented minimum (returned as it is unless empty and the prompt is long).
        scope: (workspace id, workspace file, scoped).
        depth: the most hits.

    Returns:
        Found: ``lexical``, or the hits reaching the long prompt's minimum (scaled per script, as the ranking does),
        with that minimum as ``minimum`` and ``answer_floor``; ``lexical`` when none does (a hybrid hook then lets
        a hit through at :data:`~.recallrank.HIT_SHARE` of the question's minimum, as before).
    """
    from .recallrank import MIN_CONFIDENCE

    lower = long_minimum(query, MIN_CONFIDENCE) if not lexical else None
    if lower is None:
        return lexical
    ws_id, ws_file, scoped = scope
    got = index.search(
        query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=depth, min_confidence=lower
    )
    out = Found((iid, key) for iid, key in got if float(key[1]) >= got.minimum)
    if not out:
        return lexical  # nothing holds enough: the question's minimum stands for every later rule
    out.answer_floor = out.minimum = got.minimum
    return out


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
    if info is None or info.mode != "hybrid":  # hybrid fusion brings them itself (.semantic_fuse)
        found = newer_with(index, found, limit)  # an outdated line never alone (breaker8 B8-1)
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
    exact: frozenset[int] = frozenset(),
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
        exact: hits holding an identifier of the prompt whole (:mod:`.recallprompt`): each answers.

    Returns:
        list: the hits whose confidence reaches the share of ``minimum`` or that are in the semantic list.
    """
    near = info.near if info is not None and info.mode == "hybrid" else frozenset()
    floor = minimum * HIT_SHARE
    return [
        (iid, key)
        for iid, key in found
        if float(key[1]) >= floor or iid in exact or (iid in near and (holds_id is None or holds_id(iid)))
    ]


def hook_hits(
    found: list[tuple[int, tuple]], lexical: Found, info: RecallInfo | None, query: str, index: RecallIndex, limit: int
) -> list[tuple[int, tuple]]:
    """The prompt hook's hits (``coldrecall.recall`` with ``quick``): each passing alone (:func:`each_answers`, with
    the confidence ``lexical``'s answer needed, :attr:`~.recallrank.Found.minimum`) when recall answered, cut to
    ``limit`` (the hook fuses to its depth, so the places are filled with hits that pass), and the whole-prompt line
    of the lexical ranking ``lexical`` kept (:func:`whole_kept`) when hybrid recall answered."""
    if info is None or info.answered:
        holds_id = holds_any(id_terms(query), index)
        found = each_answers(found, lexical.minimum, info, holds_id, lexical.exact)
        found = id_parts_only(found, query, index, holds_id)
    if info is not None and info.mode == "hybrid" and info.answered:
        top = whole_kept(found, lexical, limit)
        found = top + [hit for hit in found if hit not in top]  # the rest: a replaced line's place goes to the next
    return newer_with(index, found, limit, yields=True, terms=frozenset(query_index_terms(query)[1]))


def newer_with(
    index: RecallIndex,
    found: list[tuple[int, tuple]],
    limit: int,
    yields: bool = False,
    terms: frozenset[str] = frozenset(),
) -> list[tuple[int, tuple]]:
    """The hook's ``limit`` places, each shown line a newer line of its file replaces with that line just above it
    (:func:`.recallnewer.with_replacements`, the context block's rule): never an outdated line alone (breaker7 B7-19).

    Each hit the hook adds passes alone, and a short outdated line ("Staging DB host is pg-stage-3") passed where
    its longer correction ("Scratch that: the staging DB host is pg-stage-9 now") did not: the hook handed the
    agent the old value as memory. The replacement stands in the old line's place with its sort key (it answers as
    the old line did); the old line follows it when a place is left, else it is the one cut.

    Args:
        index: the open recall index.
        found: the hook's hits, best first.
        limit: the hook's places.
        yields: a replaced line shown with its replacement gives its place to the next hit of ``found`` (the prompt
            hook: its three places held "Tax adviser is Frau Krüger" under "Changed tax adviser to Herr Bäumer" and
            left out the answer, fourth); it is shown, under its replacement, only when no other hit is left,
            unless its replacement holds none of the query's ``terms``: the question is then about another fact of
            the old line ("OR-Tools sidecar" is only in "route-planner is a Go 1.22 service ... Google OR-Tools
            through a C++ sidecar", which "route-planner moved to Go 1.23 in May" replaces for its Go version), and
            it keeps its place under its replacement.
        terms: the query's index terms (:func:`.recallrank.query_index_terms`), for ``yields``.

    Returns:
        list: at most ``limit`` hits.
    """
    if not found:
        return found  # nothing shown: the rule's modules are not even loaded
    from .recallnewer import with_replacements

    pairs: dict[int, int] = {}
    out, brought = with_replacements(
        index, found if yields else found[:limit], len(found) if yields else limit, None, 1.0, pairs
    )
    keys = dict(found)
    out = [(iid, keys[brought[iid]] if iid in brought else key) for iid, key in out]
    if yields:
        shown = {iid for iid, _key in out}
        other = {old for old, new in pairs.items() if old in shown and not terms & _terms_of(index, new)}
        kept = [hit for hit in out if pairs.get(hit[0]) not in shown or hit[0] in other]
        out = kept + [hit for hit in out if pairs.get(hit[0]) in shown and hit[0] not in other]  # replaced ones last
    return out[:limit]


def _terms_of(index: RecallIndex, iid: int) -> set[str]:
    """The index terms of an indexed line's text (:meth:`.recall.RecallIndex.row`; none for an id gone)."""
    row = index.row(iid)
    return set(entry_index_terms(row[3])) if row else set()


ID_WORD = re.compile(r"[^\W_]+(?:[-_./:#][^\W_]+)+")
"""A word of the prompt written as one identifier: runs of letters and digits joined by ``- _ . / : #``."""


def id_parts(query: str) -> frozenset[str]:
    """The index terms of the query's identifiers written as one word and holding a digit (``SHOP-4417``: shop, 4417).

    An index term is a run of letters and digits (docs/architecture.md §4), so ``SHOP-4417`` is the terms shop and
    4417; the identifier rule (:func:`.recallorder.id_terms`) matches its number whole. These are all its terms.
    """
    words = (w for w in ID_WORD.findall(query) if any(c.isdigit() for c in w) and any(c.isalpha() for c in w))
    return frozenset(t for w in words for t in entry_index_terms(w))


def id_parts_only(
    found: list[tuple[int, tuple]], query: str, index: RecallIndex, holds_id: Callable[[int], bool] | None
) -> list[tuple[int, tuple]]:
    """The hook's hits without those holding only pieces of an identifier another hit holds whole (breaker6 B6-5).

    "SHOP-4417" names one ticket: a line holding "shop" but not 4417 shares a piece of its name, nothing of it, yet
    holds half the prompt's weight and passed the minimum ("Shop backend runs on Postgres 14", "Deploy shop with
    make deploy"). When a hit holds one of the prompt's identifiers (:func:`.recallorder.holds_any`), a hit holding
    none of them is left out if every prompt term it holds is a piece of an identifier word (:func:`id_parts`); a
    line holding another word of the prompt stays ("SHOP-4417 deploy" keeps the deploy line).

    Args:
        found: the hook's hits, best first.
        query: the prompt.
        index: the open recall index.
        holds_id: whether a hit holds one of the prompt's identifiers (None: the prompt has none).

    Returns:
        list: ``found`` without those hits, in order.
    """
    parts = id_parts(query) if holds_id is not None else frozenset()
    if not parts or not any(holds_id(iid) for iid, _key in found):  # type: ignore[misc]
        return found
    asked = set(query_index_terms(query)[1])

    def pieces_only(iid: int) -> bool:
        row = index.row(iid)
        held = asked.intersection(entry_index_terms(row[3])) if row is not None else set()
        return held <= parts

    return [(iid, key) for iid, key in found if holds_id(iid) or not pieces_only(iid)]  # type: ignore[misc]


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
