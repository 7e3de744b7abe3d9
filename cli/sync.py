"""``memrepo remote`` / ``sync`` / ``watch``: one private git remote.

``remote set URL`` stores the remote only after the person confirms it is
private (a prompt, or ``--yes-private``); ``sync`` fetches, merges entry by
entry and pushes; ``watch`` keeps syncing after commits and on the
``[sync] interval_s`` timer until Ctrl-C.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import click

from memrepo.tui.syncview import describe_sync

from .main import _errors_as_lines, _fail, _open_store

if TYPE_CHECKING:
    from memrepo.engine.repo.autosync import SyncOutcome

PRIVACY = (
    "memrepo pushes your memory (personal facts, preferences, corrections) to this remote. "
    "Only use a private repository that only you can read."
)


def _ago(when: datetime | None) -> str:
    if when is None:
        return "never"
    seconds = int((datetime.now(UTC) - when).total_seconds())
    if seconds < 60:
        return f"{max(seconds, 0)} s ago"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 86400:
        return f"{seconds // 3600} h ago"
    return f"{seconds // 86400} days ago"


@click.group()
def remote() -> None:
    """Set, show or remove the one private git remote memory syncs with."""


@remote.command("set")
@click.argument("url")
@click.option("--yes-private", is_flag=True, help="Confirm the remote is private without a prompt.")
@click.pass_context
@_errors_as_lines
def remote_set(ctx: click.Context, url: str, yes_private: bool) -> None:
    """Sync with URL (SSH, HTTPS or a local path), once you confirm it is private."""
    from memrepo.engine.sync import sync as sync_mod

    store = _open_store(ctx, create=False)
    sync_mod.refuse_password(url.strip())
    if not yes_private:
        click.echo(PRIVACY, err=True)
        try:
            confirmed = click.confirm(f"Is {url} a private repository?", default=False, err=True)
        except click.Abort:  # no answer (stdin closed)
            confirmed = False
        if not confirmed:
            _fail("the remote was not set: it was not confirmed private (answer y, or pass --yes-private)")
    sync_mod.set_remote(store.root, url, confirmed_private=True)
    click.echo(f"remote set: {sync_mod.remote_url(store.root)}; run memrepo sync")


@remote.command("show")
@click.pass_context
@_errors_as_lines
def remote_show(ctx: click.Context) -> None:
    """Print the remote, commits not pushed or not merged, and the last sync."""
    from memrepo.engine.sync import sync as sync_mod

    store = _open_store(ctx, create=False)
    state = sync_mod.sync_state(store.root)
    if state.remote is None:
        click.echo("no remote: memory stays on this machine (memrepo remote set URL)")
        return
    click.echo(f"remote: {state.remote}")
    click.echo(f"{state.ahead} commit(s) not pushed, {state.behind} not merged (as of the last sync)")
    click.echo(f"last sync: {_ago(state.last_sync)}")
    if state.last_error:
        click.echo(f"last error: {state.last_error}")


@remote.command("remove")
@click.pass_context
@_errors_as_lines
def remote_remove(ctx: click.Context) -> None:
    """Stop syncing: forget the remote (nothing on it is deleted)."""
    from memrepo.engine.sync import sync as sync_mod

    store = _open_store(ctx, create=False)
    if not sync_mod.remove_remote(store.root):
        _fail("no remote is set")
    click.echo("remote removed; memory stays on this machine")


@click.command()
@click.pass_context
@_errors_as_lines
def sync(ctx: click.Context) -> None:
    """Sync with the remote now: fetch, merge entry by entry, push."""
    from memrepo.engine.errors import UnreachableRemote
    from memrepo.engine.sync import sync as sync_mod

    store = _open_store(ctx, create=False)
    try:
        result = sync_mod.sync(store)  # the store's [sync] settings
    except UnreachableRemote as exc:
        ahead = sync_mod.sync_state(store.root).ahead
        _fail(f"offline: {exc}; {ahead} commit(s) not pushed, kept for the next sync")
    click.echo(f"sync: {describe_sync(result)}")


@click.command()
@click.pass_context
@_errors_as_lines
def watch(ctx: click.Context) -> None:
    """Keep syncing: after commits (debounced) and every [sync] interval_s, until Ctrl-C or SIGTERM."""
    from memrepo.engine.sync import sync as sync_mod

    _stop_on_signals()
    store = _open_store(ctx, create=False)
    settings = store.settings.sync
    if sync_mod.remote_url(store.root) is None:
        _fail("no remote is set: run memrepo remote set URL first")
    root = store.root

    async def main() -> None:
        from memrepo.engine.repo.autosync import AutoSync
        from memrepo.engine.repo.repo import MemoryRepo

        def report(outcome: SyncOutcome) -> None:
            stamp = datetime.now().strftime("%H:%M:%S")
            if outcome.error is not None:
                click.echo(f"{stamp} sync failed: {outcome.error}", err=True)
            elif outcome.result is not None and outcome.result.action != "up_to_date":
                click.echo(f"{stamp} sync: {describe_sync(outcome.result)}")

        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        assert me is not None
        for sig in STOP_SIGNALS:  # from here on a signal cancels the loop's work, which then closes the repo
            loop.add_signal_handler(sig, me.cancel)
        if _NOTED:  # a signal came while the loop started: stop before opening anything
            return
        async with await MemoryRepo.open(root, store.settings, create=False) as repo:
            auto = AutoSync(repo, report)  # the app's driver too
            runner = asyncio.create_task(auto.run())
            told: set[tuple[str, str]] = set()

            async def tell() -> None:
                """Say once each hand edit memrepo holds for the user (a secret, a mass deletion)."""
                for q in (await repo.status()).questions:
                    if (q.path, q.seen) not in told:
                        told.add((q.path, q.seen))
                        stamp = datetime.now().strftime("%H:%M:%S")
                        click.echo(f"{stamp} not committed, waiting for you: {q.message}", err=True)

            async def tell_while_starting() -> None:
                """Look again while the watcher starts: an edit made before its watches were in place has no
                event (a loaded machine took over a second; test_cli_sync's held-secret test)."""
                for delay in STARTUP_LOOKS_S:
                    await asyncio.sleep(delay)
                    await tell()

            starting = asyncio.create_task(tell_while_starting())
            try:
                await tell()  # one made before watch started waits too
                async for event in repo.changes():
                    if event.git or event.paths:
                        auto.poke()
                    if event.paths:
                        await tell()
            finally:
                starting.cancel()
                runner.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await runner

    try:  # a signal may land while the first line is written
        click.echo(f"watching {root}: syncing after commits and every {settings.interval_s:g} s (Ctrl-C stops)")
        for sig in STOP_SIGNALS:  # inside asyncio.run a signal is noted, never raised into the loop's own code
            signal.signal(sig, _note)
        asyncio.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    click.echo("stopped")


STARTUP_LOOKS_S = (1.0, 2.0, 5.0, 10.0)
"""Pauses (seconds) between the looks for held hand edits while the watcher starts (until its events are sure)."""

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop ``memrepo watch`` cleanly ("stopped", exit 0)."""


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


_NOTED: list[int] = []
"""Signals that came while the event loop started, before it took them over."""


def _note(signum: int, frame: object) -> None:
    """Note a stop signal: a KeyboardInterrupt raised inside ``asyncio.run``'s start left the loop unclosed
    (Python then printed a traceback from ``BaseEventLoop.__del__`` at exit, seen under load)."""
    _NOTED.append(signum)


def _stop_on_signals() -> None:
    """Stop on SIGINT and SIGTERM whatever this process inherited.

    A command started in the background of a non-interactive shell (``memrepo watch &`` in a
    script, a test's job) starts with SIGINT ignored, and Python then installs no handler for
    it: such a watch ignored Ctrl-C (one ran 33 minutes past a test run). SIGTERM, a service
    manager's stop, ended it without a word. Both now raise KeyboardInterrupt until the event
    loop runs, which then takes them over (``add_signal_handler``) and cancels its work.
    """
    for sig in STOP_SIGNALS:
        signal.signal(sig, _interrupt)


def register(main: click.Group) -> None:
    """Add ``remote``, ``sync`` and ``watch`` to the ``memrepo`` command group."""
    main.add_command(remote)
    main.add_command(sync)
    main.add_command(watch)
