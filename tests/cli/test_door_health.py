"""Health's recall row (docs/architecture.md §9): the index, the vectors, and whether a recall door answers.

A prompt that gets no memory gets nothing; this row tells "no memory matches" from "no warm process answered"
(breaker4 F1, F8: no Health row said either). The real ``memrepo mcp`` process (the MCP SDK's stdio client starts
it, as Claude Code does) is seen answering, stopped (``SIGSTOP``), skipped after a prompt's missed budget
(``memrepo hook prompt`` with Claude Code's published payload), running again, and killed (``SIGKILL``: its
socket left behind). The model is the fake OpenAI-compatible endpoint on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import test_recall_door
from helpers.mcp_helpers import mcp_session
from test_recall_door import DEPLOYS, HYBRID_VIA, _env, _hybrid_door, _run_hook, _server_pid

from memrepo.engine.config import load_settings
from memrepo.engine.read import doorstate
from memrepo.engine.read.recalldoor import door_path
from memrepo.engine.repo.health import check_path

memory = test_recall_door.memory
"""The fixture: a small repo, its index built, the fake endpoint named by the config."""


def _recall_row(root: Path, config: Path) -> tuple[str, str]:
    rows = check_path(root, settings=load_settings(config))
    found = [r for r in rows if r.name == "recall"]
    assert len(found) == 1
    return found[0].status.value, found[0].reason


async def _row_until(root: Path, config: Path, status: str, words: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        got = await asyncio.to_thread(_recall_row, root, config)
        if (got[0] == status and words in got[1]) or time.monotonic() > deadline:
            assert got[0] == status and words in got[1], got
            return got[1]
        await asyncio.sleep(0.1)


@pytest.mark.slow
async def test_the_recall_row_sees_the_door_answer_stop_skip_and_die(memory) -> None:
    root, project, home, config, _record = memory
    env = _env(home, config)
    done = subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(root), "health", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    (row,) = [r for r in json.loads(done.stdout) if r["name"] == "recall"]
    assert row["status"] == "OK" and row["reason"] == (
        "index built; no vectors yet (a running MCP server or the app builds them); "
        "no recall door (no MCP server runs on this repo): prompts get lexical recall"
    )
    async with mcp_session(root, project):
        assert (await _hybrid_door(root, project, env))[2] == HYBRID_VIA
        pid = _server_pid(root)
        reason = await _row_until(root, config, "OK", f"the recall door (pid {pid}) answers prompts")
        assert reason.startswith("index built; 100% of entries have vectors (3 of 3); ")
        os.kill(pid, signal.SIGSTOP)
        try:
            await _row_until(root, config, "WARN", f"the recall door (pid {pid}) does not answer")
            lines, _err, code = await asyncio.to_thread(_run_hook, root, project, env, DEPLOYS)
            assert code == 0 and lines[2] == "(lexical recall)"  # it waited its budget, then answered itself
            await _row_until(root, config, "WARN", f"the recall door (pid {pid}) missed a prompt's 0.5 s budget")
        finally:
            os.kill(pid, signal.SIGCONT)
        await _row_until(root, config, "OK", f"the recall door (pid {pid}) answers prompts")
        assert not doorstate.missed_path(door_path(root)).exists()
        os.kill(pid, signal.SIGKILL)
        await _row_until(root, config, "OK", "a recall door's socket with no process behind it")


def test_the_recall_row_with_semantic_recall_off(memory, monkeypatch: pytest.MonkeyPatch) -> None:
    root, _project, _home, config, _record = memory
    monkeypatch.setenv("MEMREPO_SEMANTIC", "off")
    assert _recall_row(root, config) == ("OK", "index built; semantic recall off: lexical only")
