"""CLI commands for forgetting for real and health: ``compact``, ``clear``, ``health`` (docs/architecture.md §5, §9).

``memrepo compact [--yes]`` says what will be lost and asks first; ``memrepo
clear workspace PATH|global|task ID`` clears in one commit and offers to
compact (``--compact`` compacts without asking); the older ``memrepo clear
--workspace/--global/--task`` options still work. ``memrepo health [--json]``
prints the Health rows and exits 1 when any row is FAIL.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from memrepo.tui.compact_text import loss_summary, size_text

from .main import _errors_as_lines, _fail, _hooks_notice, _open_store, _repo_path, _settings

if TYPE_CHECKING:
    from memrepo.engine.models import CompactProgress, CompactResult, WriteResult
    from memrepo.engine.repo.store import MemoryStore


def _progress(event: CompactProgress) -> None:
    if event.total and event.done:
        if event.done == event.total:
            click.echo(f"  {event.done:,} done", err=True)
        return
    click.echo(f"[{event.step}/{event.steps}] {event.label}", err=True)


def _report(result: CompactResult) -> None:
    click.echo(
        f"compacted: one commit {result.commit[:7]} replaces {result.dropped_commits:,}; "
        f"{len(result.deleted_refs)} ref(s) deleted; .git {size_text(result.git_bytes_before)} -> "
        f"{size_text(result.git_bytes_after)}"
    )
    if result.stale_dreams:
        click.echo(f"{result.stale_dreams} pending dream(s) marked stale")
    if result.dropped_pending or result.removed_state_files:
        click.echo(
            f"dropped {result.dropped_pending} pending write(s) and {result.removed_state_files} state "
            "file(s) quoting forgotten text"
        )


def _compact(store: MemoryStore, yes: bool, replace_remote: bool = False) -> None:
    from memrepo.engine.history.compact import remote_refusal
    from memrepo.engine.sync.sync import remote_url

    url = remote_url(store.root)
    if url is not None and not replace_remote:
        _fail(remote_refusal(url))
    if not yes:
        click.echo(loss_summary(store.compact_preview()))
        if not click.confirm("Compact history now?", default=False, err=True):
            _fail("not compacted; nothing changed")
    result = store.compact(_progress, replace_remote=replace_remote)
    _report(result)
    if result.remote_replaced:
        click.echo(f"the remote's history was replaced (forced update of {url})")
    elif result.remote_error:
        _fail(
            f"compacted here, but the remote's history was not replaced: {result.remote_error}; "
            "run `memrepo compact --replace-remote` again when it can be reached"
        )


@click.command()
@click.option("--yes", "-y", is_flag=True, help="Do not ask; compact right away.")
@click.option(
    "--replace-remote",
    is_flag=True,
    help="With a sync remote set: replace its history too afterwards (a forced update).",
)
@click.pass_context
@_errors_as_lines
def compact(ctx: click.Context, yes: bool, replace_remote: bool) -> None:
    """Replace the history with one commit of the current files, so forgotten text is gone from .git.

    Deletes other branches, tags, dream branches, the stash, reflogs and every
    old object. Undo history is lost. Asks first unless --yes.
    """
    _compact(_open_store(ctx, create=False), yes, replace_remote)


def report_remote(store: MemoryStore) -> None:
    """After a compaction with ``--replace-remote``: say whether the remote's history was replaced.

    Reads the outcome :func:`memrepo.engine.sync.sync.replace_remote_history` recorded;
    exits 1 when the forced update failed (the local compaction stands).
    """
    from memrepo.engine.sync import sync as sync_mod

    state = sync_mod.sync_state(store.root)
    if state.remote is None:
        return
    if state.last_error:
        _fail(
            f"compacted here, but the remote's history was not replaced: {state.last_error}; "
            "run `memrepo compact --replace-remote` again when it can be reached"
        )
    click.echo(f"the remote's history was replaced (forced update of {state.remote})")


def _refuse_first(store: MemoryStore, compact_: bool | None, replace_remote: bool) -> None:
    """With ``--compact`` and a sync remote but no ``--replace-remote``: refuse before clearing anything."""
    from memrepo.engine.history.compact import refuse_remote_before_change

    if compact_:
        refuse_remote_before_change(store, replace_remote, "cleared")


def _after_clear(store: MemoryStore, result: WriteResult, compact_: bool | None, replace_remote: bool = False) -> None:
    """Say what was cleared; then compact (``--compact``), offer to (a terminal), or say how to."""
    from memrepo.engine.sync.sync import remote_url

    click.echo(f"cleared ({result.commit[:7]})" if result.commit else "nothing to clear")
    if compact_ is None and not replace_remote and remote_url(store.root) is not None:
        compact_ = False  # compacting would need the remote's history replaced: not offered without the flag
    if compact_ is None and sys.stdin.isatty():
        click.echo("The cleared text is still in the history.")
        if store.head() is not None:
            click.echo(loss_summary(store.compact_preview()))
        compact_ = click.confirm("Compact history now?", default=False, err=True)
    if compact_:
        _report(store.compact(_progress, replace_remote=replace_remote))
        if replace_remote:
            report_remote(store)
    elif result.commit:
        click.echo("the cleared text stays in the history until `memrepo compact`", err=True)


_COMPACT_OPTION = click.option(
    "--compact/--no-compact",
    "compact_",
    default=None,
    help="Compact the history afterwards (default: ask when run in a terminal).",
)
_REPLACE_OPTION = click.option(
    "--replace-remote",
    is_flag=True,
    help="With --compact and a sync remote set: replace its history too afterwards (a forced update).",
)


@click.group(invoke_without_command=True)
@click.option("--workspace", metavar="PATH|NAME|ID", help="Delete this workspace's file and index link.")
@click.option("--global", "global_", is_flag=True, help="Empty me.md, lessons.md, inbox.md and MEMORY.md entries.")
@click.option("--task", metavar="ID", help="Remove the agent entries this task wrote.")
@_COMPACT_OPTION
@_REPLACE_OPTION
@click.pass_context
@_errors_as_lines
def clear(
    ctx: click.Context,
    workspace: str | None,
    global_: bool,
    task: str | None,
    compact_: bool | None,
    replace_remote: bool,
) -> None:
    """Clear memories in one commit: `clear workspace PATH`, `clear global` or `clear task ID`.

    Offers to compact afterwards, so the cleared text leaves the history too.
    """
    if ctx.invoked_subcommand is not None:
        if workspace or global_ or task:
            _fail("give either a clear command or --workspace/--global/--task, not both", 2)
        ctx.obj["clear_compact"] = compact_
        ctx.obj["clear_replace_remote"] = replace_remote
        return
    if sum(map(bool, (workspace, global_, task))) != 1:
        _fail("clear needs exactly one of: workspace PATH, global, task ID", 2)
    store = _open_store(ctx, create=False)
    _refuse_first(store, compact_, replace_remote)
    if workspace:
        result = store.clear_workspace(workspace, origin="cli")
    elif global_:
        result = store.clear_global(origin="cli")
    else:
        result = store.purge_task(task or "", origin="cli")
    _after_clear(store, result, compact_, replace_remote)


def _pick(ctx: click.Context, compact_: bool | None) -> bool | None:
    return compact_ if compact_ is not None else ctx.obj.get("clear_compact")


def _pick_replace(ctx: click.Context, replace_remote: bool) -> bool:
    return replace_remote or bool(ctx.obj.get("clear_replace_remote"))


@clear.command("workspace")
@click.argument("workspace", metavar="PATH|NAME|ID")
@_COMPACT_OPTION
@_REPLACE_OPTION
@click.pass_context
@_errors_as_lines
def clear_workspace(ctx: click.Context, workspace: str, compact_: bool | None, replace_remote: bool) -> None:
    """Delete a workspace's file and its index link."""
    store = _open_store(ctx, create=False)
    compact_, replace_remote = _pick(ctx, compact_), _pick_replace(ctx, replace_remote)
    _refuse_first(store, compact_, replace_remote)
    _after_clear(store, store.clear_workspace(workspace, origin="cli"), compact_, replace_remote)


