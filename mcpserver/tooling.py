"""What the MCP tools share: their kinds and annotations, the session, one-line errors (docs/architecture.md §7).

:mod:`.server` builds the tools on the ``mcp`` SDK; this module needs no SDK,
so its pieces can be read and tested without the optional extra.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .refbinding import SeenRefs

KINDS = (
    "fact",
    "preference",
    "correction",
    "identity",
    "decision",
    "lesson",
    "rule",
    "insight",
    "pitfall",
    "command",
    "setup",
)
"""The kinds ``memory_remember`` takes (docs/architecture.md §3 routes them to me.md, lessons.md or the workspace)."""


ANNOTATIONS: dict[str, dict[str, bool]] = {
    "memory_context": {"read_only_hint": True, "idempotent_hint": True, "open_world_hint": False},
    "memory_recall": {"read_only_hint": True, "idempotent_hint": True, "open_world_hint": False},
    "memory_read": {"read_only_hint": True, "idempotent_hint": True, "open_world_hint": False},
    # the same memory again is "reinforced" (nothing written): repeating a call changes nothing more
    "memory_remember": {
        "read_only_hint": False,
        "destructive_hint": False,
        "idempotent_hint": True,
        "open_world_hint": False,
    },
    # a ref names a line: forgetting it twice may remove the entry that moved onto that line
    "memory_forget": {
        "read_only_hint": False,
        "destructive_hint": True,
        "idempotent_hint": False,
        "open_world_hint": False,
    },
    "memory_checkpoint": {
        "read_only_hint": False,
        "destructive_hint": False,
        "idempotent_hint": False,
        "open_world_hint": False,
    },
}
"""MCP tool annotations (hints clients act on: Codex runs a read-only tool, or one neither destructive nor
open-world, under its default ``codex exec`` policy, and asks before a destructive one)."""


def argument_error(tool: str, exc: ValidationError) -> str:
    """One line for arguments that fail a tool's schema: ``memory_recall: limit: ... (got 0)``, never pydantic's
    multi-line text with its documentation URLs."""
    parts = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err.get("loc", ())) or "arguments"
        msg = " ".join(str(err.get("msg", "invalid")).split())
        if err.get("type") == "missing":
            parts.append(f"{where}: required")
            continue
        got = err.get("input")
        shown = repr(got) if isinstance(got, (str, int, float, bool)) or got is None else type(got).__name__
        if len(shown) > 40:
            shown = shown[:37] + "..."
        parts.append(f"{where}: {msg} (got {shown})")
    return f"invalid arguments for {tool}: " + "; ".join(parts[:3]) + ("; ..." if len(parts) > 3 else "")


class ToolMessage(BaseModel):
    """A completed conversation message for ``memory_checkpoint``."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(None, max_length=200, description="The message's id in your harness (for deduplication).")
    role: Literal["user", "assistant"] = Field(
        description="user for the person's messages, assistant for your final replies. Never tool output."
    )
    text: str = Field(
        description="The message text; one over 8,000 characters is cut there and counted in the answer, never refused."
    )
    """No length limit here: a long message (a pasted log) is cut by the checkpoint and the answer's ``truncated`` and
    ``notes`` say so; a limit here refused the whole call, the other messages too (breaker30 B30-13)."""


@dataclass
class Session:
    """What one server process (one agent session) has done.

    Attributes:
        id: the session id.
        cwd: the folder the server started in (the default workspace).
        untrusted: the session said it read untrusted content.
        written: (path, normalized text) of every line this session wrote.
        written_refs: (ref, normalized text) of every ``by: agent`` line this
            session wrote; with the ``task:`` key, what ``memory_forget`` accepts.
        allow_forget_any: ``memory_forget`` may remove any entry.
        said_note: the last lexical-recall note this session was told (said once, again only when it changes).
        refs: the refs its answers showed, with the entry text each showed, and the refs it forgot: a tool given a
            ref acts only on the entry the session saw there (:mod:`.refbinding`, breaker30 B30-11).
    """

    id: str
    cwd: str
    untrusted: bool = False
    written: set[tuple[str, str]] = field(default_factory=set)
    allow_forget_any: bool = False
    written_refs: set[tuple[str, str]] = field(default_factory=set)
    said_note: str | None = None
    refs: SeenRefs = field(default_factory=SeenRefs)

    def note_once(self, line: str) -> str:
        """``line`` (a recall mode line) unless it is the lexical note this session was told last, else ``""``.

        A note that recall is lexical (the semantic extra missing, a model that failed) holds for many answers;
        saying it in each one is noise (breaker5 B5-5). The hybrid line, which names the coverage, is kept.
        """
        if not line.startswith("(lexical recall:"):
            return line
        if line == self.said_note:
            return ""
        self.said_note = line
        return line


