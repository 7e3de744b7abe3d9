"""The completed turns of a Codex rollout file, for its Stop hook's checkpoint (docs/architecture.md §7).

A Codex rollout (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``, the hook's ``transcript_path``) is
one ``{timestamp, type, payload}`` object a line (Codex's ``RolloutLine`` of a ``RolloutItem``):
``session_meta`` first, then ``response_item`` (a ``ResponseItem``: ``message`` with a ``role``, tool calls
and their output), ``event_msg`` (an ``EventMsg``), ``turn_context`` and others.

The user's words are only what the person typed: the ``event_msg`` items Codex writes for the user's
input (``item_completed`` with an ``item`` of type ``UserMessage``, as Codex 0.171 writes it, or the older
``user_message`` event). A ``response_item`` of role ``user`` is not enough: Codex writes its own
``<environment_context>`` and AGENTS.md text with that role, and hook output goes in as ``developer``
messages. The reply is the last assistant ``message`` after the user's input with no tool call after it.
"""

from __future__ import annotations

from pathlib import Path

from .transcripts import _codex_subagent, _text_parts, iter_objects, said_at

TOOL_ITEMS = frozenset(
    {"function_call", "function_call_output", "local_shell_call", "custom_tool_call", "custom_tool_call_output"}
)
"""``ResponseItem`` types that are a tool call or its output: text before one is not the final reply."""


def is_codex_rollout(path: Path) -> bool:
    """True when ``path``'s first JSON line is Codex's ``session_meta`` (never raises; False when unreadable)."""
    for _after, obj in iter_objects(path, strict=False):
        return obj.get("type") == "session_meta"
    return False


def _typed(payload: dict) -> tuple[str, str] | None:
    """(id, text) of an ``event_msg`` payload holding the user's own input, or None."""
    kind = payload.get("type")
    if kind == "item_completed":
        item = payload.get("item")
        if isinstance(item, dict) and item.get("type") == "UserMessage":
            texts, _tool = _text_parts(item.get("content"), ("text",))
            text = "\n".join(texts).strip()
            return (str(item.get("id") or ""), text) if text else None
    elif kind == "user_message" and isinstance(payload.get("message"), str):
        text = payload["message"].strip()
        return ("", text) if text else None
    return None


def read_codex_turns(
    path: Path, session_id: str | None = None, strict: bool = False, start: int = 0
) -> tuple[list[dict], int]:
    """The completed turns of a Codex rollout from byte ``start`` on, and where the next read starts.

    Args:
        path: the rollout file.
        session_id: unused (a rollout holds one session); kept for the Claude Code reader's signature.
        strict: raise for a missing or non-regular file instead of reading nothing.
        start: the byte offset to read from (a previous call's second value).

    Returns:
        tuple: ``{"id", "role": "user"|"assistant", "text"}`` messages, a user message and its final reply for
        each turn that has one (a user message with ``at``, its line's ``timestamp``, when readable); and the offset of the last turn's user input (that turn may still grow).

    Raises:
        MemrepoError: with ``strict``, the file is missing or not a regular file.
    """
    del session_id
    turns: list[list[dict | None]] = []
    resume = start
    before = start
    for after, obj in iter_objects(path, strict, start):
        line_start, before = before, after
        kind = obj.get("type")
        payload = obj.get("payload")
        if not isinstance(payload, dict):
            continue
        if kind == "session_meta" and _codex_subagent(payload):
            return [], start  # a sub-agent's session: its "user" is another agent
        if kind == "event_msg":
            typed = _typed(payload)
            if typed is not None:
                uid = typed[0] or f"{path.stem}:@{line_start}"
                turns.append([{"id": uid, "role": "user", "text": typed[1], **said_at(obj)}, None])
                resume = line_start
        elif kind == "response_item" and turns:
            if payload.get("type") in TOOL_ITEMS:
                turns[-1][1] = None
            elif payload.get("type") == "message" and payload.get("role") == "assistant":
                texts, _tool = _text_parts(payload.get("content"), ("output_text", "text"))
                text = "\n".join(texts).strip()
                if text:
                    uid = str(payload.get("id") or f"{path.stem}:@{line_start}")
                    turns[-1][1] = {"id": uid, "role": "assistant", "text": text}
    out: list[dict] = []
    for user, reply in turns:
        if user is not None and reply is not None:
            out.extend((user, reply))
    return out, resume
