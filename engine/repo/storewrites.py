"""Writing entries, on the store: remember, the kept writes, importers' writes (docs/architecture.md §3).

A mixin of :class:`~memrepo.engine.repo.store.MemoryStore`, kept apart so the store module stays one
screenful per concern. Each method hands the write to the store's entry writer
(:mod:`memrepo.engine.write.remember`) or the import route, so every change goes through the one
write transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memrepo.engine.models import Candidate, Origin, WriteResult
from memrepo.engine.write.remember import EntryWriter, Router

if TYPE_CHECKING:
    from pathlib import Path

    from memrepo.engine.read.readcache import ReadCaches
    from memrepo.engine.write.writer import Writer


class StoreWrites:
    """Writing entries into one open memory repo (mixed into the store).

    Attributes:
        writer: the one write transaction.
        entries: the entry writer (routing, the pending queue).
        reads: the recall and context caches.
    """

    root: Path
    writer: Writer
    entries: EntryWriter
    reads: ReadCaches

    def remember(
        self,
        cand: Candidate,
        hint: list[str] | None = None,
        on_committed: Callable[[WriteResult], None] | None = None,
        *,
        routed: Router | None = None,
        keep_if_git_busy: bool = False,
    ) -> WriteResult:
        """Save one memory through the governed writer (docs/architecture.md §3; :mod:`.remember`).

        Args:
            cand: the candidate.
            hint: paths the watcher saw change since the last write; when
                given, only these (and the target file) are checked for hand edits.
            on_committed: called with the result as soon as the commit exists (still under the lock).
            routed: picks the target instead of the routing rules (importers).
            keep_if_git_busy: another git process holding its lock (``git commit -a`` in its editor) keeps the
                write like a block does (BlockedError, kept) instead of BusyError (``memrepo remember``, B29-14).

        Returns:
            WriteResult: added, reinforced (the same entry is there), replaced
            (same subject), outranked (a user's entry with that subject beats an
            agent's), or refused with a reason and nothing written (a NUL byte,
            an agent asking to pin, the write policy of :mod:`.policy`, a limit).
            Secrets are ``[REDACTED:<type>]`` before anything reaches disk.

        Raises:
            BlockedError: the work tree is blocked; the write is kept in
                ``.git/memrepo/pending/`` and applied once the block is gone.
            BusyError: another writer held the lock for 5 s, or the file kept changing; retry.
            GitError: libgit2 failed; the file write is committed by the next write as a hand edit.
        """
        return self.entries.remember(cand, hint, on_committed, routed, keep_if_git_busy)

    def pending(self) -> list[Candidate]:
        """Writes refused while the work tree was blocked, oldest first, waiting to be applied."""
        return self.entries.pending()

    def unapplied_kept(self) -> list[str]:
        """The writes kept while blocked that could not be applied once the block was gone (a check made since refused
        to read them: ``.git/memrepo/pending/*.unreadable``, kept for a person, never retried), as paths relative to
        the repo, oldest first. ``memrepo status`` names them (breaker31 B31-7: they were dropped with no word)."""
        folder = self.entries.pending_dir
        found = sorted(folder.glob("*.unreadable")) if folder.is_dir() else []
        return [str(path.relative_to(self.root)) for path in found]

    def apply_pending(self) -> list[WriteResult]:
        """Apply the writes kept while blocked, in order (the next write does it too; BlockedError keeps them)."""
        return self.entries.apply_pending()

    def import_target(self, cand: Candidate, file: str | None = None, workspace_slug: str | None = None) -> str:
        """The file :meth:`remember_into` would write ``cand`` to (policy not applied; for dry runs)."""
        from memrepo.engine.write.importroute import import_router

        return import_router(self.entries, file, workspace_slug)(cand).path

    def remember_into(self, cand: Candidate, file: str | None = None, workspace_slug: str | None = None) -> WriteResult:
        """:meth:`remember` for importers: the entry goes to the file it came from when that can be.

        ``file`` (a repo-relative ``.md`` path) takes a global entry when the
        path is allowed (:func:`.importroute.importable_file`); ``workspace_slug``
        names a new workspace file after its source. Untrusted entries still go
        to the inbox and pinned ones to MEMORY.md; the rest is :meth:`remember`.
        """
        from memrepo.engine.write.importroute import import_router

        return self.remember(cand, hint=[], routed=import_router(self.entries, file, workspace_slug))

    def import_files(self, files: dict[str, bytes], origin: Origin = "import") -> str | None:
        """Copy whole files from another memory repo, each linked from the index, in one commit.

        See :func:`.importroute.import_files` (BlockedError, BusyError, LimitError; docs/architecture.md §2).
        """
        from memrepo.engine.write.importroute import import_files

        return import_files(self.writer, self.reads.through_symlink, files, origin)
