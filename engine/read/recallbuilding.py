"""Recall while the index's first build runs: its state, the process that builds it, hits from a scan (docs/architecture.md §4).

:mod:`.recallscan` reads the files for one query; this module decides when
that answers instead of the index (no index, or one a build has not
finished, in a repo of :data:`~memrepo.engine.read.recall.CHILD_BUILD_FILES`
files or more), has the build started in its own process (the front end
hands in what starts it), and turns the scan's results into hits that say
how far the build got.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .recallkeys import SEQ_MASK

if TYPE_CHECKING:  # the scan's modules load only when a scan runs (not for each recall that checks the build)
    from .recallrank import Ranked
    from .recallscan import Scan


def build_state(root: Path) -> tuple[bool, int | None]:
    """Whether the persisted index of ``root`` is built, and if not, how many files its build has done.

    Read without waiting for a build that holds the file (a batch holds it for
    seconds at 20,000 files): a recall must never wait for the build.

    The count is the build's own (:data:`.recallkeys.PROGRESS_FILE`, written as it reads,
    so it moves within a batch) when there is one, else the files the index
    has committed.

    A file held with no build's count is not a build: a first build writes its count
    before it takes the file, and the vector build of a long-running process (the
    vectors file attaches the index) or a sync holds it for a moment. Taking that for
    unbuilt would scan the files or start a build; it is waited for up to
    :data:`HELD_WAIT_S`, as any reader waits (the recall door's rule, docs/architecture.md §4).

    Returns:
        tuple[bool, int | None]: (built, files read so far); ``(False, 0)``
        with no index file; ``(False, None)`` while the file is held past
        :data:`HELD_WAIT_S` or unreadable and the build wrote no count.
    """
    from .recallkeys import index_path

    path = index_path(root)
    if not path.is_file():
        return False, 0
    read = read_progress(root)
    got = _state(path, read, BUSY_WAIT_S)
    if got == (False, None):  # held, and no first build counts: held for a moment, so wait as a reader does
        again = read_progress(root)
        got = (False, again) if again is not None else _state(path, None, HELD_WAIT_S)
    return got


def _state(path: Path, read: int | None, wait: float) -> tuple[bool, int | None]:
    """:func:`build_state` of the index file ``path`` given the build's count, waiting ``wait`` seconds for a holder."""
    import sqlite3

    from .recallkeys import SCHEMA_VERSION

    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=wait)
    except sqlite3.Error:
        return False, read
    try:
        info = dict(db.execute("SELECT k, v FROM info WHERE k IN ('version', 'built')").fetchall())
        if info.get("version") != SCHEMA_VERSION:
            return False, read or 0  # another version: built again from the start
        if info.get("built") == "1":
            return True, None
        committed = int(db.execute("SELECT count(*) FROM files").fetchone()[0])
        return False, committed if read is None else max(read, committed)
    except sqlite3.Error:
        return False, read
    finally:
        db.close()


def read_progress(root: Path) -> int | None:
    """The count in :data:`.recallkeys.PROGRESS_FILE` of ``root``, or None when there is none (or it is being rewritten)."""
    from .recallkeys import PROGRESS_FILE

    try:
        text = (Path(root) / ".git" / "memrepo" / PROGRESS_FILE).read_bytes()
    except OSError:
        return None
    return int(text) if text.strip().isdigit() else None


BUSY_WAIT_S = 0.05
"""How long :func:`build_state` waits for a build holding the index file (seconds)."""

HELD_WAIT_S = 2.0
"""How long :func:`build_state` waits for the index file held with no build's count (seconds): a bound on
"a moment" (a batch of vectors commits in milliseconds); a first build, which holds it for seconds, never costs it."""


class Waiting(list):
    """No hit, and why: the index's first build runs and the files are more than the prompt hook scans.

    Attributes:
        building: :func:`progress_note` (``index building: 1,000 of 20,000 files``), for the hook's one line
            (:func:`.modeline.waiting_block`; breaker finding B6-10).
    """

    building: str


def waiting(done: int | None, files: int) -> Waiting:
    """An empty :class:`Waiting` saying how far the build got (``done`` of ``files``, as :func:`progress_note`)."""
    empty = Waiting()
    empty.building = progress_note(done, files)
    return empty


def progress_note(done: int | None, files: int) -> str:
    """What a recall answered by a scan says of the build: ``index building: 1,000 of 20,000 files``.

    Args:
        done: files the build has indexed so far (None: not known now).
        files: files the repo holds.
    """
    if done is None:
        return f"index building: {files:,} files"
    return f"index building: {min(done, files):,} of {files:,} files"


