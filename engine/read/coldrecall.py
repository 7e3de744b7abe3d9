"""Recall from a new process (``memrepo recall``): the persisted index and nothing else (docs/architecture.md §4).

A long-running process (the app, the MCP server) answers through :meth:`memrepo.engine.repo.store.MemoryStore.recall`;
a command that starts a process for one search pays for every module it imports, so this path opens only the recall
index (stdlib :mod:`sqlite3`): no pygit2, no pydantic models, no entry parser unless a file changed since the last
sync, and no secret detector for a hit shown before.

- **Staleness**: one walk stats every memory file and compares the stamps with the string stored at the last full
  sync (:func:`.recallkeys.stamps_of`); only when it differs are the changed files parsed (as ``RecallIndex.sync``).
- **Shown text**: a hit's text and metadata leave redacted and cleaned, as in every way out (docs/architecture.md §3).
  What this path made of an item is kept in the index's ``shown`` table with the redaction epoch it was made in
  (:mod:`.coldshown`), so the next process shows it without loading the detectors; the row goes with its item
  (forgetting and compaction scrub it with the rest of the index, docs/architecture.md §5). A section
  (``detail="full"``) is read from its file and redacted each time.

Results are exactly those of :meth:`MemoryStore.recall` (a test compares them), as :class:`.coldhit.ColdHit`.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memrepo.engine.format.layout import INBOX_MD

from .coldhit import ColdHit, ScanHits
from .coldshown import Redactor, shown_text
from .heldread import without_revived
from .recall import SECTION_LINES, RecallIndex
from .recallkeys import fit_hits, hit_by, hit_confidence, hit_score, index_path, section_around
from .recallnear import answering, answers_only, hook_hits, nearest_lexical, newer_with
from .recallpost import file_entries
from .recallprompt import prompt_lexical, scan_newer, since_of
from .recallref import ref_item
from .recallreviewed import ranked_without_inbox
from .redactionepoch import redaction_epoch

if TYPE_CHECKING:
    from .semantic_fuse import RecallInfo


def is_empty_query(query: str) -> bool:
    """Whether ``query`` has no term to search for (spaces and punctuation only; :func:`.terms.query_terms`)."""
    from memrepo.engine.format.terms import query_terms

    return not query_terms(query)[1]


def open_repo(path: str | os.PathLike[str]) -> Path:
    """The work tree of the memory repo at ``path``, checked as ``MemoryStore.open(create=False)`` checks it.

    Raises:
        PathRuleError: the path breaks a rule of docs/architecture.md §2, or holds no memory repo.
    """
    from memrepo.engine.format.paths import check_repo_path, missing_repo

    root = check_repo_path(path)
    if not (root / ".git").is_dir():
        raise missing_repo(root)
    return root


QUICK_SCAN_BYTES = 2_000_000
"""Most bytes of markdown a quick look-up (the prompt hook) scans while the index's first build runs elsewhere.

