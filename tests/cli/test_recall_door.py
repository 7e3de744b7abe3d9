"""The recall door (docs/architecture.md §4, §7): the real ``memrepo mcp`` process (started by the MCP SDK's stdio
client, as Claude Code starts it) answers hybrid recall for a real ``memrepo hook prompt`` process fed Claude Code's
published ``UserPromptSubmit`` payload, and for ``memrepo recall``; a door that hangs, one killed mid-answer, a stale
socket, a door of another config, repo, source or user: each time the hook answers lexically, and its mode line says so.
The embedding model is an OpenAI-compatible endpoint faked on 127.0.0.1 in the real format."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from helpers.mcp_helpers import call, mcp_session
from helpers.semantic_fakes import fake_openai_server
from test_hook_recall_modes import PARAPHRASE, PNPM, _memory, _said, prompt_payload

from memrepo.engine.config import load_settings
from memrepo.engine.read import coldrecall, recalldoor
from memrepo.engine.read.doorstate import clear_missed, missed_path
from memrepo.engine.read.recalldoor import door_path, peer_uid, request_line

HYBRID_VIA = "(hybrid recall via the MCP server: lexical and semantic, 100% of entries have vectors)"
DEPLOYS = "how do deploys reach the staging cluster?"


def _config(home: Path, url: str, name: str = "config.toml") -> Path:
    """A validated config naming the fake endpoint (``[semantic] hook`` left at its default, false)."""
    config = home / name
    config.write_text(
        "[semantic]\nprovider = 'openai'\nmin_similarity = 0.5\nanswer_similarity = 0.6\n"
        f"hook_answer_similarity = 0.6\n[semantic.openai]\nbase_url = '{url}'\nmodel = 'fake-embed'\ntimeout_s = 5\n",
        encoding="utf-8",
    )
    load_settings(config)  # validated: the hook's quick path takes its keys
    return config


def _env(home: Path, config: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MEMREPO_SEMANTIC"}
    env.update(HOME=str(home), MEMREPO_CONFIG=str(config), **extra)
    return env


def _hook(root: Path, project: Path, env: dict[str, str], prompt: str) -> subprocess.Popen[str]:
    """``memrepo hook prompt`` started as Claude Code starts it (the payload on stdin)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "memrepo.cli.quick", "--repo", str(root), "hook", "prompt"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdin is not None
    proc.stdin.write(prompt_payload(project, prompt))
    proc.stdin.close()
    proc.stdin = None  # sent whole: communicate() only reads
    return proc


def _run_hook(root: Path, project: Path, env: dict[str, str], prompt: str) -> tuple[list[str], str, int]:
    proc = _hook(root, project, env, prompt)
    out, err = proc.communicate(timeout=120)
    return _said(out), err, proc.returncode


async def _hybrid_door(root: Path, project: Path, env: dict[str, str], prompt: str = PARAPHRASE) -> list[str]:
    """Prompt until the door answers hybrid (its first answers kick the build of vectors; on a loaded machine a
    door can miss the hook's budget, :data:`recalldoor.BUDGET_S`, and the hook answers lexically); the last answer.

    Before each prompt the door is asked in-process with a budget of a minute (it is up, its vectors built: the
    hook's half second then goes to the answer alone) and a mark a slow answer left is taken away: a miss costs
    one try, not the 30 s back-off (:data:`.doorstate.BACKOFF_S`) that left 3 tries in 90 s on a loaded machine."""
    options = {"workspace": str(project), "limit": 3, "max_bytes": 1500}
    deadline = time.monotonic() + 90
    while True:
        await asyncio.to_thread(recalldoor.ask, root, prompt, options, True, 60.0)
        clear_missed(door_path(root))
        lines, err, code = await asyncio.to_thread(_run_hook, root, project, env, prompt)
        assert code == 0, err
        if (lines and lines[2].startswith("(hybrid recall via")) or time.monotonic() > deadline:
            return lines
        await asyncio.sleep(0.3)


