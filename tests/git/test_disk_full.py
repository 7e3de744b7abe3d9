"""A full disk at any step of a write (docs/architecture.md §3): either the write stands (its commit
exists on disk and holds the entry) or one clear line says the disk is full and the repo is as before
(HEAD, the work tree and ``git status`` unchanged). Run on a small tmpfs; needs ``mount`` (root)."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore

PAGE = 4096


@pytest.fixture
def small_disk() -> Iterator[Path]:
    """A 1.5 MB tmpfs, unmounted after; skipped where mounting is not permitted."""
    point = Path(tempfile.mkdtemp(prefix="memrepo-full-"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1536k", "tmpfs", str(point)], capture_output=True)
    if done.returncode:
        point.rmdir()
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {done.stderr.decode().strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)
        with contextlib.suppress(OSError):
            point.rmdir()


def fill(point: Path, leave: int) -> None:
    """Fill the disk, then free ``leave`` bytes."""
    filler = point / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"x" * (64 * PAGE))
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"x" * PAGE)
    finally:
        os.close(fd)
    os.truncate(filler, max(0, filler.stat().st_size - leave))


def snapshot(repo: Path) -> tuple[str, str, dict[str, bytes]]:
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True, text=True).stdout
    files = {str(p.relative_to(repo)): p.read_bytes() for p in repo.rglob("*.md") if ".git" not in p.parts}
    return head, status, files


def test_a_full_disk_at_any_step_gives_one_line_and_leaves_the_repo_as_before(small_disk: Path) -> None:
    repo = MemoryStore.open(small_disk / "memory", plain_settings()).root
    env = dict(os.environ, MEMREPO_WRITE_SERVER="0")
    stood = refused = 0
    for n, leave in enumerate([0, PAGE, 2 * PAGE, 3 * PAGE, 4 * PAGE, 6 * PAGE, 8 * PAGE, 12 * PAGE, 16 * PAGE]):
        (small_disk / "filler").unlink(missing_ok=True)
        fill(small_disk, leave)
        before = snapshot(repo)
        text = f"Entry {n} written on a nearly full disk " + "w" * 300
        done = subprocess.run(
            [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "remember", text],
            capture_output=True,
            text=True,
            env=env,
        )
        (small_disk / "filler").unlink()
        if done.returncode == 0:
            stood += 1
            found = re.match(r"added \S+ \(([0-9a-f]{7})\)", done.stdout)
            assert found, done.stdout
            shown = subprocess.run(
                ["git", "-C", str(repo), "show", f"{found.group(1)}:me.md"], capture_output=True, text=True
            )
            assert shown.returncode == 0 and text in shown.stdout, (leave, shown.stderr)
            assert snapshot(repo)[1] == ""
        else:
            refused += 1
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and "disk is full" in lines[0] and "nothing was written" in lines[0], (leave, lines)
            assert snapshot(repo) == before, leave
        fsck = subprocess.run(["git", "-C", str(repo), "fsck", "--no-dangling"], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stderr
    assert refused >= 1, "the disk never ran out: the test measured nothing"
