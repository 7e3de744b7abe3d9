"""The one write transaction every change to the work tree goes through (docs/architecture.md §3).

:meth:`Writer.transaction` holds the cross-process write lock and commits
hand edits first; the :class:`Transaction` it yields reads files (remembering
their bytes), stages new bytes, deletions and moves (checking the size and
file-count limits as each is staged), then :meth:`Transaction.commit` checks
that no file changed on disk since it was read, writes each file atomically,
commits exactly those paths and tells the read caches. Nothing else in the
engine writes a memory file.

A file saved by an editor between the read and the write raises
:class:`ChangedMeanwhile` before anything is written; :func:`retrying` commits
that edit as "Hand edits" and runs the change again on top of it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from memrepo.engine.errors import (
    BlockedError,
    FormatError,
)
from memrepo.engine.files.atomic import TEMP_PREFIX, atomic_write
from memrepo.engine.files.lock import WriteLock, state_dir
from memrepo.engine.files.oldinode import OldInodes, note_salvaged, open_old
from memrepo.engine.files.oldinode import salvaged as was_salvaged
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.files.undo import recover
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.layout import SYNC_JOURNAL
from memrepo.engine.format.merge import merge_entries
from memrepo.engine.git.dream import clean_interrupted, has_leftover_worktrees
from memrepo.engine.git.store import GitStore, format_message
from memrepo.engine.models import HandEditQuestion as Question
from memrepo.engine.models import RepoState
from memrepo.engine.read.heldread import note_questions

from . import commitjournal, moves, stalesave
from .forgotlines import forgotten
from .handsecret import describe_secrets, secret_lines, secret_name, secret_question
from .settle import appended, bytes_seen, entry_count, not_text, question, wait_settled
from .staleanswer import stale_question
from .stalerevived import revived_entries
from .stalesave import all_dropped, dropped_entries, removed_note
from .tornsave import torn_lines, torn_question

PARSE_CACHE_FILES = 64
"""Parsed files kept per writer, keyed by their exact bytes, so repeated writes skip parsing."""


def _read_or_none(path: Path) -> bytes | None:
    try:
        return read_work_file(path)  # never blocks on a FIFO or device
    except OSError:
        return None


def _once(read: Callable[[], moves.Versions]) -> Callable[[], moves.Versions]:
    """``read``, called at most once: one look at the work tree serves every file's question."""
    kept: list[moves.Versions] = []

    def get() -> moves.Versions:
        if not kept:
            kept.append(read())
        return kept[0]

    return get


REMOVING = frozenset({"forget", "undo", "clear workspace", "clear global", "purge workspace", "purge task"})
"""Purposes whose transaction does not apply the kept writes first: one may quote the text being removed."""


