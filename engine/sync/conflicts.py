"""Entries a sync merge kept in two versions (``conflict: <id>``), and picking one.

:func:`memrepo.engine.format.merge.merge_entries` keeps both versions of an entry both
machines changed differently, side by side, each with the same
``conflict: <id>`` key. :func:`conflicts_in` finds them for the Inbox pane;
:func:`resolve_conflict` keeps the first, the second or both (without the key),
in one commit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from memrepo.engine.errors import FormatError, RefError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.files.worktreefiles import file_sizes, list_files
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.merge import CONFLICT_KEY, strip_conflict
from memrepo.engine.format.paths import make_ref, safe_relpath
from memrepo.engine.models import Action, ConflictView, EntryView, Origin, WriteResult
from memrepo.engine.write.ports import WriteAccess
from memrepo.engine.write.writer import Transaction, retrying

Keep = Literal["first", "second", "both"]
"""Which version to keep: the first in the file (the version of the machine that
made the merge), the second (the other machine's), or both as separate entries."""


def conflicts_in(root: Path, paths: list[str] | None = None) -> list[ConflictView]:
    """Every entry kept in two versions by a sync merge in the work tree at ``root``, grouped by conflict id.

    Reads work files only (no git object, no store state), so a front end may run it on a spare
    thread: at 20,000 files reading every file takes seconds, which on the store's one thread held
    up every read queued behind it (docs/architecture.md §8).

    Args:
        root: the memory repo's work tree.
        paths: only these repo-relative files (those a watcher's event named:
            no walk of the tree, no read of the other files); None for all.
            A folder among them lists all files, as None does.

    Returns:
        list[ConflictView]: in path order, then file order; files that are
        not UTF-8 text, gone, or not in the file list are skipped.
    """
    out: list[ConflictView] = []
    sizes = None if paths is None else file_sizes(root, paths)
    if sizes is None:  # all files, or a folder among the paths: only a walk lists what it holds
        listed = [path for path, _size in list_files(root)]
    else:
        listed = sorted(path for path, size in sizes.items() if size is not None)
    for path in listed:
        if not path.endswith(".md"):
            continue
        try:
            data = read_work_file(root / path)
        except OSError:
            continue
        if f"{CONFLICT_KEY}:".encode() not in data:
            continue
        try:
            parsed = fmt.parse(data, path)
        except FormatError:
            continue
        groups: dict[str, ConflictView] = {}
        for number, entry in parsed.entries():
            cid = entry.meta.get(CONFLICT_KEY)
            if not cid:
                continue
            view = EntryView(
                ref=make_ref(path, number), path=path, line=number, text=entry.text, by=entry.by, meta=entry.meta
            )
            groups.setdefault(cid, ConflictView(id=cid, path=path)).versions.append(view)
        out.extend(groups.values())
    return out


def resolve_conflict(
    store: WriteAccess, path: str, conflict_id: str, keep: Keep, origin: Origin = "cli"
) -> WriteResult:
    """Keep one version of a conflicted entry, or both, in one commit ("Resolve conflict ...").

    One write transaction (docs/architecture.md §3): hand edits are committed
    first, a file an editor saves meanwhile is kept and the change made on
    top of it, limits apply. The kept lines lose their ``conflict:`` key; the
    other version's line is removed.

    Args:
        store: the open store.
        path: the repo-relative file holding the versions.
        conflict_id: the ``conflict:`` value.
        keep: ``first``, ``second`` or ``both``.
        origin: the ``Origin:`` trailer.

    Returns:
        WriteResult: action ``replaced`` with the commit and the kept entry's ref.

    Raises:
        RefError: no entry in ``path`` carries that conflict id, or ``keep``
            names a version that is not there.
        BlockedError, BusyError: as for writes.
    """
    rel = safe_relpath(path)
    if keep not in ("first", "second", "both"):
        raise RefError(f"keep must be first, second or both, not {keep!r}")

    def change(tx: Transaction) -> WriteResult:
        parsed = tx.read(rel)
        if parsed is None:
            raise RefError(f"no file {rel} in the memory repo")
        numbers = [n for n, e in parsed.entries() if e.meta.get(CONFLICT_KEY) == conflict_id]
        if not numbers:
            raise RefError(f"no entry in {rel} carries conflict: {conflict_id} (already resolved?)")
        pick = {"first": numbers[:1], "second": numbers[1:2], "both": numbers}[keep]
        if not pick:
            raise RefError(f"conflict {conflict_id} in {rel} has no {keep} version")
        for number in reversed(numbers):
            if number in pick:
                entry = fmt.parse_entry(strip_conflict(parsed.lines[number - 1].text))
                assert entry is not None
                parsed.set_entry(number, entry)
            else:
                parsed.remove_line(number)
        tx.write(rel, parsed.render())
        kept_line = pick[0] - sum(1 for n in numbers if n < pick[0] and n not in pick)
        commit = tx.commit(f"Resolve conflict {conflict_id}: keep {keep}", {"Origin": origin}, body=rel)
        return WriteResult(action=Action.REPLACED, ref=make_ref(rel, kept_line), path=rel, commit=commit)

    with store.transaction("resolve conflict") as tx:
        return retrying(tx, change)
