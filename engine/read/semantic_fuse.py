"""Hybrid recall: the lexical ranking fused with semantic similarity by reciprocal rank (docs/architecture.md §4).

The rule. The lexical search gives its ranked list (to :data:`DEPTH` past the limit); the query's vector gives the
entries with a vector ranked by cosine similarity, those under ``[semantic] min_similarity`` left out (so a question
with no answer does not get its nearest neighbours) and the workspace scope applied as lexically. Each entry scores
``w / (K + rank)`` in each list it is in (reciprocal rank fusion, Cormack, Clarke and Büttcher 2009), summed: ``w``
is 1 for the lexical list and ``[semantic] semantic_weight`` for the semantic one; ties keep the lexical order. An
entry found only semantically has the lexical sort key of no match (its score shows 0.0). Only entries with a vector
are fused: a lexical hit with none keeps its lexical place (:func:`~.recallorder.uncovered_in_place`), so partial
coverage (a first build, past ``max_entries``) never buries it; a semantic rank counts as rank / coverage
(:func:`rrf`).

``K`` is :data:`K` = 5, not the paper's 60. With 60 the top of each list is
flat, so an entry both lists hold at middling ranks (a lexical match on a
common word that the model also finds near) beats the one entry the model
puts first by a margin ("who builds the driver app": the owners' line,
first semantically and past the lexical list's end, was sixth fused). With 5 a list's first
place counts twice its fifth. Measured on the tuning splits of
benchmarks/recall_quality (with the embedded text of semantic_store):
paraphrase hit@5 0.91 -> 0.94 (repo A) and 0.90 -> 0.95 (repo C), keyword
unchanged at 1.0; K from 2 to 10 gives the same within one query.

Newer wins, through the fusion too: the lexical ranking puts the newest
first of the lines that say the same about the query, and a semantic list
does not know which line is newer, so fusing can put a superseded line back
on top ("when is the daily standup" answered by the old time). After
fusing, two rules give the newer line the better place:

- :func:`newer_first`: the hits with the same ``subject:`` trade places so
  the newest takes the best place of them (measured on the tuning splits:
  superseded-above-current 4 queries of 87 -> 3, hit@1 0.77 -> 0.78;
  grouping also the lexical hits of one file holding the same share of the
  query, as the lexical rule does, cost hit@1 and was left out).
- :func:`newer_restated`: two hits of one file, both matched lexically, whose vectors have a cosine of
  :data:`RESTATED` or more to each other and that share a quarter of their terms (:func:`~.recallorder.shares_subject`)
  are one fact said twice (a superseded line and its replacement rarely share a ``subject:``: "Team standup is
  at 9:30" and "Team standup moved to 10:15"); the newer takes the better place. Measured on the tuning splits:
  superseded-above-current 4 queries of 121 -> 0, hit@1 0.79 -> 0.80, hit@5 unchanged. Without the lexical
  condition, or at 0.88, unrelated lines of one file (CJK ones above all) traded places and hit@5 fell.

The fused list is cut to the limit last, after these rules and
:func:`~.recallorder.replaced_below`: cut first, a newer line fused just past
the limit could not trade places with the older one inside it, and a few hits
(the prompt hook's three) showed the superseded line alone. Measured on the
tuning splits with the hook's three hits (through the recall door): paraphrase
hit@3 0.81 -> 0.84 (repo A), 0.53 -> 0.55 and multi-fact 0.56 -> 0.67 (repo
E); at ten hits, and elsewhere, unchanged.
Before the cut, a listed hit that a newer line of its file replaces (the context block's rule, or the model's
judgement of it) brings that line just above it (:mod:`.recallnewer`): the model often matches the older wording.

A question naming a specific thing (a product, acronym, number or identifier) that no line holds in any form gets no
answer, whichever leg would answer it (:mod:`.recallabsentterm`): the semantic leg finds a neighbour as near for it as
for a true paraphrase.

Small repos: both cosine floors drop by :func:`~memrepo.engine.configpath.size_shift` (docs/architecture.md §4).

Degrading. With no model (``[semantic] provider = "off"``, ``auto`` without ``memrepo[semantic]``), no vector yet (a
first build runs in the background), or a model that fails (the extra missing, the endpoint down or answering
nonsense), recall is the lexical list unchanged, and :class:`RecallInfo` says so: ``mode`` is ``"lexical"`` and
``note`` the one line to show; a failed model is tried again after :data:`RETRY_S`.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable
from json import loads
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memrepo.engine.configpath import size_shift

from .recallabsentterm import names_absent
from .recallkeys import SEQ_BITS, WORKSPACES_DIR
from .recallnames import is_workspace_head
from .recallnewer import with_replacements
from .recallorder import newer_restated, plain_key, replaced_below, shares_subject, uncovered_in_place
from .recalltype import typed
from .semantic_fusegate import answers_alone, cosines
from .semantic_model import Embedder, ModelUnavailable, lexical_note, make_embedder

if TYPE_CHECKING:
    from memrepo.engine.config import SemanticSettings

    from .recall import RecallIndex
    from .semantic_build import VectorBuilder
    from .semantic_store import VectorStore

K = 5
"""The reciprocal rank fusion constant (the paper's is 60; a larger K flattens the top of each list: see the
module docstring for why 5)."""

SPELLED = 3
"""The hits of each leg whose words may spell an acronym the question names (:mod:`.recallabsentterm`)."""

RESTATED = 0.89
"""Cosine between two hits' vectors from which :func:`newer_restated` takes them for one fact said twice (of the
superseded pairs of benchmarks/recall_quality, 0.90-0.93 under the local model; unrelated lines of one file:
median 0.83, 99th percentile 0.90, so the rule also asks that both matched lexically)."""

DEPTH = 10
"""Each list is taken this far past the limit before fusing."""

RETRY_S = 60.0
"""Seconds before a model that failed is tried again."""


class RecallInfo:
    """How a recall was answered.

    Attributes:
        mode: ``"hybrid"`` (lexical and semantic fused) or ``"lexical"``.
        covered: the share of indexed entries that have a vector (0.0-1.0).
        note: one line for people when semantic recall was wanted and not used, else None.
        answered: False when the list is the nearest entries, given only with ``related`` (:mod:`.recallnear`).
        near: the item ids of the semantic list (a cosine at ``min_similarity`` or above; hybrid only).
    """

    __slots__ = ("answered", "covered", "mode", "near", "note")

    def __init__(self, mode: str = "lexical", covered: float = 0.0, note: str | None = None) -> None:
        self.mode, self.covered, self.note = mode, covered, note
        self.answered, self.near = True, frozenset[int]()

    def as_dict(self) -> dict[str, Any]:
        """``{"mode", "covered", "note"}`` (``memrepo recall --json``, the MCP result)."""
        return {"mode": self.mode, "covered": round(self.covered, 4), "note": self.note}


def rrf(
    lexical: list[int],
    semantic: list[int],
    limit: int,
    semantic_weight: float = 1.0,
    covered: float = 1.0,
    keep: set[int] | None = None,
) -> list[int]:
    """Fuse two ranked lists of item ids by reciprocal rank (the module's rule); best first, at most ``limit``.

    At partial coverage only ``keep`` (the lexical hits with a vector) is fused, at its ranks in the whole
    lexical list, and the semantic rank r counts as r / ``covered``: the list ranks only the entries with a
    vector, so its first place stands for about the 1 / ``covered``-th of all (the expected rank were they a
    random share). Measured on the tuning splits at 25% coverage: the prompt hook's keyword hit@3 0.98 -> 1.00
    (a name's line under semantic noise), paraphrase hit@5 one query lower on repo C; equal elsewhere.
    """
    score: dict[int, float] = {}
    for rank, iid in enumerate(lexical, 1):
        if keep is None or iid in keep:
            score[iid] = score.get(iid, 0.0) + 1.0 / (K + rank)
    for rank, iid in enumerate(semantic, 1):
        score[iid] = score.get(iid, 0.0) + semantic_weight / (K + rank / max(covered, 0.01))
    if keep is not None:
        lexical = [i for i in lexical if i in keep]
    lex_pos = {iid: pos for pos, iid in enumerate(lexical)}
    sem_pos = {iid: pos for pos, iid in enumerate(semantic)}
    far = len(lexical) + len(semantic)
    order = sorted(score, key=lambda i: (-score[i], lex_pos.get(i, far), sem_pos.get(i, far)))
    return order[:limit]


def newer_first(fused: list[int], group: Callable[[int], tuple | None]) -> list[int]:
    """Reorder fused item ids so the newest of each group takes the group's best place (the module's rule).

    Args:
        fused: item ids, best first (their high bits are the rank: newer is higher).
        group: an item's group key, or None for an item in no group.

    Returns:
        list[int]: the same ids; within each group of two or more, newest first in the group's places.
    """
    members: dict[tuple, list[int]] = {}
    for pos, iid in enumerate(fused):
        key = group(iid)
        if key is not None:
            members.setdefault(key, []).append(pos)
    out = list(fused)
    for places in members.values():
        if len(places) > 1:
            newest = sorted((fused[p] for p in places), key=lambda i: i >> SEQ_BITS, reverse=True)
            for place, iid in zip(places, newest, strict=True):
                out[place] = iid
    return out


def _restated(index: RecallIndex, store: VectorStore, ids: list[int]) -> Callable[[int, int], bool]:
    """:func:`newer_restated`'s test: one file, and the stored vectors' cosine at :data:`RESTATED` or more."""
    vecs: dict[int, Any] | None = None

    def same(a: int, b: int) -> bool:
        nonlocal vecs
        row_a, row_b = index.row(a), index.row(b)
        if row_a is None or row_b is None or row_a[0] != row_b[0]:
            return False
        if vecs is None:
            vecs = store.vectors_of(ids)
        va, vb = vecs.get(a), vecs.get(b)
        close = va is not None and vb is not None and float(va @ vb) >= RESTATED
        return close and shares_subject(row_a[3], row_b[3])

    return same


def _group_of(index: RecallIndex) -> Callable[[int], tuple | None]:
    """:func:`newer_first`'s groups: an entry's ``subject:`` folded (None without one)."""
    import json

    from memrepo.engine.format.terms import fold

    def group(iid: int) -> tuple | None:
        row = index.row(iid)
        if row is None:
            return None
        try:
            subject = json.loads(row[4] or "{}").get("subject")
        except (ValueError, AttributeError):
            subject = None
        return (fold(subject).strip(),) if isinstance(subject, str) and subject.strip() else None

    return group


def _redactor(root: Path) -> Callable[[str], str]:
    """Redaction as recall shows text (docs/architecture.md §3): an entry's secret never reaches a model."""
    from memrepo.engine.redaction import allow, protect_logs

    from .recallkeys import redacted

    allow.activate(Path(root) / ".git" / "memrepo")
    protect_logs()
    return redacted


class SemanticRecall:
    """The semantic half of recall for one repo in a long-running process (the MCP server, the app).

    Args:
        root: the work tree.
        settings: ``[semantic]``.
        embedder: a model to use instead of the one ``settings`` names (tests; the recall door: the MCP server's).
        builder: another instance's background builder to kick instead of one of its own (the recall
            door's thread, :mod:`.recalldoor`); it is not closed here.
    """

    def __init__(
        self,
        root: Path,
        settings: SemanticSettings,
        embedder: Embedder | None = None,
        background: bool = True,
        builder: VectorBuilder | None = None,
    ) -> None:
        self.root = Path(root)
        self.settings = settings
        self.embedder = embedder if embedder is not None else make_embedder(settings)
        self.off_note = lexical_note(settings) if self.embedder is None else None  # why lexical: no model
        self.background = background  # whether a recall starts the vectors' background build (not one-shot)
        self._store: VectorStore | None = None
        self._builder: VectorBuilder | None = builder
        self._own_builder = builder is None
        self._kicked: tuple | None = None
        self._failed: tuple[float, str] | None = None
        self._lock = threading.Lock()

    @property
    def depth(self) -> int:
        """How far past the limit the caller takes the lexical list (0 with no model: the lexical list as is)."""
        return 0 if self.embedder is None else DEPTH

    def close(self) -> None:
        """Stop the background build (its own, not a shared one) and close the vectors file."""
        if self._builder is not None and self._own_builder:
            self._builder.close()
        if self._store is not None:
            self._store.close()
            self._store = None

    def _vectors(self) -> VectorStore:
        if self._store is None:
            from .semantic_store import VectorStore

            self._store = VectorStore(self.root)
        return self._store

    def builder(self) -> VectorBuilder | None:
        """The background builder (made on first use); None without a model."""
        if self.embedder is None:
            return None
        if self._builder is None:
            from .semantic_build import VectorBuilder

            self._builder = VectorBuilder(self.root, self.embedder, self.settings.max_entries, _redactor(self.root))
        return self._builder

    def kick(self, index: RecallIndex) -> None:
        """Start a background build when the recall index moved since the last one (a write, a hand edit)."""
        builder = self.builder() if self.background else None
        if builder is None:
            return
        try:
            marks = tuple(index.db.execute("SELECT k, v FROM info WHERE k IN ('seq', 'count') ORDER BY k"))
        except sqlite3.Error:
            return
        retry = builder.error is not None and time.monotonic() - builder.failed_at >= RETRY_S
        if marks != self._kicked or retry:
            self._kicked = marks
            builder.kick()

    def _retry_due(self) -> bool:
        return self._failed is None or time.monotonic() - self._failed[0] >= RETRY_S

    def _fail(self, message: str, covered: float) -> RecallInfo:
        self._failed = (time.monotonic(), message)
        return RecallInfo("lexical", covered, message)

    def _alone(self, store: VectorStore, qvec: Any, near: list, total: int, pool: list | None) -> bool:
        """Whether the best neighbour answers by meaning alone (:func:`.semantic_fusegate.answers_alone`)."""
        lexical = (float(key[1]) for _iid, key in pool or ())
        with self._lock:
            try:
                return answers_alone(total, lexical, lambda: cosines(store, qvec), near[0][1])
            except (sqlite3.Error, ValueError):
                return True  # vectors gone meanwhile: the floor alone, as before

    @staticmethod
    def _names_absent(index: RecallIndex, query: str, *legs: list) -> bool:
        """Whether ``query`` names a thing no entry holds (:func:`.recallabsentterm.names_absent`), an acronym the
        best :data:`SPELLED` hits of a leg (``legs``: id-first lists) spell aside."""
        try:
            rows = (index.row(iid) for leg in legs for iid, _key in leg[:SPELLED])
            return names_absent(index, query, (row[3] for row in rows if row is not None))
        except sqlite3.Error:
            return False  # the index unreadable meanwhile: the rule stands aside

    def fuse(
        self,
        index: RecallIndex,
        query: str,
        found: list[tuple[int, tuple]],
        *,
        workspace_file: str | None,
        workspace_id: str | None,
        scoped: bool,
        limit: int,
        pool: list[tuple[int, tuple]] | None = None,
        related: bool = False,
        answer_similarity: float | None = None,
    ) -> tuple[list[tuple[int, tuple]], RecallInfo]:
        """Fuse the lexical results ``found`` (from ``index.search`` with ``limit + DEPTH``) with semantic neighbours.

        Never raises for the model's sake: a failure is the lexical list and a note.

        Args:
            found: what lexical recall answers alone (over its confidence minimum, if it has one), to ``limit +
                DEPTH``; returned as is (to ``limit``) when the model cannot answer.
            pool: the lexical list to fuse, when it is wider than ``found`` (hits under the confidence minimum
                too); None: ``found``. When ``found`` is empty, the semantic side answers only with a neighbour
                at ``[semantic] answer_similarity`` or above that stands out of the repo or that a lexical hit backs
                (:mod:`.semantic_fusegate`), else nothing is returned (a question with no answer). A question naming
                a thing no line holds (:mod:`.recallabsentterm`) gets nothing either.
            related: instead of nothing, the fused list the rule would give, its info's ``answered`` False
                (the nearest entries, :mod:`.recallnear`).
            answer_similarity: a semantic-only answer's floor instead of ``[semantic] answer_similarity``.

        Returns:
            tuple: (item ids with sort keys, best first, at most ``limit``; how it was answered).
        """
        lexical = found[:limit]
        if self.embedder is None:
            return lexical, RecallInfo("lexical", 0.0, self.off_note)
        with self._lock:
            self.kick(index)
            builder = self._builder
            try:
                store = self._vectors()
                have, total = store.counts()
            except (sqlite3.Error, OSError) as exc:
                return lexical, RecallInfo("lexical", 0.0, f"vectors cannot be read: {exc}")
            covered = have / total if total else 0.0
            if not have:
                note = None
                if builder is not None and builder.error is not None:
                    note = builder.error
                elif builder is not None and builder.running():
                    note = "semantic vectors are being built"
                return lexical, RecallInfo("lexical", 0.0, note)
            if self._failed is not None and not self._retry_due():
                return lexical, RecallInfo("lexical", covered, self._failed[1])
            try:
                qvec = self.embedder.embed([query], query=True)[0]
            except ModelUnavailable as exc:
                return lexical, self._fail(str(exc), covered)
            self._failed = None

            def keep(iid: int) -> bool:
                row = index.row(iid)
                if row is None:
                    return False
                path, _line, ws = row[:3]
                if path == index.leave_out:  # the prompt hook's inbox.md (.recallreviewed)
                    return False
                if (
                    path.startswith(WORKSPACES_DIR)
                    and '"workspace"' in row[4]
                    and is_workspace_head(path, loads(row[4]))
                ):
                    return False  # "Workspace lantern": never a hit (.recallnames)
                if not scoped:
                    return True
                if ws is not None and ws != workspace_id:
                    return False
                return not path.startswith(WORKSPACES_DIR) or path == workspace_file

            try:
                shift = size_shift(total, self.settings.size_slope)  # a small repo's (not a young build's)
                near = store.nearest(qvec, limit + DEPTH, self.settings.min_similarity - shift, keep)
            except ImportError:
                return lexical, self._fail("semantic recall needs numpy: pip install 'memrepo[semantic]'", covered)
            except (sqlite3.Error, ValueError) as exc:
                return lexical, self._fail(f"vectors cannot be read: {exc}", covered)
        info = RecallInfo("hybrid", covered, None)
        floor = self.settings.answer_similarity if answer_similarity is None else answer_similarity
        info.near = frozenset(iid for iid, _sim in near)
        if not found and (not near or near[0][1] < floor - shift or not self._alone(store, qvec, near, total, pool)):
            info.answered = False  # no word nor meaning close enough: no answer
            if not related:
                return [], info
        elif self._names_absent(index, query, near, found or pool or []):
            info.answered = False  # it names a thing no line holds (.recallabsentterm): no answer
            if not related:
                return [], info
        ranked = found if pool is None else pool
        keys = dict(ranked)
        lex = [iid for iid, _key in ranked]
        with self._lock:
            try:
                have_vec = set(store.vectors_of(lex))
            except (sqlite3.Error, ValueError):
                have_vec = set(lex)  # vectors gone meanwhile: fused as at full coverage
        wide = limit + DEPTH  # the newer-wins rules see past the cut (module docstring): cut last
        fused = rrf(lex, [iid for iid, _sim in near], wide, self.settings.semantic_weight, covered, have_vec)
        fused = uncovered_in_place(lex, fused, have_vec, wide)  # no vector: its lexical place
        fused = newer_first(fused, _group_of(index))
        with self._lock, contextlib.suppress(sqlite3.Error, ValueError):  # vectors gone meanwhile: order stands
            fused = newer_restated(fused, _restated(index, store, fused), set(keys))
        out = []
        for iid in fused:
            key = keys.get(iid)
            if key is None:
                with contextlib.suppress(Exception):
                    if index.row(iid) is None:
                        continue
                key = plain_key(iid, ranked[0][1] if ranked else None)
            out.append((iid, key))
        with self._lock, contextlib.suppress(Exception):  # a file unreadable meanwhile: none brought (recallnewer.py)
            out, brought = with_replacements(index, out, limit, store.vectors_of, RESTATED)
            info.near |= {new for new, old in brought.items() if old in info.near}  # stands in the old one's place
        return typed(index, query, replaced_below(index, out, query, ranked)[:limit], info, related), info  # ids first
