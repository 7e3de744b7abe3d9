"""Sources from the open-cowork and DSH seeds: their JSON memory files read into items.

``open-cowork-core`` (``core_memory.json``), ``open-cowork-experience``
(``experience_memory.json``) and ``dsh`` (a workspace memory folder, or one
``memory_entries.json``). A broken item never stops the others.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memrepo.engine.errors import FormatError

from .items import ImportItem, candidate, scope_of, text_of
from .sourcefile import load_json

CORE_KINDS = {"identity": "identity", "preferences": "preference", "skills": "skill", "interests": "interest"}
"""open-cowork's four core categories and the entry kind each becomes."""


def read_open_cowork_core(path: Path, workspace: str | None = None) -> Iterator[ImportItem]:
    """``core_memory.json``: ``{"category.key": "value", ...}`` (at most 24 keys in open-cowork).

    Each key becomes one entry ``<key words>: <value>`` with subject ``category.key``
    (so a re-import of a changed value replaces the old one) and a kind from the category.
    """
    data = load_json(path)
    if isinstance(data, dict) and isinstance(data.get("memory"), dict):
        data = data["memory"]  # a wrapped map: {"memory": {...}}
    if not isinstance(data, dict):
        raise FormatError(f"{path.name} is not a map of category.key to value")
    for key, value in data.items():
        where = f"{path.name}: {key}"
        text = text_of(value)
        if text is None:
            yield ImportItem(where, key, error=f"the value of {key!r} is not text ({type(value).__name__})")
            continue
        category, _, name = key.partition(".")
        words = (name or category).replace("_", " ").replace("-", " ")
        yield ImportItem(
            where,
            key,
            candidate(
                f"{words}: {text}",
                kind=CORE_KINDS.get(category.lower(), "fact"),
                subject=key,
                by="agent",
                source=f"open-cowork {path.name}",
                **scope_of(workspace),
            ),
        )


def read_open_cowork_experience(path: Path, workspace: str | None = None) -> Iterator[ImportItem]:
    """``experience_memory.json``: ``{"sessions": [{sessionId, title, sourceWorkspace, summary, chunks: [...]}]}``.

    Each chunk's summary becomes an entry in its session's source workspace
    (global when the session names none); a session without chunks gives its
    summary. Chunks may also sit in a top-level ``chunks`` list naming their ``sessionId``.
    """
    data = load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("sessions", []), list):
        raise FormatError(f"{path.name} has no list of sessions")
    sessions = data.get("sessions", [])
    loose = data.get("chunks", [])
    by_session: dict[str, list[Any]] = {}
    for chunk in loose if isinstance(loose, list) else []:
        if isinstance(chunk, dict):
            by_session.setdefault(str(chunk.get("sessionId", "")), []).append(chunk)
    for n, session in enumerate(sessions, start=1):
        if not isinstance(session, dict):
            yield ImportItem(f"{path.name}: session {n}", f"session-{n}", error="the session is not an object")
            continue
        sid = str(session.get("sessionId") or session.get("id") or f"session-{n}")
        ws = session.get("sourceWorkspace") or workspace
        chunks = list(session.get("chunks") or []) + by_session.get(sid, [])
        source = f"open-cowork session {sid}"
        if not chunks:
            summary = text_of(session.get("summary"))
            if summary is None:
                yield ImportItem(f"{path.name}: session {sid}", sid, error="the session has no summary and no chunks")
            else:
                yield ImportItem(
                    f"{path.name}: session {sid}",
                    sid,
                    candidate(summary, kind="fact", by="agent", source=source, **scope_of(ws)),
                )
            continue
        for m, chunk in enumerate(chunks, start=1):
            cid = str(chunk.get("chunkId") or chunk.get("id") or m) if isinstance(chunk, dict) else str(m)
            where, key = f"{path.name}: session {sid} chunk {cid}", f"{sid}/{cid}"
            summary = text_of(chunk.get("summary")) if isinstance(chunk, dict) else None
            if summary is None:
                yield ImportItem(where, key, error="the chunk has no text summary")
                continue
            cws = chunk.get("sourceWorkspace") or ws
            yield ImportItem(where, key, candidate(summary, kind="fact", by="agent", source=source, **scope_of(cws)))


def _dsh_file(path: Path, label: str, workspace: str | None) -> Iterator[ImportItem]:
    try:
        data = load_json(path)
    except (FormatError, OSError) as exc:
        yield ImportItem(label, label, error=str(exc))
        return
    entries = data.get("entries") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        yield ImportItem(label, label, error="no list of entries")
        return
    for n, entry in enumerate(entries, start=1):
        eid = str(entry.get("id") or n) if isinstance(entry, dict) else str(n)
        where, key = f"{label}: entry {eid}", f"{label}/{eid}"
        if not isinstance(entry, dict):
            yield ImportItem(where, key, error="the entry is not an object")
            continue
        status = str(entry.get("status", "active")).lower()
        if status != "active":
            yield ImportItem(where, key, skipped=f"status {status} (only active facts are imported)")
            continue
        text = text_of(entry.get("content")) or text_of(entry.get("description")) or text_of(entry.get("title"))
        if text is None:
            yield ImportItem(where, key, error="the entry has no content, description or title")
            continue
        yield ImportItem(
            where,
            key,
            candidate(
                text,
                kind=str(entry.get("kind") or entry.get("type") or "fact"),
                by="agent",
                source=f"dsh {label}",
                **scope_of(workspace),
            ),
        )


def _dsh_scope_workspace(scope_dir: Path) -> str:
    """A DSH scope's workspace: the ``cwd`` in its ``scope.json``, else its ``ws-<hash>`` name."""
    try:
        data = load_json(scope_dir / "scope.json")
        cwd = data.get("cwd") or data.get("path") if isinstance(data, dict) else None
        if isinstance(cwd, str) and cwd.strip():
            return cwd
    except (OSError, ValueError, FormatError):
        pass
    return scope_dir.name


def read_dsh(path: Path, workspace: str | None = None) -> Iterator[ImportItem]:
    """DSH workspace memory: the folder (``global/``, ``scopes/ws-*/``) or one ``memory_entries.json``.

    ``global`` entries go to the global files; a ``ws-<hash>`` scope's entries
    go to the workspace its ``scope.json`` names (its ``cwd``). ``archived/``
    scopes are left out (DSH excludes them from recall too). Entries whose
    ``status`` is not ``active`` (revised, superseded) are skipped.
    """
    if path.is_file():
        parent = path.parent
        ws = workspace if parent.name == "global" or not parent.name.startswith("ws-") else _dsh_scope_workspace(parent)
        yield from _dsh_file(path, f"{parent.name}/{path.name}", ws)
        return
    glob_file = path / "global" / "memory_entries.json"
    if glob_file.is_file():
        yield from _dsh_file(glob_file, "global/memory_entries.json", workspace)
    scopes = path / "scopes"
    for scope_dir in sorted(scopes.iterdir()) if scopes.is_dir() else []:
        entries = scope_dir / "memory_entries.json"
        if scope_dir.is_dir() and entries.is_file():
            yield from _dsh_file(
                entries, f"scopes/{scope_dir.name}/memory_entries.json", _dsh_scope_workspace(scope_dir)
            )
