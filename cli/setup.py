"""``memrepo setup claude-code``: what to add to Claude Code, and ``--check`` of where it keeps it (docs/architecture.md §7).

It prints (and with ``--write`` puts the hooks in ``~/.claude/settings.json``, keeping
everything else there, see :mod:`memrepo.cli.agentfiles`):

* the exact ``claude mcp add`` command (absolute paths: the memrepo program
  and ``--repo`` with the resolved repo, so ``MEMREPO_REPO`` or the config file
  need not be set for Claude Code), and the same server as a ``.mcp.json``
  entry;
* the hooks for ``settings.json``: ``SessionStart`` (the context block),
  ``UserPromptSubmit`` (a few recall hits), ``Stop`` and ``SessionEnd``
  (checkpoints, ``"async": true`` and detached: they never block a turn).

``--check`` reads every place Claude Code keeps them and says precisely what is
missing: hooks in ``~/.claude/settings.json``, the project's
``.claude/settings.json`` and ``.claude/settings.local.json`` and the managed
settings file; MCP servers in the project's ``.mcp.json`` and in
``~/.claude.json``, both its ``mcpServers`` (user scope) and
``projects[<project>].mcpServers`` (local scope, where ``claude mcp add``
writes by default). Each file is read as a regular file under a size cap (a
FIFO or device is refused, never blocks), and each file's ``hooks`` is held to
Claude Code's published settings schema (:mod:`memrepo.cli.claudehooks`).
``memrepo setup codex`` (:mod:`memrepo.cli.setupcodex`) does the same for Codex.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click

from .main import _errors_as_lines, _fail, _repo_path

CHECK_MAX_BYTES = 8 * 1024 * 1024
"""Largest Claude Code file ``--check`` reads (bytes)."""
HOOK_TIMEOUT_S = {"SessionStart": 15, "UserPromptSubmit": 10, "Stop": 60, "SessionEnd": 60}
"""The timeout put in each printed hook entry (seconds)."""
MANAGED_SETTINGS = (
    Path("/etc/claude-code/managed-settings.json"),
    Path("/Library/Application Support/ClaudeCode/managed-settings.json"),
)
"""Where Claude Code's managed (enterprise) settings live on Linux and macOS."""
REQUIRED_HOOKS = {
    "SessionStart": ("hook session-start",),
    "Stop": ("hook stop", "checkpoint --from-claude-hook"),
    "SessionEnd": ("hook session-end", "hook stop", "checkpoint --from-claude-hook"),
}
"""Hook events memrepo needs, and the memrepo subcommands that serve each."""
OPTIONAL_HOOKS = {"UserPromptSubmit": ("hook prompt",)}


def memrepo_argv() -> list[str]:
    """The absolute command that runs this memrepo: its console script when found, else ``python -m``."""
    for candidate in (Path(sys.argv[0]), Path(sys.executable).with_name("memrepo")):
        if candidate.name == "memrepo" and candidate.is_file():
            return [str(candidate.resolve())]
    found = shutil.which("memrepo")
    if found:
        return [str(Path(found).resolve())]
    return [str(Path(sys.executable).absolute()), "-m", "memrepo.cli.main"]


def server_argv(repo: str) -> list[str]:
    """The MCP server's command line."""
    return [*memrepo_argv(), "--repo", repo, "mcp"]


def mcp_entry(repo: str) -> dict:
    """The MCP server entry for ``.mcp.json`` / ``~/.claude.json`` ``mcpServers``."""
    argv = server_argv(repo)
    return {"type": "stdio", "command": argv[0], "args": argv[1:], "env": {}}


def claude_mcp_add(repo: str, scope: str | None = None) -> str:
    """The ``claude mcp add`` command line for the server (default scope: this project, in ``~/.claude.json``)."""
    flags = ["--scope", scope] if scope else []
    return shlex.join(["claude", "mcp", "add", *flags, "memrepo", "--", *server_argv(repo)])


def hook_command(repo: str, sub: str) -> str:
    return shlex.join([*memrepo_argv(), "--repo", repo, "hook", sub])


