"""Recall's shown text for a new process: redaction loaded only when a hit needs it (docs/architecture.md §3, §4).

A hit's text and metadata leave redacted and cleaned, as in every way out. What a new process made of an item is
kept in the index's ``shown`` table with the redaction epoch it was made in (:func:`.redactionepoch.redaction_epoch`:
the allow-list's stamp and the detectors' source files). The next process then shows it without loading the
detectors. The row goes with its item (docs/architecture.md §5).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from .redactionepoch import redaction_epoch


class Redactor:
    """Redaction for this process, loaded on the first text that needs it (docs/architecture.md §3)."""

    def __init__(self, state: Path) -> None:
        self.state = state
        self._fn: Callable[[str], str] | None = None

    def __call__(self, text: str) -> str:
        if self._fn is None:
            from memrepo.engine.redaction import allow, protect_logs

            from .recallkeys import redacted

            allow.activate(self.state)  # values marked false alarms here stay unredacted
            protect_logs()
            self._fn = redacted
        return self._fn(text)


def shown_text(
    db: sqlite3.Connection, redact: Redactor, rows: list[tuple[int, str, str]]
) -> dict[int, tuple[str, str]]:
    """(text, metadata JSON) as shown, for each ``(id, text, meta JSON)``: kept ones read, the rest made and kept."""
    epoch = redaction_epoch(redact.state)
    out: dict[int, tuple[str, str]] = {}
    if rows:
        marks = ",".join("?" * len(rows))
        query = f"SELECT id, text, meta FROM shown WHERE epoch=? AND id IN ({marks})"
        for iid, text, meta in db.execute(query, [epoch, *(row[0] for row in rows)]):
            out[iid] = (text, meta)
    made = []
    for iid, text, meta_json in rows:
        if iid not in out:
            meta = {k: redact(v) for k, v in json.loads(meta_json).items()}
            out[iid] = (redact(text), json.dumps(meta, ensure_ascii=False))
            made.append((iid, epoch, *out[iid], iid))
    if made:
        try:
            db.execute("BEGIN IMMEDIATE")
            # Only ids still indexed: a sync in another process may have dropped one since the search.
            db.executemany(
                "INSERT OR REPLACE INTO shown SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM items WHERE id=?)", made
            )
            db.execute("COMMIT")
        except sqlite3.Error:  # a read-only .git or a busy file: shown anyway, kept another time
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
    return out
