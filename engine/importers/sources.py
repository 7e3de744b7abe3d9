"""Read import sources into items, one per fact (formats from the open-cowork and DSH seeds).

Each reader turns a source into :class:`ImportItem`\\ s: a candidate for the
writer, or an error saying which item could not be read. A broken item never
stops the others: a bad JSON line, a chunk without text, a file that is not
UTF-8 each become one error item.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memrepo.engine.errors import FormatError
from memrepo.engine.format import entries as fmt
from memrepo.engine.models import Candidate

from .sourcefile import load_json, parse_json, read_source_bytes

LESSON_KINDS = frozenset({"insight", "rule", "lesson", "pitfall", "command", "setup"})


@dataclass(frozen=True)
class ImportItem:
    """One fact read from a source, or why it could not be read.

    Attributes:
        where: where it is in the source, for people (``core_memory.json: preferences.editor``).
        key: a stable id of the item within its format (the marker uses it).
        candidate: the memory to write, or None when the item is broken or skipped.
        error: why the item could not be read, or None.
        skipped: why a readable item is deliberately left out (a superseded DSH entry), or None.
        file: the repo-relative file it should go to when the source is another memory repo's
            non-standard file (``topics/x.md``), or None (the routing rules decide).
        workspace_slug: the source workspace file's name, so a new workspace file here gets the
            same name (not one made from the workspace id), or None.
    """

    where: str
    key: str
    candidate: Candidate | None = None
    error: str | None = None
    skipped: str | None = None
    file: str | None = None
    workspace_slug: str | None = None


def _cand(text: str, **fields: Any) -> Candidate:
    fields = {k: v for k, v in fields.items() if v not in (None, "")}
    return Candidate(text=" ".join(str(text).split()), origin="import", **fields)


def _scope(workspace: str | None) -> dict[str, Any]:
    return {"scope": "workspace", "workspace": workspace} if workspace else {"scope": "global"}


def _text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    return None


# -- open-cowork ---------------------------------------------------------------

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
        text = _text(value)
        if text is None:
            yield ImportItem(where, key, error=f"the value of {key!r} is not text ({type(value).__name__})")
            continue
        category, _, name = key.partition(".")
        words = (name or category).replace("_", " ").replace("-", " ")
        yield ImportItem(
            where,
            key,
            _cand(
                f"{words}: {text}",
                kind=CORE_KINDS.get(category.lower(), "fact"),
                subject=key,
                by="agent",
                source=f"open-cowork {path.name}",
                **_scope(workspace),
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
            summary = _text(session.get("summary"))
            if summary is None:
                yield ImportItem(f"{path.name}: session {sid}", sid, error="the session has no summary and no chunks")
            else:
                yield ImportItem(
                    f"{path.name}: session {sid}",
                    sid,
                    _cand(summary, kind="fact", by="agent", source=source, **_scope(ws)),
                )
            continue
        for m, chunk in enumerate(chunks, start=1):
            cid = str(chunk.get("chunkId") or chunk.get("id") or m) if isinstance(chunk, dict) else str(m)
            where, key = f"{path.name}: session {sid} chunk {cid}", f"{sid}/{cid}"
            summary = _text(chunk.get("summary")) if isinstance(chunk, dict) else None
            if summary is None:
                yield ImportItem(where, key, error="the chunk has no text summary")
                continue
            cws = chunk.get("sourceWorkspace") or ws
            yield ImportItem(where, key, _cand(summary, kind="fact", by="agent", source=source, **_scope(cws)))


# -- DSH -----------------------------------------------------------------------


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
        text = _text(entry.get("content")) or _text(entry.get("description")) or _text(entry.get("title"))
        if text is None:
            yield ImportItem(where, key, error="the entry has no content, description or title")
            continue
        yield ImportItem(
            where,
            key,
            _cand(
                text,
                kind=str(entry.get("kind") or entry.get("type") or "fact"),
                by="agent",
                source=f"dsh {label}",
                **_scope(workspace),
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


# -- Claude Code ---------------------------------------------------------------

_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")
_HEADING_RE = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)[\s#]*$")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")


def _claude_file(path: Path, label: str, workspace: str | None) -> Iterator[ImportItem]:
    try:
        text = read_source_bytes(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        yield ImportItem(label, label, error=f"not UTF-8 text ({exc.reason} at byte {exc.start})")
        return
    except FormatError as exc:
        yield ImportItem(label, label, error=str(exc))
        return
    except OSError as exc:
        yield ImportItem(label, label, error=exc.strerror or str(exc))
        return
    by = "user" if path.name == "CLAUDE.md" else "agent"  # CLAUDE.md is written by people, the rest by Claude
    headings: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE_RE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        m = _HEADING_RE.match(line)
        if m:
            level = len(m.group(1))
            headings = [h for h in headings if h[0] < level] + [(level, m.group(2).strip())]
            continue
        b = _BULLET_RE.match(line)
        if not b:
            continue
        bullet = b.group(1)
        if fmt.is_link_line(bullet) or not bullet.strip("-*_ "):
            continue
        # The nearest section heading gives the bullet its context; the file's title stays in the source.
        context = headings[-1][1] if headings and headings[-1][0] > 1 else ""
        entry = f"{context}: {bullet}" if context else bullet
        path_words = " > ".join(h[1] for h in headings)
        yield ImportItem(
            f"{label}:{number}",
            f"{label}#{' '.join(entry.split()).casefold()}",
            _cand(
                entry,
                kind="fact",
                by=by,
                source=f"{label}" + (f" > {path_words}" if path_words else ""),
                **_scope(workspace),
            ),
        )


def read_claude(path: Path, workspace: str | None = None) -> Iterator[ImportItem]:
    """Claude Code memory: a ``CLAUDE.md`` (or any markdown file), or a folder of them (auto-memory).

    One entry per bullet (nested bullets too), the nearest heading prefixed as
    context (``Build: run make test``) and the heading path kept as the source.
    Code blocks and link-only bullets are skipped. Entries are global unless
    ``workspace`` is given.
    """
    if path.is_file():
        yield from _claude_file(path, path.name, workspace)
        return
    for full in sorted(path.rglob("*.md")):
        rel = full.relative_to(path).as_posix()
        if any(part.startswith(".") for part in full.relative_to(path).parts) or full.is_symlink():
            continue
        yield from _claude_file(full, rel, workspace)


# -- another Agent Memory Repo --------------------------------------------------


def _date(value: object) -> str | None:
    """An ``added:`` value kept as the entry's date when it is one (YYYY-MM-DD), else None (today)."""
    from datetime import date

    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip()[:10]).isoformat()
    except ValueError:
        return None


