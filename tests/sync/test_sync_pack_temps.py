"""A push killed while libgit2 wrote its pack into a local-path remote: the pack temporary file it left
(``objects/pack/pack_git2_*``, as large as the push) goes once stale (docs/architecture.md §3, §5).

The kill is real: ``memrepo sync`` runs as its own process, pushing a commit of a few megabytes to a
bare remote on local disk, and gets SIGKILL the moment libgit2's pack temporary file appears there.
Only this repo's killed push's files go (written after its ``sync.holder`` record's start time), only
once older than :data:`~memrepo.engine.files.remoteclean.PACK_TEMP_STALE_S` (a push from another
machine to the same disk may be writing one), and meanwhile the record is kept ``settled``: it no
longer marks git lock files as a killed writer's, and a sync in between keeps it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.files import remoteclean
from memrepo.engine.files.lock import killed_writer_at
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod

pytestmark = pytest.mark.slow


def _temps(remote: Path) -> list[Path]:
    return sorted((remote / "objects" / "pack").glob("pack_git2_*"))


def _kill_sync_while_it_writes_the_pack(root: Path, remote: Path) -> None:
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none")
    known = set(_temps(remote))
    proc = subprocess.Popen(
        [script, "--repo", str(root), "sync"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    try:
        while not set(_temps(remote)) - known:
            assert proc.poll() is None, f"the push ended before it was killed: {proc.communicate()}"
            assert time.monotonic() < deadline, "no pack temporary file in 120 s"
            time.sleep(0.001)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL


def test_the_killed_pushs_stale_pack_temp_goes_and_no_other_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    remote = tmp_path / "usb" / "memory.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    sync_mod.set_remote(store.root, str(remote), confirmed_private=True)
    assert sync_mod.sync(store).action == "pushed"
    # a few megabytes that do not compress, so the pack takes a moment to write
    (store.root / "attachments").mkdir()
    (store.root / "attachments" / "scan.bin").write_bytes(os.urandom(6_000_000))
    git(store.root, "add", "attachments")
    git(store.root, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "a large attachment")
    other = remote / "objects" / "pack" / "pack_git2_0123456789abcdef"  # another machine's, from before
    other.write_bytes(b"PACK")
    os.utime(other, (time.time() - 3600, time.time() - 3600))

    _kill_sync_while_it_writes_the_pack(store.root, remote)

    ours = [p for p in _temps(remote) if p != other]
    assert len(ours) == 1
    holder = store.root / ".git" / "memrepo" / "sync.holder"
    assert json.loads(holder.read_text())["remote"] == str(remote.resolve())

    # within the stale age: the file stays, the record stays settled and marks no lock as a killed writer's
    monkeypatch.setattr(remoteclean, "PACK_TEMP_STALE_S", 600.0)
    store.remember(Candidate(text="Written right after the killed push", kind="preference", by="user"))
    assert ours[0].exists()
    assert json.loads(holder.read_text())["settled"] is True
    assert killed_writer_at(store.root / ".git") is None
    assert sync_mod.sync(store).action == "pushed"  # a sync's own fetch and push keep the record
    assert ours[0].exists() and json.loads(holder.read_text())["settled"] is True

    # once stale: the next sync removes it, and only it
    monkeypatch.setattr(remoteclean, "PACK_TEMP_STALE_S", 0.2)
    time.sleep(0.3)
    store.remember(Candidate(text="Written once the file is stale", kind="preference", by="user"))
    result = sync_mod.sync(store)

    assert result.action == "pushed"
    assert not ours[0].exists()
    assert other.exists(), "a file from before the killed push is not this repo's to remove"
    assert not holder.exists()
    assert git(remote, "rev-parse", "main").strip() == store.head()
    assert "scan.bin" in git(remote, "ls-tree", "-r", "--name-only", "main")
    other.unlink()  # fsck reads every file in objects/pack; the planted one is no pack
    git(remote, "fsck", "--no-dangling")
