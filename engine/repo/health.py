"""Health checks of a memory repo (docs/architecture.md §9).

:func:`check` returns one :class:`HealthRow` per check, each OK, WARN or FAIL
with a one-line reason and, where the app has one, the key that fixes it. The
app's Health pane and ``memrepo health [--json]`` show the same rows.

Rows: the repo itself, libgit2, the work tree, writes kept while blocked,
MEMORY.md size, the context budget (the user's lines of MEMORY.md and me.md,
their rules in lessons.md and the workspace files, that the context block
leaves out), file count, the largest file, entries over the length limit,
malformed metadata, a code fence, comment or front matter opened and never
closed, broken ``[[links]]``, files no link reaches from MEMORY.md (orphans)
(these content rows read one pass over the files, :class:`.healthscan.Scan`),
the inbox, the lock holder, the watcher, recall (the index, the vectors and
the recall door: :mod:`.healthrecall`), the last write error, history since
the last compaction (and an interrupted compaction) and ``.git`` size
(:mod:`.healthhistory`), and dreaming: last run, failed runs in 7 days,
pending reviews, budget used today (from the dream records,
:mod:`memrepo.engine.dreams.files`).

The engine cannot know whether an app's watcher runs or what its last write
error was: the app passes those in; without them the rows say so.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from memrepo.engine.errors import MemrepoError
from memrepo.engine.format.limits import ENTRY_MAX_CHARS, FILE_MAX_BYTES, MAX_FILES, MEMORY_MD_MAX_BYTES
from memrepo.engine.git.checks import hooks_row_text
from memrepo.engine.git.lostcommits import lost_text

from .healthhistory import COMMITS_WARN as COMMITS_WARN  # the thresholds, re-exported
from .healthhistory import GIT_SIZE_WARN as GIT_SIZE_WARN
from .healthhistory import REMOVAL_AGE_WARN_S as REMOVAL_AGE_WARN_S
from .healthhistory import REMOVALS_WARN as REMOVALS_WARN
from .healthhistory import history_rows
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
from .healthscan import NOT_READ as NOT_READ
from .healthscan import Scan
from .healthscan import metadata_problem as metadata_problem
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


def _home_workspace_row(root: Path) -> HealthRow | None:
    """A WARN row naming the workspace files of a folder that is no project's (the home folder, ``/``, a temporary
    folder: :func:`~memrepo.engine.format.paths.no_project_folder`): made before sessions there used the global
    files, they reach recall but no session's context block (breaker30 B30-26). Only suggested, never moved: the
    user decides which lines belong in me.md. None (no row) when there is none, as on most repos."""
    from memrepo.engine.format.paths import no_project_folder
    from memrepo.engine.read.workspacemap import workspace_map

    homes = [(rel, path) for rel, _id, path, _text in workspace_map(root).entries() if path and no_project_folder(path)]
    if not homes:
        return None
    named = "; ".join(f"{rel} ({path})" for rel, path in homes)
    return row(
        "workspaces",
        HealthStatus.WARN,
        f"{named}: a folder that is no project, whose sessions now read the global files; its lines reach recall "
        "but no session's context block: move the ones you want to me.md or lessons.md by hand",
    )


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
    from memrepo.engine.git.mergestate import MISSING_HEAD
    from memrepo.engine.git.store import libgit2_version
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

    scan = Scan(store)
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
    for ws_row in (_workspaces_row(store.root), _home_workspace_row(store.root)):
        if ws_row is not None:
            rows.append(ws_row)
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

    rows += history_rows(store, now)
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
