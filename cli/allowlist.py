"""``memrepo secrets``: see what redaction takes for a secret, and mark false alarms (docs/architecture.md §3).

An allowed value is kept as a salted hash in ``.git/memrepo/secrets-allow.json``
(never in clear, never committed); redaction leaves it alone on every way out
from then on. Pass ``-`` to read the text from standard input, so the value
stays out of the shell's history.
"""

from __future__ import annotations

import sys

import click

from memrepo.tui.plain import clean

from .main import _errors_as_lines, _fail, _open_store, _repo_path


def _text_arg(text: str) -> str:
    value = sys.stdin.read() if text == "-" else text
    value = value.rstrip("\r\n") if text == "-" else value
    if not value.strip():
        _fail("give the text (or - to read it from standard input)", 2)
    return value


@click.group()
def secrets() -> None:
    """See what redaction takes for a secret; allow a value it took by mistake."""


@secrets.command()
@click.argument("text")
@click.pass_context
@_errors_as_lines
def check(ctx: click.Context, text: str) -> None:
    """Print TEXT as every way out would show it, and what was redacted.

    The memory repo's allowed values (``secrets allow``) are kept as every way out keeps them (breaker31 B31-9).
    """
    from memrepo.engine.redaction import allow, redact

    value = _text_arg(text)
    state = _repo_path(ctx) / ".git" / "memrepo"
    if state.is_dir():
        allow.activate(state)  # as the store, the hooks and cold reads do
    out, types = redact(value)
    click.echo(clean(out, one_line=False))
    click.echo(f"redacted: {', '.join(types)}" if types else "nothing redacted", err=True)


@secrets.command()
@click.argument("text")
@click.pass_context
@_errors_as_lines
def allow(ctx: click.Context, text: str) -> None:
    """Mark one value as a false alarm in this memory repo: TEXT itself, or the one value redaction finds in it.

    A TEXT holding two or more findings is refused: give the value alone.
    """
    from memrepo.engine.redaction import allow_found

    store = _open_store(ctx, create=False)
    try:
        types = allow_found(store.state_dir, _text_arg(text))
    except ValueError as exc:
        _fail(str(exc), 2)
    click.echo(f"allowed 1 value ({types[0]}); kept as a hash in .git/memrepo/secrets-allow.json")


@secrets.command(name="list")
@click.pass_context
@_errors_as_lines
def list_(ctx: click.Context) -> None:
    """List the allowed values (their hashes, never the values)."""
    from memrepo.engine.redaction import allow as allowlist

    rows = allowlist.entries(_open_store(ctx, create=False).state_dir)
    if not rows:
        click.echo("no allowed values")
    for key, kind, when in sorted(rows, key=lambda r: r[2]):
        click.echo(f"{key[:12]}  {when or '-':<20}  {kind}")


@secrets.command()
@click.argument("hash_prefix", metavar="HASH")
@click.pass_context
@_errors_as_lines
def remove(ctx: click.Context, hash_prefix: str) -> None:
    """Redact the allowed value HASH (a prefix from ``memrepo secrets list``) again."""
    from memrepo.engine.redaction import allow as allowlist

    if not allowlist.remove(_open_store(ctx, create=False).state_dir, hash_prefix.strip().lower()):
        _fail(f"no single allowed value has a hash starting {hash_prefix!r}; see memrepo secrets list")
    click.echo(f"removed {hash_prefix}: that value is redacted again")


def register(main: click.Group) -> None:
    """Add ``secrets`` to the ``memrepo`` command group."""
    main.add_command(secrets)