A scan's cost grows with the bytes it reads: measured in a new hook process beside the indexed answer
(benchmarks/bench_hook_recall.py, make_corpus repos, 2 busy cores), CPU time 184 ms against 94 at 0.9 MB
(200 files, the 400-file threshold lowered to measure it), 277 against 90 at 2.3 MB (2,000 files), 471
against 95 at 8.9 MB, 3.5 s at 90 MB (20,000 files). Up to 2 MB the scan stays within about twice the indexed answer's cost; past it the hook answers
nothing until the build is done (docs/architecture.md §7)."""


def hook_semantic(root: Path, table: dict[str, object] | None) -> Any:
    """``[semantic]`` for the prompt hook's hybrid recall (docs/architecture.md §7), or None for lexical alone.

    None unless ``[semantic] hook = true``, the repo has a vectors file (the MCP server or the app
    built it) and semantic recall is not off (``provider = "off"``, ``MEMREPO_SEMANTIC=off``): those
    checks load nothing. The answer floor is ``hook_answer_similarity``.

    Args:
        root: the work tree.
        table: the config's ``[semantic]`` table as validated (:attr:`.configpath.ReadKeys.semantic`).

    Returns:
        SemanticKeys | SemanticSettings | None: the light keys; the validated settings for
        ``provider = "openai"`` (its endpoint's keys; this loads pydantic); None.
    """
    table = table or {}
    if table.get("hook") is not True or not (root / ".git" / "memrepo" / "vectors.sqlite").is_file():
        return None
    from .semantic_model import semantic_off

    if semantic_off(str(table.get("provider", "auto"))):
        return None
    if table.get("provider") == "openai":
        from memrepo.engine.config import SemanticSettings

        settings = SemanticSettings.model_validate(table)
        return settings.model_copy(update={"answer_similarity": settings.hook_answer_similarity})
    from memrepo.engine.configpath import SemanticKeys

    keys = SemanticKeys(**{k: v for k, v in table.items() if k in SemanticKeys._fields})  # type: ignore[arg-type]
    return keys._replace(answer_similarity=keys.hook_answer_similarity)


SHOWN_AHEAD_MAX = 2_000
"""Most entries :func:`refresh_index` makes the shown text of in one call."""


def skipped_files(root: Path, hits: list[ColdHit] | None = None) -> list[tuple[str, int]]:
    """The memory files recall leaves unread for their size, with their sizes (bytes), by path; never raises.

    ``hits``: what :func:`recall` just answered; when a scan answered (:class:`ScanHits`) its walk says it.

    A file over :data:`.recallkeys.MAX_INDEXED_FILE` (1 MB: a memory file is at most 64 KB by the
    format) is never searched, so a recall must say so rather than answer "no memory matches"
    (docs/architecture.md §4). A built index's ``files`` table has every file's size as of its last
    sync (the recall just made; 2 ms at 20,000 files); while it builds, the files are walked (60 ms).
    """
    from .recallkeys import MAX_INDEXED_FILE, walk

    if isinstance(hits, ScanHits):
        return hits.skipped  # the scan walked the files a moment ago: not again (the index is not built)
    path = index_path(Path(root).absolute())  # a file: URI needs an absolute path
    if path.is_file():
        try:
            with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
                if db.execute("SELECT v FROM info WHERE k='built'").fetchone() == ("1",):
                    rows = db.execute("SELECT path, size FROM files WHERE size > ? ORDER BY path", (MAX_INDEXED_FILE,))
                    return [(str(rel), int(size)) for rel, size in rows]
        except sqlite3.Error:
            pass  # locked or damaged: walk instead, as while the index is being built
    try:
        found = walk(Path(root))
    except OSError:
        return []
    return _too_large(found)


def _too_large(walked: dict[str, Any]) -> list[tuple[str, int]]:
    """``(path, bytes)`` of each walked file over :data:`.recallkeys.MAX_INDEXED_FILE`, by path."""
    from .recallkeys import MAX_INDEXED_FILE

    return sorted((rel, st.st_size) for rel, st in walked.items() if st.st_size > MAX_INDEXED_FILE)


def refresh_index(root: Path, shown_for: list[str] | tuple[str, ...] = ()) -> int | None:
    """Bring the repo's persisted recall index up to date with its files, if one was built.

    A writer that outlives its write (the write server of ``memrepo
    remember``) calls it after each one, so the next ``memrepo recall``
    finds every stamp as stored and re-reads nothing, and finds the entries
    of the files it wrote as recall shows them (redacted, in the ``shown``
    table under this redaction epoch), so it loads no secret detector for a
    new entry (docs/architecture.md §4).

    Args:
        root: the work tree.
        shown_for: repo-relative files whose entries' shown text is made now
            (those not made yet in this epoch; at most :data:`SHOWN_AHEAD_MAX`).

    Returns:
        int | None: how many files were re-read or dropped; None when no index
        was built yet (the first recall builds it: nothing is made here).

    Raises:
        sqlite3.Error, OSError: the index could not be read or written.
    """
    if not index_path(Path(root)).is_file():
        return None
    index = RecallIndex(Path(root))
    try:
        if not index.built:
            return None
        changed = index.sync(None)
        if shown_for:
            redact = Redactor(Path(root) / ".git" / "memrepo")
            epoch = redaction_epoch(redact.state)
            done = {iid for (iid,) in index.db.execute("SELECT id FROM shown WHERE epoch=?", (epoch,))}
            rows = [row for row in file_entries(index.db, shown_for) if row[0] not in done][:SHOWN_AHEAD_MAX]
            shown_text(index.db, redact, rows)
        return changed
    finally:
        index.close()


def _scan(
    root: Path, query: str, options: dict[str, Any], redact: Redactor, done: int | None, walked: dict[str, Any]
) -> list[ColdHit]:
    """Recall's hits read from the files themselves (``walked``: their walk), while the index builds elsewhere."""
    from .recallbuilding import scan_search

    workspace = options["workspace"]
    scoped = workspace is not None and bool(workspace.strip())
    ws_id = ws_file = None
    if scoped:
        from .workspaceindex import WorkspaceIndex

        ws_id, ws_file = WorkspaceIndex(root).file_for(workspace)
    scan, found, note = scan_search(root, query, redact, (ws_id, ws_file, scoped), options, done, walked)
    hits = []
    for got in found:
        path, line, text, meta = scan.hit_row(got.iid)
        key = (got.score, got.confidence)
        hit = ColdHit(path, line, text, hit_by(meta), meta, hit_score(key), hit_confidence(key))
        hit.scan = note
        hit.answer = got.confidence >= found.answer_floor  # --all lists hits under the minimum: no answers
        if options["detail"] == "full":
            hit.heading, section = section_around(root, path, line, SECTION_LINES)
            if section is not None:
                hit.section = redact(section)
        hits.append(hit)
    return fit_hits(without_revived(root, hits), options["max_bytes"])  # as recall() (B27-2)


def _search(
    root: Path, index: RecallIndex, query: str, options: dict[str, Any], quick: bool, semantic: Any, warm: Any
) -> tuple[list[tuple[int, tuple]], frozenset[int], RecallInfo | None]:
    """:func:`recall`'s search of a synced index: the hits ``(item id, sort key)``, those that answer, and how.

    ``options``: :func:`recall`'s ``workspace``, ``limit`` (1..200), ``min_confidence`` and ``related``;
    ``quick``, ``semantic`` and ``warm`` as there.
    """
    workspace, limit, min_confidence = options["workspace"], options["limit"], options["min_confidence"]
    scoped = workspace is not None and bool(workspace.strip())
    ws_id = ws_file = None
    if scoped:
        from .workspaceindex import WorkspaceIndex

        ws_id, ws_file = WorkspaceIndex(root, quick=quick).file_for(workspace)
    hybrid = semantic is not None and (root / ".git" / "memrepo" / "vectors.sqlite").is_file()
    depth = limit
    if hybrid:  # the fusion's modules are imported only when there are vectors to fuse with
        from .semantic_fuse import DEPTH
        from .semantic_once import fuse_once

        depth = limit + DEPTH
    lexical = index.search(
        query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=depth, min_confidence=min_confidence
    )
    if quick and min_confidence is None:  # a long prompt, a sentence, an identifier (.recallprompt)
        lexical = prompt_lexical(index, query, lexical, (ws_id, ws_file, scoped), depth)
    floor, info = lexical.answer_floor, None
    found: list[tuple[int, tuple]] = lexical
    if hybrid:
        pool = index.search(
            query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=depth, min_confidence=0.0
        )
        gate, lowered = answers_only(lexical)  # as the store fuses (.recallnear.search)
        found, info = fuse_once(
            index,
            query,
            gate,
            pool,
            semantic,
            workspace_file=ws_file,
            workspace_id=ws_id,
            scoped=scoped,
            limit=depth if quick else limit,  # the hook fills its places with hits that pass alone
            related=lowered,
            warm=warm,
        )
        found = found if info.mode == "hybrid" else lexical[:limit]
    if quick:
        found = hook_hits(found, lexical, info, query, index, limit)  # each passes alone
    elif info is None or info.mode != "hybrid":
        found = newer_with(index, found, limit)  # an outdated line never alone (breaker8 B8-1)
    answered = info is None or info.answered
    if options["related"] and not found:
        found = nearest_lexical(index, query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=limit)
        answered = False
    answers = answering(found, floor, info, answered).answers()
    return found, answers, info


def recall(
    root: Path,
    query: str,
    workspace: str | None = None,
    limit: int = 10,
    max_bytes: int = 16_000,
    detail: str = "line",
    min_confidence: float | None = None,
    quick: bool = False,
    start_build: Callable[[Path], None] | None = None,
    related: bool = False,
    semantic: Any = None,
    warm: Any = None,
    reviewed: bool = False,
) -> list[ColdHit]:
    """Search the memory repo at ``root`` from a new process: :meth:`MemoryStore.recall`'s results, made cheaply.

    Args:
        root: the work tree (:func:`open_repo`).
        query, workspace, limit, max_bytes, detail, min_confidence: as for
            :meth:`memrepo.engine.repo.store.MemoryStore.recall` (limit 1..200,
            ``max_bytes`` of ref, text and section in all).
        quick: check only the folders' mtimes for changes (the prompt hook:
            :meth:`~memrepo.engine.read.recall.RecallIndex.sync_quick`), not every file's;
            with no index yet and ``start_build`` given, the build runs elsewhere whatever the
            repo's size (at 200 files a scan answered the first prompt in 0.2 s of CPU against 1.4 s
            for building the index here) and the files are scanned only when they hold at most
            :data:`QUICK_SCAN_BYTES`, else nothing is answered now.
        start_build: starts a process that builds the index of the root it is given
            (the engine starts no process itself). With it, a large repo whose index is
            missing or not finished is answered from a scan of the files
            (:mod:`.recallscan`; each hit's ``scan`` says how far the build got) while
            that process builds the index.
        related: a query nothing answers confidently gets its nearest entries instead, each with
            ``answer`` False (:mod:`.recallnear`; never for the prompt hook, whose context no one asked for).
        semantic: ``[semantic]`` (or an object with its fields) to fuse the lexical hits with
            the vectors a long-running process built (:func:`.semantic_once.fuse_once`; an
            entry with no vector keeps its lexical place); None: lexical alone. A model that fails gives the
            lexical hits (their ``mode`` says which answered; ``note`` the model's one line).
        warm: a long-running process's :class:`.semantic_fuse.SemanticRecall` to fuse with (its model
            loaded, its vectors read; the recall door, :mod:`.recalldoor`); None: a new one for this call.
        reviewed: rank without the inbox's entries (the prompt hook: :mod:`.recallreviewed`), so its places go
            to reviewed lines; False lists inbox hits, ``unreviewed``.

    Returns:
        list[ColdHit]: best first; a :class:`ScanHits` when a scan answered; none (a ``Waiting``) while it builds.

    Raises:
        RefError: ``workspace`` is a name no workspace file has (as the store raises).
    """
    limit = min(max(int(limit), 1), 200)
    redact = Redactor(root / ".git" / "memrepo")
    if start_build is not None:
        from .recallbuilding import build_elsewhere, build_state, waiting
        from .recallkeys import walk

        built, done = build_state(root)
        walked = walk(root) if not built else {}
        scan = not quick or sum(st.st_size for st in walked.values()) <= QUICK_SCAN_BYTES
        # The prompt hook never builds here, whatever the size: a scan answers in a fraction of a build's time.
        if not built and build_elsewhere(root, start_build, len(walked), start=not scan, any_size=quick):
            if not scan:
                return waiting(done, len(walked))  # a first build takes minutes: the hook never waits for it
            options = {"workspace": workspace, "limit": limit, "max_bytes": max_bytes, "detail": detail}
            options["reviewed"] = reviewed
            hits = _scan(root, query, {**options, "min_confidence": min_confidence}, redact, done, walked)
            if related and not hits:
                from .recallnear import RELATED_MAX

                near = {**options, "limit": min(limit, RELATED_MAX), "min_confidence": 0.0}
                hits = [hit for hit in _scan(root, query, near, redact, done, walked) if hit.confidence > 0]
                for hit in hits:
                    hit.answer = False
            if quick:  # never an outdated line alone (.recallnewer)
                hits = scan_newer(root, hits, limit, redact)
            build_elsewhere(root, start_build, len(walked), any_size=quick)  # after the answer: never slows it
            scanned = ScanHits(hits)
            scanned.skipped = _too_large(walked)  # so the caller's note on large files walks nothing again
            return scanned
    index = RecallIndex(root)
    try:
        if quick:
            index.sync_quick()
        else:
            index.sync(None)
        asked = {"workspace": workspace, "limit": limit, "min_confidence": min_confidence, "related": related}
        ref = ref_item(index, query)  # a query that is an entry's ref gives that entry (breaker8 B8-8)
        if ref is not None and not (reviewed and index.row(ref[0])[0] == INBOX_MD):
            found, answers, info = [ref], frozenset({ref[0]}), None
        else:
            with ranked_without_inbox(index, reviewed):
                found, answers, info = _search(root, index, query, asked, quick, semantic, warm)
        rows, marks = {iid: index.row(iid) for iid, _key in found}, since_of(index, found)
        shown = shown_text(index.db, redact, [(iid, row[3], row[4]) for iid, row in rows.items()])
    finally:
        index.close()
    hits = []
    for iid, key in found:
        path, line, _ws, _text, meta_json = rows[iid][:5]
        text, shown_meta = shown[iid]
        by = hit_by(json.loads(meta_json))
        hit = ColdHit(path, line, text, by, json.loads(shown_meta), hit_score(key), hit_confidence(key))
        hit.answer, (hit.since, hit.replaced_by) = iid in answers, marks.get(iid, (None, None))
        if info is not None:
            hit.mode, hit.covered, hit.note = info.mode, info.covered, info.note
        if detail == "full":
            hit.heading, section = section_around(root, path, line, SECTION_LINES)
            if section is not None:
                hit.section = redact(section)  # whole: a private key's body spans lines
        hits.append(hit)
    return fit_hits(without_revived(root, hits), max_bytes)  # a forgotten line a waiting save brought back (B27-2)