def _server_pid(root: Path) -> int:
    """The pid of the process listening on the repo's door (the MCP server), from the socket's credentials."""
    import struct

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(str(door_path(root)))
        option = socket.SO_PEERCRED  # type: ignore[attr-defined]
        pid, _uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i")))
    return int(pid)


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    root, project, home = _memory(tmp_path)
    coldrecall.recall(root, "deploys")  # the index built
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others
    with fake_openai_server() as (url, record):
        config = _config(home, url)
        monkeypatch.setenv("MEMREPO_CONFIG", str(config))
        monkeypatch.setenv("HOME", str(home))
        yield root, project, home, config, record


@pytest.mark.slow
async def test_the_hook_and_recall_get_hybrid_through_the_mcp_servers_door(memory) -> None:
    root, project, home, config, _record = memory
    env = _env(home, config)
    lines, err, code = await asyncio.to_thread(_run_hook, root, project, env, PARAPHRASE)
    assert (lines, err, code) == ([], "", 0)  # no warm process: lexical, which finds no word of it
    async with mcp_session(root, project) as session:
        lines = await _hybrid_door(root, project, env)
        assert lines[2] == HYBRID_VIA
        pass
        assert oct(door_path(root).stat().st_mode & 0o777) == "0o600"
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "memrepo.cli.quick", "--repo", str(root), "recall", PARAPHRASE, "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        first = json.loads(done.stdout.splitlines()[0])
        assert first["mode"] == "hybrid" and first["text"] == PNPM and first["ref"] == "repo:MEMORY.md#L3"
        is_error, text = await call(session, "memory_recall", query=PARAPHRASE)  # its own tools answer as before
        assert not is_error and PNPM in text
        # A prompt with words in the entries: hybrid through the door too, the lexical hit first
        lines = await _hybrid_door(root, project, env, DEPLOYS)
        assert lines[2] == HYBRID_VIA and "staging cluster first" in lines[3]
        # MEMREPO_RECALL_DOOR=0: the hook answers itself, lexically
        off = _env(home, config, MEMREPO_RECALL_DOOR="0")
        lines, err, code = await asyncio.to_thread(_run_hook, root, project, off, DEPLOYS)
        assert code == 0 and lines[2] == "(lexical recall)"
    assert not door_path(root).exists()  # the server took its socket with it
    lines, err, code = await asyncio.to_thread(_run_hook, root, project, env, DEPLOYS)
    assert code == 0 and lines[2] == "(lexical recall)" and "staging cluster first" in lines[3]


