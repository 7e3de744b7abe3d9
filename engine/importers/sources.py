"""Read import sources into items, one per fact: Claude Code files, another memrepo, JSON Lines.

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
from pathlib import Path
from typing import Any

from memrepo.engine.errors import FormatError
from memrepo.engine.format import entries as fmt

from .items import LESSON_KINDS as LESSON_KINDS  # the item and the seeds' readers, re-exported: callers read them here
from .items import ImportItem as ImportItem
from .items import candidate, scope_of, text_of
from .seeds import read_dsh, read_open_cowork_core, read_open_cowork_experience
from .sourcefile import load_json, parse_json, read_source_bytes

# -- DSH -----------------------------------------------------------------------


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
            candidate(
                entry,
                kind="fact",
                by=by,
                source=f"{label}" + (f" > {path_words}" if path_words else ""),
                **scope_of(workspace),
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
                fields.update(scope_of(ws))
            elif rel != "me.md":
                fields["source"] = fields["source"] or f"memrepo {rel}"
            key = f"{rel}#{fmt.normalize_text(entry.text)}"
            standard = rel in ("MEMORY.md", "me.md", "lessons.md", "inbox.md") or ws is not None
            try:
                yield ImportItem(
                    f"{rel}:{number}",
                    key,
                    candidate(entry.text, **fields),
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
        text = text_of(obj.get("text")) if isinstance(obj, dict) else None
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
            **scope_of(ws),
        }
        key = f"{' '.join(text.split()).casefold()}\0{ws or ''}"
        try:
            yield ImportItem(where, key, candidate(text, **fields))
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
