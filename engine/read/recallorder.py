"""Recall's order after scoring: newer over superseded, twins collapsed (docs/architecture.md §4).

:func:`memrepo.engine.read.recallrank.rank` scores candidates, then asks this module:

- :func:`newer_wins`: candidates of one file that say the same about the query trade
  scores so the newest comes first; an older line with a newer line's ``subject:`` ranks
  just under it.
- :func:`twins`: whether two hits are near-duplicates (:data:`TWIN_JACCARD`), so one of them is left
  out; :func:`twin_kept` says which: the one that replaces the other, else the newer one.
- :func:`replacements` and :func:`newer_above`: a hit that a newer hit of its file replaces (the
  context block's rule: the same ``subject:``, a ``supersedes:`` naming it, or a line that says it
  changed) never ranks above it when both are returned, whatever their scores (the newer line may hold
  none of the query's words); the two trade places. Lexical recall and hybrid recall's fusion both ask it.
- :func:`newer_restated`: hybrid recall's rule that of two fused hits saying the same, the newer is above.
- :func:`uncovered_in_place`: hybrid recall's rule at partial vector coverage: a lexical hit with no
  vector keeps its lexical place; the fused list of the entries with one fills the other places.
- :func:`ids_first`: a hit holding more of the query's identifiers (:func:`id_terms`) is above one holding
  fewer, in lexical and hybrid recall alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from memrepo.engine.format.stemming import index_terms
from memrepo.engine.format.terms import fold, split_folded

if TYPE_CHECKING:
    from .recall import RecallIndex
    from .recallrank import Candidate

SEQ_BITS = 32
"""An item id's low bits are its sequence number; the high bits its rank (recency, ``by: user``)."""
TWIN_JACCARD = 0.7
"""Two hits whose index-term sets overlap this much (Jaccard), and differ in no term with a digit, are twins:
the lower one is left out ("Node 18" and "Node 20" are two facts, not twins)."""
RESTATED_SHARED = 0.25
"""The least share of the shorter line's index terms two lines must share to be one fact said twice
(:func:`shares_subject`; chosen by leave-one-repo-out among 1/8, 1/4, 1/3 and 1/2: picked in 5 folds of 6)."""
ID_MIN_CHARS = 3
"""The shortest query term that is an identifier when it holds a digit (:func:`id_terms`): "4041", "node18", "k8s",
"tc52" are; "2", "16", "q2" are left out (in a question such as "2 spaces or 4" a short number is a quantity)."""


