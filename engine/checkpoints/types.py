"""The checkpoint's data: the messages handed in, the result handed back, a claimed batch (docs/architecture.md §7).

Split from :mod:`memrepo.engine.checkpoints.checkpoint` (the buffers) and
:mod:`memrepo.engine.checkpoints.flow` (the one flow every caller runs).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from memrepo.engine.models import WriteResult

from .claims import Claim, ExistingEntry

__all__ = ["CheckpointResult", "Claim", "ExistingEntry", "Message"]

__all__ = ["CheckpointResult", "Claim", "ExistingEntry", "Message"]


class Message(BaseModel):
    """One conversation message handed to a checkpoint.

    Attributes:
        id: the harness's message id; when missing, a hash of session, role and text.
        role: ``user`` or ``assistant`` (tool output is never a message here).
        text: the message text.
        complete: False for a message still streaming: it is skipped.
        at: when the message was written, as the harness's transcript says (its line's ``timestamp``); None when
            not known. A statement kept from it dates "until Wednesday" from this day (breaker29 B29-6).
    """

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    id: str | None = Field(None, max_length=200)
    role: Literal["user", "assistant"]
    text: str
    complete: bool = True
    at: datetime | None = None


class CheckpointResult(BaseModel):
    """What a checkpoint call did.

    Attributes:
        status: ``buffered`` (kept, not eligible yet), ``distilled`` (operations
            written), ``empty`` (eligible, nothing worth remembering),
            ``distilling`` (eligible; another call's distillation is running, the
            messages stay pending), ``forgotten`` (the session was forgotten:
            nothing kept), ``failed`` (see ``reason``; nothing lost).
        scope: ``global`` or the workspace id.
        accepted: new messages buffered by this call.
        duplicates: messages skipped because their id was seen before.
        dropped: messages skipped as incomplete, holding ``<no-memory>``, or past the byte cap.
        truncated: accepted messages cut to :data:`memrepo.engine.checkpoints.checkpoint.MAX_MESSAGE_CHARS` characters.
        notes: why messages were dropped or cut, one line each (empty when none were).
        pending: messages still waiting in the scope's buffer.
        trigger: why the stage was eligible (``turns``, ``chars``, ``idle``, or the event).
        written: the governed writer's results.
        invalid: proposed operations refused by validation.
        reason: why it failed, one line.
    """

    status: Literal["buffered", "distilled", "empty", "distilling", "forgotten", "failed"]
    scope: str = "global"
    accepted: int = 0
    duplicates: int = 0
    dropped: int = 0
    truncated: int = 0
    notes: list[str] = Field(default_factory=list)
    pending: int = 0
    trigger: str | None = None
    written: list[WriteResult] = Field(default_factory=list)
    invalid: int = 0
    reason: str | None = None
