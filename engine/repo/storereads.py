"""The read side of :class:`memrepo.engine.repo.store.MemoryStore`: recall, the context block, change notes.

A mixin: the store's façade methods that only read (through :class:`.readcache.ReadCaches`),
kept apart so the store module stays one screenful per concern (docs/architecture.md §4).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.git.store import GitStore
from memrepo.engine.models import ContextBlock, RecallHit, RecallMode
from memrepo.engine.read.readcache import ReadCaches
from memrepo.engine.read.readstamps import Fingerprint

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Collection

    from memrepo.engine.config import Settings
    from memrepo.engine.read.recall import RecallIndex  # imported where an index is built: writers never load it
    from memrepo.engine.read.recalldoor import RecallDoor


class StoreReads:
    """Reads of one open memory repo (mixed into :class:`~memrepo.engine.repo.store.MemoryStore`).

    Attributes:
        reads: the recall and context caches.
        git: the git store.
        state_dir: the engine's state folder, ``.git/memrepo/``.
    """

    reads: ReadCaches
    settings: Settings
    build_elsewhere: Callable[[int], bool] | None = None
    """Set by a front end: given the repo's file count, whether its recall index is being built in
    another process now (starting that build if need be); recall answers from a scan of the files
    meanwhile (:mod:`memrepo.engine.read.recallscan`). None: recall builds the index here."""

    @property
    def git(self) -> GitStore:
        raise NotImplementedError

    @property
    def state_dir(self) -> Path:
        raise NotImplementedError

    def set_watched(self, watched: bool) -> None:
        """Say whether a watcher feeds :meth:`note_changed` (set by :class:`MemoryRepo`; any thread)."""
        self.reads.set_watched(watched)
        self.git.status_cache.forget()  # events may have been missed, or no one reports them now

    def set_armed(self, armed: bool) -> None:
        """Say the watcher's watches are in place (True) or that its stream failed (any thread).

        See :meth:`memrepo.engine.read.readcache.ReadCaches.set_armed` (docs/architecture.md §4).
        """
        self.reads.set_armed(armed)

    def note_changed(self, paths: list[str] | None = None, git: bool = False) -> None:
        """Tell the read caches that files changed (watch events, or this store's own writes; any thread).

        Args:
            paths: repo-relative paths that changed; None means "anything may have".
            git: HEAD or another git state file moved (every call makes a cached
                context block stale, so this only documents why).
        """
        self.reads.note_changed(paths)
        self.git.status_cache.note_changed(paths, git=git)

    def hooks_notice(self) -> str | None:
        """The one-time notice that this repo's git hooks exist and are skipped; None once shown or when none."""
        from memrepo.engine.git.checks import hooks_notice_once

        return hooks_notice_once(self.git.git_dir, self.state_dir)

    def reconcile(self) -> list[str]:
        """The periodic stat-and-hash check of the memory files (see :meth:`ReadCaches.reconcile`)."""
        return self.reads.reconcile()

    def reconcile_files(self) -> list[str]:
        """The files a reconciliation pass looks at (:meth:`ReadCaches.memory_files`)."""
        return self.reads.memory_files()

    def reconcile_fingerprints(self, paths: list[str], rehash: Collection[str] | None = None) -> dict[str, Fingerprint]:
        """One slice of a reconciliation pass (:meth:`ReadCaches.fingerprints`)."""
        return self.reads.fingerprints(paths, rehash)

    def reconcile_recorded(self) -> bool:
        """Whether reconciliation has a first record (:meth:`ReadCaches.reconcile_recorded`)."""
        return self.reads.reconcile_recorded()

    def reconcile_with(self, now: dict[str, Fingerprint]) -> list[str]:
        """The end of a pass taken in slices (:meth:`ReadCaches.reconcile_with`): the paths that changed."""
        return self.reads.reconcile_with(now)

    def recall_index(self) -> RecallIndex:
        """The recall index, brought up to date: only files that changed are read again."""
        return self.reads.recall_index()

    def adopt_recall_index(self, index: RecallIndex) -> None:
        """Take a recall index built on another thread (:meth:`MemoryRepo.warm_recall`)."""
        self.reads.adopt_recall_index(index)

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
        """Search the memory folder (docs/architecture.md §4): best hits first, inbox hits ``unreviewed``.

        ``workspace`` (a folder path, name or ``ws-`` id) limits the search to
        the global files and that workspace's file; ``limit`` is 1..200 hits;
        ``max_bytes`` caps hit text, ref and section together; ``detail`` is
        ``"line"``, or ``"full"`` for up to 80 lines of each hit's section;
        ``min_confidence`` (0..1) leaves out answers under it (None: the
        documented minimum, 0: every match); with ``related``, a query nothing
        answers confidently gets its nearest entries instead, each with ``answer``
        False (:mod:`memrepo.engine.read.recallnear`). A query that is an entry ref (``repo:`` may be left
        out) gives that entry (:mod:`memrepo.engine.read.recallref`). Odd or empty queries give no
        hits, never an error. While the index's first build runs elsewhere (:attr:`build_elsewhere`),
        the files are scanned instead and each hit's ``scan`` says how far the build got. With ``reviewed`` (the
        prompt hook) the inbox's entries are ranked out, so the places go to reviewed lines
        (:mod:`memrepo.engine.read.recallreviewed`).
        """
        if self.build_elsewhere is not None and self.reads.recall_index_built is None:
            from memrepo.engine.read.recallbuilding import build_state, scan_hits
            from memrepo.engine.read.recallkeys import walk

            root = self.reads.root
            if not build_state(root)[0] and self.build_elsewhere(len(walk(root))):
                scoped = workspace is not None and bool(workspace.strip())
                ws_id, ws_file = self.reads.index.file_for(workspace) if scoped else (None, None)
                options = {"limit": min(max(int(limit), 1), 200), "max_bytes": max_bytes, "detail": detail}
                options["reviewed"] = reviewed
                hits = scan_hits(root, query, (ws_id, ws_file, scoped), {**options, "min_confidence": min_confidence})
                if related and not hits:
                    from memrepo.engine.read.recallnear import RELATED_MAX

                    near = {**options, "limit": RELATED_MAX, "min_confidence": 0.0}
                    hits = [hit for hit in scan_hits(root, query, (ws_id, ws_file, scoped), near) if hit.confidence > 0]
                    for hit in hits:
                        hit.answer = False
                return hits
        return self.reads.recall(query, workspace, limit, max_bytes, detail, min_confidence, related, reviewed)

    def other_workspace_files(self, workspace: str) -> bool:
        """Whether a workspace file outside ``workspace``'s scope exists: what a recall scoped to it did not search.

        A scoped recall searches the global files and ``workspace``'s own file (:meth:`recall`); with no other
        workspace file it searched every file there is, and an unscoped recall would find nothing more. One look
        at the ``workspaces`` folder, stopped at the first other file.

        Args:
            workspace: a folder path, name or ``ws-`` id, as for :meth:`recall`.

        Returns:
            bool: True when some other ``workspaces/*.md`` file exists (or the folder cannot be read).
        """
        import os

        from memrepo.engine.format.layout import WORKSPACES

        own = self.reads.index.file_for(workspace)[1] if workspace and workspace.strip() else None
        try:
            with os.scandir(self.reads.root / WORKSPACES) as found:
                return any(e.name.endswith(".md") and f"{WORKSPACES}/{e.name}" != own for e in found)
        except FileNotFoundError:
            return False
        except OSError:
            return True

    def build_in_background(self, start_build: Callable[[Path], None]) -> None:
        """Have a large repo's first recall build run in a process ``start_build`` starts; recall scans meanwhile.

        The engine starts no process itself (docs/architecture.md §1): the front end
        hands in what starts one (running :func:`memrepo.engine.read.recallfile.build_index`).
        """
        from memrepo.engine.read.recallbuilding import build_elsewhere

        self.build_elsewhere = lambda files: build_elsewhere(self.reads.root, start_build, files)

    def use_semantic(self) -> None:
        """Fuse recall with semantic similarity from now on (``[semantic]``; a long-running process only)."""
        self.reads.use_semantic(self.settings.semantic)

    def open_recall_door(self, via: str, after: threading.Event | None = None) -> RecallDoor | None:
        """Answer new processes' recall with this process's warm model (:mod:`memrepo.engine.read.recalldoor`).

        Args:
            via: who answers, as the asker's mode line names it (``the MCP server``).
            after: set when the process has answered what it must answer first (the MCP server: ``initialize``);
                the door loads the model only then (at most :data:`~memrepo.engine.read.recalldoor.AFTER_WAIT_S`
                later). None: at once.

        Returns:
            RecallDoor | None: the door's thread, started (:meth:`RecallDoor.close` ends it); None when
            recall is not hybrid here (no :meth:`use_semantic`, or semantic recall off).
        """
        semantic = self.reads.semantic
        if semantic is None or semantic.embedder is None:
            return None
        from memrepo.engine.read.recalldoor import RecallDoor

        door = RecallDoor(self.reads.root, self.settings.semantic, semantic, via, after)
        door.start()
        return door

    def recall_mode(self) -> RecallMode:
        """How the last :meth:`recall` was answered: ``hybrid`` or ``lexical``, the share with vectors, a note."""
        info = self.reads.last_recall_info
        if info is None:  # no indexed recall yet (a scan answered): still say why recall is lexical, if known
            semantic = self.reads.semantic
            return RecallMode(note=semantic.off_note if semantic is not None else None)
        return RecallMode(**info.as_dict())

    def context_cached(self, workspace: str | None = None) -> ContextBlock | None:
        """The cached context block when a watcher vouches it is current, else None (any thread)."""
        return self.reads.context_cached(workspace)

    def context(self, workspace: str | None = None) -> ContextBlock:
        """The context block an agent gets for ``workspace`` (docs/architecture.md §4; see :mod:`.context`)."""
        return self.reads.context(workspace)
