"""``memrepo remember`` handed to the repo's write server (cli/quickremember.py, cli/writeserver.py):
the same bytes and exit codes as the click command, the write done by the server (the client loads
neither pygit2 nor pydantic), and every way a server can be missing, dead, stale or foreign ending in
a write made here, with no entry lost or doubled."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers.repo_helpers import git, merge_conflict, plain_settings

from memrepo.cli import quickremember
from memrepo.engine.repo.store import MemoryStore

CLIENT = """
import sys
sys.argv = ["memrepo", *sys.argv[1:]]
try:
    from memrepo.cli import quick
    quick.run()
finally:
    print("heavy:", "pygit2" in sys.modules or "pydantic" in sys.modules, file=sys.stderr)
"""

WAIT_S = 60.0
"""Longest wait for a server to start or stop (generous: machines are loaded)."""


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private runtime folder (a unix socket path has ~100 bytes), servers on; every server killed after."""
    folder = Path(tempfile.mkdtemp(prefix="mrw", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("MEMREPO_WRITE_SERVER", "60")
    monkeypatch.setenv("MEMREPO_CONFIG", str(folder / "none.toml"))
    yield folder
    fallback = Path(os.environ.get("TMPDIR") or "/tmp") / f"memrepo-{os.getuid()}"  # a relative XDG_RUNTIME_DIR's
    for pid in server_pids(folder) + server_pids(fallback, ""):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    shutil.rmtree(folder, ignore_errors=True)


def server_pids(folder: Path, sub: str = "memrepo") -> list[int]:
    """The pids written in the servers' lock files under ``folder`` (its ``sub`` folder) that still run."""
    pids = []
    for lock in (folder / sub).glob("*.lock"):
        text = lock.read_text().strip()
        if text.isdigit() and Path(f"/proc/{text}").exists():
            pids.append(int(text))
    return pids


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    return store.root


def remember(repo: Path, *args: str, cwd: Path | None = None, **env: str) -> tuple[str, str, int, bool]:
    """``memrepo --repo REPO remember ARGS`` in a new process: out, err (without the probe line), code, heavy."""
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, "--repo", str(repo), "remember", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, **env),
        cwd=cwd,
        timeout=120,
    )
    err, _, heavy = done.stderr.rpartition("heavy: ")
    return done.stdout, err, done.returncode, heavy.strip() == "True"


def socket_of(repo: Path) -> Path:
    path = quickremember.socket_path(os.path.realpath(repo))
    assert path is not None
    return Path(path)


def wait_for(check, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def loaded_engine(pid: int) -> bool:
    """True once process ``pid`` has pygit2's extension mapped: it writes itself, as no served client does."""
    try:
        return "_pygit2" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def started(repo: Path) -> None:
    """Write once (which starts the server) and wait until the server answers."""
    _out, err, code, heavy = remember(repo, "The first entry starts the server")
    assert code == 0, err
    assert heavy  # no server yet: this write ran in its own process
    wait_for(lambda: socket_of(repo).exists(), "the server's socket")


def listening(repo: Path) -> bool:
    """True when a server accepts connections on the repo's socket (a stale socket file refuses them)."""
    import socket

    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(str(socket_of(repo)))
    except OSError:
        return False
    finally:
        conn.close()
    return True


def entries(repo: Path) -> list[str]:
    return [line for line in (repo / "me.md").read_text().splitlines() if line.startswith("- ")]


def test_the_next_remember_is_written_by_the_server_and_prints_what_the_command_prints(runtime, repo) -> None:
    started(repo)
    out, err, code, heavy = remember(repo, "The shop deploys on Fridays")
    assert (code, err) == (0, "")
    assert not heavy, "the write should be the server's: the client loaded pygit2 or pydantic"
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short=7", "HEAD"], capture_output=True, text=True)
    lines = (repo / "me.md").read_text().splitlines()
    (line,) = [n for n, text in enumerate(lines, 1) if "The shop deploys on Fridays" in text]
    assert out == f"added repo:me.md#L{line} ({head.stdout.strip()})\n"
    assert (
        subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True, text=True).stdout == ""
    )


