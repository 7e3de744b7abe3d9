"""Write imported items through the governed writer, once (issue 8).

Each item goes through :meth:`MemoryStore.remember` (policy, redaction,
routing, dedupe: DESIGN.md §3) as its own commit with ``Origin: import``.
After each item the marker ``.git/memrepo/imports/<format>.txt`` gets the
item's hash (a SHA-256 of format, key and text: no memory text is kept),
so running the same import again skips it, whatever the writer did with it
(added, reinforced, replaced, ...) — except a refusal (a file over its size
limit, a policy refusal): that is not recorded, so a rerun retries it once
room is made. An item whose text changed at the source has a new hash and
is imported again.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from ..errors import BlockedError, FormatError
from ..store import MemoryStore
from .sources import ImportItem, check_source, detect_format, read_items


class ImportProblem(BaseModel):
    """An item that could not be read: where it is in the source and why."""

    where: str
    message: str


class ImportItemResult(BaseModel):
    """What happened (or, in a dry run, would happen) to one item.

    Attributes:
        where: the item's place in the source.
        action: the writer's action (``added``, ``reinforced``, ``refused``,
            ...), ``would write`` / ``would refuse`` in a dry run, or
            ``already imported`` / ``skipped``.
        path: the file written or that would be written.
        text: the entry text as written (redacted), or None.
        reason: why it was refused or skipped.
    """

    where: str
    action: str
    path: str | None = None
    ref: str | None = None
    text: str | None = None
    reason: str | None = None


class ImportReport(BaseModel):
    """One import run.

    Attributes:
        source: the source path.
        format: the format used.
        dry_run: nothing was written.
        total: items read (errors included).
        counts: items by action.
        errors: items that could not be read.
        items: one per readable item, in source order.
    """

    source: str
    format: str
    dry_run: bool = False
    total: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    errors: list[ImportProblem] = Field(default_factory=list)
    items: list[ImportItemResult] = Field(default_factory=list)


def marker_path(store: MemoryStore, format_name: str) -> Path:
    """The marker file of a format: ``.git/memrepo/imports/<format>.txt`` (one hash a line)."""
    return store.state_dir / "imports" / f"{format_name}.txt"


def _hash(format_name: str, item: ImportItem) -> str:
    assert item.candidate is not None
    raw = "\0".join((format_name, item.key, item.candidate.text, item.candidate.workspace or ""))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def _done(path: Path) -> set[str]:
    try:
        return {ln.strip() for ln in path.read_text(encoding="ascii").splitlines() if ln.strip()}
    except FileNotFoundError:
        return set()


def _preview(store: MemoryStore, item: ImportItem) -> ImportItemResult:
    from .. import policy
    from ..store import clean_text

    assert item.candidate is not None
    decision = policy.decide(item.candidate, clean_text)
    if decision.candidate is None:
        return ImportItemResult(where=item.where, action="would refuse", reason=decision.reason)
    target = store._route(decision.candidate)
    return ImportItemResult(where=item.where, action="would write", path=target.path, text=decision.candidate.text)


def import_source(
    store: MemoryStore,
    source: str | os.PathLike[str],
    format_name: str | None = None,
    workspace: str | None = None,
    dry_run: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Import a source once: each fact its own commit (``Origin: import``), a marker so a rerun adds nothing.

    Args:
        store: the memory repo.
        source: the file or folder to import.
        format_name: one of :data:`engine.importers.FORMATS`; None detects it.
        workspace: put facts whose source names no workspace in this workspace.
        dry_run: write nothing (no file, commit or marker); report what would be written.
        progress: called as ``progress(done, total)`` after each item.

    Returns:
        ImportReport: per item what happened, and the items that could not be read.

    Raises:
        FormatError: the format cannot be told or is unknown (nothing written).
        BlockedError: the work tree is blocked; the item being written is kept
            in ``.git/memrepo/pending/`` and the items before it are imported.
        BusyError: another writer held the lock for 5 s; a rerun continues.
    """
    from ..policy import redact

    path = Path(source).expanduser()
    if not path.exists():
        raise FormatError(f"no such file or folder: {path}")
    check_source(path)
    name = format_name or detect_format(path)
    items = read_items(path, name, workspace)
    report = ImportReport(source=str(path), format=name, dry_run=dry_run, total=len(items))
    marker = marker_path(store, name)
    done = _done(marker)
    seen: set[str] = set()
    out = None
    try:
        for n, item in enumerate(items, start=1):
            if item.error is not None:
                report.errors.append(ImportProblem(where=item.where, message=item.error))
            elif item.candidate is None:
                report.items.append(ImportItemResult(where=item.where, action="skipped", reason=item.skipped))
            else:
                digest = _hash(name, item)
                if digest in done or digest in seen:
                    report.items.append(ImportItemResult(where=item.where, action="already imported"))
                elif dry_run:
                    report.items.append(_preview(store, item))
                    seen.add(digest)
                else:
                    try:
                        result = store.remember(item.candidate, hint=[])
                    except BlockedError:
                        out = _append(marker, out, digest)  # kept in pending/: applied later, never twice
                        raise
                    if result.action.value != "refused":  # a refusal is retried by the next run
                        out = _append(marker, out, digest)
                    seen.add(digest)
                    report.items.append(ImportItemResult(
                        where=item.where, action=result.action.value, path=result.path, ref=result.ref,
                        text=None if result.action.value == "refused" else redact(item.candidate.text)[0],
                        reason=result.reason))
            if progress is not None:
                progress(n, len(items))
    finally:
        if out is not None:
            out.close()
    for r in report.items:
        report.counts[r.action] = report.counts.get(r.action, 0) + 1
    if report.errors:
        report.counts["unreadable"] = len(report.errors)
    return report


def _append(marker: Path, out, digest: str):  # type: ignore[no-untyped-def]
    """Append a hash to the marker (opened once per run, flushed per item so a crash loses at most one)."""
    if out is None:
        marker.parent.mkdir(parents=True, exist_ok=True)
        out = marker.open("a", encoding="ascii")
    out.write(digest + "\n")
    out.flush()
    return out
