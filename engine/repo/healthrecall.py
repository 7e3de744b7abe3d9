"""Health's recall row: the index, the vectors and the recall door (docs/architecture.md §4, §9).

A prompt that gets no memory gets nothing at all: the agent is told nothing (an empty block would cost it
tokens and invite a guess). Whether that nothing was "no memory matches" or "no warm process answered" is
this row's to say: it names the index's state, the share of entries with a vector, and whether a recall door
answers now (:func:`memrepo.engine.read.doorstate.look`), is stopped, skipped after a missed budget, or a
dead process's socket. Read only, in a few milliseconds (a door that does not answer costs its look's
:data:`~memrepo.engine.read.doorstate.LOOK_WAIT_S`).
"""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from .healthrow import HealthRow, HealthStatus, row

if TYPE_CHECKING:
    from memrepo.engine.config import Settings


def _coverage(root: Path) -> tuple[int, int] | None:
    """(entries with a vector, entries in the recall index), read only; None with no vectors file."""
    from memrepo.engine.read.recallkeys import index_path
    from memrepo.engine.read.semantic_store import vectors_path

    path = vectors_path(root)
    if not path.is_file():
        return None
    have = total = 0
    with contextlib.suppress(sqlite3.Error):
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=0.2)
        try:
            have = int(db.execute("SELECT count(*) FROM vec").fetchone()[0])
        finally:
            db.close()
    with contextlib.suppress(sqlite3.Error, TypeError, ValueError):
        db = sqlite3.connect(f"{index_path(root).as_uri()}?mode=ro", uri=True, timeout=0.2)
        try:
            total = int(db.execute("SELECT v FROM info WHERE k='count'").fetchone()[0])
        finally:
            db.close()
    return have, total


def _index(root: Path) -> str:
    from memrepo.engine.read.recallbuilding import build_state
    from memrepo.engine.read.recallkeys import index_path

    built, done = build_state(root)
    if built:
        return "index built"
    if not index_path(root).is_file():
        return "index not built yet (the first recall builds it)"
    return "index building" + (f" ({done:,} files so far)" if done else "")


def _semantic(root: Path, settings: Settings) -> tuple[bool, str]:
    """(whether semantic recall is on, what the vectors are)."""
    from memrepo.engine.read.modeline import vector_share
    from memrepo.engine.read.semantic_model import install_hint, local_model_installed, semantic_off

    provider = settings.semantic.provider
    if semantic_off(provider):
        return False, "semantic recall off: lexical only"
    if provider == "auto" and not local_model_installed():
        return False, f"lexical only: no local model ({install_hint('semantic')})"
    got = _coverage(root)
    if got is None:
        return True, "no vectors yet (a running MCP server or the app builds them)"
    have, total = got
    share = vector_share(have / total) if total else "0%"
    return True, f"{share} of entries have vectors ({have:,} of {total:,})"


def recall_row(root: Path, settings: Settings) -> HealthRow:
    """The ``recall`` row: OK, or WARN when a recall door is stopped or skipped after a missed budget.

    Args:
        root: the work tree.
        settings: ``[semantic]``.

    Returns:
        HealthRow: e.g. ``index built; 37% of entries have vectors (120 of 324); the recall door of the MCP
        server (pid 4242) answers prompts``.
    """
    from memrepo.engine.read.doorstate import LOOK_WAIT_S, look
    from memrepo.engine.read.recalldoor import BUDGET_S, door_path

    parts = [_index(root)]
    semantic, vectors = _semantic(root, settings)
    parts.append(vectors)
    status = HealthStatus.OK
    if not semantic:
        return row("recall", status, "; ".join(parts))
    seen = look(door_path(root))
    pid = f" (pid {seen.pid})" if seen.pid else ""
    if seen.state == "none":
        parts.append("no recall door (no MCP server runs on this repo): prompts get lexical recall")
    elif seen.state == "stale":
        parts.append("a recall door's socket with no process behind it: prompts get lexical recall at once")
    elif seen.state == "answering":
        parts.append(f"the recall door{pid} answers prompts")
    elif seen.state == "silent":
        status = HealthStatus.WARN
        parts.append(
            f"the recall door{pid} does not answer (no reply in {LOOK_WAIT_S:g} s: stopped or stuck): "
            f"a prompt waits {BUDGET_S:g} s for it, then answers lexically"
        )
    else:
        status = HealthStatus.WARN
        until = datetime.fromtimestamp(seen.until or 0).strftime("%H:%M:%S")
        parts.append(
            f"the recall door{pid} missed a prompt's {BUDGET_S:g} s budget: prompts answer lexically until "
            f"{until} or until it answers in time again"
        )
    return row("recall", status, "; ".join(parts))
