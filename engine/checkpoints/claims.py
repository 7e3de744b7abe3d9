"""A batch of conversation claimed for distillation, and the entries it may change (docs/architecture.md §7).

The data the checkpoint buffer (:mod:`.checkpoint`) hands the distiller
(:mod:`.distill`): both import it from here, neither from the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class ExistingEntry:
    """An entry the distiller may revise, supersede or flag (``E<n>``)."""

    alias: str
    path: str
    line: int
    text: str
    by: str
    meta: dict[str, str]


@dataclass(slots=True)
class Claim:
    """A batch claimed for distillation.

    Attributes:
        scope: the buffer's scope key.
        claim_id: the claim's id in the buffer file.
        session_ids: the sessions whose messages are in the batch.
        workspace: the scope's workspace folder, None for global.
        messages: the batch (dicts with id, session, role, text; ``heard`` and ``said``, seconds since the epoch
            the harness says the message was written, when known).
        trigger: why the stage became eligible.
        untrusted: a session of the batch read untrusted content.
        existing: the aliased entries (filled by :meth:`Checkpointer.prepare`).
        prompt: the distiller's prompt (filled by :meth:`Checkpointer.prepare`).
    """

    scope: str
    claim_id: str
    session_ids: list[str]
    workspace: str | None
    messages: list[dict[str, Any]]
    trigger: str
    untrusted: bool = False
    existing: dict[str, ExistingEntry] = field(default_factory=dict)
    prompt: str = ""
    claimed_at: float = 0.0
    """When the batch was claimed (seconds since the epoch); a scope forgotten later drops it."""

    def estimate_tokens(self) -> int:
        """Prompt tokens, estimated at four characters a token (the provider interface)."""
        return len(self.prompt) // 4 + 1

    def user_texts(self, heard: bool = False) -> list[str]:
        """The batch's user messages; with ``heard``, only those read from the harness's own transcript.

        A message handed in by an agent (an MCP tool call) says ``role: user``
        on the agent's word; a line of the transcript file the harness wrote
        is the user's (``heard`` in the buffer, :meth:`.checkpoint.Checkpointer.submit`).
        """
        return [m["text"] for m in self.messages if m["role"] == "user" and (m.get("heard") or not heard)]