def read_memrepo(path: Path, workspace: str | None = None) -> Iterator[ImportItem]:
    """Another Agent Memory Repo folder: each entry goes to the matching file here.

    MEMORY.md entries by the user stay pinned; ``me.md`` and ``lessons.md``
    entries go to the global files (lessons keep a lesson kind); a workspace
    file's entries go to the same workspace (by its folder path, else its
    id, into the file here whose first entry names that id, else a new file
    with the source file's name); ``inbox.md`` entries go to the inbox
    (untrusted). Other files' entries (``topics/x.md``) go to the file with
    the same path here (:meth:`MemoryStore.remember_into`), with the file as
    source (files not here yet are copied whole instead, with their headings,
    by :func:`memrepo.engine.importers.run.import_source`, non-markdown files
    too). Text (with its ``[[links]]``), kind, subject, source, author and the
    ``added:`` date are kept; the writer reinforces duplicates. ``archived/`` and hidden folders are left out.
    """
    if not (path / "MEMORY.md").is_file():
        raise FormatError(f"{path} has no MEMORY.md: not an Agent Memory Repo")
    files = []
    for full in sorted(path.rglob("*.md")):
        parts = full.relative_to(path).parts
        if parts[0] in ("archived", ".git") or any(p.startswith(".") for p in parts) or full.is_symlink():
            continue
        files.append(full)
    for full in files:
        rel = full.relative_to(path).as_posix()
        try:
            parsed = fmt.parse(read_source_bytes(full), rel)
        except (FormatError, OSError) as exc:
            yield ImportItem(rel, rel, error=str(exc))
            continue
        entries = parsed.entries()
        ws = None
        if rel.startswith("workspaces/"):
            head = next((e for _, e in entries[:3] if e.meta.get("workspace")), None)
            ws = (head.meta.get("path") or head.meta.get("workspace")) if head else full.stem
        for number, entry in entries:
            if entry.meta.get("workspace"):
                continue  # the workspace file's own header entry
            by = "user" if entry.by == "user" else "agent"
            kind = entry.meta.get("kind") or "fact"
            fields: dict[str, Any] = {
                "kind": kind,
                "by": by,
                "subject": entry.meta.get("subject"),
                "source": entry.meta.get("source"),
                "added": _date(entry.meta.get("added")),
            }
            if rel == "MEMORY.md":
                fields["pin"] = by == "user"
            elif rel == "lessons.md" and kind.lower() not in LESSON_KINDS:
                fields["kind"] = "lesson"
            elif rel == "inbox.md":
                fields["untrusted"] = True
            elif ws is not None:
                fields.update(_scope(ws))
            elif rel != "me.md":
                fields["source"] = fields["source"] or f"memrepo {rel}"
            key = f"{rel}#{fmt.normalize_text(entry.text)}"
            standard = rel in ("MEMORY.md", "me.md", "lessons.md", "inbox.md") or ws is not None
            try:
                yield ImportItem(
                    f"{rel}:{number}",
                    key,
                    _cand(entry.text, **fields),
                    file=None if standard else rel,
                    workspace_slug=full.stem if ws is not None else None,
                )
            except ValueError as exc:
                yield ImportItem(f"{rel}:{number}", key, error=f"not a valid entry: {exc}")


