"""One imported fact, and the small helpers every source reader shares.

Each reader (:mod:`.sources`, :mod:`.seeds`) turns a source into
:class:`ImportItem` s: a candidate for the writer, or why it could not be read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memrepo.engine.models import Candidate

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


def candidate(text: str, **fields: Any) -> Candidate:
    fields = {k: v for k, v in fields.items() if v not in (None, "")}
    return Candidate(text=" ".join(str(text).split()), origin="import", **fields)


def scope_of(workspace: str | None) -> dict[str, Any]:
    return {"scope": "workspace", "workspace": workspace} if workspace else {"scope": "global"}


def text_of(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    return None
