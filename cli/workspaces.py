"""``memrepo workspaces``: list workspace files; ``archive``, ``restore`` and ``purge`` dead ones.

``memrepo workspaces`` lists every workspace file with its project folder
and whether that folder still exists; archived files are listed after the
active ones. ``archive WS`` moves a vanished workspace's file to
``archived/`` (out of context and recall, one commit); ``restore WS`` brings
it back; ``purge WS`` deletes it and compacts, after a confirmation.
"""

from __future__ import annotations

import json

import click

from .main import _errors_as_lines, _fail, _open_store


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per workspace file.")
@click.pass_context
@_errors_as_lines
def workspaces(ctx: click.Context, as_json: bool) -> None:
    """List workspace files, their folders and whether the folder still exists."""
    if ctx.invoked_subcommand is not None:
        return
    from memrepo.tui.plain import clean

    infos = _open_store(ctx, create=False).all_workspaces()
    if as_json:
        for info in infos:
            click.echo(json.dumps(info.model_dump(), ensure_ascii=False))
        return
    if not infos:
        click.echo("no workspace files")
        return
    for info in infos:
        state = {True: "exists", False: "gone", None: "no path"}[info.exists]
        if info.archived:
            state += ", archived"
        click.echo(clean(f"{info.id}  {info.file}  {info.path or '-'}  ({state})"))  # a hand-written key is data


@workspaces.command()
@click.argument("workspace", metavar="WS")
@click.option("--force", is_flag=True, help="Archive even though the workspace's folder still exists.")
@click.pass_context
@_errors_as_lines
def archive(ctx: click.Context, workspace: str, force: bool) -> None:
    """Move a vanished workspace's file to archived/ (WS: id, file, folder path or name)."""
    result = _open_store(ctx, create=False).archive_workspace(workspace, force=force, origin="cli")
    click.echo(
        f"archived to {result.path} ({result.commit[:7] if result.commit else 'no commit'}); "
        "left out of context and recall"
    )


@workspaces.command()
@click.argument("workspace", metavar="WS")
@click.pass_context
@_errors_as_lines
def restore(ctx: click.Context, workspace: str) -> None:
    """Bring an archived workspace's file back to workspaces/."""
    result = _open_store(ctx, create=False).restore_workspace(workspace, origin="cli")
    click.echo(
        f"restored to {result.path} ({result.commit[:7] if result.commit else 'no commit'})"
        + (f"; {result.reason}" if result.reason else "")
    )


@workspaces.command()
@click.argument("workspace", metavar="WS")
@click.option("--yes", "-y", is_flag=True, help="Do not ask.")
@click.option(
    "--replace-remote",
    is_flag=True,
    help="With a sync remote set: compact anyway and then replace the remote's history.",
)
@click.pass_context
@_errors_as_lines
def purge(ctx: click.Context, workspace: str, yes: bool, replace_remote: bool) -> None:
    """Delete a workspace's file (archived first) and compact: its text leaves every byte of history."""
    from memrepo.engine.errors import RefError
    from memrepo.engine.history.compact import remote_refusal
    from memrepo.engine.sync.sync import remote_url

    from .compact import _progress

    store = _open_store(ctx, create=False)
    try:
        info = store.workspace_index.info(workspace, archived=True)
    except RefError:
        info = store.workspace_index.info(workspace, archived=False)
    url = remote_url(store.root)
    if url is not None and not replace_remote:
        _fail(
            remote_refusal(url).replace(
                "memrepo compact --replace-remote", "memrepo workspaces purge WS --replace-remote"
            )
        )
    if not yes and not click.confirm(
        f"Delete {info.file} and compact the history (undo history is lost)?", default=False, err=True
    ):
        _fail("not purged; nothing changed")
    result = store.purge_workspace(info.file, origin="cli", replace_remote=replace_remote, progress=_progress)
    click.echo(f"purged {result.path}; history compacted to {result.commit[:7] if result.commit else '-'}")


def register(main: click.Group) -> None:
    """Add the ``workspaces`` group to the ``memrepo`` command group."""
    main.add_command(workspaces)
