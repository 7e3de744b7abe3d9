"""Health checks of a memory repo (docs/architecture.md §9, phase 2 §7).

:func:`check` returns one :class:`HealthRow` per check, each OK, WARN or FAIL
with a one-line reason and, where the app has one, the key that fixes it. The
app's Health pane and ``memrepo health [--json]`` show the same rows.

Rows: the repo itself, libgit2, the work tree, writes kept while blocked,
MEMORY.md size, file count, the largest file, entries over the length limit,
malformed metadata, a code fence, comment or front matter opened and never
closed, broken ``[[links]]``, files no link reaches from
MEMORY.md (orphans), the inbox, the lock holder, the watcher, the last write
error, history since the last compaction (and an interrupted compaction),
``.git`` size, and dreaming: last run, failed runs in 7 days, pending
reviews, budget used today (from the dream records, :mod:`memrepo.engine.dreams.files`).

The engine cannot know whether an app's watcher runs or what its last write
error was: the app passes those in; without them the rows say so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from memrepo.engine.dreams import files as dreamfiles
from memrepo.engine.errors import FormatError, MemrepoError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.limits import ENTRY_MAX_CHARS, FILE_MAX_BYTES, MAX_FILES, MEMORY_MD_MAX_BYTES
from memrepo.engine.git.checks import hooks_row_text

from .watch import WatchMode

if TYPE_CHECKING:
    from memrepo.engine.config import Settings

    from .store import MemoryStore

FIX_COMPACT = "c"
"""The Health pane's compact key."""
FIX_INBOX = "2"
"""The number key of the Inbox pane."""
FIX_DREAMS = "6"
"""The number key of the Dreams pane."""
FIX_REFRESH = "r"
"""The app's refresh key."""
FIX_SYNC = "s"
"""The app key that syncs now."""
FIX_DREAM_LEFTOVERS = "x"
"""The Health pane's key that cleans up what killed dreams left."""

NEAR_LIMIT = 0.9
"""A size at or above this share of its limit is a WARN."""
INBOX_WARN = 20
"""More inbox entries than this waiting for triage is a WARN."""
GIT_SIZE_WARN = 200 * 1024 * 1024
"""A ``.git`` folder bigger than this (bytes) is a WARN: compaction shrinks it."""
COMMITS_WARN = 10_000
"""More commits than this since the last compaction is a WARN (history slows the log and grows .git)."""

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_UNCLOSED_META_RE = re.compile(r"\s\[[A-Za-z][\w-]*:[^\]]*$")
_AFTER_META_RE = re.compile(r"\s\[([A-Za-z][\w-]*:[^\[\]]*)\][ \t]+(\S.*)$")
"""A metadata group with text typed after it (then it is no longer last, so not read as metadata)."""
_NO_OPEN_META_RE = re.compile(r"\s[A-Za-z][\w-]*:[^\[\];]*;[^\[]*\]$")
"""``key: value; ...]`` at the end with its ``[`` deleted."""


class HealthStatus(StrEnum):
    """How a check came out."""

    OK = "OK"
    WARN = "WARN"
    FAIL = "FAIL"


class HealthRow(BaseModel):
    """One health check (docs/architecture.md §9).

    Attributes:
        name: what was checked, a few words ("work tree", "MEMORY.md size").
        status: OK, WARN or FAIL.
        reason: one line saying what was found.
        fix_key: the app key that fixes it (``c`` compact and ``x`` clean up killed dreams in the Health pane,
            ``2`` the Inbox pane, ``6`` the Dreams pane, ``r`` refresh), or None.
    """

    name: str
    status: HealthStatus
    reason: str
    fix_key: str | None = None


def _row(name: str, status: HealthStatus, reason: str, fix_key: str | None = None) -> HealthRow:
    return HealthRow(name=name, status=status, reason=" ".join(reason.split()), fix_key=fix_key)


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def _against(name: str, value: int, limit: int, shown: str) -> HealthRow:
    if value > limit:
        return _row(name, HealthStatus.FAIL, f"{shown}: over the limit; writes to it are refused")
    if value >= limit * NEAR_LIMIT:
        return _row(name, HealthStatus.WARN, f"{shown}: near the limit")
    return _row(name, HealthStatus.OK, shown)


