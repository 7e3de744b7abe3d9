"""Write imported items through the governed writer, once.

Each item goes through :meth:`MemoryStore.remember` (policy, redaction,
routing, dedupe: docs/architecture.md §3) as its own commit with ``Origin: import``.
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
from typing import TextIO

from pydantic import BaseModel, Field

from memrepo.engine.errors import BlockedError, FormatError, MemrepoError
from memrepo.engine.format.layout import is_workspace_file
from memrepo.engine.repo.store import MemoryStore

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


class _DryRun:
    """What a real run would do, foreseen item by item: the files' entries, subjects and sizes simulated.

    A dry run cannot know everything (an editor saving meanwhile), but it
    foresees the writer's outcomes that depend only on the files: a
    duplicate (``would reinforce``), a same-subject entry (``would replace``,
    or ``would be outranked`` by a user's entry), and a file passing its size
    limit once the items before it were written (``would refuse``).
    """

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.files: dict[str, tuple[set[str], dict[str, str], list[int]]] = {}

    def _state(self, rel: str) -> tuple[set[str], dict[str, str], list[int]]:
        if rel not in self.files:
            from memrepo.engine.errors import MemrepoError
            from memrepo.engine.format import entries as fmt

            try:
                view = self.store.read_file(rel)
            except MemrepoError:
                view = None
            if view is None or view.text is None:  # missing, a symlink or not text: written as a new file
                texts: set[str] = set()
                subjects: dict[str, str] = {}
                size = len(f"# {Path(rel).stem}\n\n") + (120 if is_workspace_file(rel) else 0)
            else:
                texts = {fmt.normalize_text(e.text) for e in view.entries}
                subjects = {e.meta["subject"].casefold(): e.by for e in view.entries if e.meta.get("subject")}
                size = view.size
            self.files[rel] = (texts, subjects, [size])
        return self.files[rel]

    def preview(self, item: ImportItem) -> ImportItemResult:
        from memrepo.engine.errors import LimitError
        from memrepo.engine.format import entries as fmt
        from memrepo.engine.format.entrytext import clean_text
        from memrepo.engine.format.limits import check_file_size
        from memrepo.engine.write import policy

        assert item.candidate is not None
        refusal = self.store.entries.refusal(item.candidate)
        if refusal is not None:
            return ImportItemResult(where=item.where, action="would refuse", reason=refusal)
        decision = policy.decide(item.candidate, clean_text)
        cand = decision.candidate
        if cand is None:
            return ImportItemResult(where=item.where, action="would refuse", reason=decision.reason)
        if cand.untrusted and cand.by != "agent":
            cand = cand.model_copy(update={"by": "agent", "pin": False})
        if item.file is not None or item.workspace_slug is not None:
            rel = self.store.import_target(cand, item.file, item.workspace_slug)
        else:
            rel = self.store.entries.route(cand).path
        texts, subjects, size = self._state(rel)
        entry = self.store.entries.new_entry(cand)
        key = fmt.normalize_text(entry.text)
        if key in texts:
            return ImportItemResult(
                where=item.where,
                action="would reinforce",
                path=rel,
                text=entry.text,
                reason="the same entry is already there",
            )
        subject = (cand.subject or "").casefold()
        if subject and subject in subjects:
            if subjects[subject] == "user" and cand.by == "agent":
                return ImportItemResult(
                    where=item.where,
                    action="would be outranked",
                    path=rel,
                    text=entry.text,
                    reason=f"a user entry with subject {cand.subject!r} outranks it",
                )
            texts.add(key)
            return ImportItemResult(
                where=item.where,
                action="would replace",
                path=rel,
                text=entry.text,
                reason=f"same subject {cand.subject!r}",
            )
        line = len(f"- {entry.text} {fmt.render_metadata(entry.meta)}\n".encode())
        try:
            check_file_size(rel, size[0] + line)
        except LimitError as exc:
            return ImportItemResult(where=item.where, action="would refuse", path=rel, reason=str(exc))
        size[0] += line
        texts.add(key)
        if subject:
            subjects[subject] = cand.by
        return ImportItemResult(where=item.where, action="would write", path=rel, text=entry.text)


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
        format_name: one of :data:`memrepo.engine.importers.FORMATS`; None detects it.
        workspace: put facts whose source names no workspace in this workspace.
        dry_run: write nothing (no file, commit or marker); report per item what would
            happen as far as the files tell (write, reinforce, replace, outranked, refused
            by policy or a size limit once the items before it were written).
        progress: called as ``progress(done, total)`` after each item.

    Returns:
        ImportReport: per item what happened, and the items that could not be read.

    Raises:
        FormatError: the format cannot be told or is unknown (nothing written).
        BlockedError: the work tree is blocked; the item being written is kept
            in ``.git/memrepo/pending/`` and the items before it are imported.
        BusyError: another writer held the lock for 5 s; a rerun continues.
    """
    from memrepo.engine.write.policy import redact

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
    dry = _DryRun(store) if dry_run else None
    out = None
    copied: set[str] = set()
    if name == "memrepo" and not dry_run:
        # Files entry-by-entry import would lose (a topic file's headings, a linked .sql note) are copied whole.
        whole = whole_files(store, path)
        try:
            if whole and store.import_files(whole) is not None:
                copied = {rel for rel in whole if (store.root / rel).is_file()}
        except MemrepoError as exc:  # blocked, busy, MEMORY.md full: the entries still come one by one
            report.errors.append(ImportProblem(where="(whole files)", message=str(exc)))
    try:
        for n, item in enumerate(items, start=1):
            if item.error is not None:
                report.errors.append(ImportProblem(where=item.where, message=item.error))
            elif item.file is not None and item.file in copied:
                out = _append(marker, out, _hash(name, item))
                report.items.append(ImportItemResult(where=item.where, action="copied", path=item.file))
            elif item.candidate is None:
                report.items.append(ImportItemResult(where=item.where, action="skipped", reason=item.skipped))
            else:
                digest = _hash(name, item)
                if digest in done or digest in seen:
                    report.items.append(ImportItemResult(where=item.where, action="already imported"))
                elif dry is not None:
                    report.items.append(dry.preview(item))
                    seen.add(digest)
                else:
                    try:
                        if item.file is not None or item.workspace_slug is not None:
                            result = store.remember_into(item.candidate, item.file, item.workspace_slug)
                        else:
                            result = store.remember(item.candidate, hint=[])
                    except BlockedError:
                        out = _append(marker, out, digest)  # kept in pending/: applied later, never twice
                        raise
                    if result.action.value != "refused":  # a refusal is retried by the next run
                        out = _append(marker, out, digest)
                    seen.add(digest)
                    report.items.append(
                        ImportItemResult(
                            where=item.where,
                            action=result.action.value,
                            path=result.path,
                            ref=result.ref,
                            text=None if result.action.value == "refused" else redact(item.candidate.text)[0],
                            reason=result.reason,
                        )
                    )
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


STANDARD = frozenset({"MEMORY.md", "me.md", "lessons.md", "inbox.md"})
"""Files whose entries are merged one by one into the files here (never copied whole)."""


def whole_files(store: MemoryStore, source: Path) -> dict[str, bytes]:
    """The files of another memory repo to copy whole: every regular file that is not one of
    :data:`STANDARD`, not a workspace file, not hidden or archived, and not here yet (bytes by path)."""
    from memrepo.engine.format.limits import FILE_MAX_BYTES

    from .sourcefile import read_source_bytes

    out: dict[str, bytes] = {}
    for full in sorted(source.rglob("*")):
        rel = full.relative_to(source).as_posix()
        parts = rel.split("/")
        if (
            rel in STANDARD
            or parts[0] in ("workspaces", "archived")
            or any(p.startswith(".") for p in parts)
            or full.is_symlink()
            or not full.is_file()
            or (store.root / rel).exists()
        ):
            continue
        try:
            out[rel] = read_source_bytes(full, FILE_MAX_BYTES)
        except (OSError, MemrepoError):
            continue  # too large or not a regular file: its entries still come one by one
    return out


def _append(marker: Path, out: TextIO | None, digest: str) -> TextIO:
    """Append a hash to the marker (opened once per run, flushed per item so a crash loses at most one)."""
    if out is None:
        marker.parent.mkdir(parents=True, exist_ok=True)
        out = marker.open("a", encoding="ascii")
    out.write(digest + "\n")
    out.flush()
    return out
