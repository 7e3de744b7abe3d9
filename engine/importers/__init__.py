"""Bring existing memories in once: read a source, then write each fact through the governed writer.

Sources (``--format`` names):

- ``open-cowork-core``: open-cowork's ``core_memory.json``, a flat map ``category.key`` -> value;
- ``open-cowork-experience``: open-cowork's ``experience_memory.json``, sessions with chunks;
- ``dsh``: DSH's workspace memory folder (``global/`` and ``scopes/ws-<hash>/``, each with a
  ``memory_entries.json``) or one such file;
- ``claude``: Claude Code memory files, ``CLAUDE.md`` and its auto-memory markdown files (a file
  or a folder): one entry per bullet, the heading above it kept as context;
- ``memrepo``: another Agent Memory Repo folder: entries merged into the matching files;
- ``jsonl``: generic JSON Lines of ``{text, kind, scope, subject, added, source}``.

Reading is :func:`read_items` (format by format, in :mod:`.sources`); writing is
:func:`memrepo.engine.importers.run.import_source`: each fact is its own commit with
``Origin: import``, policy and redaction apply, and a marker under
``.git/memrepo/imports/`` makes a second run add nothing.
"""

from __future__ import annotations

from .run import ImportItemResult, ImportProblem, ImportReport, import_source, marker_path
from .sources import FORMATS, ImportItem, detect_format, read_items

__all__ = [
    "FORMATS",
    "ImportItem",
    "ImportItemResult",
    "ImportProblem",
    "ImportReport",
    "detect_format",
    "import_source",
    "marker_path",
    "read_items",
]
