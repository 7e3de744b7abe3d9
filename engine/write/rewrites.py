"""Changes to entries already written: forget one, undo a commit, clear a workspace, the globals or a task.

Each is one :class:`~memrepo.engine.write.writer.Transaction` (hand edits first,
changed-meanwhile check, limits, atomic write, one commit: docs/architecture.md
§3), retried on top of an editor's save (:func:`~memrepo.engine.write.writer.retrying`).
Compaction after a change is the store's (:meth:`MemoryStore.forget`).
"""

from __future__ import annotations

from collections.abc import Callable

from memrepo.engine.errors import FormatError, GitError, RefError
from memrepo.engine.files.worktreefiles import list_files
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.entrytext import clean_text, summary
from memrepo.engine.format.layout import GLOBAL_FILES, MEMORY_MD, is_workspace_file, link_of
from memrepo.engine.format.paths import parse_ref, safe_relpath
from memrepo.engine.models import Action, Origin, WriteResult
from memrepo.engine.read.workspaceindex import WorkspaceIndex
from memrepo.engine.redaction import redact

from .remember import trailers
from .revert import RevertConflict, revert_text
from .writer import Transaction, Writer, retrying


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


def drop_index_link(index: fmt.MemoryFile, link: str) -> bool:
    """Remove MEMORY.md's ``[[link]]`` index lines; whether there were any."""
    numbers = [
        i + 1
        for i, ln in enumerate(index.lines)
        if link in fmt.extract_links(ln.text) and fmt.is_link_line(ln.text.lstrip(" \t-*+"))
    ]
    for number in reversed(numbers):
        index.remove_line(number)
    return bool(numbers)


def entry_at_ref(tx: Transaction, ref: str, expect: str | None) -> tuple[fmt.MemoryFile, fmt.Entry]:
    """The file and the entry ``ref`` names, read in ``tx``: shared by forget and pin (:mod:`.pinning`).

    Raises:
        RefError: no such file, no entry on that line, or (with ``expect``) the line now holds other text.
    """
    rel, number = parse_ref(ref)
    parsed = tx.read(rel)
    if parsed is None:
        raise RefError(f"no file {rel} in the memory repo ({ref})")
    entry = parsed.entry_at(number)
    if entry is None:
        raise RefError(f"line {number} of {rel} is not an entry ({ref}; the file has {len(parsed.lines)} lines)")
    if expect is not None and fmt.normalize_text(entry.text) != fmt.normalize_text(expect):
        raise RefError(
            f"{ref} now holds {summary(entry.text)!r}, not {summary(expect)!r}: "
            "the file changed since the ref was read; read it again"
        )
    return parsed, entry


def forget(
    writer: Writer,
    ref: str,
    origin: Origin = "cli",
    task: str | None = None,
    expect: str | None = None,
    scrub: Callable[[list[str]], object] | None = None,
) -> WriteResult:
    """Remove the entry at ``ref`` in its own commit ("Forget: ..."; see :meth:`MemoryStore.forget`).

    ``scrub`` runs after the commit, under the same lock, with the rewritten
    file. The store passes the derived-state walk (:mod:`memrepo.engine.state.scrub`):
    the forgotten text leaves every derived file before another write starts.
    """
    rel, number = parse_ref(ref)

    def change(tx: Transaction) -> WriteResult:
        parsed, entry = entry_at_ref(tx, ref, expect)
        if is_workspace_file(rel) and entry.meta.get("workspace"):
            raise RefError(
                f"{ref} names the workspace {entry.meta['workspace']}; forgetting it would "
                "orphan the file: forget its other entries, or delete the file by hand"
            )
        parsed.remove_line(number)
        tx.write(rel, parsed.render())
        commit = tx.commit(f"Forget: {forgotten_summary(entry.text)}", trailers(origin, task))
        if scrub is not None:
            scrub([rel])
        return WriteResult(action=Action.FORGOTTEN, ref=ref, path=rel, commit=commit)

    with writer.transaction("forget") as tx:
        return retrying(tx, change)


