"""How the Dreams pane words a run: its files, its operations as file lines and texts (docs/architecture.md §6).

Operations are shown where their lines are in the files today (``lessons.md:7``),
never by the dream's aliases; a delete that removed its line shows the line it
deleted at the place the dream read it, and the line it kept; the run says
which files it examined and which it left out.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual.content import Content

from ..plain import clean

STATUS_WORDS = {
    "pending_review": "pending review",
    "applied": "applied",
    "accepted": "accepted",
    "rejected": "rejected",
    "undone": "undone",
    "stale": "stale",
    "failed": "failed",
    "empty": "no changes",
    "running": "running",
}
"""How each record status reads in the pane."""

CLASS_STYLES = {"auto": "$success", "review": "$warning", "rejected": "$error"}
WHERE_WIDTH = 18
"""Cells of the operations table's ``where`` column."""
_FOLDERS_RE = re.compile(r"[^\s,:/]+/")

FILES_SHOWN = 12
"""File names a run's coverage line names at most (the counts are always exact)."""


def _ref(ref: str) -> tuple[str, str]:
    path, _, line = ref.removeprefix("repo:").partition("#L")
    return path, line


def applied(op: Any, record: Any) -> bool:
    """True when the operation's change is on main: automatic and not undone, or a review accepted."""
    if op.classification == "auto":
        return not getattr(record, "undo_commit", None)
    if op.classification == "review" and record.status == "accepted":
        return op.decision != "declined"
    return False


def where_today(op: Any, files: dict[str, list[Any]], record: Any | None = None) -> str:
    """Where an operation's lines are in the files as they are now: ``lessons.md:7`` (not the dream's aliases).

    A line the operation removed, once the removal is on main, is shown where
    the dream read it, marked ``(deleted)``: an identical line that stays must
    not pass for it.

    Args:
        op: an :class:`~memrepo.engine.dreams.record.OpRecord`; its ``refs`` are the
            lines as the dream read them, its ``before`` their texts.
        files: path -> the file's entries now (``EntryView``), for the paths read.
        record: the run, to tell whether the operation's change is on main.

    Returns:
        str: ``path:line`` for each line (``path (gone)`` when no entry holds its
        text now), comma-separated; empty for an add.
    """
    out = []
    texts = op.before.split("\n") if op.before else []
    removed = op.op in ("delete", "merge", "move", "promote") and record is not None and applied(op, record)
    for n, ref in enumerate(op.refs):
        path, line = _ref(ref)
        if removed:
            out.append(f"{path}:{line} (deleted)")
            continue
        text = " ".join(texts[n].split()) if n < len(texts) else ""
        entries = files.get(path)
        if entries is None:
            out.append(f"{path}:{line}")
            continue
        at = [e.line for e in entries if " ".join(e.text.split()) == text]
        if not at:
            out.append(f"{path} (gone)")
        else:
            wanted = int(line) if line.isdigit() else 0
            out.append(f"{path}:{min(at, key=lambda x: abs(x - wanted))}")
    return ", ".join(out)


def coverage_lines(record: Any) -> list[str]:
    """The files a run examined and left out, in words (nothing for a record that does not say)."""
    examined = list(getattr(record, "examined", None) or [])
    left = list(getattr(record, "left_out", None) or [])
    count = int(getattr(record, "left_out_count", 0) or len(left))
    if not examined and not count:
        return []

    def names(paths: list[str], total: int) -> str:
        shown = ", ".join(paths[:FILES_SHOWN])
        more = total - min(len(paths), FILES_SHOWN)
        return shown + (f" and {more} more" if more > 0 else "")

    out = [f"Examined {len(examined)} file{'s' if len(examined) != 1 else ''}: {names(examined, len(examined))}"]
    if count:
        start = getattr(record, "next_file", None)
        then = f" (the next dream starts at {start})" if start else ""
        out.append(f"Left out {count} file{'s' if count != 1 else ''}: {names(left, count)}{then}")
    else:
        out[0] += "; none left out"
    return out