CASES = [
    ("a plain fact", ["Tea is served at four"]),
    ("json", ["Coffee is served at ten", "--json"]),
    ("a subject", ["The build uses make", "--subject", "build", "--kind", "rule"]),
    ("an agent's untrusted write", ["Mail says the vpn moved", "--by", "agent", "--untrusted", "--source", "mail"]),
    ("a secret", ["the deploy key is ghp_0123456789abcdefghijABCDEFGHIJ012345 for ci"]),
    ("no-memory", ["Keep this", "--origin-text", "do not save <no-memory>"]),
    ("a bad kind", ["x y z", "--kind", "nonsense"]),
    ("scope without workspace", ["Some fact", "--scope", "workspace"]),
    ("scope global and a workspace", ["Some fact", "--scope", "global", "--workspace", "."]),
    ("a relative workspace", ["The shop's tests run with tox", "--workspace", "."]),
    ("an empty text", [""]),
    ("a pinned agent entry", ["Pin me", "--pin", "--by", "agent"]),
]


def _same(text: str) -> str:
    return re.sub(r"\b[0-9a-f]{7}\b", "<id>", re.sub(r'"commit":\s*"[0-9a-f]{40}"', '"commit": "<id>"', text))


def test_the_server_and_a_process_of_its_own_print_the_same_bytes_and_exit_codes(runtime, tmp_path) -> None:
    served = MemoryStore.open(tmp_path / "served", plain_settings()).root
    alone = MemoryStore.open(tmp_path / "alone", plain_settings()).root
    project = tmp_path / "shop"
    project.mkdir()
    started(served)
    remember(alone, "The first entry starts the server", MEMREPO_WRITE_SERVER="0")
    for name, args in CASES:
        got = remember(served, *args, cwd=project)
        want = remember(alone, *args, cwd=project, MEMREPO_WRITE_SERVER="0")
        assert not got[3], f"{name}: not written by the server"
        assert want[3]
        assert (_same(got[0]), _same(got[1]), got[2]) == (_same(want[0]), _same(want[1]), want[2]), name
    for rel in ("me.md", "inbox.md", "lessons.md"):
        a, b = served / rel, alone / rel
        assert (a.read_text() if a.exists() else None) == (b.read_text() if b.exists() else None), rel
    served_ws = sorted(p.name for p in (served / "workspaces").glob("*.md"))
    assert served_ws == sorted(p.name for p in (alone / "workspaces").glob("*.md")) and served_ws


def test_a_killed_server_leaves_a_socket_the_next_write_goes_past(runtime, repo) -> None:
    started(repo)
    (pid,) = server_pids(runtime)
    os.kill(pid, signal.SIGKILL)
    wait_for(lambda: not Path(f"/proc/{pid}").exists(), "the server to die")
    assert socket_of(repo).exists()
    out, err, code, heavy = remember(repo, "Written after the server died")
    assert code == 0 and heavy and out.startswith("added "), err
    wait_for(lambda: listening(repo), "a new server")
    out, err, code, heavy = remember(repo, "Written by the new server")
    assert code == 0 and not heavy, err
    assert sum("Written" in line for line in entries(repo)) == 2


def test_a_server_started_with_another_config_refuses_and_exits_and_the_client_writes(runtime, repo) -> None:
    started(repo)
    (pid,) = server_pids(runtime)
    (runtime / "none.toml").write_text("[writes]\nagent_to_inbox = true\n")
    subprocess.run([sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "health"], capture_output=True)
    out, err, code, heavy = remember(repo, "An agent fact after the config changed", "--by", "agent")
    assert code == 0 and heavy, err  # written here, with the new config
    assert "inbox" in out
    wait_for(lambda: not Path(f"/proc/{pid}").exists(), "the old server to exit")