def twins(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two entries' index-term sets make them near-duplicates (:data:`TWIN_JACCARD`)."""
    if not a or not b or len(a & b) < TWIN_JACCARD * len(a | b):
        return False
    return not any(ch.isdigit() for term in a ^ b for ch in term)


TWIN_UPPER, TWIN_LOWER, TWIN_BOTH = 0, 1, 2
"""What :func:`twin_kept` answers: the better-scored twin stays, the other takes its place, or both stay."""


def twin_kept(upper: tuple[str, int, str, Mapping[str, str]], lower: tuple[str, int, str, Mapping[str, str]]) -> int:
    """Which of two twin hits stays (docs/recall.md "near-duplicate lines show once"): never the replaced one.

    A correction is a near-duplicate of the line it corrects ("Payments gateway runs Kong" / "Payments
    gateway now runs Envoy, replacing Kong"), so keeping the better-scored twin kept the old line. In order:

    1. The one that replaces the other by the context block's rule (:func:`replacements`: the same
       ``subject:``, a ``supersedes:`` naming it, a change word on the same topic), lines of one file only.
    2. Else the newer: the later ``added:`` day when both have one and they differ; within one file, else the
       later line. ``added:`` is a day, so a correction written the same day ties on it; the line order breaks
       the tie because memrepo's writer appends each entry (in MEMORY.md, above its index section), so a later
       line is a later write. It is also the context block's order (:mod:`.contextselect`), and it needs no
       git history (commit order would cost a blame of the file for every twin at recall time).
       Two files and one day: no order, the better-scored twin stays.
    3. An agent's line never hides the user's (docs/architecture.md §3): when the newer twin is an agent's
       and the older the user's, the user's stays, and both stay when the agent's line would replace it by
       the words' rule and says it changed (a change word, ``supersedes:``, ``subject:``): an agent's correction is
       shown beside the user's line, not in its place, and not hidden.

    Args:
        upper: the better-scored twin as (path, line, text, metadata).
        lower: the other.

    Returns:
        int: :data:`TWIN_UPPER`, :data:`TWIN_LOWER` (it takes the upper one's place) or :data:`TWIN_BOTH`.
    """
    one_file = upper[0] == lower[0] and upper[1] != lower[1]
    if one_file:
        gone = replacements({TWIN_UPPER: upper, TWIN_LOWER: lower})
        if gone.get(TWIN_UPPER) == TWIN_LOWER:
            return TWIN_LOWER
        if gone.get(TWIN_LOWER) == TWIN_UPPER:
            return TWIN_UPPER
    day_u, day_l = (str(row[3].get("added", "")).strip()[:10] for row in (upper, lower))
    if day_u and day_l and day_u != day_l:
        newer = TWIN_LOWER if day_l > day_u else TWIN_UPPER
    elif one_file:
        newer = TWIN_LOWER if lower[1] > upper[1] else TWIN_UPPER
    else:
        return TWIN_UPPER
    new, old = (lower, upper) if newer == TWIN_LOWER else (upper, lower)
    if _by(old) == "user" and _by(new) == "agent":
        if one_file and _says_changed(new) and replacements({0: old, 1: (*new[:3], {**new[3], "by": "user"})}).get(0):
            return TWIN_BOTH
        return TWIN_LOWER if old is lower else TWIN_UPPER
    return newer


def _says_changed(row: tuple[str, int, str, Mapping[str, str]]) -> bool:
    """Whether a hit says it changes something: a change word, or a ``supersedes:`` or ``subject:`` (not a restatement)."""
    from .contextselect import topic_terms

    return bool(row[3].get("supersedes") or row[3].get("subject")) or topic_terms(row[2]).change


def _by(row: tuple[str, int, str, Mapping[str, str]]) -> str:
    """A hit's author as entries have it: ``agent``, else ``user`` (an entry without ``by:`` is the user's)."""
    return "agent" if str(row[3].get("by", "user")).strip().casefold() == "agent" else "user"


def newer_wins(
    scored: list[tuple[float, float, int]],
    facts: dict[int, tuple[Candidate, frozenset[str]]],
    held: dict[int, tuple[frozenset[tuple[str, float]], bool]],
) -> list[tuple[float, float, int]]:
    """Newer entries first where two say the same about the query (docs/architecture.md §4).

    Candidates of one file that hold the same query terms, each in the same place
    (its own text or its context only), and both, or neither, the exact phrase, swap scores so the newest gets the best of them; then each older candidate with the same
    ``subject:`` as a newer one scores just under the newest one at most.
    """
    groups: dict[tuple[str, frozenset[tuple[str, float]], bool], list[int]] = {}
    for at, (_score, _conf, i) in enumerate(scored):
        groups.setdefault((facts[i][0].path, *held[i]), []).append(at)
    scored = list(scored)
    for members in groups.values():
        if len(members) > 1:
            best = sorted((scored[at][0] for at in members), reverse=True)
            by_age = sorted(members, key=lambda at: scored[at][2] >> SEQ_BITS, reverse=True)
            for score, at in zip(best, by_age, strict=True):
                _old, conf, i = scored[at]
                scored[at] = (score, conf, i)
    newest: dict[str, tuple[int, float]] = {}
    for score, _conf, i in scored:
        subject = facts[i][0].subject
        if subject:
            key = fold(subject)
            got = newest.get(key)
            if got is None or (i >> SEQ_BITS) > (got[0] >> SEQ_BITS):
                newest[key] = (i, score)
    if not newest:
        return scored
    out = []
    for score, conf, i in scored:
        subject = facts[i][0].subject
        if subject:
            best_i, best_score = newest[fold(subject)]
            if best_i != i and (best_i >> SEQ_BITS) > (i >> SEQ_BITS):
                score = min(score, best_score - 1e-6)
        out.append((score, conf, i))
    return out


def replacements(
    rows: dict[int, tuple[str, int, str, Mapping[str, str]]], disputed: dict[int, int] | None = None
) -> dict[int, int]:
    """Which hits a newer hit of the same file replaces, by the context block's rule (docs/recall.md).

    A line is replaced when a newer line of its file carries the same ``subject:``, names it in
    ``supersedes:``, or says it changed (:func:`memrepo.engine.read.contextselect.replaced`); the rule
    is asked of the hits of each file, in file order. A ``supersedes:`` holds across files too
    (:func:`superseded_elsewhere`).

    Args:
        rows: item id -> (path, line, text, metadata) of each hit.

        disputed: filled, when given, with the user's hits a newer agent hit corrects (the block's mark "an agent
            line since says"): the user's hit's item id -> the agent hit's.

    Returns:
        dict[int, int]: a replaced hit's item id -> the item id of the newest hit that replaces it.
    """
    by_file: dict[str, list[tuple[int, int]]] = {}
    for iid, (path, line, _text, _meta) in rows.items():
        by_file.setdefault(path, []).append((line, iid))
    if all(len(lines) < 2 for lines in by_file.values()):
        return superseded_elsewhere(rows, {})
    from memrepo.engine.format.entries import Entry

    from .contextselect import candidates, replaced

    out: dict[int, int] = {}
    for lines in by_file.values():
        if len(lines) < 2:
            continue
        lines.sort()
        at = dict(lines)
        cands = candidates([(line, Entry("", "-", rows[iid][2], dict(rows[iid][3]))) for line, iid in lines])
        said: dict[int, int] = {}
        gone = replaced(cands, said)
        if disputed is not None:
            disputed.update({at[old]: at[new] for old, new in said.items()})
        for old, new in gone.items():
            while new in gone:  # the newest of a chain of replacements
                new = gone[new]
            out[at[old]] = at[new]
    return superseded_elsewhere(rows, out)


def superseded_elsewhere(
    rows: dict[int, tuple[str, int, str, Mapping[str, str]]], out: dict[int, int]
) -> dict[int, int]:
    """``out`` with the hits a hit of another file names in its ``supersedes:`` (breaker8 B8-17).

    Health advises moving lines to a topic file; "My editor is Emacs" moved from me.md to topics/tools.md then
    ranked first, above "My editor is now Neovim [supersedes: My editor is Emacs]" of me.md. A ``supersedes:`` names
    its line by text or subject, not by place, so it holds wherever the line now lives (the block's same-file rule,
    :func:`memrepo.engine.read.contextselect.replaced`: the ``subject:``, or a piece of at least 8 characters of the
    text). An agent's line never replaces a user's (docs/architecture.md §3), and a hit already replaced keeps its
    replacement.

    Args:
        rows: item id -> (path, line, text, metadata) of each hit.
        out: the same-file replacements found so far (changed in place).

    Returns:
        dict[int, int]: ``out``.
    """
    naming = [(iid, fold(str(meta.get("supersedes", "")))) for iid, (_p, _l, _t, meta) in rows.items()]
    naming = [(iid, named) for iid, named in naming if named]
    if not naming:
        return out
    for old, (path, _line, text, meta) in rows.items():
        if old in out:
            continue
        folded, subject = fold(text), fold(str(meta.get("subject", "")))
        for new, named in naming:
            new_path = rows[new][0]
            if new == old or new_path == path or out.get(new) == old:
                continue
            if _by(rows[old]) == "user" and _by(rows[new]) == "agent":
                continue
            if named == subject or (len(named) >= 8 and named in folded):
                out[old] = out.get(new, new)
                break
    return out


def newer_above(order: list[int], gone: dict[int, int]) -> list[int]:
    """``order`` with each replaced hit below the hit that replaces it, when both are in it: they trade places.

    Args:
        order: item ids, best first.
        gone: a replaced hit's item id -> the id of the hit that replaces it (:func:`replacements`).

    Returns:
        list[int]: the same ids; a replaced hit never ranks above its replacement.
    """
    order = list(order)
    for _round in range(len(gone)):  # a trade can undo none of the earlier ones; a chain needs a round a link
        moved = False
        at = {iid: k for k, iid in enumerate(order)}
        for old, new in gone.items():
            if old in at and new in at and at[old] < at[new]:
                order[at[old]], order[at[new]] = new, old
                at[old], at[new] = at[new], at[old]
                moved = True
        if not moved:
            break
    return order


def disputed_after(order: list[int], disputed: dict[int, int]) -> list[int]:
    """``order`` with each agent hit that corrects a user's hit listed right after it, when below it (breaker7 B7-18).

    The block ranks such an agent line right after the user's line it marks; recall keeps the user's line where
    it is (an agent's line never outranks the user's) and brings the correction up next to it.

    Args:
        order: item ids, best first.
        disputed: the user's hit -> the agent hit that corrects it (:func:`replacements`).
    """
    order = list(order)
    for old, new in sorted(disputed.items(), key=lambda kv: -order.index(kv[0]) if kv[0] in order else 0):
        if old in order and new in order and order.index(new) > order.index(old) + 1:
            order.remove(new)
            order.insert(order.index(old) + 1, new)
    return order


def replaced_below(
    index: RecallIndex, hits: list[tuple[int, tuple]], query: str = "", more: Sequence[tuple[int, tuple]] = ()
) -> list[tuple[int, tuple]]:
    """``hits`` with each line a newer hit replaces below it (:func:`.recallorder.newer_above`): the rules above
    trade places by ``subject:`` and by a cosine of 0.89 or more, and a pair just under it stayed in place.

    With ``query``, first :func:`ids_first` (hybrid recall's fusion, :mod:`.semantic_fuse`): the hits holding
    more of its identifiers go first, and those of ``more`` (the lexical list fused) holding one come back.
    """
    keys = {**dict(more), **dict(hits)}
    order = [iid for iid, _key in hits]
    if query:
        order = ids_first(order, id_terms(query), lambda i: row[3] if (row := index.row(i)) else None, list(keys))
    rows = {}
    for iid in order:
        row = index.row(iid)
        if row is not None:
            rows[iid] = (row[0], row[1], row[3], json.loads(row[4]))
    disputed: dict[int, int] = {}
    order = disputed_after(newer_above(order, replacements(rows, disputed)), disputed)
    return [(iid, keys[iid]) for iid in order]


def plain_key(iid: int, like: tuple | None = None) -> tuple:
    """The lexical sort key of an entry no query term matched: zeros, then the entry's rank.

    Args:
        iid: the item id (its high bits are the rank).
        like: a key of the lexical list, whose shape is followed (zeros of the same types);
            None gives ``(phrase, subject, kind, coverage, rank)`` zeroed.
    """
    rank = iid >> SEQ_BITS
    if like is None:
        return (0, 0, 0, 0.0, rank)
    return (*(0 if isinstance(x, int) else 0.0 for x in like[:-1]), rank)


def uncovered_in_place(lexical: list[int], fused: list[int], covered: set[int], limit: int) -> list[int]:
    """Put the lexical hits that have no vector back in their lexical places (docs/architecture.md §4).

    The semantic list knows only the entries with a vector, so fusing a hit without one with it
    can only push that hit down: at 25-50% coverage (a first build, or past ``[semantic]
    max_entries``) keyword hit@3 fell from 1.00 to 0.17-0.64. Fusing only among the entries with a
    vector and keeping the others where lexical recall put them holds at every coverage: at full
    coverage nothing is kept in place and the fused list is unchanged; with no vector it is the
    lexical list.

    Args:
        lexical: the lexical list's item ids, best first.
        fused: the fused list of the covered entries (the lexical hits with a vector and the semantic
            list), best first.
        covered: the item ids that have a vector (those of ``lexical`` at least).
        limit: the most ids returned.

    Returns:
        list[int]: at most ``limit`` ids: each uncovered lexical hit at its lexical position (or
        earlier, when the fused list runs out), the fused list in the other places, in order.
    """
    fixed = {pos: iid for pos, iid in enumerate(lexical) if iid not in covered}
    kept = set(fixed.values())
    rest = [iid for iid in fused if iid not in kept]
    out: list[int] = []
    pos = 0
    while len(out) < limit and (rest or fixed):
        if pos in fixed:
            out.append(fixed.pop(pos))
        elif rest:
            out.append(rest.pop(0))
        else:
            out.extend(fixed[p] for p in sorted(fixed))
            break
        pos += 1
    return out[:limit]


def shares_subject(a: str, b: str) -> bool:
    """Whether two entries share :data:`RESTATED_SHARED` of the shorter one's index terms (:func:`newer_restated`).

    One fact said twice names what it is about in both lines: "Team standup is at 9:30" and "Team standup moved to
    10:15" share team and standup (2 of 4); "캐시는 Redis 6 단일 노드였다" and its replacement share redi, 캐시, 노드
    and more (5 of 8). Two lines of one file alike only in shape do not: "王磊是上海团队的后端负责人" and
    "陈静负责深圳工厂的设备对接" (two people, two cities, cosine 0.896) share the one bigram 负责 of 8. Measured on the
    tuning splits of benchmarks/recall_quality (benchmarks/restated_study.py), hybrid: repo K keyword hit@5 0.95 ->
    1.00, hit@1 0.82 -> 0.93; repo A hit@1 0.84 -> 0.87, task prompts 0.66 -> 0.70; repo E one query lower at hit@1
    (0.570 -> 0.562); superseded hit@1 and superseded-above-current unchanged on every split.

    Args:
        a: one entry's text.
        b: the other's.

    Returns:
        bool: True when they share enough of their terms.
    """
    terms_a = set(index_terms(split_folded(fold(a))))
    terms_b = set(index_terms(split_folded(fold(b))))
    shorter = min(len(terms_a), len(terms_b))
    return shorter > 0 and len(terms_a & terms_b) >= RESTATED_SHARED * shorter


def newer_restated(fused: list[int], same: Callable[[int, int], bool], lexical: set[int]) -> list[int]:
    """Reorder fused item ids so of two that say the same, the newer is above (:mod:`.semantic_fuse`'s rule).

    Each pair is looked at best first; when the lower one is newer, both were matched lexically, and
    ``same`` says they are one fact said twice (one file, vectors at :data:`.semantic_fuse.RESTATED` or more), they
    trade places.

    Args:
        fused: item ids, best first (their high bits are the rank: newer is higher).
        same: whether two item ids say the same (called only for pairs the other tests let through).
        lexical: the item ids the lexical list holds.

    Returns:
        list[int]: the same ids, reordered.
    """
    out = list(fused)
    for a in range(len(out)):
        for b in range(a + 1, len(out)):
            upper, lower = out[a], out[b]
            newer = (lower >> SEQ_BITS) > (upper >> SEQ_BITS)
            if newer and upper in lexical and lower in lexical and same(upper, lower):
                out[a], out[b] = lower, upper
    return out


def id_terms(query: str) -> frozenset[str]:
    """The identifiers of a query: its index terms of :data:`ID_MIN_CHARS` or more characters holding a digit.

    A term is a run of letters and digits (docs/architecture.md §4), so an identifier matches whole: "4041" is
    not in "14041", "0041" or "docs-3941", and "project-0041" is the two terms project and 0041 (found
    in "project 0041" too). Leading zeros are part of the number: "41" does not find "0041".

    Args:
        query: any text.

    Returns:
        frozenset[str]: the identifier terms (folded, not stemmed: a term with a digit is never stemmed).
    """
    return frozenset(
        t for t in index_terms(split_folded(fold(query))) if len(t) >= ID_MIN_CHARS and any(c.isdigit() for c in t)
    )


def ids_first(
    order: list[int], ids: frozenset[str], text_of: Callable[[int], str | None], more: Sequence[int] = ()
) -> list[int]:
    """Hits holding more of the query's identifiers above those holding fewer (docs/architecture.md §4).

    An identifier names one thing: the line holding "item 4041" answers "item 4041" whatever else
    ranks near it. Neither the lexical score (a line holding the other query words several times)
    nor semantic similarity (the model finds "project-0041 workspace" nearer "item 4041" than
    the line itself, breaker4 F2) may put a line holding fewer of them above it. Within one count
    the order stands.

    Args:
        order: item ids, best first (the ranked or fused list).
        ids: the query's identifiers (:func:`id_terms`); empty: ``order`` unchanged.
        text_of: an item's text (None when gone).
        more: item ids past ``order`` (the rest of the lexical list, best first): those holding an
            identifier come in too, so fusing never drops the line that holds it.

    Returns:
        list[int]: ``order`` (and the ids of ``more`` holding an identifier), reordered; the caller cuts it to its limit.
    """
    if not ids:
        return list(order)
    seen = set(order)
    pool = [*order, *(i for i in more if i not in seen)]
    held: dict[int, int] = {}
    for iid in pool:
        text = text_of(iid)
        held[iid] = len(ids.intersection(index_terms(split_folded(fold(text))))) if text else 0
    first = sorted((i for i in pool if held[i]), key=lambda i: -held[i])  # stable: the order within one count
    return first + [i for i in order if not held[i]]


def holds_any(ids: frozenset[str], index: RecallIndex) -> Callable[[int], bool] | None:
    """Whether an item's text holds one of the query's identifiers (whole, as :func:`ids_first` counts them).

    Args:
        ids: the query's identifiers (:func:`id_terms`).
        index: the open recall index.

    Returns:
        the test, or None for a query without identifiers (every item passes).
    """
    if not ids:
        return None

    def holds(iid: int) -> bool:
        row = index.row(iid)
        return row is not None and not ids.isdisjoint(index_terms(split_folded(fold(row[3]))))

    return holds