def undo(writer: Writer, rev: str, origin: Origin = "cli") -> WriteResult:
    """Revert one commit in a new commit, entry-aware ("Undo: ..."; see :meth:`MemoryStore.undo`)."""

    def change(tx: Transaction) -> WriteResult:
        info, changes = writer.git.commit_changes(rev)
        undone = writer.git.undone_by(info.id)
        if undone is not None:
            raise GitError(f"{info.short_id} ({info.summary}) is already undone by {undone.short_id}")
        files: dict[str, bytes | None] = {}
        for path, (before, after) in changes.items():
            rel = safe_relpath(path)
            full = writer.root / rel
            current = None if full.is_symlink() or not full.is_file() else tx.read_bytes(rel)
            try:
                files[rel] = revert_text(before, after, current, key=_entry_key)
            except RevertConflict as exc:
                raise GitError(
                    f"cannot undo {info.short_id} ({info.summary}): it conflicts with later changes "
                    f"to {path} ({exc}); nothing was changed"
                ) from exc
            if files[rel] == current:
                del files[rel]
        if not files:
            raise GitError(f"undoing {info.short_id} changes nothing: its changes are already gone")
        for rel, data in files.items():
            if data is None:
                tx.delete(rel)
            else:
                tx.write(rel, data)
        commit = tx.commit(f"Undo: {summary(info.summary)}", {"Origin": origin, "Reverts": info.id})
        return WriteResult(action=Action.UNDONE, path=sorted(files)[0], commit=commit)

    with writer.transaction("undo") as tx:
        return retrying(tx, change)


def rewrite(
    writer: Writer,
    edits: dict[str, Callable[[fmt.MemoryFile], bool]],
    summary_line: str,
    origin: Origin,
    purpose: str,
) -> str | None:
    """Apply in-place edits to several files and commit them together.

    Args:
        writer: the store's writer.
        edits: path -> a function that edits the parsed file in place and
            says whether it changed anything. A missing or non-text file is skipped.
        summary_line: the commit's first line.
        origin: the ``Origin:`` trailer.
        purpose: the lock's purpose.

    Returns:
        str | None: the commit, or None when nothing changed.
    """

    def change(tx: Transaction) -> str | None:
        for path, edit in edits.items():
            try:
                parsed = tx.read(path)
            except FormatError:
                continue  # not a text memory file: nothing of ours to edit in it
            if parsed is not None and edit(parsed):
                tx.write(path, parsed.render())
        return tx.commit(summary_line, trailers(origin))

    with writer.transaction(purpose) as tx:
        return retrying(tx, change)


def forgotten_summary(text: str) -> str:
    """A forget commit's subject text for the entry ``text``: redacted, controls dropped, cut to one line.

    The entry can be a token pasted by hand or synced in raw: forgetting is how a person removes it, so its
    value never goes into a new commit message (breaker24 B24-5)."""
    return summary(clean_text(redact(text)[0]))


def drop_entries(parsed: fmt.MemoryFile, keep: Callable[[fmt.Entry], bool]) -> bool:
    """Remove every entry ``keep`` refuses; whether any went."""
    numbers = [n for n, e in parsed.entries() if not keep(e)]
    for number in reversed(numbers):
        parsed.remove_line(number)
    return bool(numbers)


def clear_workspace(writer: Writer, index: WorkspaceIndex, workspace: str, origin: Origin = "cli") -> WriteResult:
    """Delete a workspace's file and its index link in one commit (see :meth:`MemoryStore.clear_workspace`)."""
    with writer.transaction("clear workspace") as tx:
        found = index.resolve(workspace)
        ws_id, rel = found.id, found.file
        if rel is None:
            raise RefError(f"no workspace file names workspace {workspace!r} ({ws_id})")

        def change(tx: Transaction) -> str | None:
            tx.delete(rel)
            memory = tx.read(MEMORY_MD)
            if memory is not None and drop_index_link(memory, link_of(rel)):
                tx.write(MEMORY_MD, memory.render())
            return tx.commit(f"Clear workspace {link_of(rel).split('/', 1)[-1]}", trailers(origin))

        commit = retrying(tx, change)
        index.drop(ws_id)
    return WriteResult(action=Action.CLEARED, path=rel, commit=commit)


def clear_global(writer: Writer, origin: Origin = "cli") -> str | None:
    """Empty every entry of the global files in one commit; the commit, or None when there was nothing."""
    edits = {path: (lambda p: drop_entries(p, lambda e: False)) for path in GLOBAL_FILES}
    return rewrite(writer, edits, "Clear global memories", origin, "clear global")


def purge_task(writer: Writer, task: str, origin: Origin = "cli") -> str | None:
    """Remove every ``by: agent`` entry ``task`` wrote, in one commit; the commit, or None when none.

    A checkpoint of session ``task`` writes what the user asked to remember as
    ``by: user`` with ``source: checkpoint <task>``: those go too, as the
    session's (docs/architecture.md §7, forgetting a session).
    """

    def keep(entry: fmt.Entry) -> bool:
        if entry.meta.get("task") != task:
            return True
        return not (entry.by == "agent" or " ".join(entry.meta.get("source", "").split()) == f"checkpoint {task}")

    with writer.lock.hold("purge task"):
        paths = [p for p, _ in list_files(writer.root) if p.endswith(".md")]
        edits = {p: (lambda parsed: drop_entries(parsed, keep)) for p in paths}
        return rewrite(writer, edits, f"Purge task {task}", origin, "purge task")
