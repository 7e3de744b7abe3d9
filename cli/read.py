"""``memrepo context`` and ``memrepo recall``: the read path from the command line (docs/architecture.md §4).

Both read through the same engine calls an agent's MCP server uses, so what
they print is exactly what an agent gets.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from memrepo.tui.plain import clean

from .main import _errors_as_lines, _fail, _open_store, _settings, workspace_option


@click.command()
@click.option(
    "--workspace",
    metavar="PATH|NAME|ID",
    callback=workspace_option,
    help="The agent's workspace (its project folder); default: MEMORY.md alone.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the block with its refs and token counts as JSON.")
@click.pass_context
@_errors_as_lines
def context(ctx: click.Context, workspace: str | None, as_json: bool) -> None:
    """Print the context block an agent puts in its prompt."""
    if not as_json:  # hooks run this in every new session: the light path opens no store (same text)
        from memrepo.engine.read.coldread import config_missing, context_text

        settings = None if config_missing() else _settings(ctx)  # no file: the defaults, without pydantic
        text = context_text(ctx.obj.get("repo"), workspace, settings)
        if text is not None:
            click.echo(text, nl=False)
            return
    block = _open_store(ctx, create=False).context(workspace)  # controls already removed
    if as_json:
        click.echo(block.model_dump_json())
    else:
        click.echo(block.text, nl=False)


@click.command()
@click.argument("words", metavar="QUERY", nargs=-1, required=True)
@click.option(
    "--workspace",
    metavar="PATH|NAME|ID",
    callback=workspace_option,
    help="Search global files and this workspace only (never another workspace).",
)
@click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, 200), help="Most hits.")
@click.option(
    "--max-bytes",
    default=16_000,
    show_default=True,
    type=click.IntRange(min=0),
    help="Most UTF-8 bytes of hits in all: each hit's ref, text and section (a hit that does not fit is left out).",
)
@click.option("--full", is_flag=True, help="Add up to 80 lines of the section around each hit.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hit.")
@click.option("--all", "show_all", is_flag=True, help="Every match, also those under the confidence minimum.")
@click.pass_context
@_errors_as_lines
def recall(
    ctx: click.Context,
    words: tuple[str, ...],
    workspace: str | None,
    limit: int,
    max_bytes: int,
    full: bool,
    as_json: bool,
    show_all: bool,
) -> None:
    """Search memory for QUERY (words, a phrase, Chinese, Japanese or Korean), best first.

    Hits under the confidence minimum (docs/architecture.md §4) are left out
    unless --all; when nothing answers confidently, up to 3 nearest entries are
    listed instead, marked as not an answer ("answer": false in --json), under a
    line on stderr that says so. With no confident hit the exit code is 1, with
    --json too. When memory matches but --max-bytes leaves every hit out, the
    line says so and how many bytes the best hit needs (exit code 1 as well). Several words need no quotes: `recall deploy bot`
    searches for "deploy bot" (the quick path takes one QUERY only and leaves more to this one).
    """
    from memrepo.engine.format.terms import query_terms

    query = " ".join(words)
    if not query_terms(query)[1]:
        _fail("empty query: give a word to search for (spaces and punctuation match nothing)", 2)
    from memrepo.engine import NEAREST_LINE, since_mark
    from memrepo.engine.files.regularfile import not_utf8_line
    from memrepo.engine.read.conflictnote import merge_conflict_line
    from memrepo.engine.read.heldread import held_recall_line

    from .quick import ask_door
    from .quickbase import (  # only when recall runs
        NEAREST_TAG,
        UNBUDGETED,
        lexical_line,
        no_hit_line,
        scan_line,
        skipped_line,
        start_index_build,
    )

    store = _open_store(ctx, create=False)
    floor = 0.0 if show_all else None
    options: dict[str, Any] = {
        "workspace": workspace,
        "limit": limit,
        "max_bytes": max_bytes,
        "detail": "full" if full else "line",
        "min_confidence": floor,
        "related": True,  # nothing confident: the nearest entries, marked (docs/architecture.md §4)
    }
    hits: list[Any] | None = ask_door(store.root, query, options, store.settings.semantic.provider)  # as the quick path
    if hits is None:
        store.build_in_background(start_index_build)  # a large repo's first build: a scan answers meanwhile
        hits = store.recall(query, **options)
    if hits and hits[0].scan:
        click.echo(scan_line(hits[0].scan), err=True)
    skipped = skipped_line(store.root)  # once, in plain and --json alike: a file recall never read
    if skipped:
        click.echo(skipped, err=True)
    bad = not_utf8_line(store.root, [hit.path for hit in hits or []])
    if bad:  # recall read it with the bad bytes replaced: say so (breaker5 B5-8)
        click.echo(f"memrepo: {bad}", err=True)
    if conflict := merge_conflict_line(store.root):  # neither side of a conflict is recalled: say so (B5-6)
        click.echo(f"memrepo: {conflict}", err=True)
    if held := held_recall_line(store.root, query):  # entries a waiting hand edit lacks, as committed (B7-2)
        click.echo(f"memrepo: {held}", err=True)
    if not hits:  # a match the byte budget left out is not "no match" (the quick path says the same)
        again = []
        if max_bytes < UNBUDGETED:
            again = store.recall(
                query, workspace=workspace, limit=1, max_bytes=UNBUDGETED, min_confidence=floor, related=True
            )
        if lexical := lexical_line(store.settings.semantic.provider):
            click.echo(lexical, err=True)
        _fail(no_hit_line(query, max_bytes, again[0] if again else None))
    nearest = not any(hit.answer for hit in hits)  # --all can list a hit under the minimum first
    if nearest:
        click.echo(NEAREST_LINE, err=True)
        if lexical := lexical_line(store.settings.semantic.provider):
            click.echo(lexical, err=True)
    for hit in hits:
        if as_json:  # JSON escapes control characters itself
            dump = hit.as_dict() if hasattr(hit, "as_dict") else hit.model_dump()  # the door's hits, the store's
            click.echo(json.dumps(dump, ensure_ascii=False))
            continue
        # Memory text is data: control characters (terminal escapes) are shown, never sent.
        tag = ("  [unreviewed]" if hit.unreviewed else "") + ("" if hit.answer else NEAREST_TAG)
        click.echo(f"{clean(hit.ref)}  {hit.by:<5}  {clean(hit.text)}{since_mark(hit)}{tag}")
        if hit.section:
            for line in hit.section.split("\n"):
                click.echo(f"    {clean(line)}")
    if nearest:
        sys.exit(1)  # no confident answer: scripts see the same exit code as with no hit


def register(main: click.Group) -> None:
    """Add ``context`` and ``recall`` to the ``memrepo`` command group."""
    main.add_command(context)
    main.add_command(recall)
