"""The synchronous core of a memory repo: :class:`MemoryStore`, the façade over its parts.

:class:`MemoryStore` does the work; :class:`memrepo.engine.repo.repo.MemoryRepo` runs it on
one worker thread per repo and awaits it. A store must be used from one
thread only (it owns a pygit2 repository, docs/architecture.md §1).

Its parts, each one job: :mod:`.writer` (the one write transaction: lock,
hand edits first, changed-meanwhile check, limits, atomic write, commit, cache
notes), :mod:`.remember` (routing and writing one entry, the pending queue),
:mod:`.triage` (the inbox), :mod:`.rewrites` (forget, undo, clearing),
:mod:`.workspaces` (archive, restore, purge), :mod:`.workspaceindex` (which
file holds a workspace), :mod:`.readcache` (recall and context caches),
:mod:`.compact` (compaction) and :mod:`.layout` (the file names). Its façade methods
are grouped in mixins: :mod:`.storereads` (reads), :mod:`.storeforget` (forgetting),
:mod:`.storetriage` (inbox triage), :mod:`.storewrites` (writing entries) and
:mod:`.storeworkspaces` (workspace files).
"""

from __future__ import annotations

import contextlib
import os
import re
from contextlib import AbstractContextManager
from pathlib import Path

from memrepo.engine.config import Settings
from memrepo.engine.errors import BlockedError, BusyError, MemrepoError
from memrepo.engine.files.lock import WriteLock
from memrepo.engine.files.oldinode import OldInodes
from memrepo.engine.files.worktreefiles import file_sizes, list_files
from memrepo.engine.format.entrytext import clean_text
from memrepo.engine.format.layout import STARTING_LAYOUT
from memrepo.engine.format.paths import check_repo_path, missing_repo
from memrepo.engine.git.store import GitStore
from memrepo.engine.models import CommitInfo, FileView, Origin, RepoStatus
from memrepo.engine.read.readcache import RESCAN_S, WATCH_SETTLE_S, ReadCaches
from memrepo.engine.read.readfile import read_file
from memrepo.engine.read.readstamps import Fingerprint
from memrepo.engine.read.workspaceindex import WorkspaceIndex
from memrepo.engine.write.handanswer import answer_hand_edit
from memrepo.engine.write.remember import EntryWriter
from memrepo.engine.write.writer import RETRIES_ON_CHANGE, Transaction, Writer

from .storeforget import StoreForgetting
from .storereads import StoreReads
from .storetriage import StoreTriage
from .storeworkspaces import StoreWorkspaces
from .storewrites import StoreWrites

__all__ = ["RETRIES_ON_CHANGE", "STARTING_LAYOUT", "MemoryStore", "clean_text"]


