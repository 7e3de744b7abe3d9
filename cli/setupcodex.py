"""``memrepo setup codex``: connect Codex to memrepo (docs/agents.md, "Codex").

Codex reaches memory through the MCP server, which ``codex mcp add`` registers in
``~/.codex/config.toml``; a line in ``AGENTS.md`` tells it to use the tools; Codex's
``SessionStart`` and ``UserPromptSubmit`` hooks in ``~/.codex/hooks.json`` add the context
block and recall (:mod:`memrepo.cli.codexhooks`). This command prints all three; ``--write``
adds the line and the hooks (Codex's own ``codex mcp add`` writes its config); ``--check``
says what is still missing.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path

import click

from .agentfiles import (
    AGENTS_LINE,
    AGENTS_MARK,
    AgentFileError,
    add_agents_line,
    codex_home,
    codex_server,
    codex_server_required,
)
from .codexhooks import CODEX_EVENTS, TRUST_STEP, check_codex_hooks, codex_hooks, trusted_events, write_codex_hooks
from .main import _errors_as_lines, _fail, _repo_path


def codex_mcp_add(server: list[str]) -> str:
    """The ``codex mcp add`` command line for the server."""
    return shlex.join(["codex", "mcp", "add", "memrepo", "--", *server])


def command_missing(argv: list[str]) -> str | None:
    """Why the server's command cannot be started, or None when it can (breaker5 B5-18).

    Codex starts ``argv[0]`` as it is: a path must name an executable file, a bare name must be on ``PATH``.
    A venv moved or removed leaves a config naming a file that is gone, and Codex then runs with no memory
    tools and says nothing.

    Args:
        argv: the command and its arguments from ``[mcp_servers.memrepo]``.

    Returns:
        str | None: one line saying what is wrong, or None.
    """
    command = argv[0] if argv else ""
    if not command.strip():
        return "its command is empty"
    if "/" in command or os.sep in command:
        path = Path(command).expanduser()
        if not path.is_file():
            return f"its command {command} does not exist"
        if not os.access(path, os.X_OK):
            return f"its command {command} is not executable"
        return None
    if shutil.which(command) is None:
        return f"its command {command} is not on PATH"
    return None


REQUIRED_NOTE = (
    "add `required = true` under [mcp_servers.memrepo] in {config}: codex exec then waits for memrepo's tools "
    "before its first model request (without it the first request often has none; codex exec stops if the "
    "server cannot start)"
)
"""Why to mark the server required (breaker5 B5-10: measured with Codex 0.171, 10 of 10 first requests listed the
tools with it, 5 of 10 without)."""


def check_codex(home: Path, repo: str) -> tuple[list[str], list[str]]:
    """(what is configured, what is missing) in Codex's folder ``home`` for ``repo``."""
    from .setup import _repo_of, _runs_memrepo, _same_repo, repo_missing, server_argv

    ok: list[str] = []
    missing: list[str] = []
    if (no_repo := repo_missing(repo)) is not None:  # every hook would only say so on stderr (B7-24)
        missing.append(no_repo)
    config = home / "config.toml"
    argv, why = codex_server(config)
    if argv is None:
        missing.append(f"MCP server: {why}; run: {codex_mcp_add(server_argv(repo))}")
    elif not (_runs_memrepo(argv) and argv[-1:] == ["mcp"]):
        missing.append(f"MCP server: {config} [mcp_servers.memrepo] does not run `memrepo ... mcp`: {shlex.join(argv)}")
    elif not _same_repo(_repo_of(argv), repo):
        missing.append(f"MCP server: {config} runs memrepo mcp for {_repo_of(argv) or 'the default repo'}, not {repo}")
    elif (why := command_missing(argv)) is not None:
        missing.append(
            f"MCP server: {config} [mcp_servers.memrepo]: {why}, so Codex starts without memory tools; "
            f"run: {codex_mcp_add(server_argv(repo))}"
        )
    else:
        ok.append(f"MCP server: {config} [mcp_servers.memrepo]")
        if not codex_server_required(config):
            ok.append("note: " + REQUIRED_NOTE.format(config=config))
    agents = home / "AGENTS.md"
    try:
        text = agents.read_text(encoding="utf-8") if agents.is_file() else ""
    except (OSError, UnicodeDecodeError):
        text = ""
    if AGENTS_MARK in text:
        ok.append(f"AGENTS.md: {agents}")
    else:
        missing.append(f"AGENTS.md: no memory line in {agents}; run: memrepo setup codex --write")
    hooks_ok, hooks_missing = check_codex_hooks(home, repo, command_missing)
    return ok + hooks_ok, missing + hooks_missing


@click.command("codex")
@click.option(
    "--write",
    is_flag=True,
    help="Add the memory line to Codex's AGENTS.md and the hooks to its hooks.json (keeps the rest).",
)
@click.option(
    "--check", "check_", is_flag=True, help="Say what Codex still lacks (its config.toml, AGENTS.md and hooks)."
)
@click.pass_context
@_errors_as_lines
def setup_codex(ctx: click.Context, write: bool, check_: bool) -> None:
    """Print how to connect Codex (its MCP server, the AGENTS.md line, the hooks), --write the line and hooks, or --check."""
    from .setup import server_argv

    repo = str(_repo_path(ctx).expanduser().resolve())
    home = codex_home()
    if check_:
        ok, missing = check_codex(home, repo)
        click.echo(f"# memory repo: {repo}; Codex folder: {home}")
        for line in ok:
            click.echo(line if line.startswith(("note: ", "trust: ")) else f"ok: {line}")
        for line in missing:
            click.echo(f"missing: {line}")
        if missing:
            sys.exit(1)
        click.echo("memrepo's MCP server, the memory line and the hooks are configured for Codex")
        return
    if write:
        try:
            added = add_agents_line(home / "AGENTS.md")
        except AgentFileError as exc:
            _fail(str(exc))
        click.echo(f"{'added the memory line to' if added else 'the memory line is already in'} {home / 'AGENTS.md'}")
        try:
            said = write_codex_hooks(home, repo)
        except AgentFileError as exc:
            _fail(str(exc))
        click.echo(f"{home / 'hooks.json'}: " + "; ".join(said))
        if all(line.endswith(" unchanged") for line in said) and trusted_events(home) >= set(CODEX_EVENTS):
            click.echo("Codex trusts these hooks already: nothing to review")  # breaker30 B30-23
        else:
            click.echo(TRUST_STEP)
        argv, _why = codex_server(home / "config.toml")
        if argv is None:
            click.echo(f"now register the MCP server: {codex_mcp_add(server_argv(repo))}")
        from .setup import repo_missing

        if (no_repo := repo_missing(repo)) is not None:
            click.echo(f"note: {no_repo}")
        return
    click.echo(f"# memory repo: {repo}")
    click.echo("# 1. The MCP server (Codex keeps it in ~/.codex/config.toml):")
    click.echo(codex_mcp_add(server_argv(repo)))
    click.echo("# then " + REQUIRED_NOTE.format(config="~/.codex/config.toml"))
    click.echo("# 2. The line that tells Codex to use it, in ~/.codex/AGENTS.md (memrepo setup codex --write adds it):")
    click.echo(AGENTS_LINE, nl=False)
    click.echo("# 3. The hooks (context block, recall per prompt, checkpoints), in ~/.codex/hooks.json")
    click.echo("#    (memrepo setup codex --write merges them in, keeping your other hooks):")
    click.echo(json.dumps({"hooks": codex_hooks(repo)}, indent=2))
    click.echo("# " + TRUST_STEP)
    click.echo("# check all three with: memrepo setup codex --check")
