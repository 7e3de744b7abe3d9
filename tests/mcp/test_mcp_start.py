"""``memrepo mcp`` answers ``initialize`` and ``tools/list`` before it opens the repo (breaker5 B5-10).

Codex's first model request lists only the tools of MCP servers that have answered by then, so the
server answers those two first and opens the repo (the engine's imports, the watcher, the index's
warm-up) in the background. The server runs as a real process on stdio; its repo opening is held
until the test lets it go, so the order is checked without any clock.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]

HELD_OPEN = """
import asyncio, os, sys
from memrepo.engine.repo.repo import MemoryRepo

gate = sys.argv.pop(1)
real = MemoryRepo.open.__func__

async def held(cls, *args, **kwargs):
    while not os.path.exists(gate):  # the test lets the opening go by making this file
        await asyncio.sleep(0.02)
    return await real(cls, *args, **kwargs)

MemoryRepo.open = classmethod(held)
from memrepo.cli.main import main
sys.argv[0] = "memrepo"
main()
"""
"""``memrepo mcp`` with :meth:`MemoryRepo.open` waiting for a file (the gate) to exist."""


def _reply(proc: subprocess.Popen, want: int, timeout: float) -> dict | None:
    assert proc.stdout is not None
    while True:
        poller = select.poll()  # not select.select: a worker holding 1,024 descriptors made it raise ValueError
        poller.register(proc.stdout, select.POLLIN)
        if not poller.poll(timeout * 1000):
            return None
        line = proc.stdout.readline()
        if not line:
            return None
        message = json.loads(line)
        if message.get("id") == want:
            return message


def _send(proc: subprocess.Popen, *messages: dict) -> None:
    assert proc.stdin is not None
    for message in messages:
        proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def test_initialize_and_tools_list_are_answered_before_the_repo_opens(tmp_path: Path) -> None:
    repo = tmp_path / "memory"
    MemoryStore.open(repo, plain_settings()).remember(Candidate(text="Always answer in metric units", by="user"))
    gate = tmp_path / "gate"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(
        [sys.executable, "-c", HELD_OPEN, str(gate), "--repo", str(repo), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
        env=env,
    )
    try:
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "codex", "version": "0"}}
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
        answer = _reply(proc, 1, 60)
        assert answer is not None and "result" in answer, "initialize was not answered while the repo was unopened"
        assert answer["result"]["serverInfo"]["name"] == "memrepo"
        _send(
            proc,
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        )
        tools = _reply(proc, 2, 60)
        assert tools is not None, "tools/list was not answered while the repo was unopened"
        assert {t["name"] for t in tools["result"]["tools"]} >= {"memory_context", "memory_recall", "memory_remember"}
        # A call made before the repo is open waits for it, then answers.
        call = {"name": "memory_context", "arguments": {}}
        _send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call})
        assert _reply(proc, 3, 1.0) is None, "a tool answered before the repo was opened"
        gate.write_text("go")
        result = _reply(proc, 3, 60)
        assert result is not None and not result["result"].get("isError"), result
        assert "Always answer in metric units" in result["result"]["content"][0]["text"]
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        gate.write_text("go")
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
