"""The ``memrepo`` command line (click).

``memrepo`` alone opens the terminal app on the configured repo (created when
missing). Subcommands write through the same governed writer as the app and
agents. The repo comes from ``--repo``, then ``MEMREPO_REPO``, then the config
file, then ``~/agent-memory`` (docs/architecture.md §2, §11).

Errors are one line on stderr and a non-zero exit, never a traceback:
exit 1 for a refused or failed operation, 2 for bad usage.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":  # pragma: no cover - `python -m memrepo.cli.main`: the console script's quick paths first
    import runpy

    # Run the console script's module as the program. Importing it here would make this module and
    # cli/quick.py import each other (quick falls back to click's `run` below); runpy is already loaded
    # by `python -m`. Click's path then imports this file again as memrepo.cli.main, every command registered.
    runpy.run_module("memrepo.cli.quick", run_name="__main__")
    sys.exit(0)

import json
import os
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

# memrepo's models use no pydantic plugin: skip looking for them among every installed package's entry points
# on the first model built (a cold start's share; a user's own setting wins).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

if TYPE_CHECKING:
    from memrepo.engine.config import Settings
    from memrepo.engine.repo.store import MemoryStore

F = TypeVar("F", bound=Callable[..., Any])


def _fail(message: str, code: int = 1) -> NoReturn:
    from memrepo.engine.redaction import redact_text

    click.echo(f"memrepo: {redact_text(message)}", err=True)  # an error may quote memory text
    sys.exit(code)


def _errors_as_lines(fn: F) -> F:
    """Turn engine errors (and any surprise) into one line and a non-zero exit."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from memrepo.cli.quickbase import error_line

        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:  # the reader of our output left: run() ends quietly
            raise
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        except (SystemExit, click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:  # engine errors, OS errors, and a bug: still one line
            ctx = click.get_current_context(silent=True)
            _fail(error_line(exc, ids=bool(ctx is not None and ctx.params.get("as_json"))))

    return wrapper  # type: ignore[return-value]


def _settings(ctx: click.Context) -> Settings:
    """The config file's settings, read once per process (docs/architecture.md §11) and kept on the context.

    Raises:
        ConfigError: the config file is invalid (one line, via :func:`_errors_as_lines`).
    """
    from memrepo.engine.config import load_settings

    obj = ctx.ensure_object(dict)
    if obj.get("settings") is None:
        obj["settings"] = load_settings()
    settings: Settings = obj["settings"]
    return settings


def _repo_path(ctx: click.Context) -> Path:
    from memrepo.engine.config import resolve_repo_path

    if ctx.obj.get("repo") == "":
        _fail("--repo is empty: give the memory repo's folder", 2)
    path, source = resolve_repo_path(ctx.obj.get("repo"), _settings(ctx))
    from .quickbase import say_repo

    say_repo(path, source)  # inside another memory repo: which one this command works on (B6-9)
    return path


def workspace_option(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """Refuse ``--workspace ""``: an unset shell variable must not send project memory to the global files."""
    if value is not None and not value.strip():
        raise click.BadParameter("is empty: give the project folder (e.g. .), a ws- id or a workspace name")
    return value


def _open_store(ctx: click.Context, create: bool = True) -> MemoryStore:
    from memrepo.engine.repo.store import MemoryStore

    return MemoryStore.open(_repo_path(ctx), _settings(ctx), create=create, origin="cli")


LAZY_COMMANDS = {
    "context": "read",
    "recall": "read",
    "compact": "compact",
    "clear": "compact",
    "forget": "compact",
    "health": "compact",
    "remote": "sync",
    "sync": "sync",
    "watch": "sync",
    "dream": "dream",
    "dreams": "dream",
    "mcp": "agent",
    "checkpoint": "agent",
    "setup": "agent",
    "hook": "agent",
    "forget-session": "agent",
    "eval": "eval",
    "workspaces": "workspaces",
    "import": "importing",
    "stats": "stats",
    "secrets": "allowlist",
    "status": "handedits",
    "inbox": "inbox",
    "commit-hand-edits": "handedits",
}
"""Commands that live in their own modules, by name: a module is imported only when one of its commands runs."""


class _LazyGroup(click.Group):
    """The ``memrepo`` group: a command module is imported when its command is asked for, not at start."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = LAZY_COMMANDS.get(cmd_name)
        if module is not None and cmd_name not in self.commands:
            import importlib

            importlib.import_module(f"memrepo.cli.{module}").register(self)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *LAZY_COMMANDS})

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's, but an unknown name is matched against every command, lazy ones included, and the
        words a new user tries (``doctor``, ``search``): click suggests only among those already loaded."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and not ctx.resilient_parsing and self.get_command(ctx, name) is None:
            from memrepo.cli.suggest import unknown_command

            raise click.UsageError(unknown_command(name, self.list_commands(ctx)), ctx)
        return super().resolve_command(ctx, args)


@click.group(cls=_LazyGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--repo",
    metavar="PATH",
    help="Memory repo folder (default: $MEMREPO_REPO, then config, then ~/agent-memory).",
)
@click.version_option(package_name="memrepo", prog_name="memrepo")
@click.pass_context
@_errors_as_lines
def main(ctx: click.Context, repo: str | None) -> None:
    """Keep an AI agent's long-term memory in a local git repository.

    With no command, opens the terminal app on the memory repo.
    """
    ctx.ensure_object(dict)
    ctx.obj["repo"] = repo
    if ctx.invoked_subcommand is None:
        from memrepo.engine.repo.store import MemoryStore

        settings = _settings(ctx)
        store = MemoryStore.open(_repo_path(ctx), settings, create=True, origin="tui")
        from memrepo.tui.app import run_app

        run_app(store.root, settings)


@main.command()
@click.argument("path", required=False)
@click.pass_context
@_errors_as_lines
def init(ctx: click.Context, path: str | None) -> None:
    """Create a memory repo at PATH (or the configured repo), or adopt an existing memory repo (one with MEMORY.md)."""
    from memrepo.engine.repo.store import MemoryStore

    if path == "":
        _fail("PATH is empty: give the folder for the memory repo", 2)
    target = Path(path) if path else _repo_path(ctx)
    store = MemoryStore.open(target, _settings(ctx), create=True, origin="cli")
    head = store.head()
    click.echo(f"memory repo ready at {store.root} (HEAD {head[:7] if head else 'unborn'})")


@main.command()
@click.argument("text")
@click.option(
    "--kind",
    default="fact",
    show_default=True,
    help="fact, identity, preference, correction, insight, rule, lesson, ...",
)
@click.option(
    "--scope",
    type=click.Choice(["global", "workspace"]),
    default=None,
    help="global (default) or workspace (implied by --workspace; alone: the current folder's workspace).",
)
@click.option(
    "--workspace", metavar="PATH|NAME", callback=workspace_option, help="The workspace this memory belongs to."
)
@click.option("--subject", help="Short topic; replaces an entry with the same subject in the file.")
@click.option(
    "--supersedes",
    metavar="SUBJECT|TEXT|REF",
    help="An older entry of the same file this one makes out of date (its subject, a piece of its text, or its ref "
    "me.md#L5): left out of the context block.",
)
@click.option(
    "--by",
    "by",
    type=click.Choice(["user", "agent"]),
    default="user",
    show_default=True,
    help="Who states it; agents pass --by agent.",
)
@click.option("--pin", is_flag=True, help="Keep in MEMORY.md, in every prompt (user entries only).")
@click.option("--source", help="Where it came from (URL, session id).")
@click.option("--task", help="The id of the task writing it.")
@click.option(
    "--untrusted", is_flag=True, help="The task read untrusted content (web, email, tool output): goes to inbox.md."
)
@click.option(
    "--origin-text", metavar="TEXT", help="The user's message the fact came from; <no-memory> in it refuses the write."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
@_errors_as_lines
def remember(
    ctx: click.Context,
    text: str,
    kind: str,
    scope: str | None,
    workspace: str | None,
    subject: str | None,
    supersedes: str | None,
    by: str,
    pin: bool,
    source: str | None,
    task: str | None,
    untrusted: bool,
    origin_text: str | None,
    as_json: bool,
) -> None:
    """Save TEXT as one memory entry, committed to the memory repo."""
    from memrepo.cli.remembering import remember as remember_body

    args: dict[str, object] = {
        "text": text,
        "kind": kind,
        "scope": scope,
        "workspace": workspace,
        "subject": subject,
        "supersedes": supersedes,
        "by": by,
        "pin": pin,
        "source": source,
        "task": task,
        "untrusted": untrusted,
        "origin_text": origin_text,
        "as_json": as_json,
    }
    reply = remember_body(lambda: _open_store(ctx), args)
    if reply.out:
        click.echo(reply.out, nl=False)
    if reply.err:
        click.echo(reply.err, nl=False, err=True)
    if reply.code:
        sys.exit(reply.code)


def _hooks_notice(store: MemoryStore) -> None:
    """Say once, on stderr, that the repo's git hooks are skipped (the engine records it was said)."""
    notice = store.hooks_notice()
    if notice is not None:
        click.echo(notice, err=True)


@main.command()
@click.argument("commit")
@click.pass_context
@_errors_as_lines
def undo(ctx: click.Context, commit: str) -> None:
    """Revert COMMIT (an id from memrepo log) in a new commit."""
    result = _open_store(ctx, create=False).undo(commit, origin="cli")
    click.echo(f"undid {commit} ({(result.commit or '')[:7]})")


@main.command()
@click.option("-n", "--limit", default=20, show_default=True, type=click.IntRange(min=1), help="How many commits.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.pass_context
@_errors_as_lines
def log(ctx: click.Context, limit: int, as_json: bool) -> None:
    """Show commits newest first with their Origin."""
    from memrepo.tui.plain import clean

    for c in _open_store(ctx, create=False).log(limit):
        if as_json:
            click.echo(json.dumps(c.model_dump(mode="json")))
        else:
            when = c.time.strftime("%Y-%m-%d %H:%M")
            click.echo(clean(f"{c.short_id}  {when}  {c.origin or '-':<12}  {c.summary}"))  # a synced commit's words


@main.command()
@click.argument("path")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per entry.")
@click.pass_context
@_errors_as_lines
def show(ctx: click.Context, path: str, as_json: bool) -> None:
    """List the entries of PATH (e.g. me.md) with their refs, for forget."""
    view = _open_store(ctx, create=False).read_file(path)
    if view.error:
        _fail(f"{view.path}: {view.error}")
    from memrepo.engine.format.cleantext import clean_in
    from memrepo.engine.redaction import redact_obj, redact_text
    from memrepo.tui.plain import clean

    for entry in view.entries:
        # On the way out, like recall: hand-written secrets and invisible characters in text and metadata
        # (docs/architecture.md §3).
        meta = {k: clean_in(v) for k, v in entry.meta.items()}
        entry = entry.model_copy(update={"text": redact_text(clean_in(entry.text)), "meta": redact_obj(meta)})
        if as_json:
            click.echo(entry.model_dump_json())
        else:
            # Control characters (a hand edit's escape sequence) are shown as symbols, never sent (as recall).
            click.echo(clean(f"{entry.ref}  {entry.by:<5}  {entry.text}"))


def run() -> None:
    """The ``memrepo`` console script: :func:`main` with usage errors on one line.

    click prints a usage error as a usage block plus the error; memrepo
    prints one line (``memrepo: ...; see memrepo --help``) and exits 2.
    """
    try:
        main.main(standalone_mode=False)
    except click.exceptions.UsageError as exc:
        names = []
        ctx = exc.ctx
        while ctx is not None and ctx.parent is not None:  # the full path of a nested command
            names.append(ctx.info_name or "")
            ctx = ctx.parent
        hint = " ".join(["memrepo", *reversed(names), "--help"])
        message = exc.format_message().rstrip(".")
        _fail(f"{message} See {hint}" if message.endswith("?") else f"{message}; see {hint}", exc.exit_code)
    except click.exceptions.ClickException as exc:
        _fail(exc.format_message(), exc.exit_code)
    except click.exceptions.Abort:
        _fail("aborted", 1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except BrokenPipeError:  # `memrepo recall x | head`: the reader left, which is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)


def register_all_commands() -> None:
    """Add every command of :data:`LAZY_COMMANDS` now (for tools that walk the whole command tree)."""
    for name in LAZY_COMMANDS:
        main.get_command(click.Context(main), name)
