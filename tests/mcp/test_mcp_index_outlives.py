"""The recall index's first build outlives a short MCP session (breaker5 B5-1).

``codex exec`` sessions last seconds, and Codex ends its MCP server by killing the server's process
group. The build the server starts runs in a detached process (a session of its own), so a few short
sessions leave an index and later recalls stop scanning the files. Here a real ``memrepo mcp`` is
started in a process group of its own, as Codex starts it, and the whole group is killed with SIGKILL
once the build runs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.read import recall
from memrepo.engine.read.recallbuilding import build_state
from memrepo.engine.read.recallfile import build_running
from memrepo.engine.repo.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


def _repo(tmp_path: Path, files: int) -> Path:
    root = tmp_path / "memory"
    MemoryStore.open(root, plain_settings())
    (root / "topics").mkdir()
    for f in range(files):
        body = "".join(f"- Note {f}-{n} about harbour item {f * 7 + n} [by: agent]\n" for n in range(3))
        (root / "topics" / f"t{f:04d}.md").write_text(f"# T{f}\n\n{body}", encoding="utf-8")
    return root


def test_the_first_build_outlives_a_killed_mcp_session(tmp_path: Path) -> None:
    root = _repo(tmp_path, recall.CHILD_BUILD_FILES + 20)  # large enough for a build of its own, then and now
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    server = subprocess.Popen(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(root), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
        env=env,
        start_new_session=True,  # its own process group, which Codex kills at the end of a session
    )
    try:
        assert server.stdin is not None
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "codex", "version": "0"}}
        for message in (
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
        ):
            server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()
        deadline = time.monotonic() + 120
        while not build_running(root) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert build_running(root), "the MCP server started no background build"
        assert not build_state(root)[0]
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the session ends: the server and its process group die
        server.wait()
    deadline = time.monotonic() + 300
    while not build_state(root)[0] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert build_state(root)[0], "the build died with the session: the next session scans the files again"
    deadline = time.monotonic() + 90  # the build marks itself done, then lets its running marker go
    while build_running(root) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not build_running(root)
