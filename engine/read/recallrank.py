"""Recall's ranking rule: BM25 over index terms, a confidence, newer over superseded, twins collapsed (docs/architecture.md §4).

:class:`memrepo.engine.read.recall.RecallIndex` keeps the posting lists of
index terms (:mod:`memrepo.engine.format.stemming`); this module ranks with
them, in two stages:

1. **Gather**: each entry holding a query term gets the term's weight, its
   inverse document frequency ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))``
   (Robertson-Spärck Jones, as BM25 has it; ``N`` entries, ``df`` of them
   hold the term). A term found only in the entry's *context* (the headings
   above it, the link-only bullets of its section, its ``subject:``) counts
   :data:`CONTEXT_WEIGHT` of that. Lists are read rarest first within
   :data:`GATHER_BUDGET` ids (the rarest always), so a common word costs no
   more at 20,000 files than at 200. The best :data:`POOL` go on.
2. **Score**: BM25 on the entry's own terms (``k1`` :data:`K1`, ``b``
   :data:`B`, an average entry of :data:`AVG_TERMS` terms), plus the context
   terms, plus small bonuses that never outweigh a content term: the query
   as an exact phrase of the entry (:data:`PHRASE_BONUS`), the entry's
   ``subject:`` named whole by the query (:data:`SUBJECT_BONUS`), a query
   word equal to its ``kind:`` (:data:`KIND_BONUS`; a kind alone is no
   match), recency (:data:`RECENCY_BONUS`).

Then, in order:

- **Newer wins**: candidates of one file holding the same query terms swap
  scores so the newest comes first; of two with the same ``subject:``, the
  older ranks just under the newer.
- **Twins collapsed**: a hit whose index terms overlap an earlier hit's by
  :data:`TWIN_JACCARD` or more (Jaccard), differing in no term with a digit,
  is one fact with it: near-duplicates never fill the top slots twice. The
  one that stays is the one that replaces the other, else the newer
  (:func:`~.recallorder.twin_kept`), in the better place of the two: a
  correction one word off its old line never leaves the old line alone.
- **Confidence**: a hit's confidence is the share of the query's term weight
  (every index term of the query, found in the repo or not, a "version" no entry holds held by a line naming a
  query word and a number, :mod:`.recallversion`, but its filler
  words, :data:`~memrepo.engine.format.stemming.FILLER_WORDS`, unless it has
  nothing else: :func:`confidence_weights`) that it holds, context terms at
  :data:`CONTEXT_WEIGHT`, an exact phrase 1. The answer
  passes when one of the best :data:`GATE_HITS` that holds a query term in
  its own text, a link of its section or its ``subject:`` reaches the
  minimum (a word only in the headings above an entry helps it rank, but
  a hit that holds the query by its headings alone never answers)
  (:data:`MIN_CONFIDENCE` by default); then the hits of at least
  :data:`HIT_SHARE` of the minimum are kept. Otherwise nothing is returned,
  so a question with no answer in memory gets no hits. The numbers were
  tuned on the tuning splits of benchmarks/recall_quality only.
- **Answer type**: "how many" needs a number, ... (:mod:`.recalltype`). **Small repo**: for the answer's gate only,
  a word no entry holds weighs no more than a held one (:mod:`.recallabsent`), and the best hit must hold what is
  asked (:mod:`.recallasked`); each hit's own confidence and floor are unchanged. **A thing no line holds**: a query
  naming a product, number or identifier no entry holds in any form gets no answer (:mod:`.recallabsentterm`); a
  long prompt (over :data:`.recallterms.LONG_TERMS` counted terms: the prompt hook's task) is left to the hook.
- **Per script**: CJK text is scored by overlapping bigrams, so a CJK
  question in other words holds a small share of its bigrams even when it
  is answered ("東京の案件で先方の担当者は誰" holds 先方 of 東京, 案件,
  先方, 担当, 当者). The minimum is scaled down by the share ``c`` of the
  query's term weight in CJK bigrams: ``minimum × (1 − (1 −``
  :data:`CJK_MIN_SHARE` ``) × c)``; a query without CJK keeps the minimum
  whole, an all-CJK one needs :data:`CJK_MIN_SHARE` of it.
- **Repeated syllables**: a CJK word made of one character repeated three
  or more times (``하하하하``, ``哈哈哈``; words are cut at spaces and at the
  function characters of :data:`~memrepo.engine.format.stemming.CJK_FUNCTION_CHARS`)
  has one bigram, the character twice; it counts toward a hit's confidence
  only when the hit holds three of the character in a row (an entry saying
  ``하하`` does not answer ``하하하하`` at 1.0). The ranking's score is unchanged.
- **Korean three-syllable words**: a Hangul word of three syllables once a
  trailing particle or ending is cut (``박지원``, ``김민준이`` → ``김민준``;
  :func:`~memrepo.engine.format.stemming.cjk_pieces`), a name most often,
  counts toward confidence only in a hit holding it whole: ``박지훈`` shares
  the bigram ``박지`` but does not answer ``박지원``. ``회의는`` (``회의`` +
  ``는``) is left as before, so ``회의가`` still answers it.
- **A workspace's name**: a line holding nothing of the query but an active workspace's name ("lantern" of
  ``workspaces/lantern.md``) and filler has confidence 0, unless the query has nothing else; a line holding more
  of it counts the name as any word (:mod:`.recallnames`). **Parts**: a list question is answered a part a line
  (:mod:`.recallparts`), a name-only line kept under such an answer. A workspace
  file's header entry ("Workspace lantern") is never a hit (:mod:`.recallnames`).
- **The session's workspace**: a scoped search scores its workspace file's lines too and lists those holding as
  much of the query as the best hit first (:mod:`.recallhome`).
- **Identifiers**: a hit holding more of the query's identifiers (a term of three or more characters
  with a digit: "4041", "node18"; :func:`~.recallorder.id_terms`) ranks above one holding fewer, whatever
  the scores (:func:`~.recallorder.ids_first`).
- **Ties**: recency (``added:``, then ``by: user``), then file path and line.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Set
from typing import NamedTuple, Protocol  # not dataclasses: it imports inspect (30 ms of a one-shot recall)

from memrepo.engine.format import stemming
from memrepo.engine.format.stemming import cjk_pieces, index_term, index_terms
from memrepo.engine.format.terms import fold, is_cjk, split_folded

from .recallabsent import absent_capped, confidence_weights
from .recallabsentterm import named_absent
from .recallasked import answers_lexical
from .recallcompound import compounds
from .recallcontext import context_beyond_headings
from .recallhome import home_first, home_keys, users_own, with_home
from .recallnames import is_workspace_head, name_only
from .recallorder import (
    SEQ_BITS,
    TWIN_BOTH,
    TWIN_LOWER,
    disputed_after,
    id_terms,
    ids_first,
    newer_above,
    newer_wins,
    replacements,
    twin_kept,
    twins,
)
from .recallparts import part_share, question_parts
from .recallpieces import piece_held
from .recallterms import CONTEXT_KEY, LONG_TERMS, entry_index_terms, idf, meta_terms, query_index_terms
from .recallversion import absent_versions, names_version

K1 = 1.2
"""BM25's term-frequency saturation."""
B = 0.5
"""BM25's length normalisation (0: none, 1: full); entries are single lines, so half."""
AVG_TERMS = 12.0
"""The entry length (index terms) BM25 normalises to: the median of a realistic memory (docs/architecture.md §4)."""
CONTEXT_WEIGHT = 0.4
"""A query term found only in an entry's context counts this share of its weight."""
PHRASE_BONUS = 0.3
"""Added for an exact phrase, times the query's term weight."""
SUBJECT_BONUS = 0.1
"""Added when the query names the entry's whole ``subject:``, times the query's term weight."""
KIND_BONUS = 0.05
"""Added when a query term is the entry's ``kind:``, times the query's term weight: a tie-break, never above content."""
RECENCY_BONUS = 0.04
"""Added for the newest entry of the candidates (less for older, none for the oldest), times the query's term weight."""
MIN_CONFIDENCE = 0.38
"""Hits under this confidence are left out unless the caller asks for a lower minimum (docs/architecture.md §4).
Re-decided on repos A, C and D's tuning splits (benchmarks/lexical_gate_study.py): the worst split is flat
from 0.23 to 0.40; 0.38 and 0.39 have the best mean (one repo D query apart)."""


