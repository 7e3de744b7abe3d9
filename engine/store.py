"""The synchronous core of a memory repo: layout, the governed writer, forget, reads.

:class:`MemoryStore` does the work; :class:`engine.repo.MemoryRepo` runs it on
one worker thread per repo and awaits it. A store must be used from one
thread only (it owns a pygit2 repository, DESIGN.md §1).

The write path follows DESIGN.md §3: check the candidate (the write policy
of :mod:`engine.policy`: salience, secret redaction, ``<no-memory>``,
scopes), route it to a file, then under the cross-process lock: commit hand
edits first, dedupe or replace by subject, write atomically, commit that path
alone.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import entryformat as fmt
from .atomic import TEMP_PREFIX, atomic_write
from .errors import BlockedError, BusyError, FormatError, GitError, LimitError, MemrepoError, RefError
from .gitstore import GitStore, format_message
from .limits import MEMORY_MD_MAX_BYTES, check_file_count, check_file_size
from .lock import WriteLock, state_dir
from .models import (
    KIND_RE,
    Action,
    Candidate,
    CommitInfo,
    CompactPreview,
    CompactProgress,
    CompactResult,
    ContextBlock,
    EntryView,
    FileView,
    Origin,
    RecallHit,
    RepoState,
    RepoStatus,
    WorkspaceInfo,
    WriteResult,
)
from .paths import check_repo_path, make_ref, parse_ref, safe_relpath, slugify
from .recall import RecallIndex
from .revert import RevertConflict, revert_text

MEMORY_MD = "MEMORY.md"
ME_MD = "me.md"
LESSONS_MD = "lessons.md"
INBOX_MD = "inbox.md"
WORKSPACES = "workspaces"
INDEX_HEADING = "## Index"

PARSE_CACHE_FILES = 64
"""Parsed files kept per store, keyed by their exact bytes, so repeated writes skip parsing."""
RETRIES_ON_CHANGE = 3
"""How often a write starts over when a file changes under it before giving up (busy)."""

LESSON_KINDS = frozenset({"insight", "rule", "lesson", "pitfall", "command", "setup"})
"""Global kinds routed to lessons.md; every other global kind goes to me.md (DESIGN.md §3)."""

STARTING_LAYOUT: dict[str, str] = {
    MEMORY_MD: (
        "# Memory\n\n"
        "Entries every session needs. Everything else is in the files below.\n\n"
        f"{INDEX_HEADING}\n- [[me]]\n- [[lessons]]\n"
    ),
    ME_MD: "# About me\n\nIdentity, preferences and corrections.\n\n",
    LESSONS_MD: "# Lessons\n\nCross-workspace lessons: commands, setup, pitfalls.\n\n",
    INBOX_MD: (
        "# Inbox\n\nWrites from tasks that read untrusted content wait here for review; "
        "never injected into prompts.\n\n"
    ),
}
"""The starting layout of DESIGN.md §2, committed as "Create memory repo"."""


@dataclass(slots=True)
class _Target:
    path: str
    new_workspace: tuple[str, str, str | None, str] | None = None  # id, slug, abs path, label


_CONTROL_RE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
)
"""C0/C1 control characters, DEL and bidi overrides: never written into a memory file."""


def clean_text(text: str) -> str:
    """One line of plain text: controls and bidi overrides dropped, whitespace folded to single spaces."""
    return " ".join(_CONTROL_RE.sub("", text).split())


def _entry_key(line: bytes) -> str | None:
    """A line's dedupe key for undo: the entry's normalized text, None for a line that is no entry."""
    try:
        text = line.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        return None
    entry = fmt.parse_entry(text) if text.lstrip()[:1] in ("-", "*", "+") else None
    if entry is None or fmt.is_link_line(entry.text):
        return None
    return fmt.normalize_text(entry.text) or None


class _ChangedMeanwhile(Exception):
    """A file changed on disk between the writer reading it and replacing it."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def _summary(text: str, limit: int = 60) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def _trailers(origin: str, task: str | None = None) -> dict[str, str | None]:
    return {"Origin": origin, "Task": task}