def running_words(record: Any) -> str:
    """What a running dream is doing, by its provider: a rules dream asks no model (breaker20 B20-11).

    A rules dream checks every line of the files it read (minutes at 2,000 files on a loaded machine); a
    model dream waits for the model's answer. Both say when they started: a long run is not a hung one.
    """
    examined = len(getattr(record, "examined", None) or [])
    files = f"{examined:,} file{'s' * (examined != 1)}"
    started = getattr(record, "started_at", None)
    since = f" · started {started:%H:%M} UTC" if started is not None else ""
    progress = getattr(record, "progress", None)  # the step and its count, kept in the record as it runs
    if record.provider == "rules" and progress:
        return f"Running: the rules check {progress} (offline, no model){since}"
    if record.provider == "rules":
        return f"Running: the rules check every line of {files} (offline, no model){since}"
    return f"Running: {files} sent, the model ({record.provider}) has not answered yet{since}"


def operations_content(record: Any, files: dict[str, list[Any]] | None = None) -> Content:
    """A run's summary, files and operations as plain content (user text never parsed as markup).

    Args:
        record: a :class:`~memrepo.engine.dreams.record.DreamRecord`.
        files: path -> entries now, so each operation names ``file:line`` as the file has it today.

    Returns:
        Content: one block per operation: classification, op, lines, target, reason, texts.
    """
    parts: list[Content] = []
    c = record.counts
    head = (
        f"Dream {record.id} · {STATUS_WORDS.get(record.status, record.status)} · {record.provider} · "
        f"{c.get('auto', 0)} applied, {c.get('review', 0)} for review, {c.get('rejected', 0)} rejected · "
        f"{record.tokens.input + record.tokens.output:,} tokens"
    )
    parts.append(Content(clean(head)).stylize("bold"))
    if record.status == "running":
        parts.append(Content(clean(running_words(record))))
    if record.reason:
        parts.append(Content(clean(f"Reason: {record.reason}")).stylize("$error"))
    for line in coverage_lines(record):
        parts.append(Content(clean(line)))
    if record.auto_commit:
        undone = f" (undone by {record.undo_commit[:7]})" if record.undo_commit else ""
        parts.append(Content(clean(f"Auto commit {record.auto_commit[:7]}{undone}")))
    if record.rejected_reasons:
        why = ", ".join(f"{k} {v}" for k, v in sorted(record.rejected_reasons.items()))
        parts.append(Content(clean(f"Rejected: {why}")))
    for op in record.operations:
        parts += operation_lines(op, files or {}, record)
    if not record.operations and record.status not in ("failed", "running"):
        parts.append(Content("No operations proposed."))
    return Content("\n").join(parts)


def operation_lines(op: Any, files: dict[str, list[Any]], record: Any) -> list[Content]:
    """One operation's block: classification, op, lines, target, reason; then the deleted and kept lines, or the
    texts before and after."""
    label = f"{op.classification:<8}"
    lines = where_today(op, files, record)
    target = f" → {op.path}" if op.path else ""
    code = f" [{op.rejection}]" if op.rejection else ""
    row = Content(clean(f"{label} {op.op} {lines}{target}{code}: {op.reason}"))
    parts = [row.stylize(CLASS_STYLES.get(op.classification, ""), 0, len(label))]
    kept_ref = getattr(op, "kept_ref", None)
    if op.op == "delete" and op.refs and op.before:
        path, at = _ref(op.refs[0])
        verb = "deleted" if applied(op, record) else "deletes"
        parts.append(Content(clean(f"    {verb} {path}:{at}: {op.before}")))
        if kept_ref:
            kpath, kat = _ref(kept_ref)
            parts.append(Content(clean(f"    kept {kpath}:{kat}: {getattr(op, 'kept_text', '')}")))
        return parts
    if op.before:
        parts.append(Content(clean("    was: " + " | ".join(op.before.split("\n")))))
    if op.after:
        parts.append(Content(clean("    now: " + " | ".join(op.after.split("\n")))))
    return parts