def confidence_floor(min_confidence: float | None) -> float:
    """The confidence minimum a search applies: :data:`MIN_CONFIDENCE` for None, else the given one (at least 0)."""
    return MIN_CONFIDENCE if min_confidence is None else max(0.0, float(min_confidence))


CJK_MIN_SHARE = 0.4
"""An all-CJK query needs this share of the minimum (bigram scoring, docs/recall.md "Confidence");
tuned on the tuning splits: the lowest confidence of an answered CJK paraphrase there is 0.16 of 0.38."""
GATE_HITS = 5
"""The answer's confidence is the highest confidence among these many best hits."""
HIT_SHARE = 0.3
"""Under an answer that passes, a hit is kept when its own confidence is at least this share of the minimum."""
POOL = 64
"""Candidates scored in full (at least; four times the limit when that is more)."""
GATHER_BUDGET = 60_000
"""Most posting-list ids stage 1 reads (the rarest list always): a query's cost stays flat in repo size."""


class Scored(NamedTuple):
    """One ranked hit: its item id, score (bigger is better) and confidence (0..1)."""

    iid: int
    score: float
    confidence: float


class Ranked(list[Scored]):
    """:func:`rank`'s hits, best first, with the answer floor the ranking used.

    ``answer_floor``: a hit whose confidence is under it is no answer (``math.inf`` when
    the query's answer did not pass the minimum, so none is), though a caller that asked
    for a lower minimum (``--all``) gets it listed (docs/recall.md, "Confidence").
    """

    answer_floor: float = math.inf
    minimum: float = 0.0
    exact: frozenset[int] = frozenset()
    """The prompt hook's hits holding an identifier of the prompt whole (:mod:`.recallprompt`): each answers."""
    """The confidence the query's answer needed (the minimum scaled per script; 0.0 when none was asked)."""


