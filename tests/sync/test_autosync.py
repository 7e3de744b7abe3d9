"""The one auto-sync driver (engine/repo/autosync.py): what the app and ``memrepo watch`` both run."""

from __future__ import annotations

import asyncio
import inspect
import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import git

from memrepo.engine.config import Settings
from memrepo.engine.models import Candidate
from memrepo.engine.repo.autosync import AutoSync, SyncOutcome
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.sync import sync as sync_mod


def quick() -> Settings:
    """A long timer, a short debounce: only pokes and requests make a sync happen here."""
    return Settings.model_validate({"sync": {"interval_s": 3600, "debounce_s": 0.05}})


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


async def until(outcomes: list[SyncOutcome], n: int) -> None:
    async def wait() -> None:
        while len(outcomes) < n:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), 60)  # a hang guard, not a speed claim


async def test_no_remote_is_an_outcome_not_an_error(repo_path: Path) -> None:
    outcomes: list[SyncOutcome] = []
    async with await MemoryRepo.open(repo_path, quick()) as repo:
        auto = AutoSync(repo, outcomes.append)
        outcome = await auto.run_once(manual=True)
    assert outcome is not None and outcomes == [outcome]
    assert outcome.manual and outcome.state.remote is None and outcome.result is None and outcome.error is None
    assert not auto.has_remote


async def test_a_poke_syncs_after_the_quiet_period_and_a_request_at_once(repo_path: Path, remote: Path) -> None:
    outcomes: list[SyncOutcome] = []
    started: list[str | None] = []
    async with await MemoryRepo.open(repo_path, quick()) as repo:
        sync_mod.set_remote(repo.root, str(remote), confirmed_private=True)
        auto = AutoSync(repo, outcomes.append, lambda state: started.append(state.remote))
        loop = asyncio.ensure_future(auto.run(first=True))
        try:
            await until(outcomes, 1)
            assert outcomes[0].result is not None and outcomes[0].result.action == "pushed"
            assert auto.has_remote and started == [str(remote)]
            await repo.remember(Candidate(text="Synced after a poke", kind="preference", by="user"))
            auto.poke()
            await until(outcomes, 2)
            assert outcomes[1].result is not None and outcomes[1].result.action == "pushed"
            assert not outcomes[1].manual
            assert outcomes[1].after is not None and outcomes[1].after.ahead == 0
            assert "Synced after a poke" in git(remote, "show", "main:me.md")
            auto.sync_now()
            await until(outcomes, 3)
            assert outcomes[2].manual and outcomes[2].result is not None
        finally:
            loop.cancel()
            with pytest.raises(asyncio.CancelledError):
                await loop


async def test_an_unreachable_remote_is_reported_and_the_loop_goes_on(repo_path: Path, tmp_path: Path) -> None:
    outcomes: list[SyncOutcome] = []
    async with await MemoryRepo.open(repo_path, quick()) as repo:
        sync_mod.set_remote(repo.root, str(tmp_path / "gone.git"), confirmed_private=True)
        auto = AutoSync(repo, outcomes.append)
        loop = asyncio.ensure_future(auto.run(first=True))
        try:
            await until(outcomes, 1)
            assert outcomes[0].error is not None and outcomes[0].result is None
            auto.sync_now()
            await until(outcomes, 2)
            assert outcomes[1].error is not None and not loop.done()
        finally:
            loop.cancel()
            with pytest.raises(asyncio.CancelledError):
                await loop


async def test_the_loop_ends_when_the_repo_closes(repo_path: Path) -> None:
    repo = await MemoryRepo.open(repo_path, quick())
    auto = AutoSync(repo, lambda outcome: None)
    await repo.close()
    await asyncio.wait_for(auto.run(first=True), 60)  # returns: no error, no hang


def test_the_app_and_memrepo_watch_drive_sync_through_autosync() -> None:
    """One driver: neither front end schedules syncs of its own."""
    import memrepo.cli.main  # noqa: F401  # registers the commands first (cli.sync imports it)
    from memrepo.cli import sync as cli_sync
    from memrepo.tui.app import MemrepoApp

    app_sync = inspect.getsource(MemrepoApp.start_sync) + inspect.getsource(MemrepoApp.run_sync)
    assert "AutoSync(" in app_sync
    intervals = [line for line in inspect.getsource(MemrepoApp).splitlines() if "set_interval(" in line]
    assert all("sync" not in line.lower() for line in intervals), intervals  # the heap trim's timer is no sync
    assert "repo.sync(" not in inspect.getsource(MemrepoApp)
    assert "AutoSync(" in inspect.getsource(cli_sync.watch.callback)  # type: ignore[arg-type]


async def test_steady_pokes_still_sync_within_the_interval(repo_path: Path, remote: Path) -> None:
    """A commit every few seconds (agents writing, hand edits) never left ``debounce_s`` of quiet: the debounce
    waited for ever and no sync ran, the timer's neither. Now a burst syncs at ``interval_s`` at the latest."""
    outcomes: list[SyncOutcome] = []
    settings = Settings.model_validate({"sync": {"interval_s": 0.6, "debounce_s": 0.3}})
    async with await MemoryRepo.open(repo_path, settings) as repo:
        sync_mod.set_remote(repo.root, str(remote), confirmed_private=True)
        auto = AutoSync(repo, outcomes.append)
        loop = asyncio.ensure_future(auto.run(first=True))
        try:
            await until(outcomes, 1)
            await repo.remember(Candidate(text="Written while pokes keep coming", kind="preference", by="user"))
            for _ in range(600):  # a poke every 0.1 s (never 0.3 s of quiet) until a sync came, 60 s at most
                auto.poke()
                await asyncio.sleep(0.1)
                if len(outcomes) >= 2:
                    break
            assert len(outcomes) >= 2  # synced during the burst
            assert "Written while pokes keep coming" in git(remote, "show", "main:me.md")
        finally:
            loop.cancel()
            with pytest.raises(asyncio.CancelledError):
                await loop


async def test_a_sync_refused_busy_is_tried_again_soon(
    repo_path: Path, remote: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under steady writers a sync can find the write lock held 5 s ("busy"); the next try came a whole
    interval later (the soak's `memrepo watch`: 592 s without a push). It now comes BUSY_RETRY_S later."""
    import threading

    from memrepo.engine.files.lock import WriteLock
    from memrepo.engine.repo import autosync

    monkeypatch.setattr(autosync, "BUSY_RETRY_S", 0.5)
    outcomes: list[SyncOutcome] = []
    async with await MemoryRepo.open(repo_path, quick()) as repo:  # interval 3600 s
        sync_mod.set_remote(repo.root, str(remote), confirmed_private=True)
        held, release = threading.Event(), threading.Event()

        def writer() -> None:  # another process's long write, as the lock sees it
            lock = WriteLock(repo.root / ".git")
            with lock.hold("remember"):
                held.set()
                release.wait(60)

        thread = threading.Thread(target=writer)
        thread.start()
        assert held.wait(60)
        auto = AutoSync(repo, outcomes.append)
        loop = asyncio.ensure_future(auto.run(first=True))
        try:
            await until(outcomes, 1)
            assert outcomes[0].error is not None and "busy" in str(outcomes[0].error)
            release.set()
            thread.join(60)
            await until(outcomes, 2)  # no poke, no request: the retry alone
            assert outcomes[1].error is None and outcomes[1].result is not None
        finally:
            release.set()
            loop.cancel()
            with pytest.raises(asyncio.CancelledError):
                await loop