def highlighted_content(record: Any, row: int, files: dict[str, list[Any]]) -> Content:
    """The operation highlighted in the Operations list, first in the box: its reason and lines (breaker26 B26-8).

    At 80x24 the box is a few lines high and showed the run's header and first operation whatever row was
    highlighted, so the reason a line would be deleted was never seen before accepting.
    """
    head = Content(clean(f"Operation {row + 1} of {len(record.operations)} (highlighted; the whole dream below)"))
    return Content("\n").join([head.stylize("bold"), *operation_lines(record.operations[row], files, record)])


__all__ = [
    "CLASS_STYLES",
    "STATUS_WORDS",
    "applied",
    "coverage_lines",
    "highlighted_content",
    "operation_lines",
    "operations_content",
    "running_words",
    "where_today",
]


def fit_where(where: str, width: int = WHERE_WIDTH) -> str:
    """Where an operation applies, as its column shows it: with no folders when the whole does not fit, so
    "workspaces/project-0000.md:45" is "project-0000.md:45", not "workspaces/projec…" on every row at 80 columns (the
    box below names the whole path)."""
    return where if len(where) <= width else _FOLDERS_RE.sub("", where)


def operation_cells(op: Any, chosen: bool, files: dict[str, list[Any]], record: Any) -> tuple[Text, ...]:
    """One row of the operations table: mark, class, operation, where it applies today, the entry's text."""
    text = op.after or op.before or op.text
    target = f" → {op.path}" if op.path and op.op != "add" else ""
    decision = {"accepted": "✓", "declined": "✗"}.get(op.decision or "", " ")
    where = fit_where(where_today(op, files, record) or (op.path or ""))
    return (
        Text("●" if chosen else decision, end=""),
        Text(op.classification, style=CLASS_STYLES.get(op.classification, ""), end=""),
        Text(op.op, end=""),
        Text(clean(where), no_wrap=True, overflow="ellipsis", end=""),
        Text(clean(" ".join(text.split()) + target), no_wrap=True, overflow="ellipsis", end=""),
    )


def operations_title(record: Any, chosen: int) -> str:
    """The operations table's title: how many, and how many of the review's are chosen."""
    review = record.counts.get("review", 0)
    picked = f" · {chosen} of {review} chosen: a accepts only these" if chosen else ""
    return f"Operations {len(record.operations)}{picked}"


def dream_cost(app: object, left: int) -> str:
    """What a dream costs, as the Dreams pane says it: none by rules (the default, offline), else the model's token
    budget left today (breaker8 B8-11: "Budget left today: 50,000 tokens" on a fresh repo read as dreams costing money).

    Args:
        app: the app (its ``settings``, :class:`memrepo.engine.config.Settings`).
        left: tokens left in the day's budget.
    """
    provider = getattr(app, "settings").dream.provider  # noqa: B009  (the app's type here would import the app)
    if provider == "rules":
        return "Dreams run by rules, offline: no tokens used"
    return f"Budget left today: {left:,} tokens ({provider})"


def running_line(records: list[Any], killed: set[str]) -> str | None:
    """The Dreams pane's status line for the first dream marked running that it did not start (killed, or running
    elsewhere), else None.

    A killed dream was shown as running for good, its clean-up key only in Health (breaker11 B11-10); ``d``
    on it rejects its record and removes what it left.
    """
    dream_id = next((r.id for r in records if r.status == "running"), None)
    if dream_id is None:
        return None
    if dream_id in killed:
        return f"Dream {dream_id} was killed (its process is gone) · d on it cleans up"
    return f"Dream {dream_id} is running (started elsewhere) · results appear here"