class Found(list[tuple[int, tuple]]):
    """A search's item ids with their sort keys ``(score, confidence, rank)``, best first, and :class:`Ranked`'s
    ``answer_floor`` (:meth:`memrepo.engine.read.recall.RecallIndex.search`)."""

    answer_floor: float = math.inf
    minimum: float = 0.0
    exact: frozenset[int] = frozenset()
    """The prompt hook's hits holding an identifier of the prompt whole (:mod:`.recallprompt`): each answers."""

    def answers(self) -> frozenset[int]:
        """The item ids that answer: those whose confidence reaches ``answer_floor``."""
        return frozenset(iid for iid, key in self if float(key[1]) >= self.answer_floor)


class Candidate(NamedTuple):
    """What stage 2 reads of an item: its text, ``subject:`` and ``kind:`` (raw or None), path, line, context text,
    metadata (for :func:`.recallorder.replacements`; None: none)."""

    text: str
    subject: str | None
    kind: str | None
    path: str
    line: int
    context: str = ""
    meta: Mapping[str, str] | None = None


class Postings(Protocol):
    """What :func:`rank` reads of an index (:class:`memrepo.engine.recall.RecallIndex` gives it)."""

    def df(self, key: str) -> int:
        """How many entries hold ``key`` (a term, or :data:`CONTEXT_KEY` + term), without reading them."""
        ...

    def ids(self, key: str) -> Set[int]:
        """The item ids holding ``key`` (never mutated)."""
        ...

    def newest(self, key: str, need: int) -> list[int]:
        """The ``need`` best-ranked ids holding ``key``, in scope only, best first."""
        ...

    def ranked(self, ids: Set[int], need: int) -> list[int]:
        """The ``need`` best-ranked of ``ids``, in scope only, best first (ties by path and line)."""
        ...

    def candidate(self, iid: int) -> Candidate:
        """What stage 2 reads of an item."""
        ...

    def home(self, keys: Set[str], need: int) -> list[int]:
        """The ``need`` best-ranked ids of the session's workspace file holding one of ``keys`` (scoped; else none)."""
        ...

    def prefixed(self, term: str) -> bool:
        """Whether a term of four letters or more begins ``term`` or is begun by it (:mod:`.recallabsentterm`)."""
        ...

    def workspace_names(self) -> Mapping[frozenset[str], frozenset[str]]:
        """The active workspaces' names, each as its index terms, with their files (:func:`.recallnames.name_terms`)."""
        ...


