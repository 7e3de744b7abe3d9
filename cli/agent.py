"""``memrepo mcp``, ``memrepo checkpoint``, ``hook`` and ``setup``: agents (docs/architecture.md §7).

* ``mcp`` serves the MCP tools over stdio (:mod:`memrepo.mcpserver.server`).
* ``checkpoint`` hands completed messages to the checkpoint buffer: as JSON
  on stdin (any harness), or ``--from-claude-hook`` with the JSON a Claude
  Code ``Stop`` / ``SessionEnd`` hook receives (the turns are read from its
  transcript: the user's messages and the final replies, never tool output).
  From a hook it never exits 2 (that would block Claude Code from stopping)
  and never blocks: a missing or non-regular transcript (a FIFO, a device)
  is named on stderr and the call still exits 0.
* ``setup claude-code`` (:mod:`memrepo.cli.setup`) and the ``hook`` commands
  Claude Code runs (:mod:`memrepo.cli.hooks`) are registered here too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from pydantic import BaseModel, ConfigDict, ValidationError

from memrepo.engine.errors import MemrepoError

from .main import _errors_as_lines, _fail, _open_store, _repo_path, _settings

if TYPE_CHECKING:
    from memrepo.engine.checkpoints.checkpoint import Message
    from memrepo.engine.checkpoints.types import CheckpointResult

HOOK_EVENTS = {"Stop": "turn", "SessionEnd": "session_close", "SubagentStop": "turn", "PreCompact": "force"}
"""Claude Code hook events and the checkpoint event each one is."""


class HookInput(BaseModel):
    """The fields memrepo reads from a Claude Code hook's JSON (others are ignored)."""

    model_config = ConfigDict(extra="ignore")

    session_id: str | None = None
    transcript_path: str | None = None
    cwd: str | None = None
    hook_event_name: str | None = None


@click.command("mcp")
@click.option(
    "--allow-forget-any", is_flag=True, help="Let the agent forget any entry, not only the ones this session wrote."
)
@click.pass_context
@_errors_as_lines
def mcp_cmd(ctx: click.Context, allow_forget_any: bool) -> None:
    """Serve memory to an agent over MCP (stdio); one process is one agent session."""
    from memrepo.mcpserver.server import serve

    serve(_repo_path(ctx), _settings(ctx), allow_forget_any=allow_forget_any)


def _claude_turns(transcript: Path, session_id: str) -> list[dict]:
    """Completed messages of a Claude Code transcript: user messages and final assistant text replies.

    A turn is kept only once it has a final reply (an assistant text message
    after the user's message), so a turn still running is read by a later hook.
    Tool calls, tool results, sidechains (sub-agents) and injected messages are
    skipped. Message ids are the transcript's ``uuid``.

    Raises:
        MemrepoError: ``transcript not found: PATH``, not a regular file (a
            FIFO, a device, a folder: never opened blocking), or too large.
    """
    from memrepo.engine.agents.codexturns import is_codex_rollout, read_codex_turns
    from memrepo.engine.agents.transcripts import read_claude_messages

    if is_codex_rollout(transcript):  # Codex's Stop hook runs `hook stop` too
        return read_codex_turns(transcript, session_id, strict=True)[0]
    return read_claude_messages(transcript, session_id, strict=True)


OFFSETS_FILE = "hook-offsets.json"
"""Where each Claude Code session's transcript was read up to, in ``.git/memrepo/`` (byte offsets only)."""
OFFSETS_KEPT = 200
"""Sessions whose offsets are kept (the oldest are dropped)."""


def _hook_turns(repo: Path, transcript: Path, session_id: str) -> list[dict]:
    """:func:`_claude_turns` read incrementally: from where the last hook of this session stopped.

    The offset (the start of the last turn read, which may still grow) is kept
    per session with the file's inode; a different, replaced or shorter file is
    read from the start. Turns read again are deduplicated by the checkpoint.
    """
    messages, record = _read_turns(repo, transcript, session_id)
    if record is not None:
        _keep_offset(repo, session_id, record)
    return messages


