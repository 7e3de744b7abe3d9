"""The one write transaction every change to the work tree goes through (docs/architecture.md §3).

:class:`.writer.Writer` opens one (:meth:`~.writer.Writer.transaction`): reads
see the staged state, writes are staged, and :meth:`Transaction.commit` makes
one commit of them under the write lock.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from memrepo.engine.errors import (
    DISK_FULL,
    BusyError,
    HandEditQuestion,
    MemrepoError,
    RefError,
    is_disk_full,
)
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.files.undo import Undo
from memrepo.engine.files.worktreefiles import list_files
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.limits import check_file_count, check_file_size
from memrepo.engine.git.store import format_message

from . import commitjournal
from .settle import appended, wait_settled

if TYPE_CHECKING:
    from .writer import Writer

T = TypeVar("T")

RETRIES_ON_CHANGE = 3
"""How often a write starts over when a file changes under it before giving up (busy)."""


class ChangedMeanwhile(Exception):
    """A file changed on disk between the transaction reading it and replacing it."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


class Transaction:
    """One change under the write lock: read, stage, then :meth:`commit` (see the module docstring).

    After a commit (or :meth:`discard`) the transaction is empty again and
    can build the next commit under the same lock.
    """

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self.root = writer.root
        self._read: dict[str, bytes | None] = {}
        self._staged: dict[str, bytes | None] = {}  # path -> new bytes, None to delete
        self._moves: list[tuple[str, str]] = []
        self._parsed: dict[str, fmt.MemoryFile] = {}
        self._new_files = 0
        self._consumed: list[Path] = []
        self.merge_appends = False
        """Lines appended meanwhile are merged after the rename instead of :class:`ChangedMeanwhile`
        (set by :func:`retrying` once a change started over, so a steady appender cannot starve a write)."""

    # -- reading -----------------------------------------------------------

    def commit_hand_edits(
        self,
        paths: list[str] | None = None,
        *,
        confirm: bool = False,
        secrets_asked: bool = False,
        put_back: bool = False,
    ) -> str | None:
        """Commit hand edits under this transaction's lock (:meth:`Writer.commit_hand_edits`).

        ``secrets_asked`` with ``confirm``: an edit that adds a secret is still held (the user confirmed
        something else, docs/architecture.md §3). ``put_back``: the commit answers a stale save with "put back"
        (``Answer: put back``: :mod:`.stalesave` never takes it for the version the editor read).
        """
        return self.writer._commit_hand_edits_held(
            paths, confirm=confirm, secrets_asked=secrets_asked, put_back=put_back
        )

    def read_bytes(self, rel: str) -> bytes | None:
        """The bytes of ``rel`` as this change sees them (staged ones first); None when missing.

        The bytes on disk are remembered: :meth:`commit` refuses to replace a
        file that changed since.

        A file being saved is waited for (:func:`.settle.wait_settled`); a
        governed write never builds on half a save.

        Raises:
            MemrepoError: ``rel`` or a folder on its way is a symlink (never read or written through).
            RefError: ``rel`` is a folder.
            BusyError: ``rel`` kept changing (a save in progress); nothing was written.
            HandEditQuestion: a hand edit emptied ``rel`` or removed most of its
                entries and waits for the user's answer; the committed text is kept.
        """
        if rel in self._staged:
            return self._staged[rel]
        if rel in self._read:
            return self._read[rel]
        full = self.root / rel
        folder = full
        while folder != self.root and folder != folder.parent:
            if folder.is_symlink():
                raise MemrepoError(f"{rel} is a symlink; memrepo never reads or writes through symlinks")
            folder = folder.parent
        committed = self.writer.git.head_blob(rel)
        for attempt in range(2):
            try:
                data = read_work_file(full)  # never blocks on a FIFO or device
            except FileNotFoundError:
                data = None
            except IsADirectoryError as exc:
                raise RefError(f"{rel} is a folder, not a file") from exc
            if attempt or data == committed or appended(committed, data):
                break  # as committed: no save in progress, nothing to wait for
            if not wait_settled(full):
                raise BusyError(f"{rel} is being saved right now; retry when the save has finished")
        asked = self.writer.question(rel, data, committed)
        if asked is not None:
            raise HandEditQuestion(asked.message)
        self._read[rel] = data
        return data

    def read(self, rel: str) -> fmt.MemoryFile | None:
        """``rel`` parsed (a copy to edit, then :meth:`write`), or None when the file is missing.

        Raises:
            FormatError: not a UTF-8 text file.
            MemrepoError, RefError: as for :meth:`read_bytes`.
        """
        if rel in self._parsed and rel in self._staged:
            return self._parsed[rel].copy()
        data = self.read_bytes(rel)
        if data is None:
            return None
        return self.writer.parse(rel, data)

    # -- staging -----------------------------------------------------------

    def write(self, rel: str, data: bytes, parsed: fmt.MemoryFile | None = None) -> None:
        """Stage new bytes for ``rel``, checking the limits now.

        Args:
            rel: repo-relative path.
            data: the file's new bytes.
            parsed: ``data`` parsed, kept so the next write skips parsing.

        Raises:
            LimitError: the file would grow past its size limit (4 KB for
                MEMORY.md, 64 KB for others; shrinking an oversized file is
                always allowed), or a new file would pass the 2,000-file limit.
        """
        first = rel not in self._staged
        current = self.read_bytes(rel)
        original = self._read.get(rel, current)
        if first and current is None:
            check_file_count(len(list_files(self.root)) + self._new_files)
            self._new_files += 1
        if original is None or len(data) > len(original):
            check_file_size(rel, len(data))
        self._staged[rel] = data
        if parsed is not None:
            self._parsed[rel] = parsed.copy()
        else:
            self._parsed.pop(rel, None)

    def delete(self, rel: str) -> None:
        """Stage the removal of ``rel`` (a missing file is no error)."""
        self._staged[rel] = None
        self._parsed.pop(rel, None)

    def move(self, src: str, dest: str) -> None:
        """Stage renaming ``src`` to ``dest`` (its bytes and mode kept), done before the staged writes.

        Raises:
            MemrepoError: ``dest`` already exists.
        """
        if (self.root / dest).exists():
            raise MemrepoError(f"{dest} already exists: move or delete it first, then retry")
        self._moves.append((src, dest))

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """Undo what is staged inside the block when it raises (a write refused half-way stages nothing)."""
        saved = (dict(self._staged), dict(self._parsed), list(self._moves), self._new_files)
        try:
            yield
        except BaseException:
            self._staged, self._parsed, self._moves, self._new_files = saved
            raise

    def remove_after_commit(self, path: Path) -> None:
        """Remove the state file ``path`` (a kept write's record) once the next :meth:`commit` lands.

        The commit is journaled (:mod:`.commitjournal`): killed between the files and the commit, or between
        the commit and the removal, the next holder of the write lock finishes both (docs/architecture.md §3).
        Forgotten by :meth:`discard`, as the staged change is.
        """
        self._consumed.append(path)

    def staged(self) -> list[str]:
        """The paths this change writes, deletes or moves, sorted."""
        return sorted({*self._staged, *(p for move in self._moves for p in move)})

    def discard(self) -> None:
        """Forget everything read and staged (after :class:`ChangedMeanwhile`, before trying again)."""
        self._read.clear()
        self._staged.clear()
        self._parsed.clear()
        self._moves.clear()
        self._new_files = 0
        self._consumed.clear()

    # -- committing --------------------------------------------------------

    def apply(self, undo: Undo | None = None) -> list[str]:
        """Write what is staged to the work tree without committing; returns the paths changed.

        For a caller that commits several applied changes at once
        (:meth:`commit_paths`); :meth:`commit` is apply then commit.

        Args:
            undo: records how to put each file back (:mod:`.undofiles`); a write that fails
                half-way puts back what it had changed either way.

        Raises:
            ChangedMeanwhile: a file's bytes on disk differ from what was read;
                nothing of this change was written.
            MemrepoError: a file could not be written (a full disk: :data:`.errors.DISK_FULL`);
                the files are as they were.
        """
        for rel in self._staged:
            if rel not in self._read:
                continue  # never read: a blind write or a deletion, nothing to compare
            try:
                now: bytes | None = read_work_file(self.root / rel)
            except (FileNotFoundError, IsADirectoryError):
                now = None
            if now != self._read[rel] and not (self.merge_appends and appended(self._read[rel], now)):
                # Lines appended meanwhile are merged in after the rename (:meth:`Writer.salvage`).
                self.discard()
                raise ChangedMeanwhile(rel)
        paths = self.staged()
        steps = Undo(self.root) if undo is None else undo
        try:
            for src, dest in self._moves:
                (self.root / dest).parent.mkdir(parents=True, exist_ok=True)
                os.replace(self.root / src, self.root / dest)
                steps.moved(src, dest)
            for rel, data in self._staged.items():
                full = self.root / rel
                steps.keep(rel, self._read.get(rel))
                if data is None:
                    full.unlink(missing_ok=True)
                else:
                    self.writer.replace(rel, data, self._read.get(rel))
                    parsed = self._parsed.get(rel)
                    if parsed is not None:
                        self.writer.keep_parsed(rel, data, parsed)
        except BaseException as exc:
            self.discard()
            self.writer.note_written(steps.restore())
            if isinstance(exc, OSError) and is_disk_full(exc):
                raise MemrepoError(DISK_FULL) from exc
            raise
        if undo is None:
            steps.forget()
        self.discard()
        if paths:
            self.writer.note_written(paths)
        return paths

    def commit(
        self, summary: str, trailers: dict[str, str | None], body: str = "", *, sync_index: bool = True
    ) -> str | None:
        """Write what is staged (:meth:`apply`) and commit exactly those paths.

        Args:
            summary: the commit's first line.
            trailers: its trailers (``Origin``, ``Task``, ...).
            body: an optional paragraph.
            sync_index: False leaves the index update to the caller
                (``writer.git.sync_index()``, before the lock is released).

        Returns:
            str | None: the commit, or None when nothing was staged or the tree did not change.

        Raises:
            ChangedMeanwhile: a file changed on disk since it was read; nothing was written.
            BlockedError, GitError: as :meth:`GitStore.commit_paths`.
            BusyError: another git process held ``index.lock`` for 3 s; nothing was written.
        """
        undo = Undo(self.root)
        written = dict(self._staged)  # what apply writes: what is committed, whatever the work tree holds by then
        consumed, journal = list(self._consumed), None
        if consumed and not self._moves:
            message = format_message(summary, trailers, body=body)
            with contextlib.suppress(OSError):  # a full disk: the write goes on unjournaled, and apply says why
                journal = commitjournal.begin(self.writer.state_dir, message, written, consumed)
        try:
            # git's index.lock from the first file written to the commit: a `git stash` or `git checkout` beside
            # it rewrites the files wholly before or wholly after, never between (docs/architecture.md §3, B28-3).
            with self.writer.git.holding_index():
                paths = self.apply(undo)
                commit = self.commit_paths(
                    paths, summary, trailers, body, sync_index=sync_index, undo=undo, written=written, salvage=False
                )
        except BaseException:
            if journal is not None:
                journal.unlink(missing_ok=True)  # nothing landed, the files are as before: the records stay
            raise
        if journal is not None:
            commitjournal.end(journal, consumed)
        else:
            for done in consumed:
                done.unlink(missing_ok=True)
        if paths:
            self.writer.salvage()
        return commit

    def commit_paths(
        self,
        paths: list[str],
        summary: str,
        trailers: dict[str, str | None],
        body: str = "",
        *,
        sync_index: bool = True,
        undo: Undo | None = None,
        written: dict[str, bytes | None] | None = None,
        salvage: bool = True,
    ) -> str | None:
        """Commit paths already written by :meth:`apply` (one commit for several changes).

        With ``undo`` (:meth:`commit`), a commit that fails puts the files back as they were
        (docs/architecture.md §3: a failed write leaves the repo as before). ``written``: the bytes
        :meth:`apply` wrote, committed as they are when an editor began a save in place into the new
        file since (truncated, half written): the acknowledged write is in HEAD, the save is a hand
        edit judged at the next look, never half a save committed as memrepo's (docs/architecture.md §3).
        """
        if not paths:
            if undo is not None:
                undo.forget()
            return None
        message = format_message(summary, trailers, body=body)
        try:
            commit = self.writer.git.commit_paths(sorted(set(paths)), message, sync_index=sync_index, written=written)
        except BaseException:
            if undo is not None:
                self.writer.note_written(undo.restore())
            raise
        if undo is not None:
            undo.forget()
        if salvage:  # False: the caller salvages once it lets go of index.lock (:meth:`commit`)
            self.writer.salvage()
        return commit


def retrying(tx: Transaction, change: Callable[[Transaction], T], retries: int = RETRIES_ON_CHANGE) -> T:
    """Run ``change`` in ``tx``; when a file changed under it, commit that edit and run it again.

    Args:
        tx: an open transaction.
        change: reads, stages and commits; run again from scratch after
            :class:`ChangedMeanwhile`.
        retries: how many times to start over.

    Raises:
        BusyError: the file kept changing ``retries`` times.
    """
    for attempt in range(retries + 1):
        tx.merge_appends = attempt > 0
        try:
            return change(tx)
        except ChangedMeanwhile as exc:
            tx.discard()
            if attempt == retries:
                raise BusyError(f"{exc.path} keeps changing on disk while memrepo writes it; retry") from exc
            tx.commit_hand_edits([exc.path])
        finally:
            tx.merge_appends = False
    raise AssertionError("unreachable")  # pragma: no cover