def rank(
    query: str,
    n_items: int,
    index: Postings,
    has_phrase: Callable[[str, str], bool],
    limit: int,
    min_confidence: float = MIN_CONFIDENCE,
) -> Ranked:
    """Rank the entries for ``query`` by the rule of the module docstring.

    Args:
        query: any text.
        n_items: how many entries the index holds.
        index: the posting lists and items.
        has_phrase: whether a folded phrase is in a folded text on word boundaries.
        limit: the most hits wanted.
        min_confidence: hits under it are left out (0 keeps every match); scaled per script
            (:func:`script_minimum`).

    Returns:
        Ranked: best first, at most ``limit``; its ``answer_floor`` is the confidence a hit needs to be
        an answer: :data:`HIT_SHARE` of the minimum (``min_confidence``, or :data:`MIN_CONFIDENCE` when it is
        0, scaled per script) when one of the best :data:`GATE_HITS` reaches that minimum, else ``math.inf``.
    """
    folded, qterms = query_index_terms(query)
    if not qterms:
        return Ranked()
    qterms, joins = compounds(folded, qterms, lambda t: bool(index.df(t) or index.df(CONTEXT_KEY + t)))
    n = max(n_items, 1)
    weights = {t: idf(index.df(t), n) for t in qterms}
    mass = sum(weights.values())
    counts = confidence_weights(weights)
    held_any = lambda t: bool(index.df(t) or index.df(CONTEXT_KEY + t))  # noqa: E731
    versions = absent_versions(qterms, held_any)
    counted_mass = sum(counts.values())
    gate_counts = confidence_weights(absent_capped(weights, held_any, n))  # the answer's gate only (.recallabsent)
    gate_mass, gate = sum(gate_counts.values()), {}
    named_only = name_only(qterms, index.workspace_names(), counts)  # a project's name never answers (.recallnames)
    split = question_parts(folded, counts)  # "build and flash": a line answering a part answers (.recallparts)
    named_floor = math.ceil(script_minimum(min_confidence or MIN_CONFIDENCE, counts) * HIT_SHARE * 1e4) / 1e4
    need = max(POOL, 4 * limit)
    pool = _gather(qterms, weights, index, need, joins)
    ids = id_terms(query)
    for t in sorted(ids.intersection(qterms)):  # an identifier's lines are scored whatever the other words gather
        have = set(pool)
        pool.extend(i for i in index.newest(t, need) if i not in have)
    home = with_home(pool, index.home(home_keys(qterms, joins, CONTEXT_KEY), need))  # scored too (.recallhome)
    if not pool:
        return Ranked()
    qset = set(qterms)
    multi = len(split_folded(folded)) > 1
    pieces = cjk_pieces(folded)
    ranks = [i >> SEQ_BITS for i in pool]
    lo, hi = min(ranks), max(ranks)
    scored: list[tuple[float, float, int]] = []
    facts: dict[int, tuple[Candidate, frozenset[str]]] = {}
    shares: dict[int, dict[str, float]] = {}
    phrases: dict[int, bool] = {}
    own: set[int] = set()
    for i in pool:
        cand = index.candidate(i)
        if is_workspace_head(cand.path, cand.meta):
            continue  # "Workspace lantern": memrepo's own line naming the file's project, never a hit (.recallnames)
        words = index_terms(split_folded(fold(cand.text)))  # BM25's length: without the variants (.stemming)
        terms = words + stemming.variant_terms(cand.text)
        tf = Counter(terms)
        context = set(entry_index_terms(cand.context)) if cand.context else set()
        for joined, parts in joins.items():  # "timezone" holds time and zone (:mod:`.recallcompound`)
            for part in parts:
                tf[part] += tf.get(joined, 0)
            if joined in context:
                context.update(parts)
        norm = K1 * (1.0 - B + B * len(words) / AVG_TERMS)
        score = 0.0
        held: dict[str, float] = {}
        for t in qterms:
            w = weights[t]
            f = tf.get(t, 0)
            if f:
                score += w * f * (K1 + 1.0) / (f + norm)
                held[t] = 1.0
            elif t in context:
                score += w * CONTEXT_WEIGHT
                held[t] = CONTEXT_WEIGHT
        if not held:
            continue
        if versions:  # "Which React version?" -> "... uses React 18", "What day?" -> "on Tuesdays" (.recallversion)
            held.update(dict.fromkeys(names_version(cand.text, qset, versions), 1.0))
        if 1.0 in held.values() or not held.keys().isdisjoint(beyond_headings(cand)):
            own.add(i)  # a query term in the entry itself, a link of its section or its subject:, not a heading only
        phrase = multi and has_phrase(fold(cand.text), folded)
        if phrase:
            score += PHRASE_BONUS * mass
            held = dict.fromkeys(qterms, 1.0)
        shares[i] = held
        phrases[i] = phrase
        counted = piece_held(held, pieces, cand.text, cand.context) if pieces and not phrase else held
        confidence = sum(counts.get(t, 0.0) * share for t, share in counted.items()) / counted_mass
        gate[i] = sum(gate_counts.get(t, 0.0) * share for t, share in counted.items()) / gate_mass
        if split:
            confidence, gate[i] = (
                max(confidence, part_share(split, counts, counted)),
                max(gate[i], part_share(split, gate_counts, counted)),
            )
        if named_only(counted):  # "lantern's MSRV ..." holds only the name of "How do we deploy lantern?"
            confidence, gate[i] = named_floor if split else 0.0, 0.0  # kept under an answer to a part (.recallparts)
        if cand.subject and meta_terms(cand.subject) and meta_terms(cand.subject) <= qset:
            score += SUBJECT_BONUS * mass
        if cand.kind and index_term(fold(cand.kind)) in qset:
            score += KIND_BONUS * mass
        if hi > lo:
            score += RECENCY_BONUS * mass * (((i >> SEQ_BITS) - lo) / (hi - lo))
        scored.append((score, confidence, i))
        facts[i] = (cand, frozenset(terms))
    scored = newer_wins(scored, facts, {i: (frozenset(held.items()), phrases[i]) for i, held in shares.items()})
    scored.sort(key=lambda s: (facts[s[2]][0].path, facts[s[2]][0].line))
    scored.sort(key=lambda s: (s[0], s[2] >> SEQ_BITS), reverse=True)  # stable: ties keep path and line order
    out: list[Scored] = []
    kept_terms: list[frozenset[str]] = []
    for score, confidence, i in scored:
        term_set = facts[i][1]
        at = next((k for k, other in enumerate(kept_terms) if twins(term_set, other)), None)
        kept = TWIN_BOTH if at is None else twin_kept(_row(facts[out[at].iid][0]), _row(facts[i][0]))
        if kept == TWIN_LOWER and at is not None:  # the replacing (or newer) twin takes the place, with the better
            prev = out[at]  # score and confidence of the two: the pair is one fact (docs/recall.md)
            out[at] = Scored(i, prev.score, max(prev.confidence, round(confidence, 4)))
            gate[i] = max(gate[i], gate[prev.iid])
            kept_terms[at] = term_set
            if prev.iid in own:
                own.add(i)
        elif kept == TWIN_BOTH:
            kept_terms.append(term_set)
            out.append(Scored(i, round(score, 6), round(confidence, 4)))
    own_line = users_own(folded, lambda hit: facts[hit.iid][0].path)  # "do I use": the user's line first
    moved = home_first(out, home, lambda hit: hit.iid, lambda hit: hit.confidence, own_line)  # its lines win ties
    out = [hit._replace(score=place.score) for hit, place in zip(moved, out, strict=True)]
    # The answer's confidence: the most of the query one of the best few hits holds, not by its headings alone.
    answer = max((gate[hit.iid] for hit in out[:GATE_HITS] if hit.iid in own), default=0.0)
    tied = (facts[hit.iid][0] for hit in out[1:GATE_HITS] if hit.confidence >= out[0].confidence)
    if out and not answers_lexical(query, n, facts[out[0].iid][0], *tied):  # .recalltype, .recallasked
        answer = 0.0
    answer_min = script_minimum(min_confidence or MIN_CONFIDENCE, counts)
    texts = (facts[h.iid][0].text for h in out[:3])  # an acronym the best 3 hits spell is held (.recallabsentterm)
    if answer >= answer_min and len(counts) <= LONG_TERMS and named_absent(index, query, texts, index.prefixed):
        answer = 0.0  # a question naming a thing no line holds; a long prompt's files and ids are its work at hand
    # An answer is what the minimum lets through; with no minimum (--all) the documented one says which hits are.
    got = Ranked()
    got.answer_floor = answer_min * HIT_SHARE if answer >= answer_min else math.inf
    got.minimum = answer_min
    minimum = script_minimum(min_confidence, counts)
    if answer < minimum:
        return got
    floor = minimum * HIT_SHARE
    hits = {hit.iid: hit for hit in out if hit.confidence >= floor}
    shown = ids_first(list(hits), ids, lambda i: facts[i][0].text)[:limit]  # an identifier's line first
    rows = {i: (facts[i][0].path, facts[i][0].line, facts[i][0].text, facts[i][0].meta or {}) for i in shown}
    disputed: dict[int, int] = {}
    order = newer_above(shown, replacements(rows, disputed))  # a replaced line never above its replacement
    order = disputed_after(order, disputed)  # an agent's correction of a user's line right after it
    scores = [hits[i].score for i in shown]  # the places keep their scores: the list stays best first
    got.extend(hits[i]._replace(score=score) for i, score in zip(order, scores, strict=True))
    return got