def has_failure(rows: Iterable[HealthRow]) -> bool:
    """True when any row is FAIL (``memrepo health`` then exits 1)."""
    return any(r.status is HealthStatus.FAIL for r in rows)


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
        if start > 0 and tail[start - 1] != "[" and ":" in inner:
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
        self.inbox = 0
        for path, _size in self.files:
            if not path.endswith(".md"):
                continue
            full = store.root / path
            if full.is_symlink():
                continue
            try:
                parsed = fmt.parse(read_work_file(full), path)
            except (OSError, FormatError):
                self.unreadable.append(path)
                continue
            self.links[path] = fmt.extract_links(parsed.text())
            for number in parsed.unclosed:
                opener = parsed.lines[number - 1].text.strip()[:4]
                self.unclosed.append(f"{path}#L{number} ({opener!r})")
            for number, entry in parsed.entries():
                ref = f"{path}#L{number}"
                if path == "inbox.md":
                    self.inbox += 1
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
    from memrepo.engine.git.compact import git_dir_size, history_since_compaction
    from memrepo.engine.git.store import libgit2_version
    from memrepo.engine.history import compact as compaction
    from memrepo.engine.models import RepoState

    settings = settings if settings is not None else store.settings
    now = now or datetime.now(UTC)
    rows = [
        _row("memory repo", HealthStatus.OK, f"a memory repo at {store.root}"),
        _row("libgit2", HealthStatus.OK, f"libgit2 {libgit2_version()}"),
    ]

    try:
        status = store.status()
    except MemrepoError as exc:
        rows.append(_row("work tree", HealthStatus.FAIL, f"cannot read the status: {exc}"))
        status = None
    if status is not None:
        if status.state is RepoState.CLEAN:
            rows.append(_row("work tree", HealthStatus.OK, "clean: every change is committed"))
        elif status.state is RepoState.HAND_EDITED and status.questions:  # never committed without the user's yes
            rows.append(_row("work tree", HealthStatus.WARN, "; ".join(q.message for q in status.questions)))
        elif status.state is RepoState.HAND_EDITED:
            rows.append(
                _row(
                    "work tree",
                    HealthStatus.WARN,
                    f"{_some(status.changed, 'file')} changed by hand; committed as Hand edits before the next write",
                )
            )
        else:
            rows.append(_row("work tree", HealthStatus.WARN, f"blocked: {status.reason}"))
        if status.pending:
            rows.append(
                _row(
                    "pending writes",
                    HealthStatus.WARN,
                    f"{status.pending} write{'s' * (status.pending != 1)} kept while blocked, "
                    "applied by the next write once the block is gone",
                )
            )
        else:
            rows.append(_row("pending writes", HealthStatus.OK, "none kept"))

    scan = _Scan(store)
    sizes = dict(scan.files)
    memory = sizes.get("MEMORY.md")
    if memory is None:
        rows.append(_row("MEMORY.md size", HealthStatus.FAIL, "MEMORY.md is missing: the repo has no entry point"))
    else:
        rows.append(
            _against("MEMORY.md size", memory, MEMORY_MD_MAX_BYTES, f"{_size(memory)} of {_size(MEMORY_MD_MAX_BYTES)}")
        )
    rows.append(_against("files", len(scan.files), MAX_FILES, f"{len(scan.files):,} of {MAX_FILES:,}"))
    others = [(size, path) for path, size in scan.files if path != "MEMORY.md"]
    if others:
        size, path = max(others)
        rows.append(_against("largest file", size, FILE_MAX_BYTES, f"{path}, {_size(size)} of {_size(FILE_MAX_BYTES)}"))
    else:
        rows.append(_row("largest file", HealthStatus.OK, "no files besides MEMORY.md"))
    rows.append(
        _row("long entries", HealthStatus.WARN, _some(scan.long, "entry") + f" over {ENTRY_MAX_CHARS}")
        if scan.long
        else _row("long entries", HealthStatus.OK, f"every entry within {ENTRY_MAX_CHARS} characters")
    )
    problems = scan.malformed + [f"{p}: not UTF-8 text" for p in scan.unreadable]
    rows.append(
        _row("metadata", HealthStatus.WARN, _some(problems, "problem"))
        if problems
        else _row("metadata", HealthStatus.OK, "every entry's metadata reads")
    )
    rows.append(
        _row(
            "unclosed blocks",
            HealthStatus.WARN,
            _some(scan.unclosed, "block") + " opened and never closed; the bullets after"
            " it still count here, but other markdown readers hide them: close or delete it",
        )
        if scan.unclosed
        else _row("unclosed blocks", HealthStatus.OK, "every code fence, comment and front matter is closed")
    )
    broken = scan.broken()
    rows.append(
        _row("links", HealthStatus.WARN, _some(broken, "broken link"))
        if broken
        else _row("links", HealthStatus.OK, "every [[link]] leads to a file")
    )
    orphans = scan.orphans()
    rows.append(
        _row("orphan files", HealthStatus.WARN, _some(orphans, "file") + " that no [[link]] reaches from MEMORY.md")
        if orphans
        else _row("orphan files", HealthStatus.OK, "every file is reached from MEMORY.md")
    )
    if scan.inbox == 0:
        rows.append(_row("inbox", HealthStatus.OK, "empty"))
    else:
        status_ = HealthStatus.WARN if scan.inbox > INBOX_WARN else HealthStatus.OK
        rows.append(
            _row(
                "inbox", status_, f"{scan.inbox} entr{'ies' if scan.inbox != 1 else 'y'} waiting for triage", FIX_INBOX
            )
        )

    rows.append(_lock_row(store))
    if watcher_running is None:
        rows.append(_row("watcher", HealthStatus.OK, "not applicable: this process does not watch the folder"))
    elif watcher_running and polling is not None and polling.polling is not None:
        fix = f"; {polling.fix}" if polling.fix else "; changes show within a second or two"
        rows.append(_row("watcher", HealthStatus.WARN, f"polling: {polling.polling}{fix}"))
    elif watcher_running:
        rows.append(_row("watcher", HealthStatus.OK, "running: changes on disk show live"))
    else:
        rows.append(
            _row("watcher", HealthStatus.WARN, "not running: changes on disk show after a refresh", FIX_REFRESH)
        )
    if last_write_error:
        rows.append(_row("last write error", HealthStatus.WARN, last_write_error))
    else:
        rows.append(_row("last write error", HealthStatus.OK, "none"))
    hooks = hooks_row_text(store.git.git_dir)
    if hooks is not None:
        rows.append(_row("git hooks", HealthStatus.OK, hooks))

    stopped = compaction.interrupted(store.state_dir)
    commits, removals, compacted = history_since_compaction(store.root)
    since = "since the last compaction" if compacted else "in the history (never compacted)"
    if stopped is not None:
        rows.append(
            _row(
                "history",
                HealthStatus.FAIL,
                f"a compaction was interrupted (pid {stopped.get('pid')}): compact again to finish it",
                FIX_COMPACT,
            )
        )
    elif removals:
        rows.append(
            _row(
                "history",
                HealthStatus.WARN,
                f"{commits:,} commits {since}; {removals} removed text that is still in the history: "
                "compact to forget it for real",
                FIX_COMPACT,
            )
        )
    elif commits > COMMITS_WARN:
        rows.append(_row("history", HealthStatus.WARN, f"{commits:,} commits {since}", FIX_COMPACT))
    else:
        rows.append(_row("history", HealthStatus.OK, f"{commits:,} commit{'s' * (commits != 1)} {since}"))
    size = git_dir_size(store.git.git_dir)
    rows.append(
        _row(
            ".git size",
            HealthStatus.WARN if size > GIT_SIZE_WARN else HealthStatus.OK,
            f"{_size(size)}" + ("; compaction shrinks it" if size > GIT_SIZE_WARN else ""),
            FIX_COMPACT if size > GIT_SIZE_WARN else None,
        )
    )
    rows += dream_rows(store.state_dir, settings, now)
    rows.append(leftovers_row(store))
    rows.append(sync_row(store.root, now))
    return rows


