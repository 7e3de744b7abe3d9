"""``memrepo import SOURCE``: bring existing memories in once.

Formats: open-cowork core and experience memory, DSH workspace memory,
Claude Code memory files, another Agent Memory Repo, generic JSON Lines;
detected from the source, or named with ``--format``. Each fact is its own
commit (``Origin: import``) through the governed writer; a second run adds
nothing. Items that cannot be read are listed and the rest still imports
(exit 1 when any could not be read). Progress goes to stderr.
"""

from __future__ import annotations

import click

from .main import _errors_as_lines, _fail, _open_store

FORMAT_NAMES = ("open-cowork-core", "open-cowork-experience", "dsh", "claude", "memrepo", "jsonl")


@click.command("import")
@click.argument("source", type=click.Path(exists=True, path_type=str))
@click.option(
    "--format", "format_name", type=click.Choice(FORMAT_NAMES), help="The source's format (default: detected)."
)
@click.option(
    "--workspace",
    metavar="PATH|NAME|ID",
    help="Put facts whose source names no workspace in this workspace (default: global).",
)
@click.option("--dry-run", is_flag=True, help="Print what would be written; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
@_errors_as_lines
def import_(
    ctx: click.Context, source: str, format_name: str | None, workspace: str | None, dry_run: bool, as_json: bool
) -> None:
    """Import memories from SOURCE (a file or folder), each fact its own commit; running it again adds nothing."""
    from memrepo.engine.importers import import_source

    store = _open_store(ctx, create=True)
    shown = {"last": 0}

    def progress(done: int, total: int) -> None:
        if total >= 20 and (done - shown["last"] >= 25 or done == total):
            shown["last"] = done
            click.echo(f"{'checked' if dry_run else 'imported'} {done}/{total}", err=True)

    report = import_source(store, source, format_name, workspace, dry_run, progress)
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        for item in report.items:
            if dry_run or item.action not in ("added", "already imported"):
                where = f" -> {item.path}" if item.path else ""
                detail = f": {item.text}" if item.text else (f" ({item.reason})" if item.reason else "")
                click.echo(f"{item.action}{where}  [{item.where}]{detail}")
        counts = ", ".join(f"{n} {action}" for action, n in sorted(report.counts.items())) or "nothing"
        head = "dry run, nothing written" if dry_run else "imported"
        click.echo(f"{head} from {report.source} ({report.format}): {counts}")
    for problem in report.errors:
        click.echo(f"memrepo: could not read {problem.where}: {problem.message}", err=True)
    if report.errors:
        _fail(f"{len(report.errors)} item(s) could not be read; the rest was {'checked' if dry_run else 'imported'}")


def register(main: click.Group) -> None:
    """Add ``import`` to the ``memrepo`` command group."""
    main.add_command(import_)