def error_line(exc: BaseException) -> str:
    """One line for a tool's error, secrets redacted (an error may quote memory text).

    A model's own check (``Candidate``'s: a ``source`` naming the user) says its reason alone, never pydantic's
    "1 validation error for ..." with the input dict and a documentation URL (breaker30 B30-15).
    """
    from memrepo.engine.redaction import redact_text

    said = str(exc)
    if isinstance(exc, ValidationError):
        said = "; ".join(
            str(err.get("msg", "invalid")).removeprefix("Value error, ") for err in exc.errors(include_url=False)[:3]
        )
    text = redact_text(" ".join(said.split()))
    return text or type(exc).__name__


def ref_key(rel: str, line: int) -> str:
    """The ref of line ``line`` of ``rel`` (``repo:<path>#L<n>``), as kept in :attr:`Session.written_refs`."""
    from memrepo.engine.format.paths import make_ref

    return make_ref(rel, line)


def not_utf8_note(root: Any, hits: list[Any]) -> str:
    """``"(not UTF-8 text, read with the bad bytes shown as ...)"`` when a file ``hits`` came from is not UTF-8, else ``""``.

    Recall reads such a file with the bad bytes replaced rather than hiding it (breaker5 B5-8; docs/recall.md).

    Args:
        root: the memory root (a :class:`pathlib.Path`).
        hits: the recall hits (each with ``path``, relative to ``root``).
    """
    from memrepo.engine.files.regularfile import not_utf8_line

    bad = not_utf8_line(root, [hit.path for hit in hits])
    return f"({bad})" if bad else ""


def conflict_note(root: Any, query: str = "") -> str:
    """``"(a merge conflict in me.md (L9-L13): ...)"`` while git waits on a conflict in a memory file, and
    ``"(a hand edit waits for an answer ...)"`` with the committed entries matching ``query`` that a save
    waiting for the user's answer lacks; else ``""``.

    Neither side of a conflict is an entry, so recall finds neither (breaker5 B5-6; docs/architecture.md §4);
    recall reads the saved file, so it cannot find what memrepo keeps for it (breaker7 B7-2).
    """
    from memrepo.engine.read.conflictnote import merge_conflict_line
    from memrepo.engine.read.heldread import held_recall_line

    lines = [merge_conflict_line(root), held_recall_line(root, query) if query else None]
    return "\n".join(f"({line})" for line in lines if line)


SCOPE_NOTE = "memory_recall searches only the global files and this workspace's file"
"""What ``memory_recall`` searches (docs/agents.md): said when other workspaces' files hold what it did not search."""


async def elsewhere_line(repo: Any, query: str, workspace: str) -> str:
    """One line naming the other workspaces' files that answer ``query``, or ``""`` when none does.

    ``memory_recall`` searches the global files and this workspace's file only; an agent told "No memory matches"
    took it for "no such memory" while another workspace's file held the answer (breaker5 B5-4). This searches
    every file once more (only when the scoped search found no answer, and some other workspace file exists:
    else the scoped search already read every file) and names where the answers are.

    Args:
        repo: the open :class:`memrepo.engine.repo.repo.MemoryRepo`.
        query: the recall query.
        workspace: the scope the first search had (the session's folder).

    Returns:
        str: ``"Other workspaces' files answer it: workspaces/a.md (2 entries); ..."`` or ``""``.
    """
    if not await repo.other_workspace_files(workspace):
        return ""  # the scoped search covered every file (a second, unscoped one cost as much again)
    hits = await repo.recall(query, None, 20, 16_000, "line")
    counts: dict[str, int] = {}
    for hit in hits:
        if hit.answer and hit.path.startswith("workspaces/"):
            counts[hit.path] = counts.get(hit.path, 0) + 1
    if not counts:
        return ""
    shown = [f"{path} ({n} entr{'y' if n == 1 else 'ies'})" for path, n in list(counts.items())[:5]]
    more = f" and {len(counts) - 5} more files" if len(counts) > 5 else ""
    return (
        f"{SCOPE_NOTE}. Other workspaces' files answer it: {', '.join(shown)}{more}; "
        "read them with memory_read if they apply to this task."
    )