@pytest.mark.slow
async def test_a_hung_door_a_killed_one_and_its_stale_socket_each_leave_lexical_recall(memory) -> None:
    root, project, home, config, record = memory
    env = _env(home, config)
    async with mcp_session(root, project):
        assert (await _hybrid_door(root, project, env))[2] == HYBRID_VIA
        pid = _server_pid(root)
        os.kill(pid, signal.SIGSTOP)  # a door that hangs: connects, never answers
        try:
            started = time.monotonic()
            lines, err, code = await asyncio.to_thread(_run_hook, root, project, env, DEPLOYS)
            waited = time.monotonic() - started
        finally:
            os.kill(pid, signal.SIGCONT)
        assert code == 0 and err == ""
        assert lines[2] == "(lexical recall)" and "staging cluster first" in lines[3]
        assert waited >= recalldoor.BUDGET_S  # it waited its budget for the door, then answered itself
        # Running again, it answers the request left in its queue in time: askers stop skipping it (doorstate)
        deadline = time.monotonic() + 60  # a hang guard
        while missed_path(door_path(root)).exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        # Killed mid-answer: the door is embedding the prompt (the endpoint holds it) when SIGKILL comes
        record.hold_word = "staging"
        proc = await asyncio.to_thread(_hook, root, project, env, DEPLOYS)
        assert await asyncio.to_thread(record.held.wait, 60)
        os.kill(pid, signal.SIGKILL)
        record.release.set()
        out, err = await asyncio.to_thread(proc.communicate, None, 120)
        assert proc.returncode == 0 and err == ""
        lines = _said(out)
        assert lines[2] == "(lexical recall)" and "staging cluster first" in lines[3]
        record.hold_word = None
        # The killed server's socket stays behind: refused at once, lexical recall answers
        assert door_path(root).is_socket()
        lines, err, code = await asyncio.to_thread(_run_hook, root, project, env, DEPLOYS)
        assert code == 0 and err == "" and lines[2] == "(lexical recall)"
        with pytest.raises(ConnectionRefusedError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.connect(str(door_path(root)))


@pytest.mark.slow
async def test_a_door_of_another_config_is_refused_and_the_hook_answers_lexically(memory) -> None:
    root, project, home, config, _record = memory
    async with mcp_session(root, project):
        assert (await _hybrid_door(root, project, _env(home, config)))[2] == HYBRID_VIA
        other = home / "other.toml"  # the same settings in another file: another config, as far as anyone knows
        other.write_text(config.read_text(encoding="utf-8"), encoding="utf-8")
        load_settings(other)
        lines, err, code = await asyncio.to_thread(_run_hook, root, project, _env(home, other), DEPLOYS)
        assert code == 0 and err == "" and lines[2] == "(lexical recall)" and "staging cluster first" in lines[3]


def _exchange(path: Path, data: bytes, as_user: int | None = None) -> bytes:
    """Send ``data`` to the door at ``path`` (from a child running as ``as_user`` when given); what comes back."""
    if as_user is None:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(30)
            conn.connect(str(path))
            conn.sendall(data)
            chunks = []
            while chunk := conn.recv(65536):
                chunks.append(chunk)
            return b"".join(chunks)
    code = (
        "import socket, sys\n"
        "c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); c.settimeout(30); c.connect(sys.argv[1])\n"
        "out = b''\n"
        "try:\n"
        "    c.sendall(sys.stdin.buffer.read())\n"
        "    while chunk := c.recv(65536): out += chunk\n"
        "except (ConnectionResetError, BrokenPipeError): pass  # closed unread: refused\n"
        "sys.stdout.buffer.write(out)\n"
    )
    done = subprocess.run(
        ["/usr/bin/python3", "-c", code, str(path)],  # one that user may run (not a venv under /root)
        input=data,
        capture_output=True,
        timeout=60,
        user=as_user,
        cwd="/",
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_door_answers_only_its_repo_source_config_and_user(memory, tmp_path: Path) -> None:
    root, _project, _home, config, _record = memory
    from memrepo.engine.repo.store import MemoryStore

    store = MemoryStore.open(root, load_settings(config))
    store.use_semantic()
    door = store.open_recall_door("a test")
    assert door is not None and door.ready.wait(60) and door.listening
    try:
        path = door_path(root)
        options = {"workspace": None, "limit": 3, "max_bytes": 1500}
        good = request_line(root, "deploys", options, hook=True)
        reply = json.loads(_exchange(path, good))
        assert reply["via"] == "a test" and "staging cluster first" in reply["hits"][0]["text"]
        other_repo = tmp_path / "other-repo"
        other_repo.mkdir()
        for change in ({"repo": str(other_repo)}, {"stamp": "another version"}, {"config": "absent:/elsewhere"}):
            line = json.dumps({**json.loads(good), **change}).encode() + b"\n"
            assert _exchange(path, line) == b""  # closed unanswered: the asker answers itself
        assert _exchange(path, b"not json\n") == b""
        if os.geteuid() == 0 and os.access("/usr/bin/python3", os.X_OK):  # only root can run another user here
            shared = Path(tempfile.mkdtemp(dir="/tmp"))
            try:  # past the folder's and the socket's modes (a link in an open folder, mode 0666): the door's
                # own check of the peer must refuse it
                os.chmod(shared, 0o755)
                os.link(path, shared / "door.sock")
                os.chmod(path, 0o666)
                assert _exchange(shared / "door.sock", good, as_user=65534) == b""
                assert json.loads(_exchange(path, good))["hits"]  # and it still answers its own user
            finally:
                shutil.rmtree(shared)
    finally:
        door.close()
        store.close()
    assert not path.exists()


def test_an_asker_finds_no_door_at_once_and_refuses_another_users(memory, monkeypatch: pytest.MonkeyPatch) -> None:
    root, *_ = memory
    options = {"workspace": None, "limit": 3, "max_bytes": 1500}
    assert recalldoor.ask(root, "deploys", options, hook=True) is None  # no socket
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(door_path(root)))
    listener.listen(1)
    try:  # a listener of this user the asker takes for another's: it leaves before sending anything
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.connect(str(door_path(root)))
            assert peer_uid(probe) == os.getuid()
        listener.accept()[0].close()
        monkeypatch.setattr(recalldoor.os, "getuid", lambda: os.geteuid() + 1)
        assert recalldoor.ask(root, "deploys", options, hook=True) is None
        conn = listener.accept()[0]
        conn.settimeout(5)
        assert conn.recv(100) == b""  # nothing was sent to it
        conn.close()
    finally:
        listener.close()


def test_a_repo_too_deep_for_a_socket_path_and_a_relative_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memrepo.engine.repo.store import MemoryStore

    deep = tmp_path / ("d" * 60) / ("e" * 60)  # the socket's path is past AF_UNIX's ~108 bytes
    deep.mkdir(parents=True)
    root, project, home = _memory(deep)
    assert len(str(door_path(root)).encode()) > 108
    coldrecall.recall(root, "deploys")
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)
    with fake_openai_server() as (url, _record):
        config = _config(home, url)
        monkeypatch.setenv("MEMREPO_CONFIG", str(config))
        store = MemoryStore.open(root, load_settings(config))
        store.use_semantic()
        door = store.open_recall_door("a test")
        assert door is not None and door.ready.wait(60) and door.listening
        try:
            monkeypatch.chdir(project)  # "." is the asker's folder, not the door's ("/", or wherever it runs)
            options = {"workspace": ".", "limit": 3, "max_bytes": 1500}
            hits = recalldoor.ask(root, "deploys", options, hook=True, budget=30)
            alone = coldrecall.recall(root, "deploys", workspace=str(project), limit=3, max_bytes=1500)
            assert hits is not None and [h.ref for h in hits] == [h.ref for h in alone] != []
            assert all(h.via == "a test" for h in hits)
        finally:
            door.close()
            store.close()