def hooks_entry(repo: str) -> dict:
    """The ``hooks`` object for Claude Code's ``settings.json``."""

    def one(event: str, sub: str, background: bool = False) -> list[dict]:
        hook: dict = {"type": "command", "command": hook_command(repo, sub), "timeout": HOOK_TIMEOUT_S[event]}
        if background:
            hook["async"] = True
        return [{"hooks": [hook]}]

    return {
        "SessionStart": one("SessionStart", "session-start"),
        "UserPromptSubmit": one("UserPromptSubmit", "prompt"),
        "Stop": one("Stop", "stop", background=True),
        "SessionEnd": one("SessionEnd", "session-end", background=True),
    }


# -- --check -------------------------------------------------------------------


@dataclass
class Found:
    """What ``--check`` found across Claude Code's files."""

    read: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    servers: list[tuple[str, dict]] = field(default_factory=list)
    hooks: dict[str, list[tuple[str, dict]]] = field(default_factory=dict)
    servers_in_settings: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    """Lines naming where a file's ``hooks`` breaks Claude Code's published schema (file: path: why)."""


def _load(path: Path, found: Found) -> dict | None:
    from memrepo.engine.errors import MemrepoError
    from memrepo.engine.files.regularfile import FileMissingError, read_regular

    try:
        data = json.loads(read_regular(path, CHECK_MAX_BYTES).decode("utf-8"))
    except FileMissingError:
        return None
    except MemrepoError as exc:
        found.problems.append(str(exc))
        return None
    except (UnicodeDecodeError, ValueError) as exc:
        found.problems.append(f"cannot read {path} as JSON: {' '.join(str(exc).split())}")
        return None
    found.read.append(str(path))
    if not isinstance(data, dict):
        found.problems.append(f"{path} is not a JSON object")
        return None
    return data


def _servers(where: str, servers: object, found: Found) -> None:
    if isinstance(servers, dict):
        found.servers += [(f"{where} mcpServers.{name}", e) for name, e in servers.items() if isinstance(e, dict)]


def _hooks(where: str, data: dict, found: Found) -> None:
    if "hooks" not in data:
        return
    from .claudehooks import hook_problems

    hooks = data["hooks"]
    found.invalid += [f"{where}: {line}" for line in hook_problems(hooks)]
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else []:
            for hook in (group.get("hooks") or []) if isinstance(group, dict) else []:
                if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                    found.hooks.setdefault(event, []).append((where, hook))


def gather(home: Path, project: Path) -> Found:
    """Read every file Claude Code keeps hooks and MCP servers in, for ``project``."""
    found = Found()
    settings = [
        home / ".claude" / "settings.json",
        project / ".claude" / "settings.json",  # the same file when Claude Code runs in the home folder
        project / ".claude" / "settings.local.json",
        *MANAGED_SETTINGS,
    ]
    for path in dict.fromkeys(settings):  # each file read once
        data = _load(path, found)
        if data is None:
            continue
        _hooks(str(path), data, found)
        if data.get("mcpServers"):
            found.servers_in_settings.append(str(path))
    mcp_json = project / ".mcp.json"
    data = _load(mcp_json, found)
    if data is not None:
        _servers(str(mcp_json), data.get("mcpServers"), found)
    claude_json = home / ".claude.json"
    data = _load(claude_json, found)
    if data is not None:
        _servers(str(claude_json), data.get("mcpServers"), found)
        projects = data.get("projects")
        if isinstance(projects, dict):
            for key in (str(project), str(project.resolve())):
                entry = projects.get(key)
                if isinstance(entry, dict):
                    _servers(f"{claude_json} projects[{key}]", entry.get("mcpServers"), found)
                    break
    return found


def _argv(entry: dict) -> list[str]:
    command = entry.get("command")
    args = entry.get("args") or []
    if not isinstance(command, str) or not isinstance(args, list):
        return []
    if not args and " " in command.strip():  # a whole command line in "command"
        return shlex.split(command)
    return [command, *(str(a) for a in args)]


def _repo_of(argv: list[str]) -> str | None:
    for i, word in enumerate(argv):
        if word == "--repo" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--repo="):
            return word.split("=", 1)[1]
    return None


