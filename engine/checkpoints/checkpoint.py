"""Checkpoints: an agent's completed messages become memory (docs/architecture.md §7, the DSH seed's checkpoint policy).

:func:`Checkpointer.checkpoint` takes newly completed messages of a session.
They are buffered per scope (the workspace of the session's cwd, or global)
in ``.git/memrepo/checkpoints/<scope>.json``, deduplicated by message id, with
a hard byte cap per call. A stage becomes eligible when any of these holds:

* at least :data:`TURNS` user turns are buffered (10);
* the buffered text reaches :data:`CHARS` characters (4,000);
* the buffer stayed idle :data:`IDLE_S` seconds (5 minutes), checked when the
  next call or a watcher tick (:meth:`Checkpointer.due_scopes`) runs;
* the event is ``task_end``, ``session_close`` or ``force``.

An eligible stage is distilled in three steps, so the model call holds no lock
(the seed: claim a bounded batch under the queue, distil it outside, re-acquire
to merge; messages arriving meanwhile stay pending):

1. :meth:`Checkpointer.submit` buffers and, when eligible, claims a batch
   under the checkpoint lock;
2. :meth:`Checkpointer.prepare` lists the existing entries the distiller may
   revise (aliased ``E1…``) and :func:`memrepo.engine.checkpoints.distill.distil` asks the configured dream
   provider (no lock, any thread) for add / revise / supersede /
   flag_conflict operations, strict JSON validated by pydantic;
3. :meth:`Checkpointer.merge` re-acquires the lock, drops the batch's result
   if its session was forgotten meanwhile (tombstones), and writes through the
   governed writer (``by: agent``, ``task: <session id>``; a statement the user asked to remember,
   in their words, ``by: user``).

A supersede needs verbatim quotes of the user's correction (in a user message
of the batch) and of the target entry; a revise of a ``by: user`` entry, or one
whose quote does not check, becomes a conflict kept side by side: the target
and the new text both carry ``conflict: <id>`` (the format of sync merges, so
the Inbox pane lists them, :mod:`memrepo.engine.sync.conflicts`). Malformed output changes
nothing. The ``rules`` provider has no model: its distillation proposes only
the user's explicit "remember that ..." statements, and the statement before
a lone "Remember that." (:func:`memrepo.engine.format.remembering.user_statements`).

The steps run as one flow, :func:`memrepo.engine.checkpoints.flow.checkpoint_flow`,
whoever calls it (the CLI, the async repo, its idle tick, evals). Failures are
logged and returned as a status, never raised (docs/architecture.md §7).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import sqlite3
from datetime import UTC, datetime
from typing import Any, Literal

from memrepo.engine.errors import BlockedError, MemrepoError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.paths import normalize_workspace, parse_ref, session_workspace
from memrepo.engine.models import Action, Origin
from memrepo.engine.write.policy import NO_MEMORY
from memrepo.engine.write.ports import MemoryAccess

from .batchreasons import after_kept
from .batchreasons import kept_write as kept_write  # re-exported: the agent command asks them here
from .batchreasons import passing as passing
from .buffers import MAX_SEEN, Buffers
from .claimer import claim_record, claimer_gone
from .distill import DistillOutput, Operation, apply_operation, build_prompt
from .forgetting import apply_forgets, workspace_heads
from .heardonce import heard_before, heard_uuids
from .leftover import IDLE_S as IDLE_S  # seconds a buffer may idle (re-exported)
from .msgcut import cut_message
from .types import CheckpointResult, Claim, ExistingEntry, Message

__all__ = ["CheckpointResult", "Checkpointer", "Claim", "DistillOutput", "ExistingEntry", "Message"]

log = logging.getLogger("memrepo.checkpoint")

TURNS = 10
"""Buffered user turns that make a stage eligible (DSH seed ``checkpointTurns``)."""
CHARS = 4_000
"""Buffered characters that make a stage eligible (DSH seed ``checkpointChars``)."""
MAX_CALL_BYTES = 64 * 1024
"""Hard cap on the UTF-8 bytes of message text one call may add; messages past it are dropped (bytes)."""
MAX_MESSAGE_CHARS = 8_000
"""A longer message is cut to this many characters before buffering."""
MAX_BUFFER_MESSAGES = 400
"""Pending messages kept per scope; the oldest go first past this."""
MAX_BATCH_MESSAGES = 60
"""Most messages one distillation reads."""
MAX_BATCH_CHARS = 16_000
"""Most characters one distillation reads."""
MAX_EXISTING = 40
"""Existing entries shown to the distiller (``E1…``)."""
CLAIM_STALE_S = 900.0
"""A claim older than this (its process died mid-distillation) is released (seconds)."""
MAX_FAILURES = 3
"""A batch whose distillation failed this often is parked (:meth:`Buffers.parked`), so one bad stage cannot block
the buffer and nothing buffered is dropped (it was, with a log line only, before round 13)."""

EVENTS = ("turn", "task_end", "session_close", "force")
"""``event`` values: a completed turn, a finished task, the session closing, an explicit force."""
Event = Literal["turn", "task_end", "session_close", "force"]


def _clean_text(text: str) -> tuple[str, int]:
    """A message's text as buffered: secrets redacted (docs/architecture.md §3: secrets never reach disk), then cut
    to :data:`MAX_MESSAGE_CHARS` in the middle, keeping its head and its tail (:func:`.msgcut.cut_message`).

    Returns:
        tuple[str, int]: the text, and 1 when it was cut (else 0).
    """
    return cut_message(text, MAX_MESSAGE_CHARS)


def _epoch(when: datetime) -> float:
    """Seconds since the epoch of a harness's message time (a time naming no zone is UTC)."""
    return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).timestamp()