class MemoryStore:
    """One open memory repo, used from a single thread.

    Use :meth:`open` to create or adopt one.

    Attributes:
        root: the work tree's absolute path.
        git: the git store (owns pygit2).
        lock: the cross-process write lock.
    """

    def __init__(self, root: Path, git: GitStore) -> None:
        self.root = root
        self.git = git
        self.lock = WriteLock(git.git_dir)
        self.state_dir = state_dir(git.git_dir)
        self._workspaces: dict[str, str] = {}
        self._workspace_stamps: dict[str, tuple[tuple[int, int], str | None]] = {}
        self.agent_to_inbox = False
        """Ask before saving: every agent write goes to the inbox (``[writes] agent_to_inbox``)."""
        self._parsed: OrderedDict[str, tuple[bytes, fmt.MemoryFile]] = OrderedDict()
        self._read_lock = threading.Lock()
        self._generation = 0
        self._changed_paths: set[str] | None = set()
        self._watched_since: float | None = None
        self._last_scan = 0.0
        self._recall: RecallIndex | None = None
        self._context_cache: dict[str | None, tuple[int, tuple, ContextBlock]] = {}

    # -- opening -------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], create: bool = True, origin: Origin = "cli") -> MemoryStore:
        """Open a memory repo, creating it with the starting layout when missing or empty.

        Args:
            path: the repo folder; ``~`` is expanded.
            create: create the repo when the folder is missing or empty;
                when False such a folder is refused.
            origin: the ``Origin:`` trailer of the "Create memory repo" commit.

        Returns:
            MemoryStore: the open store.

        Raises:
            PathRuleError: the path breaks a rule of DESIGN.md §2 (the message names it).
            GitError: libgit2 could not open or create the repository.
        """
        root = check_repo_path(path)
        if (root / ".git").is_dir():
            return cls(root, GitStore(root))
        if not create:
            from .errors import PathRuleError

            raise PathRuleError("missing", str(root), "no memory repo here; run `memrepo init` first")
        root.mkdir(parents=True, exist_ok=True)
        store = cls(root, GitStore.init(root))
        store._create_layout(origin)
        return store

    def _create_layout(self, origin: Origin) -> str:
        with self.lock.hold("create"):
            for rel, text in STARTING_LAYOUT.items():
                atomic_write(self.root / rel, text.encode("utf-8"), self.root)
            return self.git.commit_paths(
                list(STARTING_LAYOUT), format_message("Create memory repo", _trailers(origin))
            )

    # -- reading -------------------------------------------------------

    def list_files(self) -> list[tuple[str, int]]:
        """Every file in the work tree (not ``.git``), sorted, with its size in bytes.

        Symlinks are listed with their own size and never followed.
        """
        out: list[tuple[str, int]] = []
        stack = [(self.root, "")]
        while stack:
            folder, prefix = stack.pop()
            try:
                it = os.scandir(folder)
            except OSError:
                continue
            with it:
                for de in it:
                    if not prefix and de.name.casefold() == ".git":
                        continue
                    if de.name.startswith(TEMP_PREFIX):
                        continue
                    rel = prefix + de.name
                    if de.is_dir(follow_symlinks=False):
                        stack.append((Path(de.path), rel + "/"))
                    else:
                        try:
                            out.append((rel, de.stat(follow_symlinks=False).st_size))
                        except OSError:
                            continue
        out.sort()
        return out

    def read_file(self, path: str) -> FileView:
        """Read one work-tree file with its entries and links.

        Args:
            path: repo-relative path.

        Returns:
            FileView: for a binary or non-UTF-8 file, or a symlink (or a
            file in a symlinked folder, never followed), ``text`` is None and
            ``error`` says why (nothing is raised for bad content).

        Raises:
            RefError: the path is unsafe, a folder, or missing.
        """
        rel = safe_relpath(path)
        full = self.root / rel
        linked, folder = full.is_symlink(), full.parent
        while not linked and folder != self.root:  # a symlinked folder leads out, too
            linked, folder = folder.is_symlink(), folder.parent
        if linked:
            return FileView(path=rel, size=0, text=None, error="a symlink: memrepo does not follow it")
        try:
            data = full.read_bytes()
        except FileNotFoundError as exc:
            raise RefError(f"no file {rel} in the memory repo") from exc
        except IsADirectoryError as exc:
            raise RefError(f"{rel} is a folder, not a file") from exc
        try:
            parsed = fmt.parse(data, rel)
        except FormatError as exc:
            return FileView(path=rel, size=len(data), text=None, error=str(exc))
        text = parsed.text()
        return FileView(
            path=rel,
            size=len(data),
            text=text,
            entries=[self._view(rel, n, e) for n, e in parsed.entries()],
            links=fmt.extract_links(text),
        )

    @staticmethod
    def _view(rel: str, number: int, entry: fmt.Entry) -> EntryView:
        return EntryView(
            ref=make_ref(rel, number), path=rel, line=number, text=entry.text, by=entry.by, meta=entry.meta
        )

    def status(self) -> RepoStatus:
        """The work tree's state: clean, hand-edited or blocked (DESIGN.md §3).

        When the write lock is free, a stale index (a copied or restored repo)
        gets fresh stat data as a side effect, as ``git status`` does, so later
        scans are fast; a reader never waits for the lock.
        """
        with self.lock.try_hold() as held:
            status = self.git.status(refresh=held)
        if self._pending_dir.is_dir():
            status.pending = sum(1 for _ in self._pending_dir.glob("*.json"))
        return status

    def log(self, limit: int = 100, skip: int = 0) -> list[CommitInfo]:
        """Commits from HEAD, newest first, with their trailers."""
        return self.git.log(limit, skip)

    def diff(self, rev: str) -> str:
        """The unified diff commit ``rev`` made (see :meth:`GitStore.commit_diff`)."""
        return self.git.commit_diff(rev)

    def head(self) -> str | None:
        """HEAD's full commit id, or None while unborn."""
        return self.git.head_id()

    # -- hand edits ----------------------------------------------------

    def commit_hand_edits(self, paths: list[str] | None = None) -> str | None:
        """Commit files changed by hand as "Hand edits" (Origin: hand_edit, DESIGN.md §3).

        Args:
            paths: only look at these paths (the watcher's hint); None scans
                the whole work tree.

        Returns:
            str | None: the new commit id, or None when nothing was changed by hand.

        Raises:
            BlockedError: a merge or rebase is in progress, the index is
                locked, or a new file is binary, a symlink or over 64 KB.
            BusyError: another writer held the lock for 5 s.
        """
        with self.lock.hold("hand edits"):
            return self._commit_hand_edits_locked(paths)

    def _commit_hand_edits_locked(self, paths: list[str] | None) -> str | None:
        status = self.git.status(paths, refresh=True)
        if status.state is RepoState.BLOCKED:
            raise BlockedError(status.reason or "unknown")
        changed = []
        for path in status.changed:
            if path.rsplit("/", 1)[-1].startswith(TEMP_PREFIX):
                # Left by a writer killed mid-write: under the lock no other
                # writer is using it, and its target was never replaced.
                (self.root / path).unlink(missing_ok=True)
            else:
                changed.append(path)
        status.changed = changed
        if not status.changed:
            return None
        shown = ", ".join(status.changed[:10])
        if len(status.changed) > 10:
            shown += f" and {len(status.changed) - 10} more"
        return self.git.commit_paths(
            status.changed, format_message("Hand edits", _trailers("hand_edit"), body=shown)
        )

    # -- the writer ----------------------------------------------------

    @staticmethod
    def _workspace_id_of(path: Path) -> str | None:
        """The ``workspace:`` id named in the first entries of a workspace file, or None."""
        try:
            with path.open("rb") as fh:
                head = fh.read(2048)
            parsed = fmt.parse(head.rsplit(b"\n", 1)[0] if len(head) == 2048 else head, path.name)
        except (OSError, FormatError):
            return None
        for _, entry in parsed.entries()[:3]:
            if entry.meta.get("workspace"):
                return entry.meta["workspace"]
        return None

    def _workspace_id_at(self, rel: str) -> str | None:
        """:meth:`_workspace_id_of` for ``rel``, remembered until the file's mtime or size moves."""
        full = self.root / rel
        stamp = self._stamp(full)
        if stamp is None:
            return None
        known = self._workspace_stamps.get(rel)
        if known is not None and known[0] == stamp:
            return known[1]
        found = self._workspace_id_of(full)
        self._workspace_stamps[rel] = (stamp, found)
        return found

    def _find_workspace_file(self, ws_id: str) -> str | None:
        """The file of workspace ``ws_id``, from a map rebuilt from the files' first entries.

        The map is checked against the file on every hit (its mtime and size,
        then its first entries if they moved) and rebuilt on a miss, so renamed
        or hand-made workspace files are found.
        """
        cached = self._workspaces.get(ws_id)
        if cached is not None and self._workspace_id_at(cached) == ws_id:
            return cached
        folder = self.root / WORKSPACES
        self._workspaces = {}
        if folder.is_dir() and not folder.is_symlink():  # never through a link out of the repo
            for candidate in sorted(folder.glob("*.md")):
                rel = f"{WORKSPACES}/{candidate.name}"
                found = self._workspace_id_at(rel)
                if found and found not in self._workspaces:
                    self._workspaces[found] = rel
        return self._workspaces.get(ws_id)

    def _tainted(self, cand: Candidate) -> bool:
        """True when the write goes to the inbox (DESIGN.md §3 taint, ``[writes] agent_to_inbox``)."""
        return cand.untrusted or (cand.by == "agent" and self.agent_to_inbox)

    def _route(self, cand: Candidate) -> _Target:
        if self._tainted(cand):
            return _Target(INBOX_MD)
        if cand.pin:
            return _Target(MEMORY_MD)
        if cand.scope == "workspace":
            assert cand.workspace is not None
            from .workspaces import resolve_workspace

            found = resolve_workspace(self, cand.workspace)
            if found.file is not None:
                return _Target(found.file)
            name = found.slug
            n = 2
            while (self.root / WORKSPACES / f"{name}.md").exists():
                name = f"{found.slug}-{n}"
                n += 1
            return _Target(f"{WORKSPACES}/{name}.md", (found.id, name, found.path, found.label))
        if cand.kind.lower() in LESSON_KINDS:
            return _Target(LESSONS_MD)
        return _Target(ME_MD)

    def _refusal(self, cand: Candidate) -> str | None:
        """The writer's own checks; salience, secrets, ``<no-memory>``, scopes and length are in :mod:`.policy`."""
        fields = (cand.text, cand.kind, cand.subject, cand.source, cand.task, cand.workspace)
        if any(value and "\x00" in value for value in fields):
            # A NUL would make the memory file binary, and every later write to it fail.
            return "the candidate holds a NUL byte, which is not text: remove it and retry"
        if cand.pin and cand.by != "user":
            return "only the user's own statements are pinned to MEMORY.md; agents write without --pin"
        if cand.scope == "workspace" and not (cand.workspace or "").strip():
            return "scope workspace needs a workspace (a folder path or a name)"
        return None

    def _new_entry(self, cand: Candidate) -> fmt.Entry:
        meta: dict[str, str] = {"by": cand.by, "added": self.git.now().date().isoformat()}
        keys = ["kind", "subject", "source", "task"]
        if self._tainted(cand) and cand.scope == "workspace":
            keys.append("workspace")  # where triage will suggest it goes
        for key in keys:
            value = clean_text(getattr(cand, key) or "")
            if value:
                meta[key] = value
        return fmt.Entry(indent="", bullet="-", text=clean_text(cand.text), meta=meta)

    def remember(
        self,
        cand: Candidate,
        hint: list[str] | None = None,
        on_committed: Callable[[WriteResult], None] | None = None,
        *,
        routed: Callable[[Candidate], _Target] | None = None,
    ) -> WriteResult:
        """Save one memory through the governed writer (DESIGN.md §3).

        Args:
            cand: the candidate.
            hint: paths the watcher saw change since the last write; when
                given, only these (and the target file) are checked for hand
                edits instead of scanning the whole work tree.
            on_committed: called with the result as soon as the commit exists,
                before the index is brought in step (still under the lock), so
                an async caller can answer early; the index update then runs
                before this method returns and before the lock is released.
            routed: internal: picks the target instead of the routing rules
                (:meth:`remember_into`, for importers).

        Returns:
            WriteResult: added, reinforced (same normalized text already in
            the file; no write), replaced (same subject in the file), outranked
            (a ``by: user`` line with that subject beats an agent write), or
            refused with a reason and nothing written: a NUL byte, an agent
            asking to pin, or the write policy (:mod:`engine.policy`: empty or
            filler text, secret-only text, ``<no-memory>`` in the origin text
            or the text, a private/contact/task scope, over a limit).
            Secrets in text, subject and source are replaced by
            ``[REDACTED:<type>]`` before anything reaches disk (the commit
            message too); ``redacted`` lists their types.

        Raises:
            BlockedError: the work tree is blocked; nothing was written.
            BusyError: another writer held the lock for 5 s; retry.
            GitError: libgit2 failed; the file write, if any, is committed by
                the next write as a hand edit, so nothing is lost.
        """
        reason = self._refusal(cand)
        if reason is not None:
            return WriteResult(action=Action.REFUSED, reason=reason)
        from . import policy  # detect-secrets costs ~0.3 s to import: only writers pay it

        decision = policy.decide(cand, clean_text)
        if decision.candidate is None:
            return WriteResult(action=Action.REFUSED, reason=decision.reason, redacted=decision.redacted)
        cand, redacted = decision.candidate, decision.redacted
        if cand.untrusted and cand.by != "agent":
            # Text steered by untrusted content is never the user's word.
            cand = cand.model_copy(update={"by": "agent", "pin": False})
        with self.lock.hold("remember"):
            try:
                # Routed under the lock: another process may have just made a
                # workspace file with the same slug, which must not be reused.
                target = self._route(cand) if routed is None else routed(cand)
                check = None if hint is None else sorted({*hint, target.path})
                if check is not None and target.new_workspace is not None:
                    check.append(MEMORY_MD)
                self._commit_hand_edits_locked(check)
            except BlockedError as exc:
                self._queue(cand)
                raise BlockedError(
                    f"{exc.reason} (the write is kept in .git/memrepo/pending/ and applied once the block is gone)"
                ) from exc
            self._apply_pending_locked()
            for attempt in range(RETRIES_ON_CHANGE + 1):
                try:
                    result = self._remember_locked(cand, target)
                    break
                except LimitError as exc:
                    return WriteResult(
                        action=Action.REFUSED, path=target.path, reason=str(exc), redacted=redacted
                    )
                except _ChangedMeanwhile as exc:
                    # An editor saved the file while we worked: keep its edit as
                    # "Hand edits" first, then write on top of it.
                    if attempt == RETRIES_ON_CHANGE:
                        raise BusyError(
                            f"{exc.path} keeps changing on disk while memrepo writes it; retry"
                        ) from exc
                    self._commit_hand_edits_locked([exc.path])
                    target = self._route(cand)
            result.redacted = redacted
            if on_committed is not None and result.commit is not None:
                on_committed(result)
            self.git.sync_index()
            return result

    # -- writes kept while blocked (issue 3 §3: blocked states lose nothing) --

    @property
    def _pending_dir(self) -> Path:
        return self.state_dir / "pending"

    def pending(self) -> list[Candidate]:
        """Writes refused while the work tree was blocked, oldest first, waiting to be applied."""
        out = []
        for path in sorted(self._pending_dir.glob("*.json")) if self._pending_dir.is_dir() else []:
            try:
                out.append(Candidate.model_validate_json(path.read_bytes()))
            except (OSError, ValueError):
                continue
        return out

    def _queue(self, cand: Candidate) -> None:
        """Keep a (policy-checked, redacted) candidate durably under ``.git/memrepo/pending/``."""
        self._pending_dir.mkdir(parents=True, exist_ok=True)
        name = f"{time.time_ns():020d}-{os.getpid()}.json"
        atomic_write(self._pending_dir / name, cand.model_dump_json().encode("utf-8"))

    def apply_pending(self) -> list[WriteResult]:
        """Apply the writes kept while blocked, in order (the next write does it too).

        Returns:
            list[WriteResult]: one per write applied.

        Raises:
            BlockedError: the work tree is still blocked; everything stays queued.
            BusyError: another writer held the lock for 5 s.
        """
        with self.lock.hold("apply pending"):
            self._commit_hand_edits_locked(None)
            return self._apply_pending_locked()

    def _apply_pending_locked(self) -> list[WriteResult]:
        if not self._pending_dir.is_dir():
            return []
        results = []
        for path in sorted(self._pending_dir.glob("*.json")):
            try:
                cand = Candidate.model_validate_json(path.read_bytes())
            except (OSError, ValueError):
                path.rename(path.with_suffix(".unreadable"))  # kept for a person, never retried
                continue
            try:
                results.append(self._remember_locked(cand, self._route(cand)))
            except (LimitError, RefError) as exc:  # RefError: its workspace name became ambiguous
                results.append(WriteResult(action=Action.REFUSED, reason=str(exc)))
            except _ChangedMeanwhile:
                break  # an editor is busy with the file: the next write tries again
            path.unlink()
        self.git.sync_index()
        return results

    def _write_files(self, writes: dict[str, bytes], read: dict[str, bytes | None]) -> None:
        """Replace each file atomically, unless it changed since it was read.

        Raises:
            _ChangedMeanwhile: a file's bytes on disk differ from what the
                writer read (an editor saved it meanwhile); nothing of this
                write has been written yet when the first file changed.
        """
        for path in writes:
            full = self.root / path
            try:
                now = full.read_bytes()
            except FileNotFoundError:
                now = None
            if now != read.get(path):
                raise _ChangedMeanwhile(path)
        for path, blob in writes.items():
            atomic_write(self.root / path, blob, self.root)
        self.note_changed(list(writes))

    def _read_for_write(self, rel: str, read: dict[str, bytes | None]) -> fmt.MemoryFile | None:
        """Read and parse ``rel``, remembering its bytes for :meth:`_write_files`."""
        full = self.root / rel
        if full.is_symlink():
            raise MemrepoError(f"{rel} is a symlink; memrepo never reads or writes through symlinks")
        try:
            data = full.read_bytes()
        except FileNotFoundError:
            read[rel] = None
            return None
        except IsADirectoryError as exc:
            raise RefError(f"{rel} is a folder, not a file") from exc
        read[rel] = data
        hit = self._parsed.get(rel)
        if hit is not None and hit[0] == data:
            self._parsed.move_to_end(rel)
            return hit[1].copy()
        parsed = fmt.parse(data, rel)
        self._keep_parsed(rel, data, parsed)
        return parsed.copy()

    def _keep_parsed(self, rel: str, data: bytes, parsed: fmt.MemoryFile) -> None:
        """Cache ``parsed`` as the parse of ``data``: the next write to an unchanged file skips parsing."""
        self._parsed[rel] = (data, parsed.copy())
        self._parsed.move_to_end(rel)
        while len(self._parsed) > PARSE_CACHE_FILES:
            self._parsed.popitem(last=False)

    def _remember_locked(
        self,
        cand: Candidate,
        target: _Target,
        also: tuple[str, bytes, bytes | None] | None = None,
        summary: str | None = None,
        touched: list[str] | None = None,
    ) -> WriteResult:
        """The locked part of a write.

        Args:
            cand: the (policy-checked) candidate.
            target: where it goes.
            also: one more file changed in the same commit: ``(path, new
                bytes, bytes read)`` (inbox triage removes the inbox line).
            summary: the commit's first line instead of "Remember ...".
            touched: when given, the files are written but not committed; the
                paths to commit are appended to it (bulk triage commits once).
        """
        rel = target.path
        read: dict[str, bytes | None] = {}
        parsed = self._read_for_write(rel, read)
        files_to_commit = [rel]
        writes: dict[str, bytes] = {}
        if also is not None:
            read[also[0]] = also[2]
            files_to_commit.append(also[0])
        if parsed is None:
            check_file_count(len(self.list_files()))
            parsed = fmt.parse(self._new_file_text(rel, target).encode("utf-8"), rel)
            if target.new_workspace is not None:
                index = self._read_for_write(MEMORY_MD, read) or fmt.parse(b"# Memory\n", MEMORY_MD)
                link = rel[: -len(".md")]
                if link not in fmt.extract_links(index.text()):
                    index.append_entry(fmt.Entry("", "-", f"[[{link}]]"), after_section=INDEX_HEADING)
                    data = index.render()
                    if len(data) > MEMORY_MD_MAX_BYTES:
                        raise LimitError(
                            f"MEMORY.md is full ({len(data)} bytes with the link, limit "
                            f"{MEMORY_MD_MAX_BYTES}): the new workspace file {rel} could not be linked "
                            "from its index; forget or move entries out of MEMORY.md, then write again"
                        )
                    writes[MEMORY_MD] = data
                    files_to_commit.append(MEMORY_MD)
        entry = self._new_entry(cand)
        wanted = fmt.normalize_text(entry.text)
        for number, existing in parsed.entries():
            if fmt.normalize_text(existing.text) == wanted:
                return WriteResult(
                    action=Action.REINFORCED,
                    ref=make_ref(rel, number),
                    path=rel,
                    reason="the same entry is already there",
                )
        action = Action.INBOXED if rel == INBOX_MD else Action.ADDED
        number = 0
        if cand.subject:
            subject = cand.subject.casefold()
            for n, existing in parsed.entries():
                if existing.meta.get("subject", "").casefold() != subject:
                    continue
                if existing.by == "user" and cand.by == "agent":
                    return WriteResult(
                        action=Action.OUTRANKED,
                        ref=make_ref(rel, n),
                        path=rel,
                        reason=f"a user entry with subject {cand.subject!r} outranks an agent write",
                    )
                parsed.set_entry(n, entry)
                action, number = Action.REPLACED, n
                break
        if not number:
            before = INDEX_HEADING if rel == MEMORY_MD else None
            number = parsed.append_entry(entry, before_section=before)
        data = parsed.render()
        check_file_size(rel, len(data))
        writes[rel] = data
        if also is not None:
            # Last: a crash between the two leaves the entry in both files
            # (a duplicate to discard), never in neither.
            writes[also[0]] = also[1]
        self._write_files(writes, read)
        self._keep_parsed(rel, data, parsed)
        if target.new_workspace is not None:
            self._workspaces[target.new_workspace[0]] = rel
        verb = {Action.REPLACED: "Replace", Action.INBOXED: "Inbox"}.get(action, "Remember")
        message = format_message(
            summary or f"{verb} {cand.kind or 'fact'}: {_summary(entry.text)}", _trailers(cand.origin, cand.task)
        )
        if touched is not None:
            touched.extend(files_to_commit)
            return WriteResult(action=action, ref=make_ref(rel, number), path=rel)
        commit = self.git.commit_paths(files_to_commit, message, sync_index=False)
        return WriteResult(action=action, ref=make_ref(rel, number), path=rel, commit=commit)

    @staticmethod
    def _new_file_text(rel: str, target: _Target) -> str:
        if target.new_workspace is not None:
            ws_id, slug, abs_path, label = target.new_workspace
            meta = {"workspace": ws_id}
            if abs_path:
                meta["path"] = abs_path
            meta["by"] = "user"
            return f"# {slug}\n\n- Workspace {label} {fmt.render_metadata(meta)}\n"
        if rel in STARTING_LAYOUT:
            return STARTING_LAYOUT[rel]
        return f"# {Path(rel).stem}\n\n"

    def _rewrite_locked(
        self, edits: dict[str, Callable[[fmt.MemoryFile], bool]], summary: str, origin: Origin
    ) -> str | None:
        """Apply in-place edits to several files and commit them together (caller holds the lock).

        Args:
            edits: path -> a function that edits the parsed file in place and
                says whether it changed anything. A missing file is skipped.
            summary: the commit's first line.
            origin: the ``Origin:`` trailer.

        Returns:
            str | None: the commit, or None when nothing changed.
        """
        for attempt in range(RETRIES_ON_CHANGE + 1):
            self._commit_hand_edits_locked(None if attempt == 0 else list(edits))
            read: dict[str, bytes | None] = {}
            writes: dict[str, bytes] = {}
            for path, edit in edits.items():
                try:
                    parsed = self._read_for_write(path, read)
                except FormatError:
                    continue  # not a text memory file: nothing of ours to edit in it
                if parsed is not None and edit(parsed):
                    writes[path] = parsed.render()
            if not writes:
                return None
            try:
                self._write_files(writes, read)
                break
            except _ChangedMeanwhile as exc:
                if attempt == RETRIES_ON_CHANGE:
                    raise BusyError(f"{exc.path} keeps changing on disk while memrepo writes it; retry") from exc
        return self.git.commit_paths(sorted(writes), format_message(summary, _trailers(origin)))

    @staticmethod
    def _drop_entries(parsed: fmt.MemoryFile, keep: Callable[[fmt.Entry], bool]) -> bool:
        numbers = [n for n, e in parsed.entries() if not keep(e)]
        for number in reversed(numbers):
            parsed.remove_line(number)
        return bool(numbers)

    def clear_workspace(
        self, workspace: str, origin: Origin = "cli", compact: bool = False, replace_remote: bool = False
    ) -> WriteResult:
        """Delete a workspace's file and its index link in one commit (seed phase 1 §7.2).

        Args:
            workspace: the workspace's id, path or name, as given to ``remember``
                (read by :func:`engine.workspaces.resolve_workspace`).
            origin: the ``Origin:`` trailer.
            compact: then compact the history (:meth:`compact`; the seed's
                "Clear All Memories for a workspace ... and compacts").
            replace_remote: with ``compact`` and a sync remote set, a person
                confirmed replacing the remote's history afterwards; without it
                :class:`SyncError` is raised before anything changes.

        Returns:
            WriteResult: action ``cleared`` with the commit (the compact commit with ``compact``).

        Raises:
            RefError: no workspace file names that workspace.
            AmbiguousWorkspaceError: a name that matches two or more workspace files.
            SyncError: ``compact`` with a sync remote and no ``replace_remote``; nothing changed.
            BlockedError, BusyError: as for writes.
        """
        from .workspaces import resolve_workspace

        if compact:
            self._refuse_remote_before_compact(replace_remote, "cleared")
        with self.lock.hold("clear workspace"):
            self._commit_hand_edits_locked(None)
            found = resolve_workspace(self, workspace)
            ws_id, rel = found.id, found.file
            if rel is None:
                raise RefError(f"no workspace file names workspace {workspace!r} ({ws_id})")
            (self.root / rel).unlink()
            self._workspaces.pop(ws_id, None)
            link = rel[: -len(".md")]
            paths = [rel]
            read: dict[str, bytes | None] = {}
            index = self._read_for_write(MEMORY_MD, read)
            if index is not None:
                numbers = [i + 1 for i, ln in enumerate(index.lines) if link in fmt.extract_links(ln.text)
                           and fmt.is_link_line(ln.text.lstrip(" \t-*+"))]
                for number in reversed(numbers):
                    index.remove_line(number)
                if numbers:
                    self._write_files({MEMORY_MD: index.render()}, read)
                    paths.append(MEMORY_MD)
            commit = self.git.commit_paths(
                paths, format_message(f"Clear workspace {link.split('/', 1)[-1]}", _trailers(origin))
            )
            if compact:
                commit = self.compact(replace_remote=replace_remote).commit
        return WriteResult(action=Action.CLEARED, path=rel, commit=commit)

    def clear_global(self, origin: Origin = "cli", compact: bool = False, replace_remote: bool = False) -> WriteResult:
        """Empty the global memories in one commit: every entry of me.md, lessons.md,
        inbox.md and MEMORY.md (MEMORY.md keeps its headings, prose and index).

        Args:
            origin: the ``Origin:`` trailer.
            compact: then compact the history (:meth:`compact`), even when
                nothing was left to clear.
            replace_remote: with ``compact`` and a sync remote set, a person
                confirmed replacing the remote's history afterwards; without it
                :class:`SyncError` is raised before anything changes.

        Returns:
            WriteResult: action ``cleared``; ``commit`` is None when there was nothing to clear
            (the compact commit with ``compact``).

        Raises:
            BlockedError, BusyError: as for writes.
        """
        edits = {path: (lambda p: self._drop_entries(p, lambda e: False))
                 for path in (MEMORY_MD, ME_MD, LESSONS_MD, INBOX_MD)}
        if compact:
            self._refuse_remote_before_compact(replace_remote, "cleared")
        with self.lock.hold("clear global"):
            commit = self._rewrite_locked(edits, "Clear global memories", origin)
            if compact:
                commit = self.compact(replace_remote=replace_remote).commit
        return WriteResult(action=Action.CLEARED, commit=commit)

    def purge_task(
        self, task: str, origin: Origin = "cli", compact: bool = False, replace_remote: bool = False
    ) -> WriteResult:
        """Remove every ``by: agent`` entry written by ``task`` (its ``task:`` key), in one commit.

        Args:
            task: the task id.
            origin: the ``Origin:`` trailer.
            compact: then compact the history (:meth:`compact`).
            replace_remote: with ``compact`` and a sync remote set, a person
                confirmed replacing the remote's history afterwards; without it
                :class:`SyncError` is raised before anything changes.

        Returns:
            WriteResult: action ``cleared``; ``commit`` is None when the task wrote nothing
            (the compact commit with ``compact``).

        Raises:
            RefError: ``task`` is empty.
            BlockedError, BusyError: as for writes.
        """
        task = task.strip()
        if not task:
            raise RefError("purge_task needs a task id")

        def keep(entry: fmt.Entry) -> bool:
            return not (entry.by == "agent" and entry.meta.get("task") == task)

        if compact:
            self._refuse_remote_before_compact(replace_remote, "purged")
        with self.lock.hold("purge task"):
            paths = [p for p, _ in self.list_files() if p.endswith(".md")]
            edits = {p: (lambda parsed: self._drop_entries(parsed, keep)) for p in paths}
            commit = self._rewrite_locked(edits, f"Purge task {task}", origin)
            if compact:
                commit = self.compact(replace_remote=replace_remote).commit
        return WriteResult(action=Action.CLEARED, commit=commit)

    # -- inbox triage --------------------------------------------------

    def _inbox_entry(self, ref: str, read: dict[str, bytes | None]) -> tuple[fmt.MemoryFile, int, fmt.Entry]:
        rel, number = parse_ref(ref)
        if rel != INBOX_MD:
            raise RefError(f"{ref} is not in {INBOX_MD}: only inbox entries are triaged")
        parsed = self._read_for_write(INBOX_MD, read)
        entry = parsed.entry_at(number) if parsed is not None else None
        if parsed is None or entry is None:
            raise RefError(f"{ref} is not an inbox entry (the inbox may have changed: read it again)")
        return parsed, number, entry

    def suggest(self, entry: EntryView) -> str:
        """The file an inbox entry goes to when accepted: its workspace's file, lessons.md or me.md.

        Args:
            entry: an inbox entry (``read_file("inbox.md").entries``).

        Returns:
            str: a repo-relative path (a workspace file may not exist yet).
        """
        cand = self._accepted(entry.text, entry.meta)
        return self._route(cand).path

    @staticmethod
    def _accept_target(target: str | None) -> str | None:
        """Check a file chosen for accepted entries: safe, markdown, not the inbox.

        Raises:
            RefError: it is none of those.
        """
        if target is None:
            return None
        target = safe_relpath(target)
        if not target.endswith(".md") or target == INBOX_MD:
            raise RefError(f"cannot accept into {target!r}: give a markdown file other than the inbox")
        return target

    @staticmethod
    def _accepted(text: str, meta: dict[str, str]) -> Candidate:
        workspace = meta.get("workspace")
        return Candidate(
            text=text,
            kind=kind if KIND_RE.fullmatch(kind := meta.get("kind") or "fact") else "fact",
            scope="workspace" if workspace else "global",
            workspace=workspace,
            subject=meta.get("subject"),
            source=meta.get("source"),
            task=meta.get("task"),
            by="user",
            origin="inbox_triage",
        )

    def accept(
        self, ref: str, target: str | None = None, text: str | None = None, origin: Origin = "inbox_triage"
    ) -> WriteResult:
        """Move an inbox entry to the file its metadata suggests (or ``target``) as ``by: user``.

        One commit changes both files ("Accept: ..."). With ``text`` the entry
        is edited first (``edit_accept``); the write policy still applies.

        Args:
            ref: ``repo:inbox.md#L<n>``.
            target: a repo-relative ``.md`` path to move it to instead of the suggestion.
            text: new entry text, for edit-then-accept.
            origin: the ``Origin:`` trailer (``inbox_triage``).

        Returns:
            WriteResult: action ``added`` (or ``replaced``) with the new ref;
            ``reinforced`` when the destination already holds it (the inbox
            line is removed all the same); ``refused`` when the policy refuses
            the edited text.

        Raises:
            RefError: the ref is not an inbox entry, or ``target`` is unsafe,
                not markdown, or the inbox itself.
            BlockedError, BusyError: as for writes.
        """
        target = self._accept_target(target)
        from . import policy

        with self.lock.hold("accept"):
            self._commit_hand_edits_locked(None)
            read: dict[str, bytes | None] = {}
            inbox, number, entry = self._inbox_entry(ref, read)
            cand = self._accepted(text if text is not None else entry.text, entry.meta)
            decision = policy.decide(cand, clean_text)
            if decision.candidate is None:
                return WriteResult(action=Action.REFUSED, reason=decision.reason, redacted=decision.redacted)
            cand = decision.candidate
            route = _Target(target) if target is not None else self._route(cand)
            inbox.remove_line(number)
            also = (INBOX_MD, inbox.render(), read[INBOX_MD])
            try:
                result = self._remember_locked(cand, route, also=also, summary=f"Accept: {_summary(cand.text)}")
            except LimitError as exc:
                return WriteResult(action=Action.REFUSED, path=route.path, reason=str(exc))
            except _ChangedMeanwhile as exc:
                raise BusyError(f"{exc.path} changed on disk while memrepo accepted {ref}; retry") from exc
            if result.commit is None:  # already there (reinforced) or outranked: drop the inbox line only
                self._write_files({INBOX_MD: also[1]}, {INBOX_MD: also[2]})
                commit = self.git.commit_paths(
                    [INBOX_MD],
                    format_message(f"Accept: {_summary(cand.text)} (already in {route.path})", _trailers(origin)),
                    sync_index=False,
                )
                result = result.model_copy(update={"commit": commit})
            self.git.sync_index()
        return result.model_copy(update={"redacted": decision.redacted})

    def accept_many(self, refs: list[str], target: str | None = None, origin: Origin = "inbox_triage") -> WriteResult:
        """Accept several inbox entries in one commit, each to its suggested file (or all to ``target``).

        Entries the policy refuses stay in the inbox; entries already at their
        destination just leave the inbox.

        Returns:
            WriteResult: action ``added`` with the one commit (None when nothing changed);
            ``reason`` counts what was refused.

        Raises:
            RefError: a ref is not an inbox entry or ``target`` is unsafe (nothing changes).
            BlockedError, BusyError: as for writes.
        """
        if not refs:
            raise RefError("nothing to accept")
        target = self._accept_target(target)
        from . import policy

        with self.lock.hold("accept"):
            self._commit_hand_edits_locked(None)
            read: dict[str, bytes | None] = {}
            found = [self._inbox_entry(ref, read) for ref in refs]
            inbox = found[0][0]
            touched: list[str] = []
            refused: list[str] = []
            taken: list[int] = []
            try:
                for _, number, entry in found:
                    decision = policy.decide(self._accepted(entry.text, entry.meta), clean_text)
                    if decision.candidate is None:
                        refused.append(f"L{number}: {decision.reason}")
                        continue
                    cand = decision.candidate
                    route = _Target(target) if target is not None else self._route(cand)
                    try:
                        self._remember_locked(cand, route, touched=touched)
                    except LimitError as exc:
                        refused.append(f"L{number}: {exc}")
                        continue
                    taken.append(number)
                for number in sorted(set(taken), reverse=True):
                    inbox.remove_line(number)
                if taken:
                    self._write_files({INBOX_MD: inbox.render()}, read)
                    touched.append(INBOX_MD)
            except _ChangedMeanwhile as exc:
                raise BusyError(f"{exc.path} changed on disk while memrepo accepted entries; retry") from exc
            commit = None
            if touched:
                commit = self.git.commit_paths(
                    sorted(set(touched)),
                    format_message(f"Accept: {len(taken)} inbox entries", _trailers(origin)),
                )
        reason = f"refused {len(refused)}: " + "; ".join(refused) if refused else None
        return WriteResult(action=Action.ADDED, path=INBOX_MD, commit=commit, reason=reason)

    def edit_accept(self, ref: str, text: str, target: str | None = None) -> WriteResult:
        """Accept an inbox entry with new text (see :meth:`accept`)."""
        return self.accept(ref, target=target, text=text)

    def discard(self, ref: str, origin: Origin = "inbox_triage") -> WriteResult:
        """Remove an inbox entry in its own commit ("Discard: ...").

        Raises:
            RefError: the ref is not an inbox entry.
            BlockedError, BusyError: as for writes.
        """
        return self.discard_many([ref], origin)

    def discard_many(self, refs: list[str], origin: Origin = "inbox_triage") -> WriteResult:
        """Remove several inbox entries in one commit.

        Raises:
            RefError: a ref is not an inbox entry (nothing is removed).
            BlockedError, BusyError: as for writes.
        """
        if not refs:
            raise RefError("nothing to discard")
        with self.lock.hold("discard"):
            self._commit_hand_edits_locked(None)
            read: dict[str, bytes | None] = {}
            found = [self._inbox_entry(ref, read) for ref in refs]
            inbox = found[0][0]
            texts = [entry.text for _, _, entry in found]
            for number in sorted({n for _, n, _ in found}, reverse=True):
                inbox.remove_line(number)
            try:
                self._write_files({INBOX_MD: inbox.render()}, read)
            except _ChangedMeanwhile as exc:
                raise BusyError(f"{INBOX_MD} changed on disk while memrepo discarded entries; retry") from exc
            what = _summary(texts[0]) if len(texts) == 1 else f"{len(texts)} inbox entries"
            commit = self.git.commit_paths([INBOX_MD], format_message(f"Discard: {what}", _trailers(origin)))
        return WriteResult(action=Action.DISCARDED, path=INBOX_MD, commit=commit)

    def undo(self, rev: str, origin: Origin = "cli") -> WriteResult:
        """Revert one commit in a new commit ("Undo: ...", DESIGN.md §8: every change can be undone).

        Hand edits are committed first. The revert is entry-aware
        (:mod:`engine.revert`): the lines the commit added are taken out where
        they stand now and the lines it removed are put back, so later writes
        elsewhere in the file do not get in the way; when the very lines it
        touched changed since, the undo is refused and changes nothing. A
        removed entry is not put back when the file would then hold it (same
        normalized text) more often than before the commit: no new duplicate. A commit whose undo (``Reverts:`` trailer)
        still stands is refused: "already undone by <id>".

        Args:
            rev: the commit to undo (full or short id).
            origin: the ``Origin:`` trailer.

        Returns:
            WriteResult: action ``undone``, with the new commit.

        Raises:
            GitError: no such commit, a merge or the first commit, already
                undone, or a conflict.
            BlockedError, BusyError: as for writes.
        """
        with self.lock.hold("undo"):
            self._commit_hand_edits_locked(None)
            info, changes = self.git.commit_changes(rev)
            undone = self.git.undone_by(info.id)
            if undone is not None:
                raise GitError(f"{info.short_id} ({info.summary}) is already undone by {undone.short_id}")
            files: dict[str, bytes | None] = {}
            for path, (before, after) in changes.items():
                full = self.root / safe_relpath(path)
                current = None if full.is_symlink() or not full.is_file() else full.read_bytes()
                try:
                    files[path] = revert_text(before, after, current, key=_entry_key)
                except RevertConflict as exc:
                    raise GitError(
                        f"cannot undo {info.short_id} ({info.summary}): it conflicts with later changes "
                        f"to {path} ({exc}); nothing was changed"
                    ) from exc
                if files[path] == current:
                    del files[path]
            if not files:
                raise GitError(f"undoing {info.short_id} changes nothing: its changes are already gone")
            for path, data in files.items():
                full = self.root / safe_relpath(path)
                if data is None:
                    full.unlink(missing_ok=True)
                else:
                    atomic_write(full, data, self.root)
            message = format_message(
                f"Undo: {_summary(info.summary)}", {"Origin": origin, "Reverts": info.id}
            )
            commit = self.git.commit_paths(sorted(files), message)
        return WriteResult(action=Action.UNDONE, path=sorted(files)[0], commit=commit)

    def forget(
        self,
        ref: str,
        origin: Origin = "cli",
        task: str | None = None,
        expect: str | None = None,
        compact: bool = False,
        replace_remote: bool = False,
    ) -> WriteResult:
        """Remove the entry at ``ref`` in its own commit ("Forget: ...", DESIGN.md §3).

        Hand edits are committed first, so the ref is read against the file
        as it is on disk now.

        Args:
            ref: ``repo:<path>#L<n>``.
            origin: the ``Origin:`` trailer.
            task: the ``Task:`` trailer, when a task asked.
            expect: the entry text the caller means; when given, a line that
                now holds other text (refs are positions, and shift when lines
                above are removed) is refused instead of forgotten.
            compact: then compact the history (:meth:`compact`), so the text
                is gone from every byte under ``.git`` (DESIGN.md §5).
            replace_remote: with ``compact`` and a sync remote set, a person
                confirmed replacing the remote's history afterwards; without it
                :class:`SyncError` is raised before anything changes.

        Returns:
            WriteResult: action forgotten, with the commit (with ``compact``,
            the "Compact history" commit, the forget commit being gone).

        Raises:
            RefError: the ref is malformed, unsafe, or its line is not an entry.
            BlockedError: the work tree is blocked.
            BusyError: another writer held the lock for 5 s.
        """
        rel, number = parse_ref(ref)
        if compact:
            self._refuse_remote_before_compact(replace_remote, "forgotten")
        with self.lock.hold("forget"):
            for attempt in range(RETRIES_ON_CHANGE + 1):
                self._commit_hand_edits_locked(None if attempt == 0 else [rel])
                read: dict[str, bytes | None] = {}
                parsed = self._read_for_write(rel, read)
                if parsed is None:
                    raise RefError(f"no file {rel} in the memory repo ({ref})")
                entry = parsed.entry_at(number)
                if entry is None:
                    total = len(parsed.lines)
                    raise RefError(
                        f"line {number} of {rel} is not an entry ({ref}; the file has {total} lines)"
                    )
                if expect is not None and fmt.normalize_text(entry.text) != fmt.normalize_text(expect):
                    raise RefError(
                        f"{ref} now holds {_summary(entry.text)!r}, not {_summary(expect)!r}: "
                        "the file changed since the ref was read; read it again"
                    )
                if rel.startswith(f"{WORKSPACES}/") and entry.meta.get("workspace"):
                    raise RefError(
                        f"{ref} names the workspace {entry.meta['workspace']}; forgetting it would "
                        "orphan the file: forget its other entries, or delete the file by hand"
                    )
                parsed.remove_line(number)
                try:
                    self._write_files({rel: parsed.render()}, read)
                    break
                except _ChangedMeanwhile as exc:
                    if attempt == RETRIES_ON_CHANGE:
                        raise BusyError(
                            f"{exc.path} keeps changing on disk while memrepo writes it; retry"
                        ) from exc
            commit = self.git.commit_paths(
                [rel], format_message(f"Forget: {_summary(entry.text)}", _trailers(origin, task))
            )
            if compact:
                commit = self.compact(replace_remote=replace_remote).commit
        return WriteResult(action=Action.FORGOTTEN, ref=ref, path=rel, commit=commit)

    # -- the read path (DESIGN.md §4) ------------------------------------

    WATCH_SETTLE_S = 1.0
    """A new watcher is trusted only after this long (seconds); until then reads check files."""

    RESCAN_S = 30.0
    """Even with a watcher, recall re-checks every file's mtime and size this often (seconds)."""

    def set_watched(self, watched: bool) -> None:
        """Say whether a watcher feeds :meth:`note_changed` (set by :class:`MemoryRepo`).

        With a watcher, reads trust its events instead of checking files
        (after :data:`WATCH_SETTLE_S`); without one, every read checks the
        files' mtime and size. Safe to call from any thread.
        """
        with self._read_lock:
            self._watched_since = time.monotonic() if watched else None
            self._changed_paths = None  # events may have been missed: check everything once
            self._generation += 1

    def _trusting_watcher(self) -> bool:
        since = self._watched_since
        return since is not None and time.monotonic() - since >= self.WATCH_SETTLE_S

    def note_changed(self, paths: list[str] | None = None, git: bool = False) -> None:
        """Tell the read caches that files changed (watch events, or this store's own writes).

        Args:
            paths: repo-relative paths that changed; None means "anything may have".
            git: HEAD or another git state file moved. Every call, with paths
                or not, makes a cached context block stale (it names HEAD), so
                this only documents why an event without paths is passed on.

        Safe to call from any thread.
        """
        with self._read_lock:
            self._generation += 1
            if paths is None:
                self._changed_paths = None
            elif self._changed_paths is not None:
                self._changed_paths.update(paths)

    def _take_changed(self) -> set[str] | None:
        with self._read_lock:
            changed, self._changed_paths = self._changed_paths, set()
        return changed

    def recall_index(self) -> RecallIndex:
        """The recall index, brought up to date (DESIGN.md §4).

        Built on first use from every markdown file; after that only files
        that changed are read again: the paths a watcher reported (when one
        runs) or every file whose mtime or size moved (when none runs, and
        every :data:`RESCAN_S` seconds anyway).

        Returns:
            RecallIndex: the current index (owned by this store's thread).
        """
        changed = self._take_changed()
        if self._recall is None:
            self._recall = RecallIndex(self.root)
            changed = None
        now = time.monotonic()
        if changed is None or not self._trusting_watcher() or now - self._last_scan >= self.RESCAN_S:
            self._recall.sync(None)
            self._last_scan = now
        elif changed:
            self._recall.sync(changed)
        return self._recall

    def workspaces(self) -> list[WorkspaceInfo]:
        """Every workspace file with the workspace its first entries name (DESIGN.md §2).

        Returns:
            list[WorkspaceInfo]: sorted by file; files whose first entries name
            no workspace are left out.
        """
        from .workspaces import scan

        return scan(self, WORKSPACES)

    def adopt_recall_index(self, index: RecallIndex) -> None:
        """Take a recall index built on another thread (:meth:`MemoryRepo.warm_recall`).

        Files that changed while it was built are caught by a stat check of
        every file on the next recall. An index already in use is kept.

        Args:
            index: an index of this store's root, no longer used by its builder.
        """
        if self._recall is None and index.root == self.root:
            self._recall = index
            with self._read_lock:
                self._changed_paths = None

    def _workspace_file_for(self, workspace: str | None) -> tuple[str | None, str | None]:
        """(workspace id, its file or None) for a workspace path, name or id; (None, None) for none.

        Read by :func:`engine.workspaces.resolve_workspace`, the resolver
        ``remember`` uses too.

        Raises:
            RefError: a name that names no workspace file, active or archived
                (a folder path or ``ws-`` id with no file yet is no error, nor
                an archived workspace: its file is None).
            AmbiguousWorkspaceError: a name that matches two or more files.
        """
        if workspace is None or not workspace.strip():
            return None, None
        from .workspaces import resolve_workspace, unknown_name_error

        found = resolve_workspace(self, workspace)
        if found.file is None and found.given_as == "name":
            archived = resolve_workspace(self, workspace, archived=True)
            if archived.file is None:
                raise unknown_name_error(workspace)
            return archived.id, None  # archived: known, but its file reaches no agent
        return found.id, found.file

    def recall(
        self,
        query: str,
        workspace: str | None = None,
        limit: int = 10,
        max_bytes: int = 16_000,
        detail: str = "line",
    ) -> list[RecallHit]:
        """Search the memory folder (DESIGN.md §4).

        Args:
            query: any text: words, a phrase, Chinese or Japanese (two or more
                characters), mixed; empty or odd input gives no hits, never an error.
            workspace: a workspace folder path, name or ``ws-`` id: search the
                global files and that workspace's file only, never another
                workspace's file. None searches everything.
            limit: at most this many hits (1..200).
            max_bytes: at most this many UTF-8 bytes of hit text, ref and
                section together (bytes); hits that would pass it are left out.
            detail: ``"line"`` for entries, ``"full"`` to add up to 80 lines of
                the section around each hit.

        Returns:
            list[RecallHit]: best first; inbox hits have ``unreviewed`` set.
        """
        limit = min(max(int(limit), 1), 200)
        index = self.recall_index()
        scoped = workspace is not None and bool(workspace.strip())
        ws_id, ws_file = self._workspace_file_for(workspace) if scoped else (None, None)
        hits: list[RecallHit] = []
        budget = max(int(max_bytes), 0)
        found = index.search(query, workspace_file=ws_file, workspace_id=ws_id, scoped=scoped, limit=limit)
        share = budget // max(len(found), 1)  # each hit's section gets its share of the bytes
        for iid, key in found:
            hit = index.hit(iid, key, "full" if detail == "full" else "line")
            size = len(hit.ref.encode()) + len(hit.text.encode("utf-8", "replace"))
            if hit.section is not None:  # keep the lines nearest the hit that fit
                lines = hit.section.split("\n")
                while lines and size + len("\n".join(lines).encode("utf-8", "replace")) > min(share, budget):
                    lines = lines[1:] if len(lines) % 2 else lines[:-1]
                hit.section = "\n".join(lines) if lines else None
                size += len((hit.section or "").encode("utf-8", "replace"))
            if size > budget:
                continue  # a shorter hit further down may still fit
            budget -= size
            hits.append(hit)
        return hits

    def _through_symlink(self, rel: str) -> bool:
        """Whether ``rel`` or a folder on its way down from the root is a symlink (never followed)."""
        path = self.root / rel
        while path != self.root:
            if path.is_symlink():
                return True
            path = path.parent
        return False

    @staticmethod
    def _stamp(path: Path) -> tuple[int, int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size

    def context_cached(self, workspace: str | None = None) -> ContextBlock | None:
        """The cached context block when a watcher vouches it is current, else None.

        Reads no file and takes no lock beyond a short in-process one, so it is
        safe to call from any thread (the async API answers from here without
        a thread hop).
        """
        if not self._trusting_watcher():
            return None
        hit = self._context_cache.get(workspace)
        if hit is not None and hit[0] == self._generation:
            return hit[2]
        return None

    def context(self, workspace: str | None = None) -> ContextBlock:
        """The context block an agent gets for ``workspace`` (DESIGN.md §4).

        Args:
            workspace: the agent's workspace as a folder path, name or ``ws-`` id;
                None for MEMORY.md alone.

        Returns:
            ContextBlock: MEMORY.md (500-token budget) and the workspace's file
            (300 tokens); see :mod:`engine.context`. Cached by HEAD and both
            files' mtime and size: the same bytes until one of them changes.
        """
        generation = self._generation
        cached = self.context_cached(workspace)
        if cached is not None:
            return cached
        from .context import MEMORY_BUDGET, READ_MAX, WORKSPACE_BUDGET, ContextFile, build_context

        hit = self._context_cache.get(workspace)
        ws_id, ws_file = self._workspace_file_for(workspace)
        head = self.git.head_id() or ""
        memory = self.root / MEMORY_MD
        key = (head, self._stamp(memory), ws_file, self._stamp(self.root / ws_file) if ws_file else None)
        if hit is not None and hit[1] == key:
            self._context_cache[workspace] = (generation, key, hit[2])
            return hit[2]

        def data(rel: str) -> bytes | None:
            if self._through_symlink(rel):
                return None
            try:
                with (self.root / rel).open("rb") as fh:  # the budget fills long before 256 KB
                    return fh.read(READ_MAX)
            except OSError:
                return None

        files = [ContextFile(MEMORY_MD, data(MEMORY_MD), MEMORY_BUDGET)]
        if ws_id:
            files.append(ContextFile(ws_file or f"{WORKSPACES}/", data(ws_file) if ws_file else None,
                                     WORKSPACE_BUDGET, f"workspace {ws_id}"))
        block = build_context(head[:7], files, ws_id)
        if len(self._context_cache) > 64:
            self._context_cache.clear()
        self._context_cache[workspace] = (generation, key, block)
        return block

    # -- compaction (DESIGN.md §5) ---------------------------------------

    def compact(
        self, progress: Callable[[CompactProgress], None] | None = None, replace_remote: bool = False
    ) -> CompactResult:
        """Replace the history with one commit of the current files; keep no old byte under ``.git``.

        See :func:`engine.compact.compact`: hand edits are committed first;
        other branches, tags, dream branches, reflogs and stray refs are
        deleted; dream records are scrubbed (live ones marked stale); pending
        writes and checkpoint buffers quoting forgotten text are dropped; one
        new pack holds what is left.

        Args:
            progress: called at each step (on this thread).
            replace_remote: with a sync remote set, a person confirmed its
                history is replaced afterwards (issue 9 §4); without it such a
                repo is refused.

        Returns:
            CompactResult: the new commit and what was removed.

        Raises:
            SyncError: a sync remote is set and ``replace_remote`` is False (nothing changed).
            BlockedError, BusyError: as for writes (nothing changed).
            GitError: nothing to compact (unborn HEAD) or libgit2 failed.
        """
        from .compact import compact

        return compact(self, progress, replace_remote)

    def compact_preview(self) -> CompactPreview:
        """What :meth:`compact` would take away: commits, refs, dream branches, pending dreams."""
        from .compact import preview

        return preview(self)

    def _refuse_remote_before_compact(self, replace_remote: bool, what: str) -> None:
        """Raise the sync-remote refusal before a change that ends in a compaction (issue 9 §4).

        Raises:
            SyncError: a sync remote is set and ``replace_remote`` is False.
        """
        from .compact import refuse_remote_before_change

        refuse_remote_before_change(self, replace_remote, what)

    # -- retiring workspaces (issue 8) -------------------------------------

    def all_workspaces(self) -> list[WorkspaceInfo]:
        """Active then archived workspace files (:func:`engine.workspaces.list_workspaces`)."""
        from .workspaces import list_workspaces

        return list_workspaces(self)

    def archive_workspace(self, workspace: str, force: bool = False, origin: Origin = "cli") -> WriteResult:
        """Move a vanished workspace's file to ``archived/`` in one commit (:func:`engine.workspaces.archive`)."""
        from .workspaces import archive

        return archive(self, workspace, force, origin)

    def restore_workspace(self, workspace: str, origin: Origin = "cli") -> WriteResult:
        """Bring an archived workspace's file back in one commit (:func:`engine.workspaces.restore`)."""
        from .workspaces import restore

        return restore(self, workspace, origin)

    def purge_workspace(
        self,
        workspace: str,
        origin: Origin = "cli",
        replace_remote: bool = False,
        progress: Callable[[CompactProgress], None] | None = None,
    ) -> WriteResult:
        """Delete a workspace's file and compact (:func:`engine.workspaces.purge`)."""
        from .workspaces import purge

        return purge(self, workspace, origin, replace_remote, progress)

    def import_target(self, cand: Candidate, file: str | None = None, workspace_slug: str | None = None) -> str:
        """The file :meth:`remember_into` would write ``cand`` to (policy not applied; for dry runs)."""
        return self._import_route(file, workspace_slug)(cand).path

    def _import_route(self, file: str | None, workspace_slug: str | None) -> Callable[[Candidate], _Target]:
        def route(cand: Candidate) -> _Target:
            target = self._route(cand)
            if target.path in (INBOX_MD, MEMORY_MD):
                return target  # untrusted and pinned entries keep their rules
            if target.new_workspace is not None and workspace_slug:
                ws_id, _slug, abs_path, label = target.new_workspace
                base = slugify(workspace_slug, fallback=_slug)
                name, n = base, 2
                while (self.root / WORKSPACES / f"{name}.md").exists():
                    name, n = f"{base}-{n}", n + 1
                if label == ws_id or label == cand.workspace:
                    label = clean_text(workspace_slug) or label
                return _Target(f"{WORKSPACES}/{name}.md", (ws_id, name, abs_path, label))
            if file is not None and cand.scope != "workspace":
                rel = self._importable_file(file)
                if rel is not None:
                    return _Target(rel)
            return target

        return route

    def _importable_file(self, file: str) -> str | None:
        """``file`` when an import may write it, else None (the routing rules then apply).

        Allowed: a ``.md`` path inside the work tree, not hidden, not under
        ``workspaces/`` or ``archived/``, not the index or the inbox, and no
        part of it a symlink or a non-folder.
        """
        try:
            rel = safe_relpath(file)
        except RefError:
            return None
        parts = rel.split("/")
        if (not rel.endswith(".md") or rel in (MEMORY_MD, INBOX_MD) or parts[0] in (WORKSPACES, "archived")
                or any(p.startswith(".") for p in parts)):
            return None
        full = self.root
        for part in parts[:-1]:
            full = full / part
            if full.is_symlink() or (full.exists() and not full.is_dir()):
                return None
        last = full / parts[-1]
        if last.is_symlink() or (last.exists() and not last.is_file()):
            return None
        return rel

    def remember_into(
        self, cand: Candidate, file: str | None = None, workspace_slug: str | None = None
    ) -> WriteResult:
        """:meth:`remember` for importers: the entry goes to the file it came from when that can be.

        Everything else is the governed writer's (policy, redaction, the
        lock, limits, atomic write, one commit per fact, dedupe and
        replace-by-subject). Only the target changes:

        * ``file`` (a repo-relative ``.md`` path, such as ``topics/x.md`` of
          another memory repo): a global entry goes to that file, created
          with a ``# <name>`` title if missing, when the path is allowed
          (:meth:`_importable_file`); otherwise the routing rules apply.
        * ``workspace_slug``: a workspace entry whose workspace has no file
          here yet makes ``workspaces/<slug>.md`` (the source file's name)
          instead of a file named after the workspace id; an existing file
          naming the workspace id is used as always.

        Untrusted entries still go to the inbox and pinned ones to MEMORY.md.

        Returns:
            WriteResult: as :meth:`remember`.

        Raises:
            BlockedError, BusyError, GitError: as :meth:`remember`.
        """
        return self.remember(cand, hint=[], routed=self._import_route(file, workspace_slug))