def _offsets(repo: Path) -> dict:
    try:
        offsets = json.loads((repo / ".git" / "memrepo" / OFFSETS_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return offsets if isinstance(offsets, dict) else {}


def _read_turns(repo: Path, transcript: Path, session_id: str) -> tuple[list[dict], dict | None]:
    """The turns of ``transcript`` from this session's kept offset on, and the offset record to keep once they
    are buffered (None outside a git repo, where the whole file is read each time)."""
    from memrepo.engine.agents.codexturns import is_codex_rollout, read_codex_turns
    from memrepo.engine.agents.transcripts import read_claude_turns

    read_turns = read_codex_turns if is_codex_rollout(transcript) else read_claude_turns
    if not (repo / ".git").is_dir():
        return _claude_turns(transcript, session_id), None
    try:
        st = transcript.stat()
    except OSError:
        st = None
    rec = _offsets(repo).get(session_id)
    start = 0
    if (
        isinstance(rec, dict)
        and st is not None
        and rec.get("path") == str(transcript)
        and rec.get("ino") == st.st_ino
        and isinstance(rec.get("offset"), int)
        and 0 <= rec["offset"] <= st.st_size
    ):
        start = rec["offset"]
    messages, offset = read_turns(transcript, session_id, strict=True, start=start)
    return messages, {"path": str(transcript), "ino": st.st_ino if st else None, "offset": offset}


def _keep_offset(repo: Path, session_id: str, record: dict) -> None:
    """Keep where ``session_id``'s transcript was read up to (the newest :data:`OFFSETS_KEPT` sessions)."""
    import contextlib
    import os
    import tempfile

    file = repo / ".git" / "memrepo" / OFFSETS_FILE
    offsets = _offsets(repo)
    offsets.pop(session_id, None)
    offsets[session_id] = record
    while len(offsets) > OFFSETS_KEPT:
        offsets.pop(next(iter(offsets)))
    tmp = None
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".hook-offsets-", dir=file.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(offsets, fh)
        os.replace(tmp, file)  # atomic: a reader sees the old offsets or the new, never half
        tmp = None
    except OSError as exc:
        click.echo(f"memrepo: cannot keep the transcript offset: {exc.strerror or exc}", err=True)
    finally:
        if tmp is not None:  # a full disk left a 0-byte temp file for good (breaker11 B11-8)
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _buffered(result: CheckpointResult) -> bool:
    """Whether a checkpoint got its turns into the buffer (a failure after that keeps them pending there)."""
    return result.status != "failed" or result.trigger is not None


def _workspace_of(transcript: Path) -> str | None:
    """The working folder a Claude Code transcript or Codex rollout names (None when it names none)."""
    from memrepo.engine.agents.codexturns import is_codex_rollout
    from memrepo.engine.agents.transcripts import read_claude_session, read_codex_session

    task = (read_codex_session if is_codex_rollout(transcript) else read_claude_session)(transcript)
    return task.workspace if task else None


def _retry_kept(store: object, repo: Path, skip: str) -> None:
    """Checkpoint the sessions whose hook could not buffer their turns (:mod:`.hookretry`), oldest first."""
    from memrepo.engine.agents.sessionrepos import claim
    from memrepo.engine.checkpoints.checkpoint import Checkpointer
    from memrepo.engine.checkpoints.flow import run_checkpoint

    from . import hookretry

    for item in hookretry.pending(repo, skip=skip):
        if not item.transcript.is_file():
            hookretry.drop(item)
            continue
        try:
            messages, record = _read_turns(repo, item.transcript, item.session_id)
            claim(item.session_id, repo)
            result = run_checkpoint(
                store,  # type: ignore[arg-type]
                Checkpointer(store.state_dir),  # type: ignore[attr-defined]
                store.settings,  # type: ignore[attr-defined]
                item.session_id,
                _workspace_of(item.transcript),
                list(messages),
                item.event,
                transcript=True,
            )
        except (MemrepoError, OSError) as exc:  # still kept: the next hook tries again
            click.echo(f"memrepo: the kept checkpoint of session {item.session_id} failed again: {exc}", err=True)
            continue
        if _buffered(result):
            if record is not None:
                _keep_offset(repo, item.session_id, record)
            hookretry.clear(repo, item.session_id, item.transcript)


def _mark(repo: Path, event: str, session_id: str, transcript: Path) -> None:
    """:func:`.hookretry.mark`, saying on stderr when it cannot."""
    from . import hookretry

    try:
        if hookretry.mark(repo, event, session_id, transcript) is None and (repo / ".git").is_dir():
            click.echo("memrepo: the transcript path is too long to keep for a retry", err=True)
    except OSError as exc:
        click.echo(f"memrepo: cannot keep this checkpoint for a retry: {exc.strerror or exc}", err=True)


@click.command("checkpoint")
@click.option(
    "--from-claude-hook",
    "from_hook",
    is_flag=True,
    help="Read a Claude Code (or Codex) hook's JSON on stdin; checkpoint its transcript's completed turns.",
)
@click.option("--session", "session_id", metavar="ID", help="The agent session id (messages on stdin).")
@click.option(
    "--cwd", metavar="PATH", help='The agent\'s working folder (default: this folder; "" for the global scope).'
)
@click.option(
    "--event",
    type=click.Choice(["turn", "task_end", "session_close", "force"]),
    default=None,
    help="turn (default), task_end, session_close or force.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--retry-parked",
    is_flag=True,
    help="Distil again the messages parked after three failed distillations (memrepo status names them); no stdin.",
)
@click.option("--retry-waiting", is_flag=True, hidden=True, help="Retry the batches a failed write left pending.")
@click.option("--wait-git", is_flag=True, hidden=True, help="A hook's background run: wait out git's lock, retry.")
@click.pass_context
@_errors_as_lines
def checkpoint_cmd(
    ctx: click.Context,
    from_hook: bool,
    session_id: str | None,
    cwd: str | None,
    event: str | None,
    as_json: bool,
    retry_parked: bool,
    retry_waiting: bool,
    wait_git: bool,
) -> None:
    """Buffer an agent's completed messages; distil them into memory when a stage is complete.

    Without --from-claude-hook, stdin holds a JSON list of messages
    ({"id", "role": "user"|"assistant", "text"}) or an object {"messages": [...]}.
    """
    from memrepo.engine.checkpoints.checkpoint import Checkpointer, passing
    from memrepo.engine.checkpoints.flow import run_checkpoint

    from . import checkpointretry

    if retry_waiting:  # a session's start found batches a failed write left pending (B26-6)
        for line in checkpointretry.retry_waiting(_open_store(ctx, create=False)):
            click.echo(line)
        return
    if retry_parked:
        if from_hook or session_id or event:
            raise click.UsageError("--retry-parked takes no messages: give it alone (with --json at most)")
        _retry_parked(ctx, as_json)
        return
    usage = 1 if from_hook else 2  # a hook's exit 2 would block Claude Code from stopping: never use it there
    messages: list[Message | dict]
    record: dict | None = None
    raw = sys.stdin.read()
    try:
        data = json.loads(raw) if raw.strip() else None
    except ValueError as exc:
        _fail(f"stdin is not JSON: {exc}", usage)
    if from_hook:
        if not isinstance(data, dict):
            _fail("--from-claude-hook expects the hook's JSON object on stdin", usage)
        try:
            hook = HookInput.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "hook JSON"
            _fail(f"the hook JSON is invalid: {where}: {err['msg']}", usage)
        session_id = session_id or (hook.session_id or "").strip()
        cwd = cwd or hook.cwd or None
        event = event or HOOK_EVENTS.get(hook.hook_event_name or "Stop", "turn")
        if not session_id or not hook.transcript_path:
            _fail("the hook JSON needs session_id and transcript_path", usage)
        path = Path(hook.transcript_path).expanduser()
        from memrepo.engine.agents.sessionrepos import claim

        repo = _repo_path(ctx)
        claim(session_id, repo)  # another repo's dream leaves this session alone (B11-9)
        _mark(repo, event, session_id, path)  # cleared once the turns are buffered (B14-4)
        try:
            turns, record = _read_turns(repo, path, session_id)
            messages = list(turns)
        except MemrepoError as exc:  # still checkpoint (a close distils what is pending); never block the agent
            click.echo(f"memrepo: {exc}", err=True)
            messages, record = [], None
        if not cwd:  # older hook payloads carry no cwd: the transcript's lines do
            from memrepo.engine.agents.transcripts import read_claude_session

            task = read_claude_session(path)
            cwd = task.workspace if task else None
    else:
        if isinstance(data, dict):
            data = data.get("messages")
        if not isinstance(data, list):
            _fail('stdin must hold a JSON list of messages (or {"messages": [...]})', 2)
        if not session_id:
            _fail("--session ID is needed (or use --from-claude-hook)", 2)
        messages = data
        cwd = str(Path.cwd()) if cwd is None else cwd
    store = _open_store(ctx)  # with the settings: [writes] agent_to_inbox, the [dream] provider
    if from_hook:  # first the sessions a full disk kept from the buffer: a close below distils them too
        _retry_kept(store, repo, skip=session_id)
        for line in checkpointretry.retry_waiting(store):  # a batch a git lock failed, now git is done (B26-6)
            click.echo(line, err=True)
    # An agent session's facts: History and `memrepo log` say so (Origin: agent_tool, not cli, the person's own).
    # Turns read from Claude Code's own transcript (--from-claude-hook) are the user's words: a
    # statement they asked to remember is written by: user; messages on stdin are the caller's word.
    result = run_checkpoint(
        store,
        Checkpointer(store.state_dir),
        store.settings,
        session_id,
        cwd,
        messages,
        event or "turn",
        transcript=from_hook,
    )
    if from_hook and _buffered(result):  # the offset moves only past turns the buffer holds
        from . import hookretry

        if record is not None:
            _keep_offset(repo, session_id, record)
        hookretry.clear(repo, session_id, path)
    busy = wait_git and result.status == "failed" and passing(result.reason)
    if busy and checkpointretry.wait_for_git(store.git.git_dir):  # `git commit -a` in its editor: wait (B26-6)
        for line in checkpointretry.retry_waiting(store):
            click.echo(line, err=True)
    if as_json:
        click.echo(result.model_dump_json())
    else:
        parts = [
            f"{result.status}: {result.accepted} new, {result.duplicates} seen before, "
            + (f"{result.dropped} dropped, " if result.dropped else "")
            + (f"{result.truncated} truncated, " if result.truncated else "")
            + f"{result.pending} pending"
        ]
        if result.trigger:
            parts.append(f"(stage: {result.trigger})")
        click.echo(" ".join(parts))
        for w in result.written:
            click.echo(f"  {w.action.value} {w.ref or ''}{f': {w.reason}' if w.reason else ''}")
        for note in result.notes:
            click.echo(f"  {note}")
        if result.reason:
            click.echo(f"  {result.reason}")
    if result.status == "failed" and not from_hook:
        sys.exit(1)


def _retry_parked(ctx: click.Context, as_json: bool) -> None:
    """Give the parked messages back to their buffers and distil each of their sessions now (a forced stage),
    and the sessions whose last write failed (left pending, B26-6).

    A batch that fails again goes back to the buffer as any failed one does (parked again after three failures).
    """
    from memrepo.engine.checkpoints.checkpoint import Checkpointer

    from . import checkpointretry

    store = _open_store(ctx, create=False)
    cp = Checkpointer(store.state_dir)
    runs = checkpointretry.scopes([*cp.parked(), *cp.waiting()])
    cp.unpark()
    sessions = [sid for sid, _ in runs]
    results = checkpointretry.rerun(store, cp, runs)
    if as_json:
        click.echo(json.dumps([r.model_dump(mode="json") for r in results]))
    elif not sessions:
        click.echo("nothing parked")
    for sid, r in zip(sessions, results, strict=True):
        if not as_json:
            written = ", ".join(f"{w.action.value} {w.ref or ''}" for w in r.written)
            click.echo(f"session {sid}: {r.status}" + (f": {written}" if written else "") + f", {r.pending} pending")
            if r.reason:
                click.echo(f"  {r.reason}")
    if any(r.status == "failed" for r in results):
        sys.exit(1)


@click.command("forget-session")
@click.argument("session_id")
@click.option(
    "--compact",
    "compact_",
    is_flag=True,
    help="Then compact the history, so its text is gone from .git too (drops undo history).",
)
@click.pass_context
@_errors_as_lines
def forget_session_cmd(ctx: click.Context, session_id: str, compact_: bool) -> None:
    """Forget an agent session: its buffered messages, and the entries it wrote (task: SESSION_ID).

    The session is tombstoned first, so a distillation of it already queued
    writes nothing and later checkpoints of it are refused.
    """
    from memrepo.engine.checkpoints.checkpoint import Checkpointer

    store = _open_store(ctx, create=False)
    removed = Checkpointer(store.state_dir).forget_session(session_id)
    result = store.purge_task(session_id, origin="cli", compact=compact_)
    commit = f" ({result.commit[:7]})" if result.commit else " (it wrote no entries)"
    click.echo(f"forgot session {session_id}: {removed} buffered message(s) deleted{commit}")


def register(main: click.Group) -> None:
    """Add ``mcp``, ``checkpoint``, ``forget-session`` and ``setup`` to the ``memrepo`` command group."""
    main.add_command(mcp_cmd)
    main.add_command(checkpoint_cmd)
    from .hooks import hook
    from .setup import setup
    from .setupcodex import setup_codex

    setup.add_command(setup_codex)  # here, not in setup.py: setupcodex imports setup's helpers
    main.add_command(setup)
    main.add_command(hook)
    main.add_command(forget_session_cmd)