def _msg_id(session_id: str, msg: Message) -> str:
    if msg.id:
        return f"{session_id}/{msg.id}"  # ids are unique within a session; two harnesses may reuse them
    digest = hashlib.sha256(f"{session_id}\x00{msg.role}\x00{msg.text}".encode()).hexdigest()
    return f"h-{digest[:20]}"


class Checkpointer(Buffers):
    """Checkpoint buffers of one memory repo, and the policy that distils them.

    Args:
        state_dir: the repo's ``.git/memrepo`` folder.
        clock: seconds since the epoch (injectable for tests); default :func:`time.time`.
    """

    @staticmethod
    def scope_of(cwd: str | None) -> tuple[str, str | None]:
        """(scope key, workspace folder) of a cwd: ``global`` for none or a folder that is no project's (the home
        folder, ``/``, the temporary folder: :func:`~memrepo.engine.format.paths.session_workspace`), else its ``ws-``
        id."""
        cwd = session_workspace(cwd)
        if cwd is None:
            return "global", None
        ws_id, _slug, abs_path = normalize_workspace(cwd)
        return ws_id, abs_path or cwd

    # -- step 1 -------------------------------------------------------------

    def _eligible(self, data: dict, event: str, idle_before: bool) -> str | None:
        killed = isinstance(data.get("claim"), dict) and claimer_gone(data["claim"])  # its batch waits again
        pending = [m for m in data["messages"] if killed or not m.get("claimed")]
        if not pending:
            return None
        if event in ("task_end", "session_close", "force"):
            return event
        if sum(1 for m in pending if m["role"] == "user") >= TURNS:
            return "turns"
        if sum(len(m["text"]) for m in pending) >= CHARS:
            return "chars"
        if idle_before:
            return "idle"
        return None

    def _claim(self, scope: str, data: dict, trigger: str, prefer: str | None = None) -> Claim | None:
        claim = data.get("claim")
        now = self.clock()
        if claim and now - float(claim.get("at", 0)) < CLAIM_STALE_S and not claimer_gone(claim):
            return None  # a batch is being distilled (a killed claimer's is taken over at once: .claimer)
        for m in data["messages"]:
            m.pop("claimed", None)
        batch: list[dict[str, Any]] = []
        chars = 0
        sessions_pending = [m["session"] for m in data["messages"]]
        first = prefer if prefer in sessions_pending else (sessions_pending[0] if sessions_pending else None)
        for m in data["messages"]:
            if m["session"] != first:
                continue  # one session per batch: its entries carry its id (task:), for forget_session
            if batch and (len(batch) >= MAX_BATCH_MESSAGES or chars + len(m["text"]) > MAX_BATCH_CHARS):
                break
            batch.append(m)
            chars += len(m["text"])
        if not batch:
            data["claim"] = None
            return None
        claim_id = secrets.token_hex(6)
        for m in batch:
            m["claimed"] = claim_id
        data["claim"] = claim_record(claim_id, now)
        sessions = sorted({m["session"] for m in batch})
        untrusted = bool(set(sessions) & set(data.get("untrusted", [])))
        return Claim(
            scope,
            claim_id,
            sessions,
            data.get("workspace"),
            [{k: m[k] for k in ("id", "session", "role", "text", "heard", "said") if k in m} for m in batch],
            trigger,
            untrusted,
            claimed_at=now,
        )

    def submit(
        self,
        session_id: str,
        cwd: str | None,
        messages: list[Message | dict],
        event: str = "turn",
        untrusted: bool = False,
        transcript: bool = False,
    ) -> tuple[CheckpointResult, Claim | None]:
        """Buffer completed messages; claim a batch when the stage is eligible.

        Each message's text is redacted (:func:`memrepo.engine.write.policy.redact`) and cut to
        :data:`MAX_MESSAGE_CHARS` before it is saved, so secrets never reach
        disk; a message holding ``<no-memory>`` is never buffered. Messages
        skipped or cut are counted in the result (``dropped``, ``truncated``)
        with a note saying why (the :data:`MAX_CALL_BYTES` per-call budget).

        Args:
            session_id: the agent session.
            cwd: its working folder (the workspace); None or empty for the global scope.
            messages: new messages (:class:`Message` or dicts of its fields).
            event: one of :data:`EVENTS`.
            untrusted: the session read untrusted content: what it distils goes to the inbox.
            transcript: the messages were read from the transcript file the harness
                wrote (a Claude Code hook), not handed in by the agent: their user
                turns are the user's own words (kept as ``heard``).

        Returns:
            tuple: the result so far, and the claimed batch or None.

        Raises:
            ValueError: a bad message, event or session id.
            filelock.Timeout: the checkpoint lock stayed busy 5 s.
        """
        if event not in EVENTS:
            raise ValueError(f"event must be one of {', '.join(EVENTS)}, not {event!r}")
        session_id = (session_id or "").strip()
        if not session_id or len(session_id) > 200 or any(c in session_id for c in "\n\r\x00;[]"):
            raise ValueError("session_id must be a short single-line id")
        parsed = [m if isinstance(m, Message) else Message.model_validate(m) for m in messages]
        scope, workspace = self.scope_of(cwd)
        result = CheckpointResult(status="buffered", scope=scope)
        with self._lock:
            if session_id in self._tombstones():
                result.status = "forgotten"
                result.dropped = len(parsed)
                return result, None
            data = self._load(scope)
            data["workspace"] = workspace
            now = self.clock()
            gone_ids = set((self.scope_tombstones().get(scope) or {}).get("seen", []))
            last = data.get("last_at")
            idle_before = bool(data["messages"]) and last is not None and now - float(last) >= IDLE_S
            seen = set(data["seen"])
            heard = heard_uuids(seen) if transcript else set()  # a resumed session's copied lines (B31-19)
            budget = MAX_CALL_BYTES
            incomplete = no_memory = over = 0
            for msg in parsed:
                if not msg.complete or not msg.text:
                    incomplete += 1
                    continue
                if NO_MEMORY in msg.text.casefold():
                    no_memory += 1  # never buffered: the user asked that nothing of it be kept
                    continue
                mid = _msg_id(session_id, msg)
                if mid in gone_ids:  # a message of a forgotten scope, sent again
                    result.dropped += 1
                    continue
                if mid in seen or heard_before(msg.id, heard):
                    result.duplicates += 1
                    continue
                if budget <= 0:
                    over += 1
                    continue
                text, cut = _clean_text(msg.text)
                size = len(text.encode("utf-8"))
                if size > budget:
                    over += 1
                    budget = 0
                    continue
                budget -= size
                result.truncated += cut
                seen.add(mid)
                data["seen"].append(mid)
                kept = {"id": mid, "session": session_id, "role": msg.role, "text": text, "at": now}
                if msg.at is not None:  # when it was said, never later than now (B29-6)
                    kept["said"] = min(_epoch(msg.at), now)
                data["messages"].append({**kept, "heard": True} if transcript else kept)
                result.accepted += 1
            result.dropped = incomplete + no_memory + over
            if incomplete:
                result.notes.append(f"{incomplete} incomplete or empty message(s) skipped")
            if no_memory:
                result.notes.append(f"{no_memory} message(s) held <no-memory>: not kept")
            if over:
                result.notes.append(
                    f"{over} message(s) dropped: past the per-call budget of {MAX_CALL_BYTES} "
                    "bytes; send them in a later call"
                )
            if result.truncated:
                result.notes.append(f"{result.truncated} message(s) cut to {MAX_MESSAGE_CHARS} characters")
            data["seen"] = data["seen"][-MAX_SEEN:]
            if len(data["messages"]) > MAX_BUFFER_MESSAGES:
                data["messages"] = data["messages"][-MAX_BUFFER_MESSAGES:]
            if untrusted and session_id not in data.setdefault("untrusted", []):
                data["untrusted"].append(session_id)
            if result.accepted or not data["messages"]:
                data["last_at"] = now
            trigger = self._eligible(data, event, idle_before)
            prefer = None if trigger == "idle" else session_id  # idle: the left session's turns first (B31-15)
            claim = self._claim(scope, data, trigger, prefer) if trigger else None
            if trigger and claim is None and data["messages"]:
                result.status = "distilling"
            result.trigger = trigger
            result.pending = len(data["messages"])
            # A buffer that would hold nothing is not written: every MCP session's closing
            # checkpoint is empty, and any buffer makes compaction read the old history. An
            # untrusted mark alone needs no file: every submit of the session carries it again.
            if data["messages"] or claim is not None or self._path(scope).exists():
                self._save(scope, data)
        return result, claim

    def due_scopes(self) -> list[str]:
        """Scopes whose buffer has been idle :data:`IDLE_S` seconds with messages pending (a watcher tick)."""
        now = self.clock()
        out = []
        for scope in self._scopes():
            data = self._load(scope)
            last = data.get("last_at")
            if data["messages"] and last is not None and now - float(last) >= IDLE_S:
                out.append(scope)
        return out

    def claim_idle(self, scope: str) -> Claim | None:
        """Claim the idle stage of ``scope`` (after :meth:`due_scopes`), or None when nothing is due."""
        with self._lock:
            data = self._load(scope)
            last = data.get("last_at")
            if not data["messages"] or last is None or self.clock() - float(last) < IDLE_S:
                return None
            claim = self._claim(scope, data, "idle")
            self._save(scope, data)
            return claim

    # -- step 2 -------------------------------------------------------------

    def prepare(self, store: MemoryAccess, claim: Claim) -> None:
        """Fill the claim's existing entries (``E1…``) and prompt; runs on the store's thread.

        The entries are the workspace's context files plus recall hits for the
        batch's user text, at most :data:`MAX_EXISTING`. A recall index another process holds (its first
        build on a large repo) is skipped, never a failed batch: three such failures dropped the user's
        lines (breaker20 B20-9).
        """
        refs: dict[str, None] = {}
        query = " ".join(claim.user_texts())[-2_000:]
        try:
            hits = store.recall(query, workspace=claim.workspace, limit=MAX_EXISTING) if query.strip() else []
        except sqlite3.Error as exc:  # busy or unreadable: the context files alone give the existing entries
            log.info("checkpoint %s: recall index skipped: %s", claim.scope, exc)
            hits = []
        for hit in hits:
            if not hit.unreviewed:
                refs[hit.ref] = None
        ctx = store.context(claim.workspace)
        shown = [ref if isinstance(ref, str) else getattr(ref, "ref", "") for ref in getattr(ctx, "refs", []) or []]
        shown = workspace_heads(store, ctx) + shown
        for ref in sorted(shown, key=lambda ref: "workspaces/" not in ref.partition("#")[0]):  # the workspace's first
            refs[ref] = None  # a block with more of me.md must not push the workspace's lines past the cap
        n = 0
        files: dict[str, fmt.MemoryFile | None] = {}
        for ref in refs:
            if not ref or n >= MAX_EXISTING:
                continue
            try:
                rel, line = parse_ref(ref)
            except MemrepoError:
                continue
            if rel not in files:
                try:
                    files[rel] = fmt.parse(read_work_file(store.root / rel), rel)
                except (OSError, MemrepoError):
                    files[rel] = None
            parsed = files[rel]
            entry = parsed.entry_at(line) if parsed else None
            if entry is None:
                continue
            n += 1
            alias = f"E{n}"
            claim.existing[alias] = ExistingEntry(alias, rel, line, entry.text, entry.by, dict(entry.meta))
        claim.prompt = build_prompt(claim)

    # -- step 3 -------------------------------------------------------------

    def release(self, claim: Claim, failed: bool, reason: str | None = None) -> int:
        """Give a claimed batch back (it stays pending), or park it after :data:`MAX_FAILURES` failures.

        A failure of a passing cause (:func:`passing`: another git process's lock, a busy write lock) is not
        counted toward parking: its messages are marked ``busy`` and wait, pending, for the next try
        (breaker26 B26-6: ``git commit -a`` waiting in its editor parked a session's lines after three ends);
        nor is a write a block kept (:func:`kept_write`: it is not lost, B27-7).

        Returns:
            int: messages still pending in the scope.
        """
        busy = failed and (passing(reason) or kept_write(reason))
        with self._lock:
            data = self._load(claim.scope)
            if (data.get("claim") or {}).get("id") == claim.claim_id:
                data["claim"] = None
            for m in data["messages"]:
                if m.get("claimed") == claim.claim_id:
                    m.pop("claimed", None)
                    if busy:
                        m["busy"] = int(m.get("busy", 0)) + 1
                    elif failed:
                        m["failures"] = int(m.get("failures", 0)) + 1
            if failed:
                data["last_error"] = reason
                gone = [m for m in data["messages"] if m.get("failures", 0) >= MAX_FAILURES]
                if gone:  # parked, never dropped: status and Health name it, `checkpoint --retry-parked` retries
                    data["messages"] = [m for m in data["messages"] if m.get("failures", 0) < MAX_FAILURES]
                    data["parked"] = [*data.get("parked", []), *gone]
                    data["parked_reason"] = reason
                    log.warning(
                        "checkpoint %s: parked %d messages after %d failed distillations "
                        "(`memrepo checkpoint --retry-parked` retries them): %s",
                        claim.scope,
                        len(gone),
                        MAX_FAILURES,
                        reason,
                    )
            self._save(claim.scope, data)
            return len(data["messages"])

    def merge(
        self, store: MemoryAccess, claim: Claim, output: DistillOutput, origin: Origin = "agent_tool"
    ) -> CheckpointResult:
        """Write the distilled operations and drop the batch from the buffer; runs on the store's thread.

        Holds the checkpoint lock while writing, so :meth:`forget_session`
        either runs before (the batch is dropped: its session is tombstoned)
        or after (it then purges what was written).

        Returns:
            CheckpointResult: ``distilled``, ``empty`` or ``forgotten``.
        """
        result = CheckpointResult(status="empty", scope=claim.scope, trigger=claim.trigger)
        with self._lock:
            dead = set(claim.session_ids) & set(self._tombstones())
            scope_gone = self.scope_tombstones().get(claim.scope)
            if scope_gone is not None and float(scope_gone.get("at", 0)) >= claim.claimed_at:
                dead = dead or {"(scope forgotten)"}
            data = self._load(claim.scope)
            ids = {m["id"] for m in claim.messages}
            if not dead:
                kept: list[tuple[Operation, BlockedError]] = []
                for op in output.operations:
                    try:
                        written = apply_operation(store, claim, op, origin)
                        if written is not None and written.limit:
                            written = apply_operation(store, claim, op, origin, inbox=True) or written
                    except BlockedError as exc:
                        if not exc.kept:
                            raise
                        kept.append((op, exc))  # in the pen, applied once the block is gone; the rest go on
                        continue
                    if written is None:
                        result.invalid += 1
                    else:
                        result.written.append(written)
                result.written += apply_forgets(store, claim, origin)  # "Please forget that ..." (breaker14 B14-10)
                after_kept(result, kept)
            else:
                result.status = "forgotten"
            if any(w.limit for w in result.written):
                ids = set()  # a limit refused a line even in the inbox: the batch stays, retried at the next one
                result.reason = next(w.reason for w in result.written if w.limit)
            data["messages"] = [m for m in data["messages"] if m["id"] not in ids]
            if (data.get("claim") or {}).get("id") == claim.claim_id:
                data["claim"] = None
            self._save(claim.scope, data)
            result.pending = len(data["messages"])
        if result.status != "forgotten" and any(w.action is not Action.REFUSED for w in result.written):
            result.status = "distilled"
        return result

    # -- forgetting -----------------------------------------------------------