def _runs_memrepo(argv: list[str]) -> bool:
    return any(Path(w).name == "memrepo" or w == "memrepo.cli.main" for w in argv)


def _same_repo(value: str | None, repo: str) -> bool:
    if value is None:
        return False
    try:
        return Path(value).expanduser().resolve() == Path(repo)
    except OSError:
        return False


def repo_missing(repo: str) -> str | None:
    """Why ``repo`` is no memory repo the hooks and the MCP server can open (``memrepo init`` names the fix),
    or None when it is one. Every hook would only say so on stderr, which the agent does not show (B7-24)."""
    from memrepo.engine.errors import MemrepoError
    from memrepo.engine.read.coldrecall import open_repo

    try:
        open_repo(repo)
    except MemrepoError as exc:
        return f"memory repo: {exc}"
    return None


def check(found: Found, repo: str) -> tuple[list[str], list[str]]:
    """(what is configured, what is missing) for ``repo``, each line naming the file."""
    ok: list[str] = []
    missing: list[str] = []
    if (no_repo := repo_missing(repo)) is not None:
        missing.append(no_repo)
    servers = [(where, _argv(e)) for where, e in found.servers]
    ours = [(where, argv) for where, argv in servers if _runs_memrepo(argv) and argv[-1:] == ["mcp"]]
    right = [where for where, argv in ours if _same_repo(_repo_of(argv), repo)]
    if right:
        ok.append(f"MCP server: {right[0]}")
    elif ours:
        where, argv = ours[0]
        missing.append(f"MCP server: {where} runs memrepo mcp for {_repo_of(argv) or 'the default repo'}, not {repo}")
    else:
        extra = (
            f" ({', '.join(found.servers_in_settings)} has mcpServers, but Claude Code reads MCP servers only "
            "from .mcp.json and ~/.claude.json)"
            if found.servers_in_settings
            else ""
        )
        missing.append(
            "MCP server: no `memrepo --repo REPO mcp` in the project's .mcp.json, ~/.claude.json mcpServers "
            f"or ~/.claude.json projects[<project>].mcpServers{extra}; run: {claude_mcp_add(repo, 'user')}"
        )
    for event, subs in {**REQUIRED_HOOKS, **OPTIONAL_HOOKS}.items():
        hooks = []
        for where, hook in found.hooks.get(event, []):
            argv = shlex.split(hook["command"]) if hook["command"].strip() else []
            line = " ".join(argv)
            if _runs_memrepo(argv) and any(sub in line for sub in subs):
                hooks.append((where, hook, argv))
        if not hooks:
            if event in OPTIONAL_HOOKS:
                ok.append(f"hooks.{event}: not set (optional: adds recall hits for each prompt)")
            else:
                missing.append(
                    f"hooks.{event}: no `{hook_command(repo, REQUIRED_HOOKS[event][0].split()[-1])}` in any settings.json"
                )
            continue
        where, hook, argv = hooks[0]
        if not _same_repo(_repo_of(argv), repo):
            missing.append(
                f"hooks.{event} in {where}: runs memrepo for {_repo_of(argv) or 'the default repo'}, not {repo}"
            )
        elif event in ("Stop", "SessionEnd") and "checkpoint" in argv and hook.get("async") is not True:
            missing.append(
                f'hooks.{event} in {where}: runs the checkpoint synchronously (every turn waits): add "async": true '
                f"or use `{hook_command(repo, 'stop' if event == 'Stop' else 'session-end')}`"
            )
        else:
            ok.append(f"hooks.{event}: {where}")
    return ok, missing


def next_steps(missing: list[str], bad_files: bool, repo: str) -> list[str]:
    """The closing lines of a failed ``--check``: what to run for what is missing, nothing else.

    Args:
        missing: the ``missing`` lines of :func:`check`.
        bad_files: a file could not be read or breaks Claude Code's settings schema.
        repo: the memory repo.

    Returns:
        list[str]: one line for the files when one is bad, for the MCP server when it is missing, and for
        the hooks when one is (breaker3 F9: a hint to print the hooks when only the server was missing).
    """
    steps = ["fix the files named above, then check again"] if bad_files else []
    if any(line.startswith("memory repo:") for line in missing):
        steps.append(f"make the memory repo: memrepo init {shlex.quote(repo)}")
    if any(line.startswith("MCP server:") for line in missing):
        steps.append(f"add the MCP server: {claude_mcp_add(repo, 'user')}")
    if any(line.startswith("hooks.") for line in missing):
        steps.append(
            "add the hooks: `memrepo setup claude-code --write` (or merge what `memrepo setup claude-code` prints)"
        )
    return steps


