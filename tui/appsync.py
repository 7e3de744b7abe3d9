"""The app's sync: start the automatic sync, sync on ``s``, show each outcome (docs/architecture.md §8).

A mixin of :class:`~memrepo.tui.app.MemrepoApp`, kept apart so the app module
stays one screenful per concern. The engine's one driver
(:class:`~memrepo.engine.repo.autosync.AutoSync`, also behind ``memrepo watch``)
decides when to sync; this shows what came of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from .appbase import AppState
from .plain import clean

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from memrepo.engine.models import SyncState
    from memrepo.engine.repo.autosync import AutoSync, SyncOutcome


class AppSync(AppState):
    """Sync in the app (mixed into :class:`~memrepo.tui.app.MemrepoApp`, which provides these members)."""

    def start_sync(self) -> None:
        """Sync now, then after commits and every ``[sync] interval_s`` when a remote is set.

        The engine's one auto-sync driver (:class:`~memrepo.engine.repo.autosync.AutoSync`,
        also behind ``memrepo watch``) decides when; the app shows each outcome.
        """
        from memrepo.engine.repo.autosync import AutoSync

        repo = self.repo
        if repo is None:
            return
        self._autosync = AutoSync(repo, self._sync_done, self._sync_started)
        self.run_sync(manual=False)
        self.follow_sync(self._autosync)

    def sync_soon(self) -> None:
        """A commit happened: sync once no other commit came for ``[sync] debounce_s``."""
        if self._autosync is not None and self._autosync.has_remote:
            self._autosync.poke()

    def action_sync_now(self) -> None:
        """Sync with the remote now (the ``s`` key)."""
        if self.repo is None or self._autosync is None:
            self.notify("The memory repo is not open yet", severity="warning", timeout=3, markup=False)
            return
        if self._autosync.syncing:
            self.notify("Already syncing", timeout=2, markup=False)
            return
        self.run_sync(manual=True)

    @work(group="watch", exit_on_error=False, description="Syncing automatically")
    async def follow_sync(self, auto: AutoSync) -> None:
        """Run the auto-sync loop until the app ends (a follower, like the watcher)."""
        await auto.run(first=False)

    @work(group="sync", exit_on_error=False, description="Syncing with the remote")
    async def run_sync(self, manual: bool) -> None:
        """One sync through the driver, on the repo's sync thread (the header and notices follow it)."""
        if self._autosync is not None:
            await self._autosync.run_once(manual)

    def _sync_started(self, state: SyncState) -> None:
        self.header.show_sync(state, syncing=True)

    def _sync_done(self, outcome: SyncOutcome) -> None:
        """Show a sync's outcome in the header, with a notice when asked for or when something came in."""
        from .syncview import describe_sync

        if outcome.state.remote is None:
            self.header.show_sync(outcome.state)
            if outcome.manual:
                self.notify(
                    "No remote is set: memory stays on this machine (memrepo remote set URL)",
                    title="Sync",
                    timeout=6,
                    markup=False,
                )
            return
        if outcome.after is not None and self.repo is not None:  # not closing
            self.header.show_sync(outcome.after)
        if outcome.error is not None:
            if outcome.manual:
                self.notify(
                    clean(str(outcome.error), one_line=False),
                    title="Sync failed",
                    severity="error",
                    timeout=8,
                    markup=False,
                )
            return
        result = outcome.result
        if result is None:
            return
        if outcome.manual or result.action != "up_to_date":
            severity: SeverityLevel = "warning" if result.conflicts else "information"
            self.notify(clean(describe_sync(result)), title="Sync", severity=severity, timeout=6, markup=False)
        if result.action in ("fast_forwarded", "merged", "adopted"):
            self.refresh_status()
            for pane in self.panes():
                pane.reload()
