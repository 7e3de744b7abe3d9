"""Watching you can trust (docs/architecture.md §4): a watch that cannot cover the tree or a
network/FUSE mount falls back to polling and says so in Health; a periodic stat-and-hash
reconciliation catches what events and mtimes miss."""

from __future__ import annotations

import asyncio
import errno
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from helpers.repo_helpers import plain_settings
from helpers.watch_helpers import trust_the_watcher_at_once

import memrepo.engine.repo.watch as watch
from memrepo.engine.models import Action, Candidate, RepoState
from memrepo.engine.repo.health import HealthStatus
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.repo.watch import SYSCTL_FIX, WatchMode, remote_mount, watch_changes

MOUNTS = """\
22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
40 22 0:45 / /mnt/nas rw,relatime shared:20 - nfs4 server:/export rw,vers=4.2
41 22 0:46 / /home/me/remote\\040box rw,nosuid - fuse.sshfs me@host:/ rw
42 40 8:2 / /mnt/nas/local rw - ext4 /dev/sdb1 rw
43 22 0:47 / /mnt/host rw - 9p hostshare rw
"""


def test_remote_mounts_are_recognised_by_the_longest_mount_point(tmp_path: Path) -> None:
    info = tmp_path / "mountinfo"
    info.write_text(MOUNTS)
    assert remote_mount(Path("/mnt/nas/memory"), info) == "nfs4"
    assert remote_mount(Path("/home/me/remote box/memory"), info) == "fuse.sshfs"
    assert remote_mount(Path("/mnt/host"), info) == "9p"
    assert remote_mount(Path("/mnt/nas/local/memory"), info) is None  # a local disk mounted below the NFS one
    assert remote_mount(Path("/srv/memory"), info) is None
    assert remote_mount(Path("/srv/memory"), tmp_path / "missing") is None


