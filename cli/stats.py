"""``memrepo stats``: is memory paying off? (docs/architecture.md §9).

Facts written by origin and per 10 agent sessions, the share of sessions that
read memory, inbox entries promoted or discarded, corrections that repeat a
saved fact, and MEMORY.md and repo size over time; ``--json`` for scripts.
"""

from __future__ import annotations

import click

from .main import _errors_as_lines, _open_store


def _size(n: int) -> str:
    return f"{n / 1024:.1f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MB"


@click.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON.")
@click.pass_context
@_errors_as_lines
def stats(ctx: click.Context, as_json: bool) -> None:
    """Is memory paying off: facts written, sessions that read memory, sizes over time."""
    from memrepo.engine import compute_stats

    store = _open_store(ctx, create=False)
    result = compute_stats(store.root, store.git.git_dir)
    if as_json:
        click.echo(result.model_dump_json(indent=2))
        return
    facts = result.facts
    click.echo(f"commits read          {result.commits}")
    click.echo(
        f"facts written         {facts['user']} by the user, {facts['agent']} by agents, "
        f"{facts['import']} imported, {facts['inbox']} to the inbox"
    )
    if result.facts_per_10_sessions is None:
        click.echo("per 10 sessions       (no agent session counted yet)")
        click.echo("sessions reading      (no agent session counted yet)")
    else:
        per = result.facts_per_10_sessions
        click.echo(
            f"per 10 sessions       {per['user']:g} by the user, {per['agent']:g} by agents, {per['inbox']:g} to the inbox"
        )
        share = round((result.read_share or 0) * 100)
        click.echo(f"sessions reading      {result.sessions_read} of {result.sessions} ({share}%)")
    click.echo(f"inbox                 {result.promoted} promoted, {result.discarded} discarded")
    click.echo(f"repeated corrections  {result.repeated_corrections}")
    for point in result.sizes[-8:]:
        click.echo(
            f"size {point.date}  MEMORY.md {_size(point.memory_md_bytes)}, all files {_size(point.tree_bytes)} ({point.commit})"
        )


def register(main: click.Group) -> None:
    """Add ``stats`` to the ``memrepo`` command group."""
    main.add_command(stats)