def _row(cand: Candidate) -> tuple[str, int, str, Mapping[str, str]]:
    """A candidate as :func:`.recallorder.twin_kept` reads it: (path, line, text, metadata)."""
    return cand.path, cand.line, cand.text, cand.meta or {}


def beyond_headings(cand: Candidate) -> set[str]:
    """The index terms of a candidate's context that are not in a heading (:func:`context_beyond_headings`)."""
    rest = context_beyond_headings(cand.context) if cand.context else ""
    return set(entry_index_terms(rest)) if rest.strip() else set()


def script_minimum(min_confidence: float, weights: dict[str, float]) -> float:
    """The confidence minimum for a query of these term weights, scaled for CJK bigrams (module docstring).

    Args:
        min_confidence: the minimum for a query without CJK (0..1).
        weights: the query's index terms and their weights (idf).

    Returns:
        float: ``min_confidence × (1 − (1 − CJK_MIN_SHARE) × c)``, ``c`` the share of the weight in CJK terms.
    """
    mass = sum(weights.values())
    if not mass or not min_confidence:
        return min_confidence
    cjk = sum(w for t, w in weights.items() if is_cjk(t)) / mass
    return min_confidence * (1.0 - (1.0 - CJK_MIN_SHARE) * cjk)


def _gather(
    qterms: list[str],
    weights: dict[str, float],
    index: Postings,
    need: int,
    joins: dict[str, tuple[str, ...]] | None = None,
) -> list[int]:
    """Stage 1: the ``need`` best candidates by summed term weights, from the rarest lists within :data:`GATHER_BUDGET`.

    Lists are read rarest first (content and context lists alike) while the
    ids read stay within the budget; the rarest list is always read. A term
    left out still counts in stage 2 for the candidates found.
    """
    weights = dict(weights)
    for joined, parts in (joins or {}).items():
        weights[joined] = sum(weights[p] for p in parts)  # an entry holding it holds each part
    lists = []
    for t in [*qterms, *(joins or {})]:
        for key, share in ((t, 1.0), (CONTEXT_KEY + t, CONTEXT_WEIGHT)):
            df = index.df(key)
            if df:
                lists.append((df, key, t, share))
    if not lists:
        return []
    lists.sort()
    chosen = [lists[0]]
    budget = lists[0][0]
    for item in lists[1:]:
        if budget + item[0] > GATHER_BUDGET:
            break
        chosen.append(item)
        budget += item[0]
    if len(chosen) == 1:  # one list: every id scores the same, so the best-ranked ones
        return index.newest(chosen[0][1], need)
    gathered: dict[int, float] = {}
    content: dict[str, Set[int]] = {}
    for _df, key, t, share in sorted(chosen, key=lambda c: c[3], reverse=True):  # content lists first
        ids = index.ids(key)
        w = weights[t] * share
        if share == 1.0:
            content[t] = ids
            for i in ids:
                gathered[i] = gathered.get(i, 0.0) + w
        else:
            held = content.get(t)
            for i in ids:
                if held is None or i not in held:
                    gathered[i] = gathered.get(i, 0.0) + w
    # Few distinct sums: take the best sums whole, each by rank, until enough are in scope.
    buckets: dict[float, list[int]] = {}
    for i, score in gathered.items():
        buckets.setdefault(score, []).append(i)
    pool: list[int] = []
    for score in sorted(buckets, reverse=True):
        pool.extend(index.ranked(frozenset(buckets[score]), need - len(pool)))
        if len(pool) >= need:
            break
    return pool