@clear.command("global")
@_COMPACT_OPTION
@_REPLACE_OPTION
@click.pass_context
@_errors_as_lines
def clear_global(ctx: click.Context, compact_: bool | None, replace_remote: bool) -> None:
    """Empty me.md, lessons.md, inbox.md and the entries of MEMORY.md."""
    store = _open_store(ctx, create=False)
    compact_, replace_remote = _pick(ctx, compact_), _pick_replace(ctx, replace_remote)
    _refuse_first(store, compact_, replace_remote)
    _after_clear(store, store.clear_global(origin="cli"), compact_, replace_remote)


@clear.command("task")
@click.argument("task", metavar="ID")
@_COMPACT_OPTION
@_REPLACE_OPTION
@click.pass_context
@_errors_as_lines
def clear_task(ctx: click.Context, task: str, compact_: bool | None, replace_remote: bool) -> None:
    """Remove the agent entries task ID wrote."""
    store = _open_store(ctx, create=False)
    compact_, replace_remote = _pick(ctx, compact_), _pick_replace(ctx, replace_remote)
    _refuse_first(store, compact_, replace_remote)
    _after_clear(store, store.purge_task(task, origin="cli"), compact_, replace_remote)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the rows as a JSON list.")
@click.pass_context
@_errors_as_lines
def health(ctx: click.Context, as_json: bool) -> None:
    """Check the memory repo: OK / WARN / FAIL rows, each with a reason. Exit 1 on any FAIL."""
    from memrepo.engine.repo.health import check_path, has_failure
    from memrepo.tui.plain import clean

    rows = check_path(_repo_path(ctx), settings=_settings(ctx))
    if as_json:
        click.echo(json.dumps([r.model_dump(mode="json") for r in rows], indent=2))
    else:
        width = max(len(r.name) for r in rows)
        for r in rows:
            fix = f"  (fix: press {r.fix_key} in the app)" if r.fix_key and r.status.value != "OK" else ""
            click.echo(clean(f"{r.status.value:<4}  {r.name:<{width}}  {r.reason}{fix}"))  # a file name is data
    if has_failure(rows):
        sys.exit(1)


