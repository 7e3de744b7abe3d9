"""``memrepo inbox``: list inbox.md, and accept or discard its entries bound to the line a person saw.

An entry is acted on only as listed (``REF@SEEN``): a bare REF is refused in a
script and shown and asked about in a terminal (docs/architecture.md §3). The
listing is a way out like any other, so it is redacted (docs/architecture.md §4).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from .main import _errors_as_lines, _fail, _open_store

if TYPE_CHECKING:
    from memrepo.engine.repo.store import MemoryStore


@click.group(invoke_without_command=True)
@click.pass_context
@_errors_as_lines
def inbox(ctx: click.Context) -> None:
    """Triage inbox.md: with no command, list its entries, each with where accept puts it."""
    if ctx.invoked_subcommand is None:
        from memrepo.engine.redaction import redact_text
        from memrepo.tui.plain import clean

        store = _open_store(ctx, create=False)
        view = store.read_file("inbox.md")
        if view.error:  # not text, or over 4 MB: not "empty"
            _fail(f"cannot list the inbox: {view.error}")
        entries = view.entries
        if not entries:  # on stderr: a script reading REF@SEEN lines from stdout gets none
            click.echo("inbox is empty: nothing waits for review", err=True)
        for entry in entries:
            # A hand-edited line may hold a secret: the listing is a way out like any other (docs/architecture.md §4).
            said = entry.meta.get("supersedes") if entry.meta.get("corrects") and entry.by == "user" else None
            fixes = f"  (your correction of: {redact_text(said)})" if said else ""
            if entry.meta.get("waits") and entry.by == "user":  # the user's own line a limit held back (B17-9)
                fixes = f"  (yours; waits: {entry.meta['waits']})"
            if entry.meta.get("forgets") and entry.by == "user":
                fixes = "  (you asked to forget this line: accept removes it)"
            # Memory text is data: a hand-edited line's control characters (a bare CR, an escape) are shown, never sent.
            click.echo(clean(f"{entry.ref}@{entry.seen}  -> {store.suggest(entry)}  {redact_text(entry.text)}{fixes}"))


def _bind_to_shown(store: MemoryStore, ref: str, verb: str = "accept") -> str | None:
    """``ref`` bound to the line a person sees now: ``ref@seen`` after a yes in a terminal, None after a no.

    A bare ref acts on whatever is at that line when the command runs, so it is
    never taken from a script: without a terminal this fails, naming the REF@SEEN
    form to give (docs/architecture.md §3). ``verb`` ("accept", "discard") is the
    action the question names.
    """
    from memrepo.engine.format.paths import parse_ref
    from memrepo.engine.redaction import redact_text
    from memrepo.tui.plain import clean

    if not sys.stdin.isatty():
        _fail(
            f"{ref} has no @SEEN: give {ref}@SEEN as `memrepo inbox` lists it (REF@SEEN), so only the line you saw "
            f"is {verb}ed (in a terminal, a bare REF shows the line and asks)",
            2,
        )
    want = parse_ref(ref)
    entry = next((e for e in store.read_file("inbox.md").entries if parse_ref(e.ref) == want), None)
    if entry is None:
        _fail(f"{ref} is not an inbox entry (the inbox may have changed: list it again)")
    click.echo(clean(f"{entry.ref}  {redact_text(entry.text)}"))
    if not click.confirm(f"{verb.capitalize()} this line?", default=False):
        return None
    return f"{entry.ref}@{entry.seen}"


@inbox.command("accept")
@click.argument("ref")
@click.option("--to", "target", metavar="PATH", help="Move it to this file instead of the suggested one.")
@click.option("--text", help="Edit the entry's text before accepting it.")
@click.pass_context
@_errors_as_lines
def inbox_accept(ctx: click.Context, ref: str, target: str | None, text: str | None) -> None:
    """Accept the inbox entry REF@SEEN as listed (only if it still reads the same), moving it to its file.

    A bare REF is refused in a script; in a terminal it shows the line and asks.
    """
    from memrepo.engine.format.entries import split_seen
    from memrepo.engine.models import Action

    store = _open_store(ctx, create=False)
    if split_seen(ref)[1] is None:
        bound = _bind_to_shown(store, ref)
        if bound is None:
            click.echo("not accepted")
            return
        ref = bound
    result = store.accept(ref, target=target, text=text)
    if result.action is Action.REFUSED:
        _fail(f"refused: {result.reason}")
    said = f"; {result.reason}" if result.reason and result.reason.startswith(("replaces ", "forgot ")) else ""
    click.echo(f"{result.action.value} {result.ref} ({(result.commit or '')[:7]}){said}")


@inbox.command("discard")
@click.argument("refs", nargs=-1, required=True)
@click.pass_context
@_errors_as_lines
def inbox_discard(ctx: click.Context, refs: tuple[str, ...]) -> None:
    """Discard the inbox entries REFS (REF@SEEN as listed: only if unchanged) in one commit.

    A bare REF is refused in a script; in a terminal it shows the line and asks, as accept does.
    """
    from memrepo.engine.format.entries import split_seen
    from memrepo.engine.format.paths import parse_ref

    store = _open_store(ctx, create=False)
    bound: list[str] = []
    for ref in refs:
        if split_seen(ref)[1] is not None or parse_ref(ref)[0] != "inbox.md":
            bound.append(ref)  # a token binds it; a ref outside the inbox is refused by the store itself
            continue
        shown = _bind_to_shown(store, ref, "discard")
        if shown is not None:
            bound.append(shown)
    bound = list(dict.fromkeys(bound))  # a ref given twice is one line: "discarded 2" removed one
    if not bound:
        click.echo("not discarded")
        return
    result = store.discard_many(bound)
    click.echo(f"discarded {len(bound)} ({(result.commit or '')[:7]})")


def register(main: click.Group) -> None:
    """Add ``inbox`` (with ``accept`` and ``discard``) to the ``memrepo`` command group."""
    main.add_command(inbox)