class FakeAwatch:
    """Stands in for watchfiles.awatch: native watching fails like notify at the inotify limit."""

    def __init__(self, native_error: OSError | None) -> None:
        self.native_error = native_error
        self.calls: list[bool] = []

    def __call__(self, *paths: Any, force_polling: bool = False, stop_event: Any = None, **kw: Any) -> Any:
        self.calls.append(force_polling)
        return self._run(force_polling, stop_event)

    async def _run(self, polling: bool, stop_event: asyncio.Event | None) -> AsyncIterator[set[tuple[Any, str]]]:
        if not polling and self.native_error is not None:
            raise self.native_error
        yield {(watch.watchfiles.Change.modified, self.root + "/me.md")}
        if stop_event is not None:
            await stop_event.wait()

    root = ""


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EMFILE])
async def test_a_watch_at_the_inotify_limit_polls_and_says_why(
    code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeAwatch(OSError(code, os.strerror(code)))
    fake.root = str(tmp_path)
    monkeypatch.setattr(watch.watchfiles, "awatch", fake)
    monkeypatch.setattr(watch, "remote_mount", lambda root: None)
    mode = WatchMode()
    stream = watch_changes(tmp_path, mode=mode)
    event = await anext(stream)
    await stream.aclose()
    assert event.paths == ["me.md"]
    assert fake.calls == [False, True]
    assert mode.polling is not None and "inotify limit" in mode.polling
    assert mode.fix == SYSCTL_FIX


async def test_a_network_mount_polls_from_the_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeAwatch(None)
    fake.root = str(tmp_path)
    monkeypatch.setattr(watch.watchfiles, "awatch", fake)
    monkeypatch.setattr(watch, "remote_mount", lambda root: "nfs4")
    mode = WatchMode()
    stream = watch_changes(tmp_path, mode=mode)
    await anext(stream)
    await stream.aclose()
    assert fake.calls == [True]
    assert mode.polling is not None and "nfs4" in mode.polling


async def test_other_watch_errors_are_not_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeAwatch(OSError(errno.EACCES, "denied"))
    fake.root = str(tmp_path)
    monkeypatch.setattr(watch.watchfiles, "awatch", fake)
    monkeypatch.setattr(watch, "remote_mount", lambda root: None)
    with pytest.raises(OSError):
        await anext(watch_changes(tmp_path))


async def test_health_says_the_watcher_polls_and_how_to_fix_it(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeAwatch(OSError(errno.ENOSPC, "No space left on device"))
    monkeypatch.setattr(watch.watchfiles, "awatch", fake)
    monkeypatch.setattr(watch, "remote_mount", lambda root: None)
    repo = await MemoryRepo.open(repo_path, plain_settings())
    try:
        fake.root = str(repo.root)
        queue_events = repo.changes()
        await asyncio.wait_for(anext(queue_events), 60)  # the polling stream reported
        rows = {r.name: r for r in await repo.health()}
        assert repo.watch_mode.polling is not None
        row = rows["watcher"]
        assert row.status is HealthStatus.WARN
        assert row.reason.startswith("polling: ")
        assert "sudo sysctl fs.inotify.max_user_watches=524288" in row.reason
        await queue_events.aclose()
    finally:
        await repo.close()


def _put_back_mtime(path: Path, text: str) -> None:
    """Rewrite ``path`` keeping its size and putting its old mtime back (``rsync -t``, ``cp -p``)."""
    st = path.stat()
    path.write_text(text)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_reconciliation_catches_an_edit_events_missed_with_the_old_mtime_put_back(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    trust_the_watcher_at_once(monkeypatch)
    memory = store.root / "MEMORY.md"
    memory.write_text(memory.read_text() + "\n- tea: green\n")
    store.commit_hand_edits()
    store.set_watched(True)  # a watcher that will miss the next edit (a network mount, a watch limit)
    assert store.reconcile() == []  # the first pass records
    assert "tea: green" in store.context().text
    assert "tea: green" in " ".join(h.text for h in store.recall("tea"))
    _put_back_mtime(memory, memory.read_text().replace("tea: green", "tea: black"))
    assert "tea: green" in store.context().text  # stale: no event came
    assert store.reconcile() == ["MEMORY.md"]
    assert "tea: black" in store.context().text
    assert "tea: black" in " ".join(h.text for h in store.recall("tea"))
    assert store.reconcile() == []
    memory.write_bytes(memory.read_bytes())  # the same bytes again: nothing a cache holds changed
    assert store.reconcile() == []


def test_a_running_pass_reads_only_files_whose_stat_moved_and_its_turn_of_the_others(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 20,000 files hashing every file each pass kept a core 60% busy; a running repo now stats them all and
    hashes those whose stat moved plus one slice of the rest, so a change that moved no stat is still found."""
    trust_the_watcher_at_once(monkeypatch)
    store.set_watched(True)
    files = store.reconcile_files()
    assert len(files) >= 3
    base = store.reconcile_fingerprints(files, rehash=frozenset())
    assert all(fp[4] is None for fp in base.values())  # the first pass only stats
    assert store.reconcile_with(base) == []
    memory = store.root / "MEMORY.md"
    memory.write_text(memory.read_text() + "\n- tea: green\n")
    now = store.reconcile_fingerprints(files, rehash=frozenset())
    assert now["MEMORY.md"][4] is not None  # its stat moved: read
    assert all(now[rel] is base[rel] for rel in files if rel != "MEMORY.md")  # the others: not read
    assert store.reconcile_with(now) == ["MEMORY.md"]
    assert "tea: green" in store.context().text
    memory.write_bytes(memory.read_bytes())  # a touch: the stat moves, the content decides
    assert store.reconcile_with(store.reconcile_fingerprints(files, rehash=frozenset())) == []
    # A change no stat shows (a coarse FUSE clock): found when the file's turn to be hashed comes.
    other = next(rel for rel in files if rel != "MEMORY.md")
    size, mtime, ctime, ino, _digest = store.reads._fingerprints[other]
    store.reads._fingerprints[other] = (size, mtime, ctime, ino, b"hash of the old text")
    assert store.reconcile_with(store.reconcile_fingerprints(files, rehash=frozenset())) == []  # not its turn
    assert store.reconcile_with(store.reconcile_fingerprints(files, rehash=frozenset([other]))) == [other]


def test_without_a_watcher_an_older_mtime_put_back_is_still_seen(store: MemoryStore) -> None:
    memory = store.root / "MEMORY.md"
    memory.write_text(memory.read_text() + "\n- tea: green\n")
    assert "tea: green" in store.context().text
    _put_back_mtime(memory, memory.read_text().replace("tea: green", "tea: black"))
    assert "tea: black" in store.context().text


def test_core_filemode_false_keeps_the_modes_and_the_repo_clean(store: MemoryStore) -> None:
    """On exFAT every file looks executable: with core.filemode=false memrepo must not commit or see that."""
    subprocess.run(["git", "-C", str(store.root), "config", "core.filemode", "false"], check=True)
    for path in store.root.glob("*.md"):
        path.chmod(0o755)
    reopened = MemoryStore.open(store.root, plain_settings())
    assert reopened.status().state is RepoState.CLEAN
    added = reopened.remember(Candidate(text="likes green tea", kind="preference"))
    assert added.action is Action.ADDED
    assert reopened.status().state is RepoState.CLEAN
    tree = subprocess.run(["git", "-C", str(store.root), "ls-tree", "HEAD"], capture_output=True, text=True, check=True)
    assert "100755" not in tree.stdout


async def test_an_edit_that_keeps_mtime_and_size_soon_after_start_reaches_recall(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A running repo's first reconciliation record is the recall index's own walk, adopted with the index: an
    edit made right after it, that no event reports and that puts the old mtime back at the same size, moves the
    file's ctime, so the next pass finds it (a record taken 3 s late had taken such an edit in, unseen)."""
    import memrepo.engine.repo.repo as repo_module

    memory = store.root / "MEMORY.md"
    memory.write_text(memory.read_text() + "\n- tea: green\n")
    store.commit_hand_edits()
    monkeypatch.setattr(repo_module, "RECONCILE_EVERY_S", 0.2)
    repo = await MemoryRepo.open(store.root, plain_settings())
    try:
        repo._on_change = lambda event: None  # type: ignore[method-assign]  # every event is missed (a network mount)
        repo.start_watching()
        await repo.warm_recall()
        assert "tea: green" in " ".join(h.text for h in await repo.recall("tea"))
        assert repo._store.reconcile_recorded()  # from the index's walk: no second walk ran beside it
        _put_back_mtime(memory, memory.read_text().replace("tea: green", "tea: black"))
        deadline = asyncio.get_running_loop().time() + 60  # a hang guard, not a speed claim
        while "tea: black" not in " ".join(h.text for h in await repo.recall("tea")):
            assert asyncio.get_running_loop().time() < deadline, "the edit never reached recall"
            await asyncio.sleep(0.1)
    finally:
        await repo.close()