def leftovers_row(store: MemoryStore) -> HealthRow:
    """The killed-dreams row: worktrees, half-made branches and ``running`` records a killed dream left.

    Read-only (``Dreamer.leftovers``); while a dream runs nothing counts as
    left over. Fix key ``x`` cleans them up (docs/architecture.md §6).
    """
    from memrepo.engine.dreams.dreamer import Dreamer  # the dreamer imports the store: not at import time

    try:
        found = Dreamer(store).leftovers()
    except (MemrepoError, OSError) as exc:
        return _row("killed dreams", HealthStatus.WARN, f"cannot look for a killed dream's leftovers: {exc}")
    if not found:
        return _row("killed dreams", HealthStatus.OK, "nothing left by a killed dream")
    return _row("killed dreams", HealthStatus.WARN, "; ".join(found) + ": x cleans up", FIX_DREAM_LEFTOVERS)


def sync_row(root: Path, now: datetime) -> HealthRow:
    """The sync row: no remote, N commits not pushed, the last sync, or why it failed.

    Reads ``.git/memrepo/sync.json`` and the refs only; never the network.

    Args:
        root: the memory repo's work tree.
        now: the time to say "ago" from (UTC).

    Returns:
        HealthRow: OK when no remote is set or all is pushed; WARN for commits
        not pushed or a failed last sync (fix key ``s``: sync now).
    """
    from memrepo.engine.errors import GitError
    from memrepo.engine.sync.sync import sync_state

    try:
        state = sync_state(root)
    except GitError as exc:
        return _row("sync", HealthStatus.WARN, f"cannot read the remote's state: {exc}")
    if state.remote is None:
        return _row("sync", HealthStatus.OK, "no remote: memory stays on this machine (memrepo remote set URL)")
    if state.problem:
        return _row("sync", HealthStatus.FAIL, state.problem, FIX_SYNC)
    if state.last_sync is None:
        last = "never synced"
    else:
        minutes = max(int((now - state.last_sync).total_seconds() // 60), 0)
        last = (
            f"last sync {minutes // 1440} d ago"
            if minutes >= 1440
            else (f"last sync {minutes // 60} h ago" if minutes >= 60 else f"last sync {minutes} min ago")
        )
    if state.last_error:
        return _row("sync", HealthStatus.WARN, f"last sync failed: {state.last_error}; {last}", FIX_SYNC)
    if state.ahead:
        return _row(
            "sync", HealthStatus.WARN, f"{state.ahead} commit{'s' * (state.ahead != 1)} not pushed; {last}", FIX_SYNC
        )
    return _row("sync", HealthStatus.OK, f"up to date with {state.remote}; {last}")


def _lock_row(store: MemoryStore) -> HealthRow:
    with store.lock.try_hold() as free:
        pass
    if free:
        return _row("lock", HealthStatus.OK, "free")
    holder = store.lock.holder() or {}
    pid, purpose, at = holder.get("pid"), holder.get("purpose"), holder.get("at")
    held = f" for {max(0.0, datetime.now(UTC).timestamp() - at):.0f} s" if isinstance(at, (int, float)) else ""
    who = f"pid {pid} ({purpose})" if pid else "another process"
    return _row("lock", HealthStatus.OK, f"held by {who}{held}")


def dream_rows(state_dir: Path, settings: Settings, now: datetime) -> list[HealthRow]:
    """The dreaming rows: last run, failed runs in 7 days, pending reviews, budget used today.

    Args:
        state_dir: ``.git/memrepo``.
        settings: for ``[dream] enabled`` and ``daily_token_budget``.
        now: the current time, timezone-aware.
    """
    records = dreamfiles.load_records(state_dir)
    timed = sorted(
        ((dreamfiles.parse_time(r.get("started")), r) for r in records),
        key=lambda pair: pair[0] or datetime.min.replace(tzinfo=UTC),
    )
    rows: list[HealthRow] = []
    off = "" if settings.dream.enabled else " (dreaming is off in the settings)"
    if not timed:
        rows.append(_row("last dream", HealthStatus.OK, "never dreamed" + off))
    else:
        when, last = timed[-1]
        shown = when.strftime("%Y-%m-%d %H:%M UTC") if when else "at an unknown time"
        status = str(last.get("status") or "unknown")
        if status == "failed":
            why = f": {last.get('reason')}" if last.get("reason") else ""
            rows.append(_row("last dream", HealthStatus.WARN, f"failed {shown}{why}", FIX_DREAMS))
        else:
            rows.append(_row("last dream", HealthStatus.OK, f"{shown}, {status.replace('_', ' ')}{off}"))
    week = now - timedelta(days=7)
    failed = [r for when, r in timed if r.get("status") == "failed" and when is not None and when >= week]
    rows.append(
        _row("failed dreams", HealthStatus.WARN, f"{len(failed)} failed in the last 7 days", FIX_DREAMS)
        if failed
        else _row("failed dreams", HealthStatus.OK, "none in the last 7 days")
    )
    waiting = [r for r in records if r.get("status") in ("pending_review", "applied")]
    rows.append(
        _row(
            "dream reviews",
            HealthStatus.WARN,
            f"{len(waiting)} dream{'s' * (len(waiting) != 1)} waiting for review",
            FIX_DREAMS,
        )
        if waiting
        else _row("dream reviews", HealthStatus.OK, "none waiting")
    )
    day = now - timedelta(hours=24)
    used = sum(dreamfiles.tokens_of(r) for when, r in timed if when is not None and when >= day)
    budget = settings.dream.daily_token_budget
    shown = f"{used:,} of {budget:,} tokens in the last 24 h"
    if budget == 0:
        rows.append(_row("dream budget", HealthStatus.OK, "no daily budget: model dreams are off"))
    elif used >= budget:
        rows.append(_row("dream budget", HealthStatus.WARN, f"{shown}: spent; dreaming waits"))
    elif used >= budget * NEAR_LIMIT:
        rows.append(_row("dream budget", HealthStatus.WARN, f"{shown}: nearly spent"))
    else:
        rows.append(_row("dream budget", HealthStatus.OK, shown))
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
            _row("memory repo", HealthStatus.FAIL, str(exc)),
            _row("libgit2", HealthStatus.OK, f"libgit2 {libgit2_version()}"),
        ]
    return check(store, watcher_running=watcher_running, last_write_error=last_write_error)
