"""Health checks of a memory repo (docs/architecture.md §9).

:func:`check` returns one :class:`HealthRow` per check, each OK, WARN or FAIL
with a one-line reason and, where the app has one, the key that fixes it. The
app's Health pane and ``memrepo health [--json]`` show the same rows.

Rows: the repo itself, libgit2, the work tree, writes kept while blocked,
MEMORY.md size, the context budget (the user's lines of MEMORY.md and me.md,
their rules in lessons.md and the workspace files, that the context block
leaves out), file count, the largest file, entries over the length limit,
malformed metadata, a code fence, comment or front matter opened and never
closed, broken ``[[links]]``, files no link reaches from
MEMORY.md (orphans), the inbox, the lock holder, the watcher, recall (the
index, the vectors and the recall door: :mod:`.healthrecall`), the last write
error, history since the last compaction (and an interrupted compaction),
``.git`` size, and dreaming: last run, failed runs in 7 days, pending
reviews, budget used today (from the dream records, :mod:`memrepo.engine.dreams.files`).

The engine cannot know whether an app's watcher runs or what its last write
error was: the app passes those in; without them the rows say so.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from memrepo.engine.errors import FormatError, MemrepoError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.conflicts import conflicted_lines
from memrepo.engine.format.limits import ENTRY_MAX_CHARS, FILE_MAX_BYTES, MAX_FILES, MEMORY_MD_MAX_BYTES
from memrepo.engine.git.checks import hooks_row_text
from memrepo.engine.git.lostcommits import lost_text

from .healthrecall import recall_row
from .healthrow import FIX_COMPACT as FIX_COMPACT  # the row and its keys, re-exported for the front ends
from .healthrow import FIX_DREAM_LEFTOVERS as FIX_DREAM_LEFTOVERS
from .healthrow import FIX_DREAMS as FIX_DREAMS
from .healthrow import FIX_INBOX as FIX_INBOX
from .healthrow import FIX_REFRESH as FIX_REFRESH
from .healthrow import FIX_SYNC as FIX_SYNC
from .healthrow import HealthRow as HealthRow
from .healthrow import HealthStatus as HealthStatus
from .healthrow import against as _against
from .healthrow import conflict_row, row
from .healthrow import has_failure as has_failure
from .healthrow import size_text as _size
from .healthstate import dream_rows as dream_rows
from .healthstate import leftovers_row, lock_row, parked_row
from .healthstate import sync_row as sync_row
from .watch import WatchMode

if TYPE_CHECKING:
    from pathlib import Path

    from memrepo.engine.config import Settings

    from .store import MemoryStore


INBOX_WARN = 20
"""More inbox entries than this waiting for triage is a WARN."""
GIT_SIZE_WARN = 200 * 1024 * 1024
"""A ``.git`` folder bigger than this (bytes) is a WARN: compaction shrinks it."""
COMMITS_WARN = 10_000
"""More commits than this since the last compaction is a WARN (history slows the log and grows .git)."""
REMOVALS_WARN = 10
"""More removals than this still in the history is a WARN; fewer, newer ones are an OK row that says so."""
REMOVAL_AGE_WARN_S = 30 * 86_400
"""A removal still in the history after this long (30 days, seconds) is a WARN: a new user's first test
lines are not worth a history rewrite, a month-old forgotten entry is (forget itself says "compact")."""

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_UNCLOSED_META_RE = re.compile(r"\s\[[A-Za-z][\w-]*:[^\]]*$")
_AFTER_META_RE = re.compile(r"\s\[([A-Za-z][\w-]*:[^\[\]]*)\][ \t]+(\S.*)$")
"""A metadata group with text typed after it (then it is no longer last, so not read as metadata)."""
_NO_OPEN_META_RE = re.compile(r"\s[A-Za-z][\w-]*:[^\[\];]*;[^\[]*\]$")
"""``key: value; ...]`` at the end with its ``[`` deleted."""


def metadata_problem(line: str, entry: fmt.Entry) -> str | None:
    """Why an entry's metadata is malformed, or None.

    Malformed: a trailing ``[...]`` group with a ``key:`` that does not parse
    as metadata, an unclosed ``[key: ...`` at the end, ``by`` other than
    user/agent, ``added`` not a YYYY-MM-DD date, and the hand edits that lose a
    line's metadata without a word: its ``[`` deleted or doubled, text typed after
    it, a key written twice, a value deleted.
    """
    if entry.meta:
        tail = line.rstrip()
        start = tail.rfind("[")
        if start > 0 and tail[start - 1] == "[":
            return "a [ too many before the metadata"
        keys = [part.partition(":")[0].strip().lower() for part in tail[start + 1 : -1].split(";") if ":" in part]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            return f"{', '.join(twice)} written twice in the metadata (the last one counts)"
        empty = [k for k, v in entry.meta.items() if not v.strip()]
        if empty:
            return f"{', '.join(empty)}: empty value in the metadata"
        by = entry.meta.get("by")
        if by is not None and by.strip().lower() not in ("user", "agent"):
            return f"by: {by!r} is neither user nor agent"
        added = entry.meta.get("added")
        if added is not None and not _DATE_RE.match(added.strip()):
            return f"added: {added!r} is not a YYYY-MM-DD date"
        return None
    tail = line.rstrip()
    if tail.endswith("]") and not tail.endswith("]]"):
        start = tail.rfind("[")
        inner = tail[start + 1 : -1]
        if start > 0 and tail[start - 1] != "[" and ":" in inner and not fmt.REDACTION_MARK_RE.fullmatch(inner):
            return f"[{inner}] is not valid metadata (write [key: value; key: value])"
        if start > 1 and tail[start - 1] == "[" and tail[start - 2] != "[" and fmt.parse_metadata(inner):
            return "a [ too many before the metadata"
    if _UNCLOSED_META_RE.search(tail):
        return "metadata is not closed with ]"
    after = _AFTER_META_RE.search(tail)
    if after and fmt.parse_metadata(after.group(1)) is not None:
        return f"text after the metadata ({after.group(2)[:40]!r}): the [key: value] group must end the line"
    if "[" not in tail and _NO_OPEN_META_RE.search(tail):
        return "metadata has no opening ["
    return None


NOT_READ = "memrepo never reads through symlinks, so no agent sees it: put the file itself there"
"""Why a symlinked memory file is a problem, and the fix (docs/architecture.md §3)."""


class _Scan:
    """One pass over the markdown files for the content checks."""

    def __init__(self, store: MemoryStore) -> None:
        self.files = store.list_files()
        self.paths = {p for p, _ in self.files}
        self.links: dict[str, list[str]] = {}
        self.long: list[str] = []
        self.malformed: list[str] = []
        self.unclosed: list[str] = []
        self.unreadable: list[str] = []
        self.symlinks: list[str] = []
        """Markdown files that are symlinks: never read (docs/architecture.md §3), so no agent sees them."""
        self.huge: list[str] = []
        """Markdown files over recall's bound: not parsed (a 50 MB file cost 8 s and 600 MB here), as recall skips them."""
        self.conflicts: list[str] = []
        """git's conflict-marker regions (``path#L5-L11``): no side of one is an entry (B8-6: committed by a stash pop)."""
        self.inbox = 0
        self.ruled: set[str] = set()
        """Workspace files holding a rule, decision or correction of the user's: the context budget row judges these."""
        from memrepo.engine.read.contextselect import RULE_KINDS
        from memrepo.engine.read.recallentries import MAX_INDEXED_FILE

        for path, size in self.files:
            if not path.endswith(".md"):
                continue
            full = store.root / path
            if full.is_symlink():
                self.symlinks.append(path)
                continue
            if size > MAX_INDEXED_FILE:
                self.huge.append(path)
                continue
            try:
                data = read_work_file(full)
                parsed = fmt.parse(data, path)
            except (OSError, FormatError):
                self.unreadable.append(path)
                continue
            self.conflicts += [f"{path}#L{first}-L{last}" for first, last in conflicted_lines(data)]
            self.links[path] = fmt.extract_links(parsed.text())
            for number in parsed.unclosed:
                opener = parsed.lines[number - 1].text.strip()[:4]
                self.unclosed.append(f"{path}#L{number} ({opener!r})")
            for number, entry in parsed.entries():
                ref = f"{path}#L{number}"
                if path == "inbox.md":
                    self.inbox += 1
                elif entry.by == "user" and entry.meta.get("kind", "").strip().casefold() in RULE_KINDS:
                    self.ruled.add(path)
                if len(entry.text) > ENTRY_MAX_CHARS:
                    self.long.append(f"{ref} ({len(entry.text)} characters)")
                problem = metadata_problem(parsed.lines[number - 1].text, entry)
                if problem:
                    self.malformed.append(f"{ref}: {problem}")

    def resolve(self, link: str) -> str | None:
        """The file a ``[[link]]`` names (links start at the root and omit ``.md``), or None."""
        target = link.strip().lstrip("/")
        for candidate in (f"{target}.md", target):
            if candidate in self.paths:
                return candidate
        return None

    def broken(self) -> list[str]:
        out = []
        for path, links in sorted(self.links.items()):
            out += [f"[[{link}]] in {path}" for link in links if self.resolve(link) is None]
        return out

    def orphans(self) -> list[str]:
        seen = {"MEMORY.md"}
        todo = ["MEMORY.md"]
        while todo:
            for link in self.links.get(todo.pop(), []):
                target = self.resolve(link)
                if target is not None and target not in seen:
                    seen.add(target)
                    todo.append(target)
        never_linked = {"MEMORY.md", "inbox.md"}  # the entry point, and the never-injected inbox
        return sorted(p for p in self.paths if p.endswith(".md") and p not in seen and p not in never_linked)


def _workspaces_row(root: Path) -> HealthRow | None:
    """A WARN row when two files name one workspace: only the first by name reaches the project's context
    and recall (docs/memory-repo.md, Workspaces). Reported, never merged or moved by a dream (B7-23). None
    (no row) when each workspace has one file, as on every repo that was never split."""
    from memrepo.engine.read.workspacemap import workspace_map

    split = workspace_map(root).duplicates()
    if not split:
        return None
    named = "; ".join(
        f"workspace {ws_id} is named by {' and '.join(files)}: sessions read only {files[0]}"
        for ws_id, files in sorted(split.items())
    )
    fix = "move the other file's entries into the one read, by hand, and delete it"
    return row("workspaces", HealthStatus.WARN, f"{named}; {fix}")


def _budget_row(root: Path, me_md: bool, ruled: set[str]) -> HealthRow:
    """WARN when the user's lines that rank first in a file of the block (MEMORY.md's and me.md's lines, lessons.md's
    rules, a workspace file's rules and decisions) fall outside the context block's budget."""
    from memrepo.engine.read.contextbudget import budget_left_out

    left = budget_left_out(root, me_md, ruled)
    if left is None:
        return row("context budget", HealthStatus.OK, "every pin, preference and user rule fits")
    return row("context budget", HealthStatus.WARN, f"left out of the context block for its budget: {left}", FIX_DREAMS)


def _some(items: list[str], noun: str) -> str:
    first = items[0]
    more = f" and {len(items) - 1} more" if len(items) > 1 else ""
    return f"{len(items)} {noun}{'s' * (len(items) != 1)}: {first}{more}"


def check(
    store: MemoryStore,
    *,
    settings: Settings | None = None,
    watcher_running: bool | None = None,
    last_write_error: str | None = None,
    now: datetime | None = None,
    polling: WatchMode | None = None,
) -> list[HealthRow]:
    """Run every health check on an open memory repo (docs/architecture.md §9).

    Reads only: the work tree, ``.git`` and the engine state; never waits for
    the write lock.

    Args:
        store: the open store.
        settings: for the dreaming rows (daily budget, enabled); the
            store's own settings (``store.settings``) when None.
        watcher_running: whether the app's live watcher runs; None when no app
            runs one (the CLI): the row says it does not apply.
        last_write_error: the app's last failed write, one line, or None.
        polling: how the running watcher watches (:class:`~memrepo.engine.repo.watch.WatchMode`);
            while it polls, the watcher row warns why and names the fix.
        now: the time to judge "today" and "7 days" by (UTC now when None).

    Returns:
        list[HealthRow]: the rows, in the order shown.
    """
    from memrepo.engine.git.measure import git_dir_size, history_since_compaction
    from memrepo.engine.git.mergestate import MISSING_HEAD
    from memrepo.engine.git.store import libgit2_version
    from memrepo.engine.history import compact as compaction
    from memrepo.engine.models import RepoState

    settings = settings if settings is not None else store.settings
    now = now or datetime.now(UTC)
    rows = [
        row("memory repo", HealthStatus.OK, f"a memory repo at {store.root}"),
        row("libgit2", HealthStatus.OK, f"libgit2 {libgit2_version()}"),
    ]

    try:
        status = store.status()
    except MemrepoError as exc:
        rows.append(row("work tree", HealthStatus.FAIL, f"cannot read the status: {exc}"))
        status = None
    if status is not None:
        if status.state is RepoState.CLEAN:
            rows.append(row("work tree", HealthStatus.OK, "clean: every change is committed"))
        elif status.state is RepoState.HAND_EDITED and status.questions:  # never committed without the user's yes
            rows.append(row("work tree", HealthStatus.WARN, "; ".join(q.message for q in status.questions)))
        elif status.state is RepoState.HAND_EDITED:
            rows.append(
                row(
                    "work tree",
                    HealthStatus.WARN,
                    f"{_some(status.changed, 'file')} changed by hand; committed as Hand edits before the next write",
                )
            )
        else:  # HEAD at a missing commit is a failure: nothing reads or writes history until it is repaired
            lost = (status.reason or "").startswith(MISSING_HEAD)
            rows.append(row("work tree", HealthStatus.FAIL if lost else HealthStatus.WARN, f"blocked: {status.reason}"))
        if status.pending:
            rows.append(
                row(
                    "pending writes",
                    HealthStatus.WARN,
                    f"{status.pending} write{'s' * (status.pending != 1)} kept while blocked, "
                    + (
                        "applied once the block is gone"
                        if status.state is RepoState.BLOCKED
                        else "not applied yet: `memrepo commit-hand-edits` applies them (so does the next write)"
                    ),
                )
            )
        else:
            rows.append(row("pending writes", HealthStatus.OK, "none kept"))

    scan = _Scan(store)
    sizes = dict(scan.files)
    memory = sizes.get("MEMORY.md")
    if memory is None:
        rows.append(row("MEMORY.md size", HealthStatus.FAIL, "MEMORY.md is missing: the repo has no entry point"))
    elif "MEMORY.md" in scan.symlinks:  # committed as a symlink: every read skips it, the block shows nothing
        rows.append(row("MEMORY.md size", HealthStatus.FAIL, f"MEMORY.md is a symlink: {NOT_READ}"))
    else:
        rows.append(
            _against("MEMORY.md size", memory, MEMORY_MD_MAX_BYTES, f"{_size(memory)} of {_size(MEMORY_MD_MAX_BYTES)}")
        )
    rows.append(_budget_row(store.root, settings.context.me_md, scan.ruled))
    full = "a new file is refused: lines that need one wait in the inbox"
    rows.append(_against("files", len(scan.files), MAX_FILES, f"{len(scan.files):,} of {MAX_FILES:,}", full))
    others = [(size, path) for path, size in scan.files if path != "MEMORY.md"]
    if others:
        size, path = max(others)
        rows.append(_against("largest file", size, FILE_MAX_BYTES, f"{path}, {_size(size)} of {_size(FILE_MAX_BYTES)}"))
    else:
        rows.append(row("largest file", HealthStatus.OK, "no files besides MEMORY.md"))
    rows.append(
        row("long entries", HealthStatus.WARN, _some(scan.long, "entry") + f" over {ENTRY_MAX_CHARS}")
        if scan.long
        else row("long entries", HealthStatus.OK, f"every entry within {ENTRY_MAX_CHARS} characters")
    )
    problems = scan.malformed + [f"{p}: not UTF-8 text" for p in scan.unreadable]
    problems += [f"{p}: a symlink, {NOT_READ}" for p in scan.symlinks if p != "MEMORY.md"]
    problems += [f"{p}: over 1 MB, not read (recall skips it too): split it" for p in scan.huge]
    rows.append(
        row("metadata", HealthStatus.WARN, _some(problems, "problem"))
        if problems
        else row("metadata", HealthStatus.OK, "every entry's metadata reads")
    )
    rows.append(
        row(
            "unclosed blocks",
            HealthStatus.WARN,
            _some(scan.unclosed, "block") + " opened and never closed; the bullets after"
            " it still count here, but other markdown readers hide them: close or delete it",
        )
        if scan.unclosed
        else row("unclosed blocks", HealthStatus.OK, "every code fence, comment and front matter is closed")
    )
    rows.append(conflict_row(scan.conflicts))
    broken = scan.broken()
    rows.append(
        row("links", HealthStatus.WARN, _some(broken, "broken link"))
        if broken
        else row("links", HealthStatus.OK, "every [[link]] leads to a file")
    )
    orphans = scan.orphans()
    rows.append(
        row("orphan files", HealthStatus.WARN, _some(orphans, "file") + " that no [[link]] reaches from MEMORY.md")
        if orphans
        else row("orphan files", HealthStatus.OK, "every file is reached from MEMORY.md")
    )
    split = _workspaces_row(store.root)
    if split is not None:
        rows.append(split)
    if scan.inbox == 0:
        rows.append(row("inbox", HealthStatus.OK, "empty"))
    else:
        status_ = HealthStatus.WARN if scan.inbox > INBOX_WARN else HealthStatus.OK
        rows.append(
            row("inbox", status_, f"{scan.inbox} entr{'ies' if scan.inbox != 1 else 'y'} waiting for triage", FIX_INBOX)
        )

    rows.append(lock_row(store))
    if watcher_running is None:
        rows.append(row("watcher", HealthStatus.OK, "not applicable: this process does not watch the folder"))
    elif watcher_running and polling is not None and polling.polling is not None:
        fix = f"; {polling.fix}" if polling.fix else "; changes show within a second or two"
        rows.append(row("watcher", HealthStatus.WARN, f"polling: {polling.polling}{fix}"))
    elif watcher_running:
        rows.append(row("watcher", HealthStatus.OK, "running: changes on disk show live"))
    else:
        rows.append(row("watcher", HealthStatus.WARN, "not running: changes on disk show after a refresh", FIX_REFRESH))
    rows.append(recall_row(store.root, settings))
    if last_write_error:
        rows.append(row("last write error", HealthStatus.WARN, last_write_error))
    else:
        rows.append(row("last write error", HealthStatus.OK, "none"))
    dropped = lost_text(store.git.git_dir)  # memrepo's commits a git command beside it dropped (B24-10)
    rows.append(row("lost writes", HealthStatus.FAIL if dropped else HealthStatus.OK, dropped or "none"))
    hooks = hooks_row_text(store.git.git_dir)
    if hooks is not None:
        rows.append(row("git hooks", HealthStatus.OK, hooks))

    stopped = compaction.interrupted(store.state_dir)
    commits, removals, compacted, oldest = history_since_compaction(store.root)
    since = "since the last compaction" if compacted else "in the history (never compacted)"
    if stopped is not None:
        rows.append(
            row(
                "history",
                HealthStatus.FAIL,
                f"a compaction was interrupted (pid {stopped.get('pid')}): compact again to finish it",
                FIX_COMPACT,
            )
        )
    elif removals:
        # A new user's first deleted test lines are no reason to rewrite history: a WARN only past a count or an age.
        age = None if oldest is None else int(now.timestamp() - oldest)
        warn = removals > REMOVALS_WARN or (age is not None and age > REMOVAL_AGE_WARN_S)
        if age is not None and age > REMOVAL_AGE_WARN_S:
            when = f" (the oldest {age // 86_400} days ago)"
        else:
            when = "" if warn else f" (a WARN past {REMOVALS_WARN} removals or after 30 days)"
        reason = f"{commits:,} commits {since}; {removals} removed text that is still in the history"
        rows.append(
            row(
                "history",
                HealthStatus.WARN if warn else HealthStatus.OK,
                f"{reason}: compact to forget it for real{when}",
                FIX_COMPACT,
            )
        )
    elif commits > COMMITS_WARN:
        rows.append(row("history", HealthStatus.WARN, f"{commits:,} commits {since}", FIX_COMPACT))
    else:
        rows.append(row("history", HealthStatus.OK, f"{commits:,} commit{'s' * (commits != 1)} {since}"))
    size = git_dir_size(store.git.git_dir)
    rows.append(
        row(
            ".git size",
            HealthStatus.WARN if size > GIT_SIZE_WARN else HealthStatus.OK,
            f"{_size(size)}" + ("; compaction shrinks it" if size > GIT_SIZE_WARN else ""),
            FIX_COMPACT if size > GIT_SIZE_WARN else None,
        )
    )
    rows += dream_rows(store.state_dir, settings, now)
    rows.append(leftovers_row(store))
    rows.append(parked_row(store.state_dir))
    rows.append(sync_row(store.root, now))
    return rows


def check_path(
    path: str | os.PathLike[str],
    *,
    settings: Settings,
    watcher_running: bool | None = None,
    last_write_error: str | None = None,
) -> list[HealthRow]:
    """Open the memory repo at ``path`` (never creating it) with ``settings`` and run :func:`check`.

    Returns:
        list[HealthRow]: the rows; when the repo cannot be opened, one FAIL
        "memory repo" row saying why, plus the libgit2 row.
    """
    from memrepo.engine.git.store import libgit2_version

    from .store import MemoryStore

    try:
        store = MemoryStore.open(path, settings, create=False)
    except MemrepoError as exc:
        return [
            row("memory repo", HealthStatus.FAIL, str(exc)),
            row("libgit2", HealthStatus.OK, f"libgit2 {libgit2_version()}"),
        ]
    return check(store, watcher_running=watcher_running, last_write_error=last_write_error)