@click.command()
@click.argument("ref")
@click.option("--expect", metavar="TEXT", help="The entry text you mean; refused if the line now holds another entry.")
@click.option(
    "--compact",
    "compact_",
    is_flag=True,
    help="Then compact the history, so the text is gone from .git too (drops undo history).",
)
@click.option(
    "--replace-remote",
    is_flag=True,
    help="With --compact and a sync remote set: replace its history too afterwards (a forced update).",
)
@click.pass_context
@_errors_as_lines
def forget(ctx: click.Context, ref: str, expect: str | None, compact_: bool, replace_remote: bool) -> None:
    """Remove the entry REF (repo:<path>#L<n>; repo: may be left out) in its own commit.

    Refs are line positions: forgetting or editing a line above shifts the
    ones below. Pass --expect to make sure the line still holds your entry.
    """
    store = _open_store(ctx, create=False)
    result = store.forget(ref, origin="cli", expect=expect, compact=compact_, replace_remote=replace_remote)
    done = " and compacted the history" if compact_ else ""
    click.echo(f"forgot {result.ref} ({(result.commit or '')[:7]}){done}")
    if not compact_ and result.commit:  # as clear says (B20-15): a forget is a commit, the text is in its parent
        click.echo(
            "the forgotten text stays in git history (and a sync remote) until `memrepo compact`; "
            "`memrepo forget --compact REF` forgets and compacts in one step",
            err=True,
        )
    _hooks_notice(store)
    if compact_ and replace_remote:
        report_remote(_open_store(ctx, create=False))


def register(main: click.Group) -> None:
    """Add ``compact``, ``clear`` (replacing the options-only one), ``forget`` and ``health`` to the CLI."""
    main.add_command(compact)
    main.add_command(forget)
    main.add_command(clear)
    main.add_command(health)
