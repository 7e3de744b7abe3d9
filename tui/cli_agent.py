"""``memrepo mcp``, ``memrepo checkpoint`` and ``memrepo setup claude-code``: agents (DESIGN.md §7).

* ``mcp`` serves the MCP tools over stdio (:mod:`engine.mcpserver`).
* ``checkpoint`` hands completed messages to the checkpoint buffer: as JSON
  on stdin (any harness), or ``--from-claude-hook`` with the JSON a Claude
  Code ``Stop`` / ``SessionEnd`` hook receives (the turns are read from its
  transcript: the user's messages and the final replies, never tool output).
  From a hook it never exits 2 (that would block Claude Code from stopping)
  and never blocks: a missing or non-regular transcript (a FIFO, a device)
  is named on stderr and the call still exits 0.
* ``setup claude-code`` prints what to add to Claude Code's configuration
  (the commands always carry ``--repo`` with the resolved repo path, so
  ``MEMREPO_REPO`` or the config file need not be set for Claude Code), and
  with ``--check`` says what an existing file lacks; it never writes.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import click
from pydantic import BaseModel, ConfigDict, ValidationError

from engine.errors import MemrepoError

from .cli import _errors_as_lines, _fail, _open_store, _repo_path

HOOK_EVENTS = {"Stop": "turn", "SessionEnd": "session_close", "SubagentStop": "turn", "PreCompact": "force"}
"""Claude Code hook events and the checkpoint event each one is."""
HOOK_TIMEOUT_S = 60
"""The timeout put in the printed hook entries (seconds)."""
CHECK_MAX_BYTES = 8 * 1024 * 1024
"""Largest settings file ``setup claude-code --check`` reads (bytes)."""


class HookInput(BaseModel):
    """The fields memrepo reads from a Claude Code hook's JSON (others are ignored)."""

    model_config = ConfigDict(extra="ignore")

    session_id: str | None = None
    transcript_path: str | None = None
    cwd: str | None = None
    hook_event_name: str | None = None


@click.command("mcp")
@click.option("--allow-forget-any", is_flag=True,
              help="Let the agent forget any entry, not only the ones this session wrote.")
@click.pass_context
@_errors_as_lines
def mcp_cmd(ctx: click.Context, allow_forget_any: bool) -> None:
    """Serve memory to an agent over MCP (stdio); one process is one agent session."""
    from engine.mcpserver import serve

    serve(_repo_path(ctx), allow_forget_any=allow_forget_any)


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
    from engine.transcripts import read_claude_messages

    return read_claude_messages(transcript, session_id, strict=True)


@click.command("checkpoint")
@click.option("--from-claude-hook", "from_hook", is_flag=True,
              help="Read a Claude Code hook's JSON on stdin; checkpoint its transcript's completed turns.")
@click.option("--session", "session_id", metavar="ID", help="The agent session id (messages on stdin).")
@click.option("--cwd", metavar="PATH",
              help="The agent's working folder (default: this folder; \"\" for the global scope).")
