"""A recall door that hangs costs one prompt its budget, not every prompt (docs/architecture.md §4; breaker4 F5).

The real ``memrepo mcp`` process (the MCP SDK's stdio client starts it, as Claude Code does) is stopped with
``SIGSTOP``: the first ``memrepo hook prompt`` (Claude Code's published payload) waits the budget and answers
lexically; the next askers skip that door (:mod:`memrepo.engine.read.doorstate`) until it answers in time again
(``SIGCONT``: it answers the request left in its queue) or the back-off ends. The model is the fake
OpenAI-compatible endpoint on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest
import test_recall_door
from helpers.mcp_helpers import mcp_session
from test_recall_door import DEPLOYS, HYBRID_VIA, _env, _hybrid_door, _run_hook, _server_pid

from memrepo.engine.read import doorstate, recalldoor
from memrepo.engine.read.recalldoor import door_path

memory = test_recall_door.memory
"""The fixture: a small repo, its index built, the fake endpoint named by the config."""

OPTIONS = {"workspace": None, "limit": 3, "max_bytes": 1500}


async def _until(what, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


@pytest.mark.slow
async def test_a_stopped_door_is_skipped_after_one_missed_budget_and_asked_again_once_it_answers(memory) -> None:
    root, project, home, config, _record = memory
    env = _env(home, config)
    async with mcp_session(root, project):
        assert (await _hybrid_door(root, project, env))[2] == HYBRID_VIA
        pid = _server_pid(root)
        mark = doorstate.missed_path(door_path(root))
        assert not mark.exists()
        os.kill(pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            lines, err, code = await asyncio.to_thread(_run_hook, root, project, env, DEPLOYS)
            assert time.monotonic() - started >= recalldoor.BUDGET_S  # the one prompt that waits
            assert code == 0 and err == "" and lines[2] == "(lexical recall)" and "staging cluster first" in lines[3]
            assert mark.read_text() == str(door_path(root).stat().st_ino)  # this door, by its socket's inode
            assert oct(mark.stat().st_mode & 0o777) == "0o600"
            # The next askers skip it: a budget of an hour is not waited (a hung door would hold it all). A
            # condition with a 90 s guard, not a wall-clock bound: an asker that waited would hit the guard.
            asking = asyncio.to_thread(recalldoor.ask, root, DEPLOYS, OPTIONS, True, 3600.0)
            assert await asyncio.wait_for(asking, 90) is None
            lines, err, code = await asyncio.to_thread(_run_hook, root, project, env, DEPLOYS)
            assert code == 0 and err == "" and lines[2] == "(lexical recall)"
            assert doorstate.look(door_path(root)).state == "skipped"
        finally:
            os.kill(pid, signal.SIGCONT)
        # Running again, it answers the request left in its queue, in time: the mark goes, askers ask it again
        assert await _until(lambda: not mark.exists())
        hits = await asyncio.to_thread(recalldoor.ask, root, DEPLOYS, OPTIONS, True, 30.0)
        assert hits and hits[0].via == "the MCP server" and "staging cluster first" in hits[0].text
        assert doorstate.look(door_path(root)).state == "answering"


def test_the_back_off_names_one_socket_and_ends(tmp_path: Path) -> None:
    import socket

    sock = tmp_path / "recall.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as first:
        first.bind(str(sock))
        doorstate.mark_missed(sock)
        now = time.time()
        until = doorstate.skipped_until(sock, now)
        assert until is not None and until - now <= doorstate.BACKOFF_S
        assert doorstate.skipped_until(sock, now + doorstate.BACKOFF_S + 1) is None  # over: asked again
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as second:  # a new server's door: a new inode
            second.bind(str(tmp_path / "recall.sock.2"))
            os.replace(tmp_path / "recall.sock.2", sock)  # put in place as a door does (the old one still open)
            assert doorstate.missed_path(sock).exists() and doorstate.skipped_until(sock) is None
            doorstate.mark_missed(sock)
            assert doorstate.skipped_until(sock) is not None
            doorstate.clear_missed(sock)
            assert doorstate.skipped_until(sock) is None and not doorstate.missed_path(sock).exists()