class MemoryStore(StoreForgetting, StoreReads, StoreTriage, StoreWrites, StoreWorkspaces):
    """One open memory repo, used from a single thread.

    Use :meth:`open` to create or adopt one.

    Attributes:
        root: the work tree's absolute path.
        writer: the one write transaction (:class:`.writer.Writer`).
        workspace_index: which file holds which workspace.
        entries: the entry writer (routing, the pending queue).
        reads: the recall and context caches.
    """

    WATCH_SETTLE_S = WATCH_SETTLE_S
    """A new watcher is trusted only after this long (seconds); until then reads check files."""
    RESCAN_S = RESCAN_S
    """Even with a watcher, recall re-checks every file's mtime and size this often (seconds)."""

    def __init__(self, root: Path, git: GitStore, settings: Settings) -> None:
        self.root = root
        self.settings = settings
        """The process's one settings object (docs/architecture.md §11); the engine reads it from here."""
        self.workspace_index = WorkspaceIndex(root)
        self.reads = ReadCaches(
            root, self.workspace_index, lambda: self.git.head_id(), lambda: (self.WATCH_SETTLE_S, self.RESCAN_S)
        )
        self.writer = Writer(root, git, self.reads.note_changed)
        self.entries = EntryWriter(self.writer, self.workspace_index)
        self.writer.on_unblocked = self.entries.apply_pending_in  # any write applies the kept ones
        self.agent_to_inbox = settings.writes.agent_to_inbox
        self.context_me_md = settings.context.me_md
        from memrepo.engine.redaction import allow, protect_logs

        allow.activate(self.state_dir)  # values marked false alarms here stay unredacted (docs/architecture.md §3)
        protect_logs()  # and no log line carries a secret

    # -- the parts' state, as attributes -------------------------------------

    @property
    def context_me_md(self) -> bool:
        """me.md's entries are in the context block (``[context] me_md``, docs/architecture.md §4)."""
        return self.reads.me_md

    @context_me_md.setter
    def context_me_md(self, value: bool) -> None:
        self.reads.me_md = bool(value)
        self.reads.clear_context()

    @property
    def git(self) -> GitStore:
        """The git store (owns pygit2); replaced after a compaction."""
        return self.writer.git

    @git.setter
    def git(self, value: GitStore) -> None:
        self.writer.git = value

    @property
    def lock(self) -> WriteLock:
        """The cross-process write lock."""
        return self.writer.lock

    @property
    def state_dir(self) -> Path:
        """The engine's state folder, ``.git/memrepo/``."""
        return self.writer.state_dir

    def parked_line(self) -> str | None:
        """One line naming the session messages parked after failed distillations, or None (docs/architecture.md
        §7); a read of the buffer files only, without the checkpoint policy's imports (``memrepo status``)."""
        from memrepo.engine.checkpoints.buffers import Buffers

        return Buffers(self.state_dir).parked_line()

    @property
    def agent_to_inbox(self) -> bool:
        """Ask before saving: every agent write goes to the inbox (``[writes] agent_to_inbox``)."""
        return self.entries.agent_to_inbox

    @agent_to_inbox.setter
    def agent_to_inbox(self, value: bool) -> None:
        self.entries.agent_to_inbox = value

    # -- opening -------------------------------------------------------------

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], settings: Settings, create: bool = True, origin: Origin = "cli"
    ) -> MemoryStore:
        """Open a memory repo, creating it with the starting layout when missing or empty.

        Args:
            path: the repo folder; ``~`` is expanded.
            settings: the settings the front end loaded once (docs/architecture.md §11).
            create: create the repo when the folder is missing or empty;
                when False such a folder is refused.
            origin: the ``Origin:`` trailer of the "Create memory repo" commit.

        Raises:
            PathRuleError: the path breaks a rule of docs/architecture.md §2 (the message names it).
            GitError: libgit2 could not open or create the repository.
        """
        root = check_repo_path(path)
        if (root / ".git").is_dir():
            store = cls(root, GitStore(root), settings)
            store.catch_up_index()
            return store
        if not create:
            raise missing_repo(root)
        with contextlib.suppress(FileExistsError):  # a folder memrepo makes is its owner's alone (B31-13)
            root.mkdir(mode=0o700, parents=True)
        store = cls(root, GitStore.init(root), settings)
        with store.transaction("create", hand_edits=False) as tx:
            for rel, text in STARTING_LAYOUT.items():
                tx.write(rel, text.encode("utf-8"))
            tx.commit("Create memory repo", {"Origin": origin})
        return store

    @staticmethod
    def index_behind(root: Path) -> bool:
        """Whether a write left index entries of the repo at ``root`` behind HEAD (:meth:`catch_up_index` is due)."""
        from memrepo.engine.git import indexlag

        return bool(indexlag.noted(Path(root) / ".git"))

    def catch_up_index(self) -> bool:
        """Bring back to HEAD the index entries a process gave up on while git held ``index.lock`` (:mod:`.indexlag`).

        Every open does it (one file read when nothing is noted), so the next memrepo command ends "MM" in
        ``git status``. Only when the write lock is free right now (a writer catches up itself), and only an entry
        whose work tree file matches HEAD and that no one staged by hand;
        a git still holding ``index.lock`` is waited for a quarter second, then left for the next command.

        Returns:
            bool: whether the index was written.
        """
        from memrepo.engine.files.lock import STATUS_WAIT_S
        from memrepo.engine.git import indexlag

        paths = indexlag.noted(self.git.git_dir)
        if not paths:
            return False
        with self.lock.try_hold() as held:
            if not held:
                return False
            if self.git.catch_up_index(paths, STATUS_WAIT_S):  # noted again when the write fails
                indexlag.clear(self.git.git_dir, paths)  # in step, or someone's own (a hand edit, a git add)
                return True
        return False

    def close(self) -> None:
        """Let go of the git repository's handles (packs, index); the store must not be used after.

        A program that opens a store per write (the write server) closes each: nothing it opened stays
        open (old inodes are the repo's shared watch, let go after :data:`.oldinode.WATCH_SECONDS`).
        """
        self.writer.git.close()

    @staticmethod
    def prune_old_inodes(root: Path) -> None:
        """Let go of this process's old-inode watches of the repo at ``root`` that expired unwritten.

        For a program that opens a store per write and idles between writes (the write server's tick):
        the next write would do it, an idle one does it here (:meth:`.oldinode.OldInodes.prune`).
        """
        OldInodes.shared(Path(root) / ".git").prune()

    @staticmethod
    def old_inodes_written(root: Path) -> bool:
        """True when this process watches an old inode of the repo at ``root`` written into since its last look:
        a save for the next salvage (the write server's idle tick, :meth:`.oldinode.OldInodes.touched`)."""
        return OldInodes.shared(Path(root) / ".git").touched()

    def salvage_old_inodes(self) -> str | None:
        """Merge and commit what an editor saved into an old inode, this process's or one linked under
        ``.git/memrepo/oldinodes/`` by a process gone since (:mod:`.oldlinks`), when the write lock is free.

        For a process that watches and does not write (the app, the MCP server, ``watch``): a save into an
        inode with no name in the work tree sends no file event. One ``fstat`` per watch and a ``stat`` per link.
        """
        if not self.writer.old_inodes.touched():
            return None
        with self.lock.try_hold() as held:
            return self.writer.salvage() if held else None

    def reconcile_with(self, now: dict[str, Fingerprint]) -> list[str]:
        """:meth:`StoreReads.reconcile_with`, then :meth:`salvage_old_inodes`: the watcher's pass every few seconds
        (engine/repo/repo.py) looks at old inodes too."""
        changed = super().reconcile_with(now)
        with contextlib.suppress(MemrepoError, OSError):  # blocked or failed: the next pass or write tries again
            self.salvage_old_inodes()
        return changed

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the write transaction -------------------------------------------------

    def transaction(
        self, purpose: str, scan: list[str] | None = None, *, hand_edits: bool = True
    ) -> AbstractContextManager[Transaction]:
        """The one write transaction every write goes through (:meth:`.writer.Writer.transaction`)."""
        return self.writer.transaction(purpose, scan, hand_edits=hand_edits)

    def commit_hand_edits(
        self, paths: list[str] | None = None, leave_staged: bool = False, *, confirm: bool = False
    ) -> str | None:
        """Commit files changed by hand (only ``paths``, when given) as "Hand edits"; the commit or None.

        With ``leave_staged``, files someone staged (``git add``) are left for their own commit.
        An edit that emptied a file or removed most of its entries is committed
        only with ``confirm`` (the user's answer to :attr:`RepoStatus.questions`).
        See :meth:`.writer.Writer.commit_hand_edits` (BlockedError, BusyError; docs/architecture.md §3).
        """
        return self.writer.commit_hand_edits(paths, leave_staged, confirm=confirm)

    def answer_hand_edit(self, path: str, seen: str, commit: bool, *, redact: bool = False) -> str | None:
        """Answer a :attr:`RepoStatus.questions` entry: commit the edit (``redact``: its secrets
        replaced), or put the committed text back.

        See :func:`.handanswer.answer_hand_edit` (RefError when the file changed
        since the question; BlockedError, BusyError; docs/architecture.md §3).
        The writes kept while the question waited are applied next (one still
        blocked, by another question or a merge, stays kept for the next write).
        """
        done = answer_hand_edit(self.writer, path, seen, commit, redact=redact, scrub=self._scrub)
        if self.entries.pending_dir.is_dir() and any(self.entries.pending_dir.glob("*.json")):
            with contextlib.suppress(BlockedError, BusyError):  # still blocked, or busy: the next write applies them
                self.entries.apply_pending()
        return done

    # -- reading ---------------------------------------------------------------

    def list_files(self) -> list[tuple[str, int]]:
        """Every file in the work tree (not ``.git``), sorted, with its size in bytes (symlinks not followed)."""
        return list_files(self.root)

    def file_sizes(self, paths: list[str]) -> dict[str, int | None] | None:
        """What :meth:`list_files` would say of ``paths`` now, without a walk (:func:`.worktreefiles.file_sizes`).

        Args:
            paths: repo-relative paths a watcher named.

        Returns:
            dict | None: each path's size in bytes, None for one the list would not hold;
            None in all when a path is a folder now (then list the files again).
        """
        return file_sizes(self.root, paths)

    def read_file(self, path: str) -> FileView:
        """Read one work-tree file with its entries and links (:func:`.readfile.read_file`; RefError when missing)."""
        return read_file(self.root, path)

    def status(self) -> RepoStatus:
        """The work tree's state: clean, hand-edited or blocked (docs/architecture.md §3).

        A free write lock lets a stale index get fresh stat data, as ``git status`` does; a reader never waits.
        """
        with self.lock.try_hold() as held:
            if held:  # a save into an old inode whose watcher was killed has a name only under .git/memrepo
                self.writer.salvage()
            status = self.git.status(refresh=held, watched=self.reads.trusting_watcher())
        # This status is the look moved entries are found in (engine/write/moves.py): no second scan.
        status.questions = self.writer.questions(status.changed, look=lambda: self.writer.versions(status.changed))
        if self.entries.pending_dir.is_dir():
            status.pending = sum(1 for _ in self.entries.pending_dir.glob("*.json"))
        return status

    def lost_writes(self) -> str | None:
        """What to say about writes memrepo committed that a git command beside it dropped (a ``git rebase
        --abort`` right after memrepo's commit, breaker24 B24-10), or None (:mod:`memrepo.engine.git.lostcommits`)."""
        from memrepo.engine.git.lostcommits import lost_text

        return lost_text(self.git.git_dir)

    def log(self, limit: int = 100, skip: int = 0) -> list[CommitInfo]:
        """Commits from HEAD, newest first, with their trailers; subjects and messages redacted (a way out: a hand
        edit's, a synced or an old commit's message can quote a token, breaker24 B24-5)."""
        return [_redacted(c) for c in self.git.log(limit, skip)]

    def diff(self, rev: str) -> str:
        """The unified diff commit ``rev`` made (see :meth:`GitStore.commit_diff`)."""
        return self.git.commit_diff(rev)

    def diff_start(self, rev: str, max_lines: int) -> tuple[str, int]:
        """The first files of commit ``rev``'s diff, about ``max_lines`` lines, and how many files were left out.

        See :meth:`GitStore.commit_diff_start` (docs/architecture.md §8).
        """
        return self.git.commit_diff_start(rev, max_lines)

    def head(self) -> str | None:
        """HEAD's full commit id, or None while unborn."""
        return self.git.head_id()


_UUID_TRAILER = re.compile(r"^Task: ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$", re.MULTILINE)
"""A ``Task:`` trailer naming a session by its UUID: no secret by its shape, and the slowest line to screen (8 ms)."""


def _redacted(commit: CommitInfo) -> CommitInfo:
    """``commit`` with its subject and message redacted (a session's UUID trailer left out of the screen)."""
    from memrepo.engine.redaction import redact

    ids = _UUID_TRAILER.findall(commit.message)
    message = redact(_UUID_TRAILER.sub("Task: session", commit.message))[0]
    for found in ids:
        message = message.replace("Task: session", f"Task: {found}", 1)
    return commit.model_copy(update={"summary": redact(commit.summary)[0], "message": message})
