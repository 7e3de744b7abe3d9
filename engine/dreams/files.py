"""Dream records read generically, for compaction and health (the dream-record contract).

A dream run writes ``.git/memrepo/dreams/<id>.json`` (the dreaming feature owns
its pydantic model). Compaction and health need only a few fields, so this
module reads the files as plain JSON objects: a record with a field it does
not know, or without a field it reads, is never an error here.

Fields read: ``id``, ``status`` (running, pending_review, applied, accepted,
rejected, undone, stale, failed, empty), ``started`` (ISO-8601 UTC), ``tokens``
(``{"input": int, "output": int}``), ``branch`` and ``operations``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memrepo.engine.files.atomic import atomic_write

DREAMS_DIR = "dreams"
"""Folder of dream records under ``.git/memrepo/``."""

LIVE_STATUSES = frozenset({"running", "pending_review", "applied"})
"""A record in one of these needs its branch or its commits: compaction makes it stale."""

FINAL_STATUSES = frozenset({"accepted", "rejected", "undone", "stale", "failed", "empty"})
"""A record in one of these keeps its status through a compaction (its text is still scrubbed)."""

KEEP_KEYS = frozenset(
    {
        "op",
        "kind",
        "type",
        "action",
        "id",
        "path",
        "file",
        "ref",
        "target",
        "line",
        "status",
        "section",
        "key",
        "subject_key",
        # the structure of a dream operation record (engine/dreams/record.py OpRecord): line and task
        # aliases, refs, and the classification codes; a reader validates these, so they must stay valid
        "lines",
        "refs",
        "evidence",
        "classification",
        "rejection",
        "relation",
        "kept_ref",
    }
)
"""Operation fields that name things (an operation's kind, a path, a ref, an alias, a classification
code) rather than hold memory text; every other string in an operation (``text``, ``quote``,
``reason``, ``before``, ``after``, ``detail`` and any field this module does not know) is blanked by
:func:`scrub_record`."""


def dreams_dir(state_dir: Path) -> Path:
    """``.git/memrepo/dreams`` for a state folder (not created)."""
    return Path(state_dir) / DREAMS_DIR


def record_paths(state_dir: Path) -> list[Path]:
    """Every ``<id>.json`` dream record, sorted by name."""
    folder = dreams_dir(state_dir)
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def load_records(state_dir: Path) -> list[dict[str, Any]]:
    """Every readable dream record as a dict (unreadable or non-object files are skipped)."""
    out: list[dict[str, Any]] = []
    for path in record_paths(state_dir):
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            out.append(data)
    return out


def parse_time(value: object) -> datetime | None:
    """An ISO-8601 time from a record, timezone-aware (UTC when it names none), or None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def tokens_of(record: dict[str, Any]) -> int:
    """Input plus output tokens a record used (0 when it does not say)."""
    tokens = record.get("tokens")
    if not isinstance(tokens, dict):
        return 0
    total = 0
    for key in ("input", "output"):
        value = tokens.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            total += value
    return total


def _blank(value: Any, key: str | None = None) -> Any:
    if isinstance(value, str):
        return value if key in KEEP_KEYS else ""
    if isinstance(value, list):
        return [_blank(v, key) for v in value]
    if isinstance(value, dict):
        return {k: _blank(v, k) for k, v in value.items()}
    return value


def scrub_record(record: dict[str, Any], stale_reason: str | None) -> dict[str, Any]:
    """Blank the text of every operation; with ``stale_reason``, mark the record stale.

    Args:
        record: a dream record.
        stale_reason: why the record became stale (its branch or commits are
            gone), or None to keep its status.

    Returns:
        dict: the scrubbed record with ``"scrubbed": true``.
    """
    out = dict(record)
    operations = out.get("operations")
    if isinstance(operations, list):
        out["operations"] = [_blank(op) for op in operations]
    if stale_reason is not None:
        out["status"] = "stale"
        out["reason"] = stale_reason
    out["scrubbed"] = True
    return out


def scrub_all(state_dir: Path, gone_branches: set[str], reason: str) -> tuple[int, int, list[Path]]:
    """Scrub every dream record; live ones, or ones whose branch is gone, become stale.

    Files in the dreams folder that are not records (a prompt, a log) are
    returned for the caller to delete: they may quote memory text.

    Args:
        state_dir: ``.git/memrepo``.
        gone_branches: the branches deleted (short names such as ``dream/<id>``
            or full ``refs/heads/...`` names).
        reason: the stale reason to record.

    Returns:
        tuple: (records made stale, records scrubbed, other files found).
    """
    folder = dreams_dir(state_dir)
    if not folder.is_dir():
        return 0, 0, []
    stale = scrubbed = 0
    others: list[Path] = []
    for path in sorted(folder.rglob("*")):
        if path.is_dir():
            continue
        if path.suffix != ".json" or path.parent != folder:
            others.append(path)
            continue
        try:
            record = json.loads(path.read_bytes())
        except (OSError, ValueError):
            others.append(path)
            continue
        if not isinstance(record, dict):
            others.append(path)
            continue
        branch = record.get("branch")
        branch_gone = (
            isinstance(branch, str)
            and bool(branch)
            and (branch in gone_branches or f"refs/heads/{branch}" in gone_branches)
        )
        status = record.get("status")
        make_stale = status in LIVE_STATUSES or (branch_gone and status not in FINAL_STATUSES)
        new = scrub_record(record, reason if make_stale else None)
        atomic_write(path, json.dumps(new, indent=2, sort_keys=True).encode("utf-8") + b"\n")
        stale += make_stale
        scrubbed += 1
    return stale, scrubbed, others