@click.option("--event", type=click.Choice(["turn", "task_end", "session_close", "force"]), default=None,
              help="turn (default), task_end, session_close or force.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
@_errors_as_lines
def checkpoint_cmd(ctx: click.Context, from_hook: bool, session_id: str | None, cwd: str | None,
                   event: str | None, as_json: bool) -> None:
    """Buffer an agent's completed messages; distil them into memory when a stage is complete.

    Without --from-claude-hook, stdin holds a JSON list of messages
    ({"id", "role": "user"|"assistant", "text"}) or an object {"messages": [...]}.
    """
    from engine.checkpoint import Checkpointer, run_checkpoint
    from engine.config import load_settings

    usage = 1 if from_hook else 2  # a hook's exit 2 would block Claude Code from stopping: never use it there
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
        try:
            messages = _claude_turns(path, session_id)
        except MemrepoError as exc:  # still checkpoint (a close distils what is pending); never block the agent
            click.echo(f"memrepo: {exc}", err=True)
            messages = []
        if not cwd:  # older hook payloads carry no cwd: the transcript's lines do
            from engine.transcripts import read_claude_session

            task = read_claude_session(path)
            cwd = task.workspace if task else None
    else:
        if isinstance(data, dict):
            data = data.get("messages")
        if not isinstance(data, list):
            _fail("stdin must hold a JSON list of messages (or {\"messages\": [...]})", 2)
        if not session_id:
            _fail("--session ID is needed (or use --from-claude-hook)", 2)
        messages = data
        cwd = str(Path.cwd()) if cwd is None else cwd
    settings = load_settings()
    store = _open_store(ctx)
    store.agent_to_inbox = settings.writes.agent_to_inbox
    result = run_checkpoint(store, Checkpointer(store.state_dir), settings, session_id, cwd, messages,
                            event or "turn", origin="cli")
    if as_json:
        click.echo(result.model_dump_json())
    else:
        parts = [f"{result.status}: {result.accepted} new, {result.duplicates} seen before, "
                 + (f"{result.dropped} dropped, " if result.dropped else "")
                 + (f"{result.truncated} truncated, " if result.truncated else "")
                 + f"{result.pending} pending"]
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


@click.command("forget-session")
@click.argument("session_id")
@click.option("--compact", "compact_", is_flag=True,
              help="Then compact the history, so its text is gone from .git too (drops undo history).")
@click.pass_context
@_errors_as_lines
def forget_session_cmd(ctx: click.Context, session_id: str, compact_: bool) -> None:
    """Forget an agent session: its buffered messages, and the entries it wrote (task: SESSION_ID).

    The session is tombstoned first, so a distillation of it already queued
    writes nothing and later checkpoints of it are refused.
    """
    from engine.checkpoint import Checkpointer

    store = _open_store(ctx, create=False)
    removed = Checkpointer(store.state_dir).forget_session(session_id)
    result = store.purge_task(session_id, origin="cli", compact=compact_)
    commit = f" ({result.commit[:7]})" if result.commit else " (it wrote no entries)"
    click.echo(f"forgot session {session_id}: {removed} buffered message(s) deleted{commit}")


def mcp_entry(repo: str | None) -> dict:
    """The MCP server entry for Claude Code's ``.mcp.json`` / ``~/.claude.json`` ``mcpServers``."""
    args = (["--repo", repo] if repo else []) + ["mcp"]
    return {"type": "stdio", "command": "memrepo", "args": args, "env": {}}


def hooks_entry(repo: str | None) -> dict:
    """The ``hooks`` entries (``Stop``, ``SessionEnd``) for Claude Code's ``settings.json``."""
    command = "memrepo " + (f"--repo {shlex.quote(repo)} " if repo else "") + "checkpoint --from-claude-hook"
    hook = {"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]}
    return {"Stop": [hook], "SessionEnd": [hook]}


def check_config(data: object) -> list[str]:
    """What a Claude Code settings or MCP config file lacks for memrepo (empty: nothing).

    Looks for an ``mcpServers`` entry running ``memrepo ... mcp`` and for
    ``Stop`` and ``SessionEnd`` hooks running ``memrepo ... checkpoint --from-claude-hook``.
    """
    missing: list[str] = []
    if not isinstance(data, dict):
        return ["the file is not a JSON object"]
    servers = data.get("mcpServers")
    found = False
    if isinstance(servers, dict):
        for entry in servers.values():
            if isinstance(entry, dict) and "memrepo" in str(entry.get("command", "")) and "mcp" in [
                str(a) for a in entry.get("args") or []
            ]:
                found = True
    if not found:
        missing.append("mcpServers: no server running `memrepo mcp`")
    hooks = data.get("hooks") if isinstance(data.get("hooks"), dict) else {}
    for name in ("Stop", "SessionEnd"):
        groups = hooks.get(name) if isinstance(hooks, dict) else None
        ok = False
        for group in groups if isinstance(groups, list) else []:
            for hook in (group.get("hooks") or []) if isinstance(group, dict) else []:
                cmd = str(hook.get("command", "")) if isinstance(hook, dict) else ""
                if "memrepo" in cmd and "checkpoint" in cmd and "--from-claude-hook" in cmd:
                    ok = True
        if not ok:
            missing.append(f"hooks.{name}: no `memrepo checkpoint --from-claude-hook` command")
    return missing


@click.group("setup")
def setup() -> None:
    """Connect an agent to memrepo (prints what to add; never writes your files)."""


@setup.command("claude-code")
@click.option("--check", "check_path", metavar="PATH", type=click.Path(dir_okay=False),
              help="Check an existing settings.json / .mcp.json / ~/.claude.json and say what is missing.")
@click.pass_context
@_errors_as_lines
def setup_claude_code(ctx: click.Context, check_path: str | None) -> None:
    """Print the MCP server entry and hooks for Claude Code, or check an existing file."""
    from engine.regularfile import FileMissingError, read_regular

    if check_path:
        path = Path(check_path).expanduser()
        try:
            data = json.loads(read_regular(path, CHECK_MAX_BYTES).decode("utf-8"))
        except FileMissingError:
            _fail(f"no file {path}")
        except MemrepoError as exc:
            _fail(str(exc))
        except (UnicodeDecodeError, ValueError) as exc:
            _fail(f"cannot read {path} as JSON: {' '.join(str(exc).split())}")
        missing = check_config(data)
        if not missing:
            click.echo(f"{path}: memrepo's MCP server and hooks are configured")
            return
        for line in missing:
            click.echo(f"{path}: missing {line}")
        click.echo("run `memrepo setup claude-code` to see the entries to add")
        sys.exit(1)
    repo = str(_repo_path(ctx).expanduser().resolve())  # always named: MEMREPO_REPO or config may differ for Claude
    click.echo(f"# memory repo: {repo}")
    click.echo("# 1. The MCP server: add to .mcp.json in your project (or run:")
    repo_arg = f"--repo {shlex.quote(repo)} " if repo else ""
    click.echo(f"#    claude mcp add --scope user memrepo -- memrepo {repo_arg}mcp)")
    click.echo(json.dumps({"mcpServers": {"memrepo": mcp_entry(repo)}}, indent=2))
    click.echo("# 2. The hooks: merge into ~/.claude/settings.json (or .claude/settings.json)")
    click.echo(json.dumps({"hooks": hooks_entry(repo)}, indent=2))
    click.echo("# memrepo never edits these files; check them with: memrepo setup claude-code --check FILE")


def register(main: click.Group) -> None:
    """Add ``mcp``, ``checkpoint``, ``forget-session`` and ``setup`` to the ``memrepo`` command group."""
    main.add_command(mcp_cmd)
    main.add_command(checkpoint_cmd)
    main.add_command(setup)
    main.add_command(forget_session_cmd)
