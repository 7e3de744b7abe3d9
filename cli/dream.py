"""``memrepo dream`` and ``memrepo dreams`` (docs/architecture.md §6): run a dream, then accept, reject or undo it.

``memrepo dream`` runs one now (the gate's budget and lock still apply);
``memrepo dream --if-due`` runs only when the last dream is older than the
interval and something is new, so cron or a systemd timer can call it often
(exit 0 when not due). ``memrepo dreams`` lists runs; ``show``, ``diff``,
``accept``, ``reject`` and ``undo`` act on one.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from memrepo.tui.plain import clean

from .main import _errors_as_lines, _fail, _open_store

if TYPE_CHECKING:
    from memrepo.engine import Dreamer, DreamRecord

STATUS_WORDS = {"pending_review": "pending review"}


def _dreamer(ctx: click.Context) -> Dreamer:
    from memrepo.engine.dreams.dreamer import Dreamer

    return Dreamer(_open_store(ctx, create=False))  # the store's settings: [dream], [transcripts]


def _summary(record: DreamRecord) -> str:
    c = record.counts
    parts = [f"{c.get('auto', 0)} applied", f"{c.get('review', 0)} for review", f"{c.get('rejected', 0)} rejected"]
    return ", ".join(parts)


def _line(record: DreamRecord, killed: bool = False) -> str:
    status = "killed" if killed else STATUS_WORDS.get(record.status, record.status)
    when = (record.started or "")[:16].replace("T", " ")
    return clean(f"{record.id}  {when}  {status:<14}  {record.provider:<9}  {_summary(record)}")


@click.command()
@click.option(
    "--provider",
    type=click.Choice(["rules", "openai", "anthropic", "command"]),
    help="Override [dream] provider for this run.",
)
@click.option(
    "--if-due",
    "if_due",
    is_flag=True,
    help="Only when the last dream is older than the interval and something is new (for timers).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the run record as JSON.")
@click.pass_context
@_errors_as_lines
def dream(ctx: click.Context, provider: str | None, if_due: bool, as_json: bool) -> None:
    """Run a dream: clean up the memory folder, auto-apply safe changes, branch the rest for review.

    While it runs, what it does is said on stderr every few seconds (a step and its count), so a long rules dream
    on a large folder is not taken for a hung one; stdout holds the result only.
    """
    from memrepo.engine.dreams.gate import DreamSkipped

    dreamer = _dreamer(ctx)
    dreamer.on_progress = lambda line: click.echo(clean(f"dreaming: {line}"), err=True)
    try:
        record = dreamer.run("due" if if_due else "manual", provider, if_due)
    except DreamSkipped as exc:
        if if_due:
            click.echo(str(exc))
            return
        raise
    if as_json:
        click.echo(record.model_dump_json(indent=2))
    else:
        click.echo(_line(record))
        if record.rejected_reasons:
            why = ", ".join(f"{k} {v}" for k, v in sorted(record.rejected_reasons.items()))
            click.echo(clean(f"  rejected: {why}"))
        if record.auto_commit:
            click.echo(clean(f"  auto commit {record.auto_commit[:7]} (memrepo dreams undo {record.id})"))
        if record.branch:
            click.echo(clean(f"  review branch {record.branch} (memrepo dreams diff|accept|reject {record.id})"))
        if record.left_out_count:
            click.echo(
                clean(
                    f"  examined {len(record.examined)} files, left out {record.left_out_count} "
                    f"(the next dream starts at {record.next_file or 'the first'}; memrepo dreams show {record.id})"
                )
            )
        if record.folder_files and record.covered < record.folder_files:
            click.echo(f"  {covered_line(record)}")
    if record.status == "failed":
        _fail(clean(f"dream {record.id} failed: {record.reason}"))


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON record per line.")
@click.pass_context
@_errors_as_lines
def dreams(ctx: click.Context, as_json: bool) -> None:
    """List dream runs newest first; subcommands show, diff, accept, reject or undo one."""
    if ctx.invoked_subcommand is not None:
        return
    dreamer = _dreamer(ctx)
    records = dreamer.list()
    if not records and not as_json:
        click.echo("no dreams yet (memrepo dream runs one)")
    gone = dreamer.killed() if not as_json else set()  # Health's check: the dream lock is free
    killed = [r.id for r in records if r.id in gone]
    for record in records:
        click.echo(json.dumps(record.model_dump(mode="json")) if as_json else _line(record, record.id in killed))
    for dream_id in killed:  # breaker11 B11-10: not "running" for good
        click.echo(
            clean(f"dream {dream_id} was killed (its process is gone): `memrepo dreams reject {dream_id}` cleans up")
        )


def _where(ref: str) -> str:
    """``repo:lessons.md#L7`` as ``lessons.md:7`` (the line as the dream read it)."""
    path, _, line = ref.removeprefix("repo:").partition("#L")
    return f"{path}:{line}" if line else path


NAMES_SHOWN = 12
"""File names ``dreams show`` prints of the examined list, then "and N more" (``--json`` has all; the app's Dreams
pane shows as many): 1,999 names of a 2,000-file repo were 71 KB on one line (breaker29 B29-17)."""


def _names(paths: list[str], total: int) -> str:
    """The first :data:`NAMES_SHOWN` of ``paths``, then "and N more" up to ``total``."""
    more = total - min(len(paths), NAMES_SHOWN)
    return ", ".join(paths[:NAMES_SHOWN]) + (f" and {more} more" if more > 0 else "")


