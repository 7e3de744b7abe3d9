"""Read-only adapters for session transcripts people already have (docs/architecture.md §6).

* Claude Code: ``~/.claude/projects/<project>/<session>.jsonl``: one JSON
  object a line; ``type`` ``user`` / ``assistant`` / ``summary``; a message's
  ``content`` is a string or a list of parts (``text``, ``tool_use``,
  ``tool_result``, ``thinking``); ``sessionId``, ``cwd``, ``timestamp``,
  ``isSidechain`` (a sub-agent) and ``isMeta`` (injected by the tool).
* Codex: ``~/.codex/sessions/**/rollout-*.jsonl``: ``{timestamp, type,
  payload}`` lines, ``session_meta`` first (``id``, ``cwd``), then
  ``response_item`` messages (``role`` user with ``input_text`` parts,
  assistant with ``output_text``), tool calls and ``event_msg`` events
  (``task_complete`` when a turn ends); older files hold the items directly.

Only the user's own messages and the final assistant reply are kept; tool calls and tool output never
are (they may carry untrusted text). A session whose user messages hold ``<no-memory>`` is left out. A
session still running (its file written in the last :data:`QUIET_S` seconds, or no final reply yet and
written in the last :data:`IDLE_S` seconds, the ``[transcripts] idle_hours`` setting) is not read, and the
cursor never passes it, so a later dream reads it. A session idle for longer counts as finished whatever
its last line (interrupted, crashed, a network error, a last line without its newline): it is read, and
the sessions after it are too. Files are streamed line by line from an offset, so a transcript of any size
is read (never skipped) in bounded memory; a single line over :data:`MAX_LINE_BYTES` (a pasted image) is
skipped. Files are never written.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from memrepo.engine.format.isotime import parse_time
from memrepo.engine.format.provenance import CLAUDE_INJECTED_PREFIXES, CODEX_INJECTED_PREFIXES, claude_line_is_injected

from .jsonlfile import iter_objects

QUIET_S = 600.0
"""A transcript written to in the last 10 minutes counts as a running task (seconds)."""
MAX_TASKS = 20
"""At most this many tasks per dream (docs/architecture.md §6)."""
IDLE_S = 4 * 3600.0
"""A session with no final reply and no write for this long counts as finished (seconds; ``[transcripts] idle_hours``)."""
NO_MEMORY = "<no-memory>"

_CODEX_INJECTED = CODEX_INJECTED_PREFIXES
_CLAUDE_INJECTED = CLAUDE_INJECTED_PREFIXES


class Task(BaseModel):
    """One finished session read from a transcript.

    Attributes:
        id: ``<source>:<session id>``.
        source: ``claude_code`` or ``codex``.
        title: the session's summary, or its first user message.
        workspace: the session's working folder, when known.
        started: the first event's time (UTC).
        user_messages: the user's own messages, in order.
        final_reply: the last assistant text reply.
        running: still running (not read by a dream).
        no_memory: a user message holds ``<no-memory>``.
    """

    id: str
    source: str
    title: str = ""
    workspace: str | None = None
    started: datetime
    user_messages: list[str] = Field(default_factory=list)
    final_reply: str = ""
    running: bool = False
    no_memory: bool = False


def _text_parts(content: object, kinds: tuple[str, ...]) -> tuple[list[str], bool]:
    """Texts of the parts of ``content`` whose type is in ``kinds``; True when a tool part is present."""
    if isinstance(content, str):
        return [content], False
    texts, tool = [], False
    if isinstance(content, list):
        for part in content:
            if not isinstance(part, dict):
                continue
            kind = part.get("type")
            if kind in kinds and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif kind in ("tool_use", "tool_result", "function_call", "function_call_output"):
                tool = True
    return texts, tool


def _recent(path: Path, now: float, quiet_s: float) -> bool:
    try:
        return now - path.stat().st_mtime < quiet_s
    except OSError:
        return True


def _running(path: Path, now: float, quiet_s: float, idle_s: float, finished: bool) -> bool:
    """Still running: written in the last ``quiet_s`` seconds, or not finished and written in the last ``idle_s``."""
    return _recent(path, now, quiet_s) or (not finished and _recent(path, now, max(idle_s, quiet_s)))


def read_claude_session(
    path: Path, now: float | None = None, quiet_s: float = QUIET_S, idle_s: float = IDLE_S
) -> Task | None:
    """Read one Claude Code session file.

    Args:
        path: a ``.jsonl`` session file.
        now: the current time (epoch seconds) for the running check.
        quiet_s: seconds without writes before a session with a final reply counts as finished.
        idle_s: seconds without writes before any session counts as finished (interrupted ones too).

    Returns:
        Task | None: None when the file holds no user message or no timestamp.
    """
    now = time_now() if now is None else now
    session, cwd, title, started = path.stem, None, "", None
    users: list[str] = []
    reply, last_kind = "", ""
    for _end, obj in iter_objects(path, tail=True):  # a killed writer's last line too: the session is over
        kind = obj.get("type")
        when = parse_time(obj.get("timestamp")) if isinstance(obj.get("timestamp"), str) else None
        if when is not None and started is None:
            started = when
        if kind == "summary" and isinstance(obj.get("summary"), str) and not title:
            title = obj["summary"]
            continue
        if kind not in ("user", "assistant") or claude_line_is_injected(obj):
            continue  # compaction summaries, meta lines, sub-agents: never the person's words
        session = str(obj.get("sessionId") or session)
        cwd = obj.get("cwd") if isinstance(obj.get("cwd"), str) else cwd
        raw_message = obj.get("message")
        message: dict[str, Any] = raw_message if isinstance(raw_message, dict) else {}
        if kind == "user":
            texts, tool = _text_parts(message.get("content"), ("text",))
            if tool:
                last_kind = "tool"
                continue  # tool output travels as a user message: never read it
            if obj.get("isMeta"):
                continue
            text = "\n".join(t for t in texts if not t.lstrip().startswith(_CLAUDE_INJECTED)).strip()
            if text:
                users.append(text)
                last_kind = "user"
        else:
            texts, tool = _text_parts(message.get("content"), ("text",))
            text = "\n".join(texts).strip()
            if text:
                reply, last_kind = text, "reply"
            elif tool:
                last_kind = "tool"
    if not users or started is None:
        return None
    running = _running(path, now, quiet_s, idle_s, last_kind == "reply")
    return Task(
        id=f"claude_code:{session}",
        source="claude_code",
        title=(title or users[0])[:120],
        workspace=cwd,
        started=started.astimezone(UTC),
        user_messages=users,
        final_reply=reply,
        running=running,
        no_memory=any(NO_MEMORY in u.casefold() for u in users),
    )


def read_codex_session(
    path: Path, now: float | None = None, quiet_s: float = QUIET_S, idle_s: float = IDLE_S
) -> Task | None:
    """Read one Codex rollout file (the ``{type, payload}`` format and the older direct one).

    Args:
        path: a ``rollout-*.jsonl`` file.
        now: the current time (epoch seconds) for the running check.
        quiet_s: seconds without writes before a finished session counts as finished.
        idle_s: seconds without writes before any session counts as finished (interrupted ones too).

    Returns:
        Task | None: None when the file holds no user message or no timestamp.
    """
    now = time_now() if now is None else now
    session, cwd, started = path.stem, None, None
    users: list[str] = []
    reply, last_kind, complete = "", "", False
    for _end, obj in iter_objects(path, tail=True):  # a killed writer's last line too: the session is over
        kind = obj.get("type")
        payload = obj.get("payload") if isinstance(obj.get("payload"), dict) else None
        when = parse_time(obj.get("timestamp")) if isinstance(obj.get("timestamp"), str) else None
        if kind == "session_meta" and payload is not None:
            if _codex_subagent(payload):
                return None  # a sub-agent's session: its "user" messages are another agent's
            session = str(payload.get("id") or session)
            cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else cwd
            started = parse_time(payload.get("timestamp")) or when or started
            continue
        if kind is None and "id" in obj and "timestamp" in obj:  # older files: a bare meta line first
            session = str(obj.get("id"))
            started = parse_time(obj.get("timestamp")) or started
            continue
        if started is None and when is not None:
            started = when
        if kind == "turn_context" and payload is not None and isinstance(payload.get("cwd"), str):
            cwd = cwd or payload["cwd"]
            continue
        if kind == "event_msg" and payload is not None:
            if payload.get("type") == "task_complete":
                complete = True
                last = payload.get("last_agent_message")
                if isinstance(last, str) and last.strip():
                    reply, last_kind = last.strip(), "reply"
            continue
        item = (
            payload
            if kind == "response_item"
            else (obj if kind in ("message", "function_call", "function_call_output") else None)
        )
        if item is None:
            continue
        item_type = item.get("type")
        if item_type in (
            "function_call",
            "function_call_output",
            "local_shell_call",
            "custom_tool_call",
            "custom_tool_call_output",
        ):
            last_kind = "tool"
            continue
        if item_type != "message":
            continue
        role = item.get("role")
        if role == "user":
            texts, _ = _text_parts(item.get("content"), ("input_text", "text"))
            text = "\n".join(t for t in texts if not t.lstrip().startswith(_CODEX_INJECTED)).strip()
            if text:
                users.append(text)
                last_kind, complete = "user", False
        elif role == "assistant":
            texts, _ = _text_parts(item.get("content"), ("output_text", "text"))
            text = "\n".join(texts).strip()
            if text:
                reply, last_kind = text, "reply"
    if not users or started is None:
        return None
    running = _running(path, now, quiet_s, idle_s, complete or last_kind == "reply")
    return Task(
        id=f"codex:{session}",
        source="codex",
        title=users[0][:120],
        workspace=cwd,
        started=started.astimezone(UTC),
        user_messages=users,
        final_reply=reply,
        running=running,
        no_memory=any(NO_MEMORY in u.casefold() for u in users),
    )


def _codex_subagent(meta: dict) -> bool:
    """True when a Codex ``session_meta`` payload names a sub-agent session (``source: {"subagent": …}``)."""
    source = meta.get("source")
    return (isinstance(source, dict) and "subagent" in source) or (
        isinstance(source, str) and source.casefold().startswith("subagent")
    )


def time_now() -> float:
    """Epoch seconds now (a seam for tests that pass ``now`` explicitly instead)."""
    import time

    return time.time()


def _files(source: str, root: Path, since: float) -> list[Path]:
    if not root.is_dir():
        return []
    pattern = "*/*.jsonl" if source == "claude_code" else "**/rollout-*.jsonl"
    out = []
    for path in root.glob(pattern):
        try:
            if path.is_file() and not path.is_symlink() and path.stat().st_mtime >= since:
                out.append(path)
        except OSError:
            continue
    return out


def read_tasks(
    roots: dict[str, str],
    cursor: dict[str, str],
    limit: int = MAX_TASKS,
    now: float | None = None,
    quiet_s: float = QUIET_S,
    idle_s: float = IDLE_S,
) -> tuple[list[Task], dict[str, str]]:
    """Tasks started after each source's cursor, oldest first, never past a running one.

    Args:
        roots: source (``claude_code``, ``codex``) -> folder (``~`` expanded).
        cursor: source -> ISO time of the newest task an earlier dream read.
        limit: at most this many tasks in all.
        now: epoch seconds for the running check.
        quiet_s: see :data:`QUIET_S`.
        idle_s: see :data:`IDLE_S`.

    Returns:
        tuple: the tasks, newest first, and the new cursor (advanced past
        every task read or skipped for ``<no-memory>``, stopping before the
        first running task of each source).
    """
    now = time_now() if now is None else now
    readers = {"claude_code": read_claude_session, "codex": read_codex_session}
    candidates: list[Task] = []
    new_cursor = dict(cursor)
    for source, folder in roots.items():
        if source not in readers or not folder:
            continue
        after = parse_time(cursor.get(source)) or datetime.fromtimestamp(0, UTC)
        found = []
        for path in _files(source, Path(os.path.expanduser(folder)), after.timestamp()):
            task = readers[source](path, now, quiet_s, idle_s)
            if task is not None and task.started > after:
                found.append(task)
        found.sort(key=lambda t: (t.started, t.id))
        for task in found:
            if task.running:
                break  # never past a running task: a later dream reads it and what follows
            candidates.append(task)
    candidates.sort(key=lambda t: (t.started, t.id))
    picked: list[Task] = []
    for task in candidates:
        if len(picked) >= limit:
            break
        new_cursor[task.source] = max(new_cursor.get(task.source, ""), task.started.isoformat())
        if not task.no_memory:
            picked.append(task)
    picked.reverse()
    return picked, new_cursor


def said_at(obj: dict[str, Any]) -> dict[str, str]:
    """``{"at": ISO time}`` from a transcript line's own ``timestamp`` (Claude Code's and Codex's lines carry one),
    or ``{}`` when it has none or it is unreadable: the checkpoint dates "until Wednesday" from when it was said."""
    stamp = obj.get("timestamp")
    when = parse_time(stamp.replace("Z", "+00:00")) if isinstance(stamp, str) else None
    return {"at": when.isoformat()} if when is not None else {}


def read_claude_messages(path: Path, session_id: str | None = None, strict: bool = False) -> list[dict]:
    """The completed turns of a Claude Code session file, as checkpoint messages (docs/architecture.md §7).

    A turn is the user's own message and the assistant's final text reply
    after it; a turn with no final reply yet (still running, or ending in a
    tool call) is left for a later read. Tool calls and tool output, sub-agent
    (sidechain) lines and messages injected by the tool are never returned.

    Args:
        path: the ``.jsonl`` transcript (any size: streamed).
        session_id: when given, only lines of this session.
        strict: raise instead of reading a missing or non-regular file as empty.

    Returns:
        list[dict]: ``{"id", "role", "text"}`` in order; ``id`` is the line's
        ``uuid`` (stable, so repeated reads deduplicate); a user message also has ``at``, the line's
        ``timestamp`` (ISO-8601), when it has a readable one (:func:`said_at`).

    Raises:
        MemrepoError: with ``strict``: ``transcript not found: PATH``, or not a
            regular file (FIFO, device, folder).
    """
    return read_claude_turns(path, session_id, strict)[0]


def read_claude_turns(
    path: Path, session_id: str | None = None, strict: bool = False, start: int = 0
) -> tuple[list[dict], int]:
    """:func:`read_claude_messages` from byte ``start`` on, and where the next read starts.

    The next read starts at the last turn's user message (that turn may still
    grow), so a hook that keeps the offset reads a long session's file
    incrementally, a few lines a turn instead of the whole file every time.

    Returns:
        tuple: the messages, and the offset to pass as ``start`` next time
        (``start`` itself when nothing new was read).
    """
    turns: list[list[dict | None]] = []
    resume = start
    before = start  # the offset where the line being read starts
    for after, obj in iter_objects(path, strict, start):
        line_start, before = before, after
        kind = obj.get("type")
        if kind not in ("user", "assistant") or claude_line_is_injected(obj):
            continue  # compaction summaries, meta lines, sub-agents: never the person's words
        if session_id and obj.get("sessionId") not in (None, session_id):
            continue
        uid = str(obj.get("uuid") or f"{path.stem}:@{line_start}")
        raw_message = obj.get("message")
        message: dict[str, Any] = raw_message if isinstance(raw_message, dict) else {}
        texts, tool = _text_parts(message.get("content"), ("text",))
        if kind == "user":
            if tool or obj.get("isMeta"):
                continue
            text = "\n".join(t for t in texts if not t.lstrip().startswith(_CLAUDE_INJECTED)).strip()
            if text:
                turns.append([{"id": uid, "role": "user", "text": text, **said_at(obj)}, None])
                resume = line_start
        elif turns:
            text = "\n".join(texts).strip()
            if tool:
                turns[-1][1] = None  # text before a tool call is not the final reply
            elif text:
                turns[-1][1] = {"id": uid, "role": "assistant", "text": text}
    out: list[dict] = []
    for user, reply in turns:
        if reply is not None and user is not None:
            out.extend((user, reply))
    return out, resume