def scan_search(
    root: Path,
    query: str,
    redact: Callable[[str], str],
    scope: tuple[str | None, str | None, bool],
    options: dict[str, Any],
    done: int | None,
    walked: dict[str, Any] | None = None,
) -> tuple[Scan, Ranked, str]:
    """Rank ``query`` over the files themselves (:class:`.recallscan.Scan`), as the index would, for either front.

    Args:
        root: the work tree.
        query: the query.
        redact: what redacts a text as the index stores it.
        scope: (workspace id, workspace file, scoped).
        options: ``limit``, ``min_confidence`` and ``reviewed`` (as for recall; absent: False).
        done: files the build has indexed so far (:func:`build_state`, read once by the caller).
        walked: the files' walk when the caller made it already.

    Returns:
        tuple: the scan (for its rows), the hits best first, and the build's progress note
        (:func:`progress_note`) each hit carries.
    """
    from .recallreviewed import scan_leave_out
    from .recallscan import Scan

    scan = Scan(root, query, redact, walked)
    scan.leave_out = scan_leave_out(options)  # the prompt hook's reviewed lines only
    ws_id, ws_file, scoped = scope
    found = scan.search(
        query,
        workspace_file=ws_file,
        workspace_id=ws_id,
        scoped=scoped,
        limit=options["limit"],
        min_confidence=options["min_confidence"],
    )
    return scan, found, progress_note(done, scan.files)


def build_elsewhere(
    root: Path, start_build: Callable[[Path], None] | None, files: int, start: bool = True, any_size: bool = False
) -> bool:
    """For a recall with no index yet: have the first build run in its own process, if the repo is large.

    The engine starts no process itself (docs/architecture.md §1): the front
    end hands in ``start_build``, which starts one that runs
    :func:`memrepo.engine.read.recallfile.build_index` and outlives the caller.
    A build already running (it holds its lock) is left to finish.

    Args:
        root: the work tree.
        start_build: what starts the build's process, or None.
        files: how many files the repo holds (:func:`.recallkeys.walk`).
        start: start the build now; False only says whether it would run elsewhere
            (a recall that scans first starts it after its answer: on two cores the
            build would slow the scan).
        any_size: build elsewhere whatever the repo's size (the prompt hook: a scan of a small repo answers in
            a fraction of the time its build takes, measured in benchmarks/bench_hook_recall.py).

    Returns:
        bool: True when the index is being built elsewhere (a recall answers
        from a scan, the prompt hook nothing); False without ``start_build``, for a
        repo small enough to build at once (fewer than
        :data:`~memrepo.engine.read.recall.CHILD_BUILD_FILES` files, unless ``any_size``), with an
        unwritable ``.git``, or when no process could be started.
    """
    import os

    from .recall import CHILD_BUILD_FILES
    from .recallfile import build_running
    from .recallkeys import index_path

    if start_build is None or (files < CHILD_BUILD_FILES and not any_size):
        return False
    folder = index_path(root).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return False
        if not start or build_running(root):
            return True
        start_build(root)
    except OSError:
        return False  # no process could be started: build here after all
    return True


def scan_hits(root: Path, query: str, scope: tuple[str | None, str | None, bool], options: dict[str, Any]) -> list:
    """:meth:`memrepo.engine.repo.store.MemoryStore.recall`'s hits read from the files, while the index builds elsewhere.

    Args:
        root: the work tree.
        query: the query.
        scope: (workspace id, workspace file, scoped), as the store resolved them.
        options: ``limit``, ``max_bytes``, ``detail``, ``min_confidence`` (as for the store's recall).

    Returns:
        list[RecallHit]: best first, each with ``scan`` set to the build's progress.
    """
    import json

    from .heldread import without_revived
    from .recall import SECTION_LINES
    from .recallkeys import fit_hits, redacted, to_hit

    scan, found, note = scan_search(root, query, redacted, scope, options, build_state(root)[1])
    hits = []
    for got in found:
        item = scan.items[got.iid & SEQ_MASK]
        meta_json = json.dumps(item.entry.meta, ensure_ascii=False)
        hit = to_hit(
            root,
            item.path,
            item.line,
            item.entry.text,
            meta_json,
            (got.score, got.confidence),
            options["detail"],
            SECTION_LINES,
        )
        hit.scan = note
        hit.answer = got.confidence >= found.answer_floor  # --all lists hits under the minimum: no answers
        hits.append(hit)
    return fit_hits(without_revived(root, hits), options["max_bytes"])  # a revived line waits (heldread)
