"""The journal of a commit that consumes state files: a kept write and its record (docs/architecture.md §3).

A write kept in ``.git/memrepo/pending/`` is applied by a later transaction: its line is written, committed,
and its record removed. The three are one step to the user: a kill between them must neither lose the
write's provenance nor apply it twice. :meth:`Transaction.commit` writes this journal before the first file
(the commit's message, a SHA-256 of each file's new bytes, the records the commit consumes) and removes it once
the records are gone. The next holder of the write lock finishes what a kill left (:func:`finish`): when HEAD
holds the new bytes the commit landed and the records go; when the work tree holds them and HEAD does not,
they are committed with the journaled message (``Remember ...``, its ``By:``), never as "Hand edits", and the
records go; otherwise (a kill mid-way through the files, or a later edit) the records stay and are applied
again, as before. Before (no journal): killed after the line was written, the line was committed as "Hand
edits", its writer lost; killed after the commit, the record was applied a second time (the line back after
the user had deleted it).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.files.atomic import atomic_write
from memrepo.engine.files.regularfile import read_work_file

if TYPE_CHECKING:
    from .writer import Writer

JOURNAL = "commit-journal"
"""Under ``.git/memrepo/``: the commit being made and the records it consumes, while it is made."""


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _now(root: Path, rel: str) -> bytes | None:
    try:
        return read_work_file(root / rel)
    except (FileNotFoundError, IsADirectoryError):
        return None


def begin(state_dir: Path, message: str, written: dict[str, bytes | None], consumed: list[Path]) -> Path:
    """Journal a commit about to be made; returns the journal's path (removed by :func:`end`).

    Args:
        state_dir: ``.git/memrepo/``.
        message: the commit's whole message (summary, body, trailers).
        written: each path's new bytes (None: deleted).
        consumed: the state files (under ``state_dir``) to remove once the commit lands.
    """
    path = state_dir / JOURNAL
    record = {
        "message": message,
        "written": {rel: _digest(data) for rel, data in written.items()},
        "consumed": [p.relative_to(state_dir).as_posix() for p in consumed],
    }
    atomic_write(path, json.dumps(record).encode("utf-8"), private=True)
    return path


def end(path: Path, consumed: list[Path]) -> None:
    """The commit landed: remove the consumed state files, then the journal."""
    for done in consumed:
        done.unlink(missing_ok=True)
    path.unlink(missing_ok=True)


def finish(writer: Writer) -> set[str]:
    """Finish the journaled commit a killed writer left, under the write lock; the paths it committed now.

    Returns:
        set[str]: the paths committed here with the journaled message (no longer hand edits); empty when
        there was no journal, the commit had landed, or the work tree no longer holds the journaled bytes.
    """
    path = writer.state_dir / JOURNAL
    try:
        record = json.loads(path.read_bytes())
        message, written = str(record["message"]), dict(record["written"])
        consumed = [writer.state_dir / str(rel) for rel in record["consumed"]]
    except FileNotFoundError:
        return set()
    except (OSError, ValueError, KeyError, TypeError):
        path.unlink(missing_ok=True)  # unreadable: the records stay and are applied again, as before
        return set()
    committed: set[str] = set()
    if any(_digest(writer.git.head_blob(rel)) != digest for rel, digest in written.items()):
        now = {rel: _now(writer.root, rel) for rel in written}
        if any(_digest(now[rel]) != digest for rel, digest in written.items()):
            path.unlink(missing_ok=True)  # killed mid-way or edited since: not this commit; the records stay
            return set()
        writer.git.commit_paths(sorted(written), message, expect=now)
        committed = set(written)
    end(path, consumed)
    return committed
