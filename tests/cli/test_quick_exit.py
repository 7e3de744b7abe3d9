"""The console script's quick exit (cli/quick.py ``script``): after a quick answer the process ends
without the interpreter's teardown, with the same output, bytes flushed to the last one, and the same
exit code as :func:`memrepo.cli.quick.run`; click's commands still end as Python programs do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore

PROBE = """
import atexit, sys
sys.argv = ["memrepo", *sys.argv[2:]]
atexit.register(lambda: sys.stderr.write("torn down\\n"))
from memrepo.cli import quick
getattr(quick, {entry!r})()
"""


def console(entry: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", PROBE.format(entry=entry), "-", *args],
        capture_output=True,
        env=dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none"),
        timeout=600,  # a hang guard: starved of CPU (load 20 on 2 cores) one `context` here took over 120 s
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    lines = "".join(f"- Gauge reading {n} for the boiler room {'x' * 300} [by: user]\n" for n in range(400))
    (store.root / "me.md").write_text(f"# Me\n\n{lines}", encoding="utf-8")
    return store.root


@pytest.mark.parametrize(
    "args",
    [
        ["recall", "gauge", "-n", "200", "--max-bytes", "900000"],  # more than a pipe holds: every byte flushed
        ["recall", "gauge", "--json", "-n", "200", "--max-bytes", "900000"],
        ["recall", "nothingmatchesthis"],
        ["recall", "..."],
        ["context"],
    ],
)
def test_a_quick_answer_ends_without_teardown_with_the_same_bytes_and_code(repo: Path, args: list[str]) -> None:
    slow = console("run", "--repo", str(repo), *args)
    fast = console("script", "--repo", str(repo), *args)
    assert b"torn down" in slow.stderr
    assert b"torn down" not in fast.stderr
    assert fast.stdout == slow.stdout
    assert fast.stderr == slow.stderr.replace(b"torn down\n", b"")
    assert fast.returncode == slow.returncode
    if args[1:2] == ["gauge"]:
        assert len(fast.stdout) > 65536


def test_click_commands_still_end_as_python_programs_do(repo: Path) -> None:
    for args in (["show", "me.md"], ["status"], ["log", "-n", "2"]):
        done = console("script", "--repo", str(repo), *args)
        assert done.returncode == 0, done.stderr
        assert b"torn down" in done.stderr, args