def test_a_client_with_another_home_is_not_served(runtime, repo, tmp_path) -> None:
    started(repo)
    other = tmp_path / "other-home"
    other.mkdir()
    _out, err, code, heavy = remember(repo, "From another home", HOME=str(other))
    assert code == 0 and heavy, err


def started_pid(runtime: Path) -> int:
    """The pid a server wrote in its lock file (there once it started, alive or not): the wait for a server that
    may already be gone, as one idle for a second is on a loaded machine before this sees its socket."""
    found: list[int] = []

    def written() -> bool:
        found[:] = [
            int(t) for lock in (runtime / "memrepo").glob("*.lock") if (t := lock.read_text().strip()).isdigit()
        ]
        return len(found) == 1

    wait_for(written, "a server's pid in its lock file")
    return found[0]


def test_the_server_exits_when_idle_and_when_its_repo_is_gone(runtime, repo, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MEMREPO_WRITE_SERVER", "1")
    _out, err, code, heavy = remember(repo, "The first entry starts the server")
    assert code == 0 and heavy, err
    pid = started_pid(runtime)  # not started(): its socket lives a second, which a loaded machine can miss
    wait_for(lambda: not Path(f"/proc/{pid}").exists(), "the idle server to exit")
    assert not socket_of(repo).exists()
    monkeypatch.setenv("MEMREPO_WRITE_SERVER", "600")
    remember(repo, "Another start")
    wait_for(lambda: len(server_pids(runtime)) == 1, "a server")
    (pid,) = server_pids(runtime)
    shutil.rmtree(repo)
    wait_for(lambda: not Path(f"/proc/{pid}").exists(), "the server of a removed repo to exit")


def test_turned_off_no_server_starts(runtime, repo, monkeypatch) -> None:
    for off in ("0", "off"):
        monkeypatch.setenv("MEMREPO_WRITE_SERVER", off)
        for n in range(2):
            _out, err, code, heavy = remember(repo, f"Written alone {off} {n}")
            assert code == 0 and heavy, err
    assert not (runtime / "memrepo").exists() or not list((runtime / "memrepo").iterdir())


def test_a_runtime_folder_others_can_read_is_not_used(runtime, repo) -> None:
    (runtime / "memrepo").mkdir(mode=0o755)
    os.chmod(runtime / "memrepo", 0o755)
    for n in range(2):
        _out, err, code, heavy = remember(repo, f"Written with an open folder {n}")
        assert code == 0 and heavy, err
    assert list((runtime / "memrepo").iterdir()) == []


def test_a_repo_the_command_creates_starts_no_server(runtime, tmp_path) -> None:
    new = tmp_path / "new-memory"
    _out, err, code, heavy = remember(new, "The very first entry")
    assert code == 0 and heavy and (new / ".git").is_dir(), err
    assert not (runtime / "memrepo").exists() or not list((runtime / "memrepo").glob("*.sock"))


def test_writes_from_many_clients_at_once_are_each_committed_once(runtime, repo) -> None:
    started(repo)
    texts = [f"Parallel fact number {n} about valves" for n in range(8)]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda t: remember(repo, t), texts))
    assert all(code == 0 for _o, _e, code, _h in results), results
    assert sum(not heavy for *_r, heavy in results) >= 1
    lines = entries(repo)
    for text in texts:
        assert sum(text in line for line in lines) == 1, text
    log = subprocess.run(["git", "-C", str(repo), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert sum("Parallel fact" in subject for subject in log.splitlines()) == 8
    assert (
        subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True, text=True).stdout == ""
    )


def test_a_foreign_request_gets_no_answer_and_the_server_exits(runtime, repo) -> None:
    import socket

    started(repo)
    (pid,) = server_pids(runtime)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(str(socket_of(repo)))
    conn.sendall(json.dumps({"v": 1, "repo": str(repo), "stamp": "another version", "args": {}}).encode())
    conn.shutdown(socket.SHUT_WR)
    assert conn.recv(100) == b""
    conn.close()
    wait_for(lambda: not Path(f"/proc/{pid}").exists(), "the server to exit")
    assert len(entries(repo)) == 1


@pytest.mark.parametrize(
    ("argv", "plain"),
    [
        (["remember", "x"], True),
        (["--repo", "/r", "remember", "x", "--kind", "rule", "--pin", "--json"], True),
        (["remember", "--kind", "rule", "x"], True),
        (["remember", "x", "--kind=rule"], False),
        (["remember", "x", "--help"], False),
        (["remember", "x", "--pin", "--pin"], False),
        (["remember", "x", "y"], False),
        (["remember", "-x"], False),
        (["remember"], False),
        (["remember", "x", "--by", "robot"], False),
        (["remember", "x", "--workspace", " "], False),
        (["remember", "x", "--kind"], False),
        (["recall", "x"], False),
    ],
)
def test_only_plain_forms_are_handed_over(argv: list[str], plain: bool) -> None:
    assert (quickremember.parse_remember(argv) is not None) is plain


def test_the_config_turns_it_off_and_the_environment_wins(runtime, repo, monkeypatch) -> None:
    monkeypatch.delenv("MEMREPO_WRITE_SERVER")
    (runtime / "none.toml").write_text("[writes]\nserver_idle_s = 0\n")
    subprocess.run([sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "health"], capture_output=True)
    for n in range(2):
        _out, err, code, heavy = remember(repo, f"Written alone by config {n}")
        assert code == 0 and heavy, err
    assert not (runtime / "memrepo").exists() or not list((runtime / "memrepo").glob("*.sock"))
    monkeypatch.setenv("MEMREPO_WRITE_SERVER", "60")
    started(repo)
    _out, err, code, heavy = remember(repo, "Written by the server the environment asked for")
    assert code == 0 and not heavy, err


def _raw_request(repo: Path, text: str) -> bytes:
    args = quickremember.parse_remember(["--repo", str(repo), "remember", text])
    assert args is not None
    data = quickremember.request(os.path.abspath(repo), args)
    assert data is not None
    return data


def test_a_client_that_left_before_the_write_gets_no_write(runtime, repo) -> None:
    import socket

    from filelock import FileLock

    started(repo)
    lock = FileLock(str(repo / ".git" / "memrepo" / "write.lock"))
    with lock:  # the server waits for it (less than its hand-back wait) while the client goes away
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(str(socket_of(repo)))
        conn.sendall(_raw_request(repo, "Typed by mistake then interrupted"))
        conn.close()
        time.sleep(0.1)
    _out, err, code, heavy = remember(repo, "Written after the interrupted one")
    assert code == 0 and not heavy, err
    assert not any("Typed by mistake" in line for line in entries(repo))


def test_a_busy_lock_hands_the_write_back_and_the_client_waits_for_it(runtime, repo) -> None:
    from filelock import FileLock

    started(repo)
    (pid,) = server_pids(runtime)
    lock = FileLock(str(repo / ".git" / "memrepo" / "write.lock"))
    lock.acquire()
    try:
        client = subprocess.Popen(
            [sys.executable, "-c", CLIENT, "--repo", str(repo), "remember", "Written while another writer held on"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        # A state, not a time: the client loaded the engine, so the server handed the write back and
        # the client now writes itself, waiting for the lock (a sleep of 1 s failed 3 of 7 runs under
        # load: the client had not even reached the server yet, which then wrote it).
        wait_for(lambda: client.poll() is not None or loaded_engine(client.pid), "the client to take the write back")
    finally:
        lock.release()
    out, err = client.communicate(timeout=120)
    assert client.returncode == 0 and out.startswith("added "), err
    assert "heavy: True" in err  # written by the client itself, after the lock came free
    assert server_pids(runtime) == [pid]  # the server is still there for the next write
    assert sum("another writer held on" in line for line in entries(repo)) == 1


def test_a_connection_that_sends_nothing_does_not_hold_up_the_next_client(runtime, repo) -> None:
    import socket

    started(repo)
    idle = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    idle.connect(str(socket_of(repo)))
    try:
        _out, err, code, heavy = remember(repo, "Written past a silent connection")
    finally:
        idle.close()
    assert code == 0 and not heavy, err


def test_a_symlinked_repo_is_refused_as_the_command_refuses_it(runtime, repo, tmp_path) -> None:
    link = tmp_path / "memory-link"
    link.symlink_to(repo)
    alone = remember(link, "Through a link", MEMREPO_WRITE_SERVER="0")
    assert alone[2] == 1 and "symlink" in alone[1]
    first = remember(link, "Through a link")
    assert first[:3] == alone[:3]
    assert not (runtime / "memrepo").exists() or not list((runtime / "memrepo").glob("*.sock"))  # a failed write
    started(repo)
    served = remember(link, "Through a link")
    assert served[:3] == alone[:3] and not served[3]


def test_a_client_in_another_time_zone_or_a_removed_folder_writes_itself(runtime, repo, tmp_path) -> None:
    started(repo)
    _out, err, code, heavy = remember(repo, "Written on the far side of the date line", TZ="Pacific/Kiritimati")
    assert code == 0 and heavy, err
    gone = tmp_path / "gone"
    gone.mkdir()
    script = f'cd {gone} && rmdir {gone} && exec "$0" -c "$1" --repo "$2" remember "From a removed folder"'
    done = subprocess.run(["sh", "-c", script, sys.executable, CLIENT, str(repo)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("added "), done.stderr


def test_a_relative_runtime_folder_is_not_made_in_the_current_folder(runtime, repo, tmp_path) -> None:
    here = tmp_path / "project"
    here.mkdir()
    _out, err, code, _heavy = remember(repo, "Written with a relative runtime folder", cwd=here, XDG_RUNTIME_DIR="rel")
    assert code == 0, err
    assert not (here / "rel").exists()


def test_the_wait_is_finite_and_positive_or_there_is_no_server(monkeypatch) -> None:
    from memrepo.engine.configpath import ReadKeys

    for value, want in (("inf", 0.0), ("nan", 0.0), ("-5", 0.0), ("off", 0.0), ("90", 90.0), ("1e9", 86_400.0)):
        monkeypatch.setenv("MEMREPO_WRITE_SERVER", value)
        assert quickremember.idle_seconds(ReadKeys()) == want, value
    monkeypatch.delenv("MEMREPO_WRITE_SERVER")
    assert quickremember.idle_seconds(ReadKeys()) == 300.0
    assert quickremember.idle_seconds(ReadKeys(server_idle_s=float("inf"))) == 0.0


def test_a_stop_signal_during_a_write_lets_it_finish(monkeypatch) -> None:
    from memrepo.cli import writeserver

    assert not issubclass(writeserver.Stop, Exception)  # the command's body, which catches Exception, cannot eat it

    class Busy:
        busy = True
        stopping = False

    busy = Busy()
    monkeypatch.setattr(writeserver, "_serving", [busy])
    writeserver._stop(signal.SIGTERM, None)
    assert busy.stopping
    busy.busy = False
    with pytest.raises(writeserver.Stop):
        writeserver._stop(signal.SIGTERM, None)


def test_after_a_served_write_the_next_recall_re_reads_nothing(runtime, repo, monkeypatch) -> None:
    from memrepo.engine.read import coldrecall
    from memrepo.engine.read import recall as recall_module
    from memrepo.engine.read.recallkeys import stamps_of, walk
    from memrepo.engine.read.recallpost import file_entries

    started(repo)
    coldrecall.recall(repo, "anything")  # the persisted index, built
    _out, err, code, heavy = remember(repo, "The kiln fires at dawn")
    assert code == 0 and not heavy, err

    def fresh() -> bool:
        index = recall_module.RecallIndex(repo)
        try:
            shown = {iid for (iid,) in index.db.execute("SELECT id FROM shown")}
            paths = [path for (path,) in index.db.execute("SELECT path FROM files")]
            made = sum(1 for iid, text, _m in file_entries(index.db, paths) if "kiln" in text and iid in shown)
            return index._info("stamps") == stamps_of(walk(repo)) and made == 1
        finally:
            index.close()

    wait_for(fresh, "the server to bring the recall index up to date")
    probe = (
        "import sys; from pathlib import Path; from memrepo.engine.read import coldrecall;"
        f"hits = coldrecall.recall(Path({str(repo)!r}), 'kiln');"
        "print(len(hits), 'memrepo.engine.redaction' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["1", "False"], done.stderr  # its shown text was made by the server
    reads: list[str] = []
    from memrepo.engine.read import recallbuild

    real = recallbuild.update_file
    monkeypatch.setattr(
        recallbuild, "update_file", lambda db, root, rel, *a: reads.append(rel) or real(db, root, rel, *a)
    )
    hits = coldrecall.recall(repo, "kiln")
    assert [h.text for h in hits] == ["The kiln fires at dawn"]
    assert reads == []


def test_a_repo_whose_recall_index_was_never_built_gets_none_from_the_server(runtime, repo) -> None:
    started(repo)
    _out, err, code, heavy = remember(repo, "No index yet")
    assert code == 0 and not heavy, err
    remember(repo, "Still no index")  # served after the first one's refresh, if any, ran
    assert not (repo / ".git" / "memrepo" / "recall.sqlite").exists()


def test_after_a_served_write_the_block_last_asked_for_is_kept_at_the_new_commit(runtime, repo, tmp_path) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    started(repo)
    _out, err, code, _heavy = remember(repo, "The shop ships on Fridays", "--workspace", str(project))
    assert code == 0, err
    probe = (
        "import sys; sys.argv = ['memrepo', '--repo', sys.argv[1], 'context', '--workspace', sys.argv[2]];"
        "from memrepo.cli import quick; quick.run();"
        "print('redaction loaded:', 'memrepo.engine.redaction' in sys.modules, file=sys.stderr)"
    )

    def context() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", probe, str(repo), str(project)], capture_output=True, text=True, timeout=120
        )

    assert "Fridays" in context().stdout  # asked for once: rendered, and noted
    _out, err, code, heavy = remember(repo, "The shop's tills close at six", "--workspace", str(project))
    assert code == 0 and not heavy, err
    folder = repo / ".git" / "memrepo" / "context-cache"

    def kept_with_the_write() -> bool:
        try:  # a block may go between the listing and its read (the server's put drops stale ones)
            return any(not p.name.startswith(".") and b"tills close at six" in p.read_bytes() for p in folder.iterdir())
        except FileNotFoundError:
            return False

    wait_for(kept_with_the_write, "the block kept at the new commit")
    done = context()
    assert "tills close at six" in done.stdout and "Fridays" in done.stdout
    assert "redaction loaded: False" in done.stderr  # kept by the server: nothing rendered here
    shutil.rmtree(folder)
    alone = subprocess.run(  # rendered anew here: the same bytes
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "context", "--workspace", str(project)],
        capture_output=True,
        text=True,
        env=dict(os.environ, MEMREPO_WRITE_SERVER="0"),
        timeout=120,
    )
    assert alone.stdout == done.stdout


def test_the_server_applies_a_write_kept_in_a_merge_once_the_merge_is_aborted(runtime, repo) -> None:
    """No later write comes: the server's idle tick applies the kept write (docs/architecture.md §3)."""
    started(repo)
    merge_conflict(repo, "lessons.md", "# Lessons")
    _out, err, code, heavy = remember(repo, "Written during the merge")
    assert code != 0 and "kept in .git/memrepo/pending/" in err, err
    assert not heavy, "the refusal should be the server's"
    time.sleep(1.5)  # idle ticks while still blocked: they try and keep it
    assert not any("Written during the merge" in line for line in entries(repo))
    git(repo, "merge", "--abort")
    wait_for(lambda: any("Written during the merge" in line for line in entries(repo)), "the kept write applied")
    pending = repo / ".git" / "memrepo" / "pending"
    wait_for(lambda: not any(pending.glob("*.json")), "the kept write's record removed")
    assert listening(repo)  # the server serves on