class Writer:
    """The write side of one open memory repo: its lock, git store, parse cache and change notes.

    Args:
        root: the work tree's absolute path.
        git: the git store (owns pygit2).
        notify: told the paths each commit wrote (the read caches' ``note_changed``).

    Attributes:
        root: the work tree.
        git: the git store; replaced after a compaction (old packs are gone).
        lock: the cross-process write lock.
        state_dir: the engine's state folder, ``.git/memrepo/``.
    """

    def __init__(self, root: Path, git: GitStore, notify: Callable[[list[str]], None]) -> None:
        self.root = root
        self.git = git
        self.lock = WriteLock(git.git_dir)
        self.lock.on_release = lambda: self.git.sync_written()  # a commit is on disk before it is acknowledged
        self.state_dir = state_dir(git.git_dir)
        self.note_written = notify
        """Tells the read caches the paths a commit wrote."""
        self._parsed: OrderedDict[str, tuple[bytes, fmt.MemoryFile]] = OrderedDict()
        self.old_inodes = OldInodes.shared(git.git_dir)
        """The inodes of files this repo's writers in this process just replaced, watched for text saved into them
        (shared: a store opened for each write still has the last write's looked at)."""
        self.on_unblocked: Callable[[Transaction], object] | None = None
        """Run by every write once its hand edits are committed: applies the writes kept while blocked."""

    @contextmanager
    def transaction(
        self, purpose: str, scan: list[str] | None = None, *, hand_edits: bool = True
    ) -> Iterator[Transaction]:
        """Hold the write lock for one change; hand edits are committed first.

        Args:
            purpose: a few words recorded in the lock for health (``remember``, ``forget``).
            scan: the paths to check for hand edits; None scans the whole work tree.
            hand_edits: False leaves the hand-edit commit to the caller
                (:meth:`Transaction.commit_hand_edits`), for a change that picks
                its paths under the lock first.

        Yields:
            Transaction: the change to build and commit (more than once, if need be).

        Raises:
            BlockedError: the work tree is blocked (a merge or rebase, a locked
                index, a new binary or oversized file); nothing was written.
            BusyError: another writer held the lock for 5 s.
        """
        with self.lock.hold(purpose):
            self.finish_interrupted()
            tx = Transaction(self)
            if hand_edits:
                tx.commit_hand_edits(scan)
                if self.on_unblocked is not None and purpose not in REMOVING:
                    self.on_unblocked(tx)
            yield tx

    def commit_hand_edits(
        self, paths: list[str] | None = None, leave_staged: bool = False, *, confirm: bool = False
    ) -> str | None:
        """Commit files changed by hand as "Hand edits" (``Origin: hand_edit``), taking the lock.

        Only settled files are committed (size and mtime unchanged for a
        moment, :mod:`.settle`); a file that became empty or lost most of its
        entries in one save waits for the user (:meth:`questions`) unless
        ``confirm`` says they answered yes.

        Args:
            paths: only look at these paths (the watcher's hint); None scans the whole work tree.
            leave_staged: leave files someone staged (``git add``: the index differs
                from HEAD) for their own commit; the quiet-period commit passes True,
                so a person's or an agent's ``git commit`` lands.
            confirm: commit the edits that raise a question too (the user said so).

        Returns:
            str | None: the new commit id, or None when nothing was changed by hand.

        Raises:
            BlockedError: a merge or rebase is in progress, the index is
                locked, or a new file is binary, a symlink or over 64 KB.
            BusyError: another writer held the lock for 5 s.
        """
        with self.lock.hold("hand edits"):
            self.finish_interrupted()
            commit = self._commit_hand_edits_held(paths, leave_staged, confirm=confirm)
            if self.on_unblocked is not None:  # the app's quiet timer lands here
                self.on_unblocked(Transaction(self))
            return commit

    def finish_interrupted(self) -> None:
        """Finish what a kill interrupted before anything else looks at the work tree (under the lock).

        A sync's or a dream accept's half-updated files are theirs, not hand
        edits (docs/architecture.md §3, §6); a killed dream's temporary
        worktree (a copy of the memory, and a registration ``git fsck``
        fails on) is removed: dreams build it under this lock only.
        """
        if (self.state_dir / SYNC_JOURNAL).is_file():  # the path of gitremote.sync_journal
            from memrepo.engine.git.remote import finish_interrupted_sync

            finish_interrupted_sync(self.root)
        if has_leftover_worktrees(self.git.git_dir):
            clean_interrupted(self.root)
        left: list[str] = []
        if self.lock.killed:  # a killed transaction's change is committed as before, never asked about
            self.lock.killed = False
            left = recover(self.root, self.git.head_blob)
        done = commitjournal.finish(self)  # a kept write's commit a kill interrupted: with its own message
        left = [p for p in left if p not in done]
        if left:
            self._commit_hand_edits_held(left, confirm=True, secrets_asked=True)

    def question(
        self,
        rel: str,
        data: bytes | None,
        committed: bytes | None = None,
        look: Callable[[], moves.Versions] | None = None,
    ) -> Question | None:
        """The question ``data`` (``rel``'s bytes on disk) raises against HEAD, or None.

        An emptied file or most entries gone (:func:`.settle.question`); else a save that drops entries
        memrepo wrote after the version it was read from or brings back entries it removed (:func:`.stalesave.dropped_entries`,
        :func:`.stalerevived.revived_entries`: an editor's stale copy); else
        new lines holding a secret (:func:`.handsecret.secret_lines`). Entries moved to or from another
        file changed in the same look are no part of any of these (:mod:`.moves`), and lines moved in
        never stand in for the file's own lost entries (:func:`.moves.own_loss`).

        Args:
            rel: repo-relative path.
            data: its bytes on disk (None: deleted).
            committed: its bytes in HEAD, when the caller has them.
            look: every changed path's versions (:meth:`look`), when the caller has them; read only when
                the edit raises a question a move could explain.
        """
        if committed is None:
            committed = self.git.head_blob(rel)
        if committed == data:
            return None
        asked = self._judge(rel, data, committed)
        if asked is None and data is not None and moves.may_hide_loss(rel, committed, data):
            # Lines moved in may stand in for the file's own lost entries in the count (B7-25).
            return moves.own_loss(self._moves(look or self.look), rel, committed, data)
        if asked is None or asked.not_text:
            return asked
        found = self._moves(look or self.look)
        if data is None:  # deleted: renamed, or every entry moved elsewhere, asks nothing
            if moves.all_moved(found, rel, committed):
                return None
            asked.message += moves.deleted_note(found, rel)
            return asked
        judged = moves.judged_as(found, rel, committed, data)
        if judged is None:
            return asked
        asked = self._judge(rel, judged[1], judged[0])
        if asked is None or asked.dropped:  # the file's own entries may be lost under the lines moved in
            own = moves.own_loss(found, rel, committed, data)
            if asked is None or own is not None:
                # The file's own entries lost outweigh a stale save's few: "put back" then restores all of them.
                if own is not None and asked is not None and asked.secrets:
                    own.secrets = asked.secrets
                    own.message += "; " + describe_secrets(rel, asked.secrets)
                return own
        # The question is about the bytes on disk, and says what was not counted.
        asked.seen = bytes_seen(data)
        asked.entries_now = entry_count(data, rel) or 0
        asked.message += moves.note(found, rel)
        return asked

    def _moves(self, look: Callable[[], moves.Versions]) -> list[moves.Move]:
        """The look's moves, and the lines it lost that an unchanged file of HEAD holds whole: pasted there
        in an earlier look, cut here in this one (:func:`.moves.moved_before`)."""
        versions = look()
        found = moves.find_moves(versions)
        return found + moves.moved_before(versions, found, self._held_elsewhere)

    def _held_elsewhere(self, lines: set[str], skip: set[str]) -> dict[str, str]:
        """{line: the first memory file of HEAD outside ``skip`` holding it as a whole entry line}."""
        return moves.held_in_head(self.git, lines, skip)

    def _judge(self, rel: str, data: bytes | None, committed: bytes | None) -> Question | None:
        """:meth:`question` for one file alone, moves not looked at."""
        asked = question(rel, committed, data)
        if data is None:  # deleted: a question when it held entries (:func:`.settle.deleted`), nothing else to check
            return asked
        if asked is not None and not asked.empty and committed is not None and not_text(data) is None:
            stale = all_dropped(self.git, rel, committed, data)  # only memrepo's newer lines lost: a stale copy
            if not stale:  # a stale copy whose own edit deletes lines too: judged as the edit of that copy (B28-5)
                stale = stalesave.dropped_with_own_deletion(self.git, rel, committed, data)
            if stale:
                asked = stale_question(rel, committed, data, stale, [])
        torn = torn_lines(rel, committed, data) if asked is None else []
        if torn and committed is not None:  # a save cut mid-write: never a hand edit without a word (B10-9)
            asked = torn_question(rel, committed, data, torn)
        if asked is None and committed is None and not_text(data) is None:  # recreated: memrepo deleted it?
            revived = revived_entries(self.git, rel, None, data, self._compacted)
            if revived:
                asked = stale_question(rel, b"", data, [], revived)
        if asked is None and committed is not None:
            salvaged = self.old_inodes.merged.get(rel) == data or was_salvaged(self.state_dir, rel, data)
            if not salvaged:  # saved again since (or never salvaged): the bytes kept for it are let go
                self.old_inodes.merged.pop(rel, None)
                note_salvaged(self.state_dir, rel, None)
            dropped = dropped_entries(self.git, rel, committed, data, salvaged=salvaged)
            revived = revived_entries(self.git, rel, committed, data, self._compacted)
            if dropped or revived:
                asked = stale_question(rel, committed, data, dropped, revived)
        secrets = secret_lines(committed, data) + secret_name(rel, committed)
        if not secrets:
            return asked
        if asked is None:
            return secret_question(rel, committed, data, secrets)
        # One save, one question: a deletion or a stale save that also adds a secret names both.
        asked.secrets = secrets
        asked.message += "; " + describe_secrets(rel, secrets)
        return asked

    def look(self) -> dict[str, tuple[bytes | None, bytes | None]]:
        """Every path changed in the work tree with its HEAD and disk bytes (empty while blocked): where moved
        entries can have gone (:mod:`.moves`). Read only when an edit lost entries."""
        return self.versions(self.git.status().changed)

    def versions(self, paths: list[str]) -> dict[str, tuple[bytes | None, bytes | None]]:
        """Each of ``paths`` with its bytes in HEAD and on disk (None: missing)."""
        return {p: (self.git.head_blob(p), _read_or_none(self.root / p)) for p in paths}

    def _compacted(self, rel: str, lines: list[str]) -> set[str]:
        """Which of ``lines`` memrepo removed from ``rel`` within the hour before a compaction (:mod:`.forgotlines`)."""
        return forgotten(self.state_dir, rel, lines)

    def questions(
        self,
        paths: list[str],
        seen: dict[str, bytes | None] | None = None,
        look: Callable[[], moves.Versions] | None = None,
    ) -> list[Question]:
        """The hand edits among ``paths`` that wait for the user's answer (emptied, or most entries gone).

        ``seen``: the bytes each path was read as, judged instead of a new read, so that what is committed
        (``commit_paths(..., expect=seen)``) is exactly what was judged (an editor saving in place between
        two reads had an empty file committed; docs/architecture.md §3).
        """
        out = []
        look = _once(look or self.look)
        for rel in paths:
            data: bytes | None = None if seen is None else seen.get(rel)
            try:
                if data is None:
                    data = read_work_file(self.root / rel)
            except (FileNotFoundError, IsADirectoryError):
                data = None
            except OSError:  # a FIFO, socket or device, or unreadable: no question, the commit says why
                continue
            q = self.question(rel, data, look=look)
            if q is not None:
                out.append(q)
        note_questions(self.state_dir, paths, out)  # readers show a file losing entries as committed meanwhile
        return out

    def replace(self, rel: str, data: bytes, seen: bytes | None) -> None:
        """Write ``data`` to ``rel`` atomically, watching the old inode for text saved into it meanwhile.

        Args:
            rel: repo-relative path.
            data: the new bytes.
            seen: the bytes memrepo read and built ``data`` on (None: a blind write).
        """
        full = self.root / rel
        fd = open_old(full)
        if fd is not None:
            self.old_inodes.watch(rel, fd, seen)
        atomic_write(full, data, self.root)

    def salvage(self) -> str | None:
        """Keep text saved into a replaced file's old inode: merge it into the file, commit it as "Hand edits".

        A program that opened a file just before memrepo renamed its new
        version over it writes into the old inode (docs/architecture.md §3:
        an edit saved while memrepo writes is never lost). Called under the lock.

        Returns:
            str | None: the "Hand edits" commit, or None when nothing was saved into an old inode.
        """
        paths: set[str] = set()
        self.old_inodes.adopt(self.root)  # linked ones a killed or finished process left (.oldlinks)
        for _ in range(RETRIES_ON_CHANGE):
            found = self.old_inodes.take_written()
            if not found:
                break
            for old, data in found:
                full = self.root / old.rel
                try:
                    current: bytes | None = read_work_file(full)
                except (FileNotFoundError, IsADirectoryError):
                    current = None
                except OSError:
                    continue  # no longer a regular file: nothing to merge into
                try:
                    merged = merge_entries(old.seen, current, data).data
                except FormatError:  # not text: keep what was appended, if that is all it was
                    merged = (current or b"") + data[len(old.seen) :] if data.startswith(old.seen) else current or b""
                old.took(data)
                if merged != current:
                    self.replace(old.rel, merged, current)
                    self.old_inodes.merged[old.rel] = merged
                    note_salvaged(self.state_dir, old.rel, merged)  # judged strictly by every process too
                paths.add(old.rel)
        if not paths:
            return None
        self.note_written(sorted(paths))
        # Text saved into an old inode is a hand edit too: one that empties the file, drops most of
        # its entries or entries memrepo wrote, or adds a secret stays in the file, uncommitted, and is
        # asked about like any other (:meth:`question`); HEAD keeps the committed text.
        seen = {p: _read_or_none(self.root / p) for p in paths}
        asked = {q.path for q in self.questions(sorted(paths), seen)}
        paths = {p for p in paths if p not in asked}
        if not paths:
            return None
        body = self._hand_edits_body(sorted(paths), seen)
        message = format_message("Hand edits", {"Origin": "hand_edit", "Task": None}, body=body)
        return self.git.commit_paths(sorted(paths), message, expect=seen)

    def _hand_edits_body(self, paths: list[str], seen: dict[str, bytes | None]) -> str:
        """A "Hand edits" commit body: the files (the first 10), then the lines memrepo wrote that the edits
        remove (:func:`.stalesave.removed_note`: a deliberate removal of the agent's memory shows in the log)."""
        shown = ", ".join(paths[:10])
        if len(paths) > 10:
            shown += f" and {len(paths) - 10} more"
        note = removed_note(self.git, [(p, self.git.head_blob(p), seen.get(p)) for p in paths])
        return f"{shown}\n\n{note}" if note else shown

    def _adds_secret(self, rel: str) -> bool:
        """True when ``rel`` on disk has lines HEAD does not that hold a secret (:func:`.handsecret.secret_lines`)."""
        try:
            data = read_work_file(self.root / rel)
        except OSError:
            return False
        committed = self.git.head_blob(rel)
        return bool(secret_lines(committed, data) or secret_name(rel, committed))

    def _commit_hand_edits_held(
        self,
        paths: list[str] | None,
        leave_staged: bool = False,
        *,
        confirm: bool = False,
        secrets_asked: bool = False,
        put_back: bool = False,
    ) -> str | None:
        """:meth:`commit_hand_edits` for a caller that holds the lock (a :class:`Transaction`); ``put_back``: the
        "put back" answer to a stale save, marked ``Answer: put back`` (its added lines are the save's, B30-19)."""
        self.salvage()
        status = self.git.status(paths, refresh=True)
        if status.state is RepoState.BLOCKED:
            raise BlockedError(status.reason or "unknown")
        if not leave_staged:
            self.git.sync_index()  # an index entry left behind HEAD by a failed index write: no hand edit
        changed = []
        for path in status.changed:
            if leave_staged and path in status.staged:
                continue  # theirs: staged for a commit of their own
            if path.rsplit("/", 1)[-1].startswith(TEMP_PREFIX):
                # Left by a writer killed mid-write: under the lock no other
                # writer is using it, and its target was never replaced.
                (self.root / path).unlink(missing_ok=True)
            elif not (
                appended(self.git.head_blob(path), _read_or_none(self.root / path)) or wait_settled(self.root / path)
            ):
                continue  # still being saved: the next write or quiet period commits it
            else:
                changed.append(path)
        seen = {p: _read_or_none(self.root / p) for p in changed}
        # The whole work tree's changes, for moved entries (:mod:`.moves`): this look's, when it looked at all.
        look = _once(self.look if paths is not None else lambda: {p: (self.git.head_blob(p), seen[p]) for p in seen})
        if not confirm:
            asked = {q.path for q in self.questions(changed, seen, look)}
            changed = [p for p in changed if p not in asked]
        elif secrets_asked:  # confirmed, but a secret the edit added was never shown to the user: still asked
            changed = [p for p in changed if not self._adds_secret(p)]
        # Re-read before committing: a save begun since the checks (an editor truncating the file) is
        # left for the next look, never committed half-way (docs/architecture.md §3).
        changed = [p for p in changed if _read_or_none(self.root / p) == seen[p]]
        moved, changed = moves.commit_moves(self, changed, seen, look, whole=paths is None)
        if not changed:
            return moved
        if confirm:  # the user said commit: no question waits on these files any more (.heldread)
            note_questions(self.state_dir, changed, [])
        body = self._hand_edits_body(changed, seen)
        trailers = {"Origin": "hand_edit", "Task": None, "Answer": "put back" if put_back else None}
        return self.git.commit_paths(changed, format_message("Hand edits", trailers, body=body), expect=seen)

    def parse(self, rel: str, data: bytes) -> fmt.MemoryFile:
        """``data`` parsed as ``rel`` (a copy to edit), from the cache when the bytes are the same."""
        hit = self._parsed.get(rel)
        if hit is not None and hit[0] == data:
            self._parsed.move_to_end(rel)
            return hit[1].copy()
        parsed = fmt.parse(data, rel)
        self.keep_parsed(rel, data, parsed)
        return parsed.copy()

    def keep_parsed(self, rel: str, data: bytes, parsed: fmt.MemoryFile) -> None:
        """Cache ``parsed`` as the parse of ``data``: the next write to an unchanged file skips parsing."""
        self._parsed[rel] = (data, parsed.copy())
        self._parsed.move_to_end(rel)
        while len(self._parsed) > PARSE_CACHE_FILES:
            self._parsed.popitem(last=False)


from .transaction import RETRIES_ON_CHANGE as RETRIES_ON_CHANGE  # noqa: E402  (re-exported: one import path)
from .transaction import ChangedMeanwhile as ChangedMeanwhile  # noqa: E402
from .transaction import Transaction as Transaction  # noqa: E402
from .transaction import retrying as retrying  # noqa: E402