def test_a_door_answers_while_its_index_is_held_for_a_moment(memory) -> None:
    """The vector build of the door's own process holds the recall index at times: built is not unbuilt."""
    import sqlite3
    import threading

    from memrepo.engine.read.recallbuilding import build_state
    from memrepo.engine.read.recallkeys import index_path
    from memrepo.engine.repo.store import MemoryStore

    root, _project, _home, config, _record = memory
    store = MemoryStore.open(root, load_settings(config))
    store.use_semantic()
    door = store.open_recall_door("a test")
    assert door is not None and door.ready.wait(60) and door.listening
    options = {"workspace": None, "limit": 3, "max_bytes": 1500}
    try:
        assert recalldoor.ask(root, "deploys", options, hook=True, budget=30)  # seen built
        holder = sqlite3.connect(index_path(root), isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN EXCLUSIVE")
        assert build_state(root) == (False, None)  # held: a reader cannot tell
        release = threading.Timer(1.0, lambda: holder.execute("COMMIT"))
        release.start()
        try:
            hits = recalldoor.ask(root, "deploys", options, hook=True, budget=30)
        finally:
            release.join()
            holder.close()
        assert hits and "staging cluster first" in hits[0].text
    finally:
        door.close()
        store.close()


def test_the_hooks_own_recall_waits_for_an_index_held_for_a_moment(memory) -> None:
    """Without a door, the prompt hook's recall takes a built index held for a moment (a vector build) for built:
    it answers from the index, neither scanning the files nor starting a build."""
    import sqlite3
    import threading

    from memrepo.engine.read.recallbuilding import build_state
    from memrepo.engine.read.recallkeys import index_path

    root, _project, _home, _config, _record = memory
    started: list[Path] = []
    holder = sqlite3.connect(index_path(root), isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")  # the vectors file's build holds the index it attaches, as here
    release = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        hits = coldrecall.recall(root, "deploys", limit=3, max_bytes=1500, quick=True, start_build=started.append)
    finally:
        release.join()
        holder.close()
    assert hits and "staging cluster first" in hits[0].text
    assert hits[0].scan is None and started == []  # answered from the index: no scan, no build started
    assert build_state(root) == (True, None)


def _click(root: Path, env: dict[str, str], args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    """``memrepo`` through click itself (``memrepo.cli.main.run``): the path the quick one hands what it does not read."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from memrepo.cli.main import run; run()", "--repo", str(root), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.slow
def test_clicks_hook_prompt_and_recall_ask_the_door_as_the_quick_path_does(memory) -> None:
    from memrepo.engine.repo.store import MemoryStore

    root, project, home, config, _record = memory
    env = _env(home, config)
    store = MemoryStore.open(root, load_settings(config))
    store.use_semantic()
    door = store.open_recall_door("a test")
    assert door is not None and door.ready.wait(60) and door.listening
    try:
        deadline = time.monotonic() + 90
        while True:  # the door's first answers kick its build of vectors: prompt until it answers hybrid
            done = _click(root, env, ["hook", "prompt"], prompt_payload(project, PARAPHRASE))
            assert done.returncode == 0, done.stderr
            lines = _said(done.stdout)
            if (lines and lines[2].startswith("(hybrid recall via a test")) or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert lines[2] == "(hybrid recall via a test: lexical and semantic, 100% of entries have vectors)"
        assert lines[3].startswith("repo:MEMORY.md#L3 ") and lines[3].endswith(PNPM)
        done = _click(root, env, ["recall", PARAPHRASE, "--json"])
        assert done.returncode == 0, done.stderr
        first = json.loads(done.stdout.splitlines()[0])
        assert first["mode"] == "hybrid" and first["text"] == PNPM
        off = _env(home, config, MEMREPO_RECALL_DOOR="0")
        done = _click(root, off, ["hook", "prompt"], prompt_payload(project, PARAPHRASE))
        assert done.returncode == 0 and _said(done.stdout) == []  # no door: lexical, which finds no word of it
    finally:
        door.close()
        store.close()


def test_the_quick_paths_look_for_the_door_where_it_listens(tmp_path: Path) -> None:
    """``cli.quickbase.door_present`` (which spares a process with no door the door's module) looks at
    the door's own socket path, and finds it only when it is there."""
    from memrepo.cli.quickbase import DOOR_FILE, door_present
    from memrepo.engine.read.recalldoor import door_path

    assert tmp_path / DOOR_FILE == door_path(tmp_path)
    assert not door_present(tmp_path)
    door_path(tmp_path).parent.mkdir(parents=True)
    door_path(tmp_path).touch()
    assert door_present(tmp_path)


def test_a_door_takes_back_the_path_of_a_dead_doors_socket(memory) -> None:
    """Two sessions on one repo: the door that owned the socket dies (kill -9 leaves the file, refusing
    connections); the surviving door takes the path back, so askers reach a door again (breaker4)."""
    from memrepo.engine.repo.store import MemoryStore

    root, _project, _home, config, _record = memory
    store = MemoryStore.open(root, load_settings(config))
    store.use_semantic()
    door = store.open_recall_door("a test")
    assert door is not None and door.ready.wait(60) and door.listening
    options = {"workspace": None, "limit": 3, "max_bytes": 1500}
    try:
        path = door_path(root)
        dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # another process's door, then its death
        scratch = path.with_name("dead.sock")
        dead.bind(str(scratch))
        dead.listen(1)
        os.replace(scratch, path)
        dead.close()  # the file stays and refuses connections, as after kill -9
        assert recalldoor.ask(root, "deploys", options, hook=True, budget=2) is None
        deadline = time.monotonic() + 60  # a hang guard
        hits = None
        while hits is None and time.monotonic() < deadline:
            time.sleep(0.5)
            hits = recalldoor.ask(root, "deploys", options, hook=True, budget=5)
        assert hits and "staging cluster first" in hits[0].text
    finally:
        door.close()
        store.close()
