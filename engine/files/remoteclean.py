"""What a killed push left in a remote on a local path: ref locks and pack temporary files (docs/architecture.md §3, §5).

A push to a remote on a local path (a USB disk, a NAS mount) writes the remote itself through
libgit2's local transport: it takes ``refs/heads/<branch>.lock`` (and ``HEAD.lock`` when memrepo
points an unborn HEAD) for a moment, and writes the pack it sends as ``objects/pack/pack_git2_*``
before renaming it into place. Killed then, it left them: a lock blocked every later push, and a
pack temporary file (as large as the push) stayed for good. The push's holder record
(``.git/memrepo/sync.holder``: pid, start time, the remote's git folder) tells this repo's killed
push from any other; what it took after it started and no process on this machine holds goes.

A pack temporary file goes only once it is stale (:data:`PACK_TEMP_STALE_S` without a write): a
push from another machine to the same disk, invisible in this machine's ``/proc``, may be writing
one. While a young one is left, the record is kept, marked ``settled`` (its locks are cleared and it
no longer marks git lock files as a killed writer's), so the next write or sync looks again.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from .lockholder import confirmed_unheld, pid_alive

NETWORK_HOLDERS = ("sync.holder", "dream.holder")
"""Under ``.git/memrepo/``: the records of memrepo's network step (fetch, push) and of a running dream
(:data:`memrepo.engine.files.lock.HOLDERS` adds the writer's)."""
PACK_TEMP_PREFIX = "pack_git2_"
"""libgit2's name for a pack it is writing (``objects/pack/pack_git2_<random>``), renamed once complete."""
PACK_TEMP_STALE_S = 10.0
"""A pack temporary file unchanged for this long (seconds) is no live push's: the lock files' rule
(:data:`memrepo.engine.files.lock.STALE_LOCK_S`)."""


def clear_remote_locks(remote_dir: Path, killed_at: float) -> list[str]:
    """Remove the lock files a killed push left in a local-path remote; return them relative to it.

    A lock goes when it was taken after the killed push started (``killed_at``, less a second of
    clock granularity) and no process on this machine has it open, seen twice
    (:func:`memrepo.engine.files.lock.confirmed_unheld`); anything else is left, and the push says
    which file blocks it.

    Args:
        remote_dir: the remote's git folder (a bare repository, or a work tree's ``.git``).
        killed_at: when the killed push started (its ``sync.holder`` record).
    """
    removed: list[str] = []
    refs = Path(remote_dir) / "refs"
    candidates = [Path(remote_dir) / "packed-refs.lock", Path(remote_dir) / "HEAD.lock"]
    with contextlib.suppress(OSError):
        candidates += [p for p in refs.rglob("*.lock") if p.is_file()]
    for path in candidates:
        try:
            taken = path.stat().st_mtime
        except OSError:
            continue
        if taken >= killed_at - 1 and confirmed_unheld(path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed.append(path.relative_to(remote_dir).as_posix())
    return removed


def clear_pack_temps(remote_dir: Path, killed_at: float, now: float | None = None) -> tuple[list[str], int]:
    """Remove the stale pack temporary files a killed push left in a local-path remote.

    Args:
        remote_dir: the remote's git folder.
        killed_at: when the killed push started; a file last written before it (less a second) is
            not this push's and is left.
        now: the time to age files against (seconds since the epoch); the clock when None.

    Returns:
        tuple[list[str], int]: the files removed (relative to ``remote_dir``), and how many of the
        killed push's are left because they are younger than :data:`PACK_TEMP_STALE_S`.
    """
    now = time.time() if now is None else now
    removed: list[str] = []
    young = 0
    try:
        found = [p for p in (Path(remote_dir) / "objects" / "pack").iterdir() if p.name.startswith(PACK_TEMP_PREFIX)]
    except OSError:
        return removed, young
    for path in found:
        try:
            written = path.stat().st_mtime
        except OSError:
            continue
        if written < killed_at - 1:
            continue  # before the killed push started: not its file
        if now - written < PACK_TEMP_STALE_S:
            young += 1
        elif confirmed_unheld(path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed.append(path.relative_to(remote_dir).as_posix())
    return removed, young


def forget_dead_network_holder(git_dir: Path) -> None:
    """Remove a ``sync.holder`` or ``dream.holder`` record of a dead process once what it left is settled.

    A dead push's record that names a local-path remote clears that remote's locks
    (:func:`clear_remote_locks`) and stale pack temporary files (:func:`clear_pack_temps`) first;
    while a younger temporary file of that push is left, the record stays, marked ``settled``.
    The caller holds the write lock.
    """
    for name in NETWORK_HOLDERS:
        path = Path(git_dir) / "memrepo" / name
        try:
            record = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(record, dict):
            path.unlink(missing_ok=True)
            continue
        settled = record.get("settled") is True
        if not settled and pid_alive(record.get("pid")):
            continue
        remote, at = record.get("remote"), record.get("at")
        young = 0
        if isinstance(remote, str) and isinstance(at, (int, float)):
            if not settled:
                clear_remote_locks(Path(remote), float(at))
            young = clear_pack_temps(Path(remote), float(at))[1]
        if young:
            if not settled:
                with contextlib.suppress(OSError):
                    path.write_text(json.dumps({**record, "settled": True}))
            continue
        path.unlink(missing_ok=True)


def settled_record(git_dir: Path, name: str) -> dict[str, object] | None:
    """The ``settled`` record ``name`` (see :func:`forget_dead_network_holder`), else None.

    A new fetch or push writes its own record over it, so it keeps this one and puts it back after.
    """
    try:
        record = json.loads((Path(git_dir) / "memrepo" / name).read_text())
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("settled") is True else None