def _coverage(record: DreamRecord) -> list[str]:
    """Which files the dream examined and which it left out (docs/architecture.md §6, coverage)."""
    if not record.examined and not record.left_out_count:
        return []
    out = [f"examined: {len(record.examined)} files: {_names(record.examined, len(record.examined))}"]
    if record.left_out_count:
        more = record.left_out_count - len(record.left_out)  # the record keeps the first 500: all shown
        names = ", ".join(record.left_out) + (f" and {more} more" if more > 0 else "")
        start = f" (the next dream starts at {record.next_file})" if record.next_file else ""
        out.append(f"left out: {record.left_out_count} files: {names}{start}")
        if record.too_large:
            out.append(f"too large for one dream: {', '.join(record.too_large)}")
    else:
        out.append("left out: none")
    if record.folder_files:
        out.append(covered_line(record))
    return out


def covered_line(record: DreamRecord) -> str:
    """``covered 5,640 of 20,000 files (examined since they last changed; files changed since are read first)``."""
    return (
        f"covered {record.covered:,} of {record.folder_files:,} files "
        "(examined since they last changed; files changed since are read first)"
    )


def _gone_note(record: DreamRecord, key: str) -> str:
    """Why a branch or commit the record names is not in the repo any more."""
    compacted = " by a compaction" if record.scrubbed else ""
    if key == "branch":
        if record.status in ("accepted", "rejected") and not record.scrubbed:
            return f" (deleted: {record.status})"
        return f" (gone: deleted{compacted})"
    return f" (gone from the history{compacted})"


@dreams.command("show")
@click.argument("dream_id")
@click.option("--json", "as_json", is_flag=True, help="The whole record as JSON.")
@click.pass_context
@_errors_as_lines
def dreams_show(ctx: click.Context, dream_id: str, as_json: bool) -> None:
    """Show one dream: status, commits and every operation with its reason and classification."""
    dreamer = _dreamer(ctx)
    record = dreamer.show(dream_id)
    if as_json:
        click.echo(record.model_dump_json(indent=2))
        return
    gone = dreamer.gone(record)
    click.echo(_line(record))
    if record.reason:
        click.echo(clean(f"reason: {record.reason}"))
    if record.scrubbed:
        click.echo("texts: blanked by a compaction")
    click.echo(f"tokens: {record.tokens.input} in, {record.tokens.output} out")
    for key in ("auto_commit", "branch", "base", "merge_commit", "undo_commit"):
        value = getattr(record, key)
        if value:
            click.echo(clean(f"{key.replace('_', ' ')}: {value}{_gone_note(record, key) if key in gone else ''}"))
    for line in _coverage(record):
        click.echo(clean(line))
    for op in record.operations:
        target = f" -> {op.path}" if op.path else ""
        lines = ",".join(_where(ref) for ref in op.refs)
        why = f" [{op.rejection}]" if op.rejection else ""
        click.echo(clean(f"  {op.classification:<8} {op.op} {lines}{target}{why}: {op.reason}"))
        if op.op == "delete" and op.kept_ref:
            click.echo(clean(f"           deletes: {op.before}"))
            click.echo(clean(f"           keeps {_where(op.kept_ref)}: {op.kept_text}"))
        elif op.text:
            click.echo(clean(f"           text: {op.text}"))


@dreams.command("diff")
@click.argument("dream_id")
@click.pass_context
@_errors_as_lines
def dreams_diff(ctx: click.Context, dream_id: str) -> None:
    """Print the review diff base..dream/<id> (a one-line note when the dream has no review)."""
    dreamer = _dreamer(ctx)
    record = dreamer.show(dream_id)
    if not record.branch or not record.base:
        click.echo(clean(_no_review(record)), err=True)
        return
    click.echo(dreamer.diff(dream_id), nl=False)


def _no_review(record: DreamRecord) -> str:
    """Why a dream has no review diff, in one line."""
    if record.auto_commit:
        return f"no review diff: every operation was applied automatically in {record.auto_commit[:7]}"
    if record.status == "failed":
        return f"no review diff: dream {record.id} failed"
    if record.status == "running":
        return f"no review diff: dream {record.id} is still running"
    return f"no review diff: dream {record.id} made no changes"


@dreams.command("accept")
@click.argument("dream_id")
@click.option(
    "--expect", metavar="COMMIT", help="The review commit you read (dreams show/diff): merge only if it is still that."
)
@click.pass_context
@_errors_as_lines
def dreams_accept(ctx: click.Context, dream_id: str, expect: str | None) -> None:
    """Merge the dream's review branch into main (--no-ff); a conflict or a moved branch changes nothing."""
    record = _dreamer(ctx).accept(dream_id, expect=expect)
    click.echo(clean(f"accepted dream {record.id} ({(record.merge_commit or '')[:7]})"))


@dreams.command("reject")
@click.argument("dream_id")
@click.pass_context
@_errors_as_lines
def dreams_reject(ctx: click.Context, dream_id: str) -> None:
    """Delete the dream's review branch."""
    record = _dreamer(ctx).reject(dream_id)
    click.echo(clean(f"rejected dream {record.id}"))


@dreams.command("undo")
@click.argument("dream_id")
@click.pass_context
@_errors_as_lines
def dreams_undo(ctx: click.Context, dream_id: str) -> None:
    """Revert the dream's automatic commit in a new commit (refused when later edits touch its lines)."""
    record = _dreamer(ctx).undo(dream_id, origin="cli")
    click.echo(clean(record.undo_message()))


def register(main: click.Group) -> None:
    """Add ``dream`` and ``dreams`` to the ``memrepo`` command group."""
    main.add_command(dream)
    main.add_command(dreams)