# -- generic JSON Lines ----------------------------------------------------------


def read_jsonl(path: Path, workspace: str | None = None) -> Iterator[ImportItem]:
    """JSON Lines, one object a line: ``{text, kind, scope, subject, added, source}`` (``by``, ``workspace`` too).

    ``scope`` is ``global`` (the default), ``workspace`` (with a ``workspace``
    field), or a workspace path, name or ``ws-`` id. The writer dates entries
    itself, so ``added`` is kept only as the source (``imported, added ...``) when no source is given.
    Blank lines are skipped; a line that is not a JSON object with text, is
    not UTF-8 or nests too deeply is one error item, and the other lines import.
    """
    data = read_source_bytes(path)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a UTF-8 byte order mark
    for number, raw in enumerate(data.split(b"\n"), start=1):
        where = f"{path.name}:{number}"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield ImportItem(where, where, error=f"not UTF-8 text ({exc.reason} at byte {exc.start} of the line)")
            continue
        if not line.strip():
            continue
        try:
            obj = parse_json(line, f"line {number}")
        except json.JSONDecodeError as exc:
            yield ImportItem(where, where, error=f"not valid JSON: {exc.msg}")
            continue
        except FormatError as exc:
            yield ImportItem(where, where, error=str(exc))
            continue
        text = _text(obj.get("text")) if isinstance(obj, dict) else None
        if text is None:
            yield ImportItem(where, where, error="not an object with a text field")
            continue
        scope = str(obj.get("scope") or "global")
        ws = obj.get("workspace") if scope == "workspace" else (None if scope == "global" else scope)
        ws = ws or (workspace if scope == "global" else None)
        if scope == "workspace" and not ws:
            yield ImportItem(where, where, error="scope workspace needs a workspace field")
            continue
        source = obj.get("source") or (f"imported, added {obj['added']}" if obj.get("added") else None)
        fields = {
            "kind": str(obj.get("kind") or "fact"),
            "subject": obj.get("subject"),
            "source": source,
            "by": "user" if obj.get("by") == "user" else "agent",
            **_scope(ws),
        }
        key = f"{' '.join(text.split()).casefold()}\0{ws or ''}"
        try:
            yield ImportItem(where, key, _cand(text, **fields))
        except ValueError as exc:
            yield ImportItem(where, key, error=f"not a valid entry: {exc}")


