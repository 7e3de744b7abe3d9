"""Where an imported entry goes: the file it came from when that can be, else the routing rules.

:func:`import_router` wraps the :class:`~.remember.EntryWriter`'s routing for
:meth:`MemoryStore.remember_into`; everything else about the write (policy,
lock, limits, one commit per fact) is the governed writer's
(docs/architecture.md §3).
"""

from __future__ import annotations

from collections.abc import Callable

from memrepo.engine.errors import LimitError, RefError
from memrepo.engine.format.entrytext import clean_text
from memrepo.engine.format.layout import ARCHIVED, INBOX_MD, MEMORY_MD, WORKSPACES
from memrepo.engine.format.paths import safe_relpath, slugify
from memrepo.engine.models import Candidate, Origin

from .remember import EntryWriter, Router, Target
from .writer import Writer


def importable_file(entries: EntryWriter, file: str) -> str | None:
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
    if (
        not rel.endswith(".md")
        or rel in (MEMORY_MD, INBOX_MD)
        or parts[0] in (WORKSPACES, ARCHIVED)
        or any(p.startswith(".") for p in parts)
    ):
        return None
    full = entries.writer.root
    for part in parts[:-1]:
        full = full / part
        if full.is_symlink() or (full.exists() and not full.is_dir()):
            return None
    last = full / parts[-1]
    if last.is_symlink() or (last.exists() and not last.is_file()):
        return None
    return rel


def import_router(entries: EntryWriter, file: str | None, workspace_slug: str | None) -> Router:
    """The router of one imported item (see :meth:`MemoryStore.remember_into`).

    Args:
        entries: the store's entry writer.
        file: the repo-relative ``.md`` path the entry came from, for a global entry.
        workspace_slug: the source file's name, for a workspace entry whose workspace has no file yet.
    """

    def route(cand: Candidate) -> Target:
        target = entries.route(cand)
        if target.path in (INBOX_MD, MEMORY_MD):
            return target  # untrusted and pinned entries keep their rules
        if target.new_workspace is not None and workspace_slug:
            ws_id, slug, abs_path, label = target.new_workspace
            rel = entries.free_workspace_file(slugify(workspace_slug, fallback=slug))
            if label == ws_id or label == cand.workspace:
                label = clean_text(workspace_slug) or label
            return Target(rel, (ws_id, rel.rsplit("/", 1)[-1].removesuffix(".md"), abs_path, label))
        if file is not None and cand.scope != "workspace":
            allowed = importable_file(entries, file)
            if allowed is not None:
                return Target(allowed)
        return target

    return route


def import_files(
    writer: Writer, through_symlink: Callable[[str], bool], files: dict[str, bytes], origin: Origin = "import"
) -> str | None:
    """Copy whole files from another memory repo, each linked from the index, in one commit.

    For what entry-by-entry import would lose: a topic file's headings and
    layout, and files that are not markdown (a ``.sql`` note a link points
    at). Only files that do not exist here are written; each is text (no
    NUL byte, UTF-8), within the file size limit, at a safe path (not
    hidden, not under ``archived/`` or ``workspaces/``, not the index or
    the inbox, nothing through a symlink); secrets are redacted line by
    line. MEMORY.md's ``## Index`` gets a link to each one no link reaches
    yet (docs/architecture.md §2).

    Returns:
        str | None: the commit, or None when nothing was copied.

    Raises:
        BlockedError, BusyError, LimitError: as for writes.
    """

    from memrepo.engine.format import entries as fmt
    from memrepo.engine.format.layout import INBOX_MD, INDEX_HEADING, MEMORY_MD, WORKSPACES
    from memrepo.engine.format.limits import MEMORY_MD_MAX_BYTES, check_file_size
    from memrepo.engine.format.paths import safe_relpath

    from .policy import redact
    from .remember import trailers

    clean: dict[str, bytes] = {}
    for rel, data in sorted(files.items()):
        try:
            rel = safe_relpath(rel)
            check_file_size(rel, len(data))
            text = data.decode("utf-8")
        except (RefError, LimitError, UnicodeDecodeError):
            continue
        parts = rel.split("/")
        if (
            rel in (MEMORY_MD, INBOX_MD)
            or parts[0] in (WORKSPACES, "archived")
            or any(p.startswith(".") for p in parts)
            or "\0" in text
            or through_symlink(rel)
            or (writer.root / rel).exists()
        ):
            continue
        clean[rel] = "".join(redact(line)[0] for line in text.splitlines(keepends=True)).encode("utf-8")
    if not clean:
        return None
    with writer.transaction("import files", [MEMORY_MD, *clean]) as tx:
        index = tx.read(MEMORY_MD) or fmt.parse(b"# Memory\n", MEMORY_MD)
        linked = {link.strip().lstrip("/") for link in fmt.extract_links(index.text())}
        for rel, data in clean.items():
            tx.write(rel, data)
            link = rel[: -len(".md")] if rel.endswith(".md") else rel
            if link not in linked and rel not in linked:
                index.append_entry(fmt.Entry("", "-", f"[[{link}]]"), after_section=INDEX_HEADING)
                linked.add(link)
        data = index.render()
        if len(data) > MEMORY_MD_MAX_BYTES:
            raise LimitError(f"MEMORY.md is full: the {len(clean)} imported file(s) could not be linked")
        tx.write(MEMORY_MD, data, index)
        return tx.commit(f"Import {len(clean)} file(s)", trailers(origin), ", ".join(clean))