# -- the command ---------------------------------------------------------------


@click.group("setup")
def setup() -> None:
    """Connect an agent to memrepo (prints what to add; --write adds memrepo's part to the agent's file)."""


@setup.command("claude-code")
@click.option(
    "--check",
    "check_",
    is_flag=True,
    help="Read every place Claude Code keeps hooks and MCP servers (for the project) and say what is missing.",
)
@click.option(
    "--write",
    is_flag=True,
    help="Add memrepo's hooks to ~/.claude/settings.json (keeps every other setting; the old file kept as .bak).",
)
@click.option(
    "--project",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="The project folder Claude Code runs in (default: this folder).",
)
@click.pass_context
@_errors_as_lines
def setup_claude_code(ctx: click.Context, check_: bool, write: bool, project: str | None) -> None:
    """Print the MCP server command and hooks for Claude Code, --write the hooks, or --check what is configured."""
    repo = str(_repo_path(ctx).expanduser().resolve())  # always named: MEMREPO_REPO or config may differ for Claude
    if write:
        from .agentfiles import AgentFileError, merge_claude_hooks

        settings = Path.home() / ".claude" / "settings.json"
        try:
            said = merge_claude_hooks(settings, hooks_entry(repo))
        except AgentFileError as exc:
            _fail(str(exc))
        click.echo(f"# {settings} (the old file kept as settings.json.bak when there was one)")
        for line in said:
            click.echo(line)
        click.echo(f"then, if not done yet, the MCP server: {claude_mcp_add(repo, 'user')}")
        if (no_repo := repo_missing(repo)) is not None:
            click.echo(f"note: {no_repo}")
        return
    if check_:
        folder = Path(project).expanduser().absolute() if project else Path.cwd()
        found = gather(Path.home(), folder)
        ok, missing = check(found, repo)
        for line in found.problems:
            click.echo(f"memrepo: {line}", err=True)
        click.echo(f"# memory repo: {repo}; project: {folder}")
        click.echo(f"# read: {', '.join(found.read) or 'no Claude Code file'}")
        for line in ok:
            click.echo(f"ok: {line}")
        for line in missing:
            click.echo(f"missing: {line}")
        for line in found.invalid:
            click.echo(f"invalid: {line} (Claude Code's settings schema refuses it)")
        if missing or found.problems or found.invalid:
            for line in next_steps(missing, bool(found.problems or found.invalid), repo):
                click.echo(line)
            sys.exit(1)
        click.echo("memrepo's MCP server and hooks are configured for Claude Code")
        return
    click.echo(f"# memory repo: {repo}")
    click.echo("# 1. The MCP server: run this in your project folder (Claude Code keeps it in ~/.claude.json")
    click.echo("#    under projects[<that folder>]):")
    click.echo(claude_mcp_add(repo))
    click.echo(f"#    for every project instead: {claude_mcp_add(repo, 'user')}")
    click.echo("#    or commit it with the project, in its .mcp.json:")
    click.echo(json.dumps({"mcpServers": {"memrepo": mcp_entry(repo)}}, indent=2))
    click.echo("# 2. The hooks: merge into ~/.claude/settings.json (or the project's .claude/settings.json).")
    click.echo("#    SessionStart adds the context block to every new session; UserPromptSubmit adds a few recall")
    click.echo("#    hits for each prompt (optional); Stop and SessionEnd checkpoint in the background.")
    click.echo(json.dumps({"hooks": hooks_entry(repo)}, indent=2))
    click.echo(
        "# memrepo setup claude-code --write adds these hooks for you; check with: memrepo setup claude-code --check"
    )
