"""The read side's caches: the recall index and the context blocks, and what tells them files changed.

Reads never take the write lock (docs/architecture.md §4). Writers and the watcher call
:meth:`ReadCaches.note_changed`; with a watcher trusted, reads believe its events instead of checking every file's
mtime and size.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format.layout import INBOX_MD, LESSONS_MD, ME_MD, MEMORY_MD
from memrepo.engine.models import ContextBlock, RecallHit

from .heldread import HeldData, held_stamp, without_revived
from .modeline import today_iso
from .readstamps import Fingerprint, fingerprint, list_memory_files, moved, walked_by_recall
from .recallkeys import fit_hits
from .workspaceindex import WorkspaceIndex

if TYPE_CHECKING:
    from memrepo.engine.config import SemanticSettings

    from .recall import RecallIndex  # imported where an index is built: writers never load it
    from .semantic_fuse import RecallInfo, SemanticRecall

WATCH_SETTLE_S = 1.0
"""A new watcher is trusted only after this long (seconds); until then reads check files."""
RESCAN_S = 30.0
"""Even with a watcher, recall re-checks every file's mtime and size this often (seconds)."""


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """mtime, size and ctime: ``rsync -t``/``cp -p`` can put an older mtime back, never the ctime."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ctime_ns


ContextKey = tuple[
    str,
    tuple[int, int, int] | None,
    tuple[int, int, int] | bool | None,
    tuple[tuple[int, int, int] | None, tuple[int, int] | None],
    str | None,
    tuple[int, int, int] | None,
    str,
]
"""HEAD, MEMORY.md's stamp, me.md's (False when left out), lessons.md's with ``held.json``'s (.heldread), the
workspace file and its stamp (mtime, size, ctime), and the local date (a line past its ``until:`` leaves the block)."""


class ReadCaches:
    """The recall index and context blocks of one store.

    Args:
        root: the work tree.
        index: the store's workspace index.
        head: HEAD's commit id, or None while unborn (a context block names it).

    The settle and rescan intervals are read from the owner's
    ``WATCH_SETTLE_S`` and ``RESCAN_S`` (``settings``), so a test can shorten them.
    """

    def __init__(
        self,
        root: Path,
        index: WorkspaceIndex,
        head: Callable[[], str | None],
        settings: Callable[[], tuple[float, float]] = lambda: (WATCH_SETTLE_S, RESCAN_S),
    ) -> None:
        self.root = root
        self.index = index
        self._head = head
        self._settings = settings
        self._lock = threading.Lock()
        self._generation = 0
        self.me_md = True
        """me.md's entries are in the context block, the user's lines first (``[context] me_md``)."""
        self._changed_paths: set[str] | None = set()
        self._watched_since: float | None = None
        self._armed_at: float | None = None
        self._since_armed: set[str] | None = None
        self._walked_at: float | None = None
        self._last_scan = 0.0
        self.recall_index_built: RecallIndex | None = None
        self.semantic: SemanticRecall | None = None  # hybrid recall's semantic half (use_semantic); None: lexical
        self.last_recall_info: RecallInfo | None = None  # how the last recall was answered (hybrid recall on only)
        self._context_cache: dict[str | None, tuple[int, ContextKey, ContextBlock]] = {}
        self._fingerprints: dict[str, Fingerprint] | None = None
        self._baseline_walked = False

    # -- what changed -----------------------------------------------------------

    def set_watched(self, watched: bool) -> None:
        """Say whether a watcher feeds :meth:`note_changed`. Safe to call from any thread."""
        with self._lock:
            self._watched_since = time.monotonic() if watched else None
            self._armed_at = self._since_armed = None
            self._changed_paths = None  # events may have been missed: check everything once
            self._generation += 1

    def set_armed(self, armed: bool) -> None:
        """Say that the watcher's watches are in place (True: every later change has an event) or failed.

        From then on a recall index whose last full walk began after this
        moment needs only the paths events named, however young the watcher
        (docs/architecture.md §4). Ignored while no watcher runs. Safe from any thread.
        """
        with self._lock:
            if not armed or self._watched_since is None:
                self._armed_at = self._since_armed = None
                if not armed:
                    self._changed_paths = None
            else:
                self._armed_at = time.monotonic()
                self._since_armed = set()  # what an index walked after now but adopted later needs

    def trusting_watcher(self) -> bool:
        """Whether a watcher runs and has settled (its events are believed)."""
        since = self._watched_since
        return since is not None and time.monotonic() - since >= self._settings()[0]

    def note_changed(self, paths: list[str] | None = None) -> None:
        """Tell the caches that files changed; None means "anything may have". Safe from any thread."""
        with self._lock:
            self._generation += 1
            if paths is None:
                self._changed_paths = self._since_armed = None
            else:
                if self._changed_paths is not None:
                    self._changed_paths.update(paths)
                if self._since_armed is not None:
                    self._since_armed.update(paths)

    def reconcile(self) -> list[str]:
        """Compare every memory file's stat and content hash with the last pass; report what changed.

        The cheap periodic check a running watcher pairs with its events
        (docs/architecture.md §4): a network, FUSE or 9p mount, an exFAT
        mtime, a watch limit or an ``rsync -t`` that puts an older mtime back
        can each hide a change from events and from an mtime check; a content
        hash cannot miss it. Changed files are noted (:meth:`note_changed`),
        cached context blocks dropped, and a file whose stat did not move is
        re-read by recall too. The first pass only records.

        Returns:
            list[str]: the paths added, changed or removed since the last pass.
        """
        return self.reconcile_with(self.fingerprints(self.memory_files()))

    def memory_files(self) -> list[str]:
        """The files :meth:`reconcile` looks at (repo-relative; no dot folders, symlinks or FIFOs)."""
        return list_memory_files(self.root)

    def fingerprints(self, paths: list[str], rehash: Collection[str] | None = None) -> dict[str, Fingerprint]:
        """The fingerprint of each of ``paths`` (stat and content hash; one that is gone is left out).

        A running repo takes a pass in slices on a spare thread; only
        :meth:`reconcile_with` runs on its worker thread.

        Args:
            paths: repo-relative files.
            rehash: None to hash every file (what :meth:`reconcile` does).
                Otherwise only these files are hashed whatever their stat
                says; any other keeps the hash of the last pass while its
                stat (size, mtime, ctime, inode) is unmoved, and is hashed
                when the stat moved. A first pass then only stats.
        """
        if rehash is None:
            return {rel: fp for rel in paths if (fp := fingerprint(self.root / rel)) is not None}
        before = self._fingerprints
        if before is None:  # the baseline of a running repo: stats only, the hashes come slice by slice
            return {rel: fp for rel in paths if (fp := fingerprint(self.root / rel, read=False)) is not None}
        out: dict[str, Fingerprint] = {}
        for rel in paths:
            fp = fingerprint(self.root / rel, None if rel in rehash else before.get(rel))
            if fp is not None:
                out[rel] = fp
        return out

    def reconcile_recorded(self) -> bool:
        """Whether a first record exists to compare the next pass with (a pass, or an adopted index's walk)."""
        return self._fingerprints is not None

    def reconcile_with(self, now: dict[str, Fingerprint]) -> list[str]:
        """The end of :meth:`reconcile`, given every memory file's fingerprint (see there)."""
        before, self._fingerprints = self._fingerprints, now
        if before is None:
            return []
        if self._baseline_walked:  # recorded from the recall index's walk, which skips archived/ files
            self._baseline_walked = False
            before = {**{rel: fp for rel, fp in now.items() if not walked_by_recall(rel)}, **before}
        changed = sorted(rel for rel in before.keys() | now.keys() if moved(before.get(rel), now.get(rel)))
        if not changed:
            return []
        if self.recall_index_built is not None:  # recall trusts mtime and size: make it re-read these
            self.recall_index_built.mark_stale([r for r in changed if r in now])
        self.clear_context()
        self.note_changed(changed)
        return changed

    def _take_changed(self) -> set[str] | None:
        with self._lock:
            changed, self._changed_paths = self._changed_paths, set()
        return changed

    # -- recall -----------------------------------------------------------------

    def recall_index(self) -> RecallIndex:
        """The recall index, brought up to date (see :meth:`MemoryStore.recall_index`).

        Only the paths events named are looked at when the last full walk began
        after the watcher armed (every change since has an event), or while a
        settled watcher runs; otherwise, and every ``RESCAN_S``, every file's
        mtime and size are checked.
        """
        changed = self._take_changed()
        if self.recall_index_built is None:
            from .recall import RecallIndex

            self.recall_index_built = RecallIndex(self.root)
            changed = None
        now = time.monotonic()
        armed, walked = self._armed_at, self._walked_at
        exact = armed is not None and walked is not None and walked >= armed
        if changed is None or not (exact or self.trusting_watcher()) or now - self._last_scan >= self._settings()[1]:
            self.recall_index_built.sync(None)
            self._last_scan = now
            self._walked_at = self.recall_index_built.walked_at
            with self._lock:
                self._since_armed = None  # this walk is the reference from now on
        elif changed:
            self.recall_index_built.sync(changed)
        return self.recall_index_built

    def adopt_recall_index(self, index: RecallIndex) -> None:
        """Take a recall index built on another thread; an index already in use is kept.

        The stats of the index's own check become the reconciliation's first
        record when it has none yet: a change made after that check, even one
        that moves no mtime or size, then moves the stat the next pass
        compares, and no second walk of every file runs beside the first
        search (docs/architecture.md §4).
        """
        if self.recall_index_built is None and index.root == self.root:
            self.recall_index_built = index
            with self._lock:
                armed, since = self._armed_at, self._since_armed
                began = index.walked_at
                if armed is not None and since is not None and began is not None and began >= armed:
                    # walked after the watcher armed: what changed since has had an event
                    self._changed_paths = since | (self._changed_paths or set())
                    self._walked_at = self._last_scan = began
                else:
                    self._changed_paths = None
                self._since_armed = None
        walked, index.last_walk, index.keep_walk = index.last_walk, None, False  # later walks are not kept
        if walked is not None and self._fingerprints is None:
            self._fingerprints = {
                rel: (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, None) for rel, st in walked.items()
            }
            self._baseline_walked = True

    def recall(
        self,
        query: str,
        workspace: str | None = None,
        limit: int = 10,
        max_bytes: int = 16_000,
        detail: str = "line",
        min_confidence: float | None = None,
        related: bool = False,
        reviewed: bool = False,
    ) -> list[RecallHit]:
        """Search the memory folder (see :meth:`MemoryStore.recall`; ``related``: :mod:`.recallnear`; ``reviewed``:
        ranked without the inbox, :mod:`.recallreviewed`)."""
        from .recallnear import search
        from .recallnewer import marks_of  # the block's marks, by its rule
        from .recallref import ref_item
        from .recallreviewed import ranked_without_inbox

        limit = min(max(int(limit), 1), 200)
        index = self.recall_index()
        ref = ref_item(index, query)  # a query that is an entry's ref gives that entry (breaker8 B8-8)
        if ref is not None and not (reviewed and index.row(ref[0])[0] == INBOX_MD):
            found, info, answers = [ref], None, frozenset({ref[0]})
        else:
            scoped = workspace is not None and bool(workspace.strip())
            ws_id, ws_file = self.index.file_for(workspace) if scoped else (None, None)
            with ranked_without_inbox(index, reviewed):
                searched, info, answered = search(
                    index, self.semantic, query, (ws_id, ws_file, scoped), limit, min_confidence, related
                )
            found, answers = searched, searched.answers() if answered else frozenset()
        if info is not None:
            self.last_recall_info = info
        hits = [index.hit(iid, key, "full" if detail == "full" else "line") for iid, key in found]
        marks = marks_of(index, [iid for iid, _key in found])
        for (iid, _key), hit in zip(found, hits, strict=True):
            hit.mode = "lexical" if info is None else info.mode
            hit.answer, (hit.since, hit.replaced_by) = iid in answers, marks.get(iid, (None, None))
        return fit_hits(without_revived(self.root, hits), max_bytes)  # a waiting save's revived line (B27-2)

    def use_semantic(self, settings: SemanticSettings) -> None:
        """Fuse recall with semantic similarity from now on (the MCP server, the app; never a one-shot process)."""
        from .semantic_fuse import SemanticRecall

        self.semantic = self.semantic or SemanticRecall(self.root, settings)

    def close_semantic(self) -> None:
        """Stop the background build of vectors and close their file."""
        if self.semantic is not None:
            self.semantic.close()

    # -- context ----------------------------------------------------------------

    def through_symlink(self, rel: str) -> bool:
        """Whether ``rel`` or a folder on its way down from the root is a symlink (never followed)."""
        path = self.root / rel
        while path != self.root:
            if path.is_symlink():
                return True
            path = path.parent
        return False

    def context_cached(self, workspace: str | None = None) -> ContextBlock | None:
        """The cached context block when a watcher vouches it is current, else None (any thread)."""
        if not self.trusting_watcher():
            return None
        hit = self._context_cache.get(workspace)
        if hit is None or hit[1][-1] != today_iso():  # a line past its until: date leaves the block
            return None
        if hit[0] == self._generation and hit[1][3][1] == held_stamp(self.root):
            return hit[2]
        return None

    def clear_context(self) -> None:
        """Drop every cached context block (the next :meth:`context` builds afresh)."""
        self._context_cache.clear()

    def context(self, workspace: str | None = None) -> ContextBlock:
        """The context block an agent gets for ``workspace`` (see :meth:`MemoryStore.context`)."""
        generation = self._generation
        cached = self.context_cached(workspace)
        if cached is not None:
            return cached
        from .context import READ_MAX, build_context, context_files

        hit = self._context_cache.get(workspace)
        ws_id, ws_file = self.index.file_for(workspace)
        head = self._head() or ""
        memory = self.root / MEMORY_MD
        me = _stamp(self.root / ME_MD) if self.me_md else False
        lessons = _stamp(self.root / LESSONS_MD), held_stamp(self.root)  # a loss question's files: as committed
        stamp = _stamp(self.root / ws_file) if ws_file else None
        key = (head, _stamp(memory), me, lessons, ws_file, stamp, today_iso())
        if hit is not None and hit[1] == key:
            self._context_cache[workspace] = (generation, key, hit[2])
            return hit[2]

        def data(rel: str) -> bytes | None:
            if self.through_symlink(rel):
                return None
            try:
                return read_work_file(self.root / rel, READ_MAX)  # the budget fills long before 256 KB
            except OSError:
                return None

        files = context_files(HeldData(self.root, data), self.me_md, ws_id, ws_file, workspace or "")
        block = build_context(head[:7], files, ws_id, today=key[-1])
        if len(self._context_cache) > 64:
            self._context_cache.clear()
        self._context_cache[workspace] = (generation, key, block)
        return block