Reader = Callable[[Path, "str | None"], Iterator[ImportItem]]

FORMATS: dict[str, Reader] = {
    "open-cowork-core": read_open_cowork_core,
    "open-cowork-experience": read_open_cowork_experience,
    "dsh": read_dsh,
    "claude": read_claude,
    "memrepo": read_memrepo,
    "jsonl": read_jsonl,
}
"""Import formats by ``--format`` name."""


def detect_format(path: Path) -> str:
    """Tell a source's format from its name and shape.

    Raises:
        FormatError: no format fits (the message suggests ``--format``).
        OSError: the path cannot be read.
    """
    if not path.exists():
        raise FormatError(f"no such file or folder: {path}")
    check_source(path)
    if path.is_dir():
        markers = (".git", "me.md", "lessons.md", "inbox.md", "workspaces")
        if (path / "MEMORY.md").is_file() and any((path / m).exists() for m in markers):
            return "memrepo"
        if (path / "global" / "memory_entries.json").is_file() or (path / "scopes").is_dir():
            return "dsh"
        if (path / "core_memory.json").is_file() or (path / "experience_memory.json").is_file():
            raise FormatError(
                f"{path} holds open-cowork files: import core_memory.json and experience_memory.json one at a time"
            )
        if next(path.rglob("*.md"), None) is not None:
            return "claude"
        raise FormatError(f"cannot tell the format of folder {path}; pass --format ({', '.join(FORMATS)})")
    name = path.name.lower()
    if name == "core_memory.json":
        return "open-cowork-core"
    if name == "experience_memory.json":
        return "open-cowork-experience"
    if name == "memory_entries.json":
        return "dsh"
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if name.endswith(".md"):
        return "claude"
    if name.endswith(".json"):
        try:
            data = load_json(path)
        except FormatError:
            data = None
        if isinstance(data, dict) and "sessions" in data:
            return "open-cowork-experience"
        if isinstance(data, dict) and "entries" in data:
            return "dsh"
        if isinstance(data, dict) and data and all("." in k for k in data):
            return "open-cowork-core"
    raise FormatError(f"cannot tell the format of {path}; pass --format ({', '.join(FORMATS)})")


def check_source(path: Path) -> None:
    """Refuse a source that is neither a folder nor a regular file (a FIFO, socket or device).

    Raises:
        FormatError: with a one-line message naming the path.
        OSError: the path cannot be looked at.
    """
    mode = os.stat(path).st_mode
    if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        raise FormatError(
            f"{path} is not a regular file or folder (a FIFO, socket or device); only regular files are imported"
        )


def read_items(path: Path, format_name: str, workspace: str | None = None) -> list[ImportItem]:
    """Every item of a source; a source that cannot be read at all becomes one error item.

    Args:
        path: the file or folder.
        format_name: a key of :data:`FORMATS`.
        workspace: put items whose source names no workspace in this one (None: global).

    Raises:
        FormatError: unknown format name.
    """
    reader = FORMATS.get(format_name)
    if reader is None:
        raise FormatError(f"unknown import format {format_name!r}; use one of {', '.join(FORMATS)}")
    out: list[ImportItem] = []
    try:
        for item in reader(path, workspace):
            out.append(item)
    except RecursionError:
        out.append(ImportItem(os.fspath(path), os.fspath(path), error=f"{path.name} is nested too deeply to read"))
    except (FormatError, OSError) as exc:
        message = str(exc) if isinstance(exc, FormatError) else f"{exc.strerror or exc}"
        out.append(ImportItem(os.fspath(path), os.fspath(path), error=message))
    return out
