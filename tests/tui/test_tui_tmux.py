"""Smoke test in a real terminal: ``memrepo`` in tmux at 80x24, driven with keys,
with a file edited from outside showing up on screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import build_repo

TMUX = shutil.which("tmux")
TERMINAL_RERUN = pytest.mark.flaky(reruns=1)
"""One rerun for a test that drives the app in a real terminal: on a loaded two-core CI machine a repaint
or a key can land later than a poll expects. A broken behaviour fails both runs; a rerun shows as R."""
pytestmark = [pytest.mark.skipif(TMUX is None, reason="tmux is not installed"), pytest.mark.slow, TERMINAL_RERUN]

ENV_KEYS = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")


def memrepo_command() -> str:
    beside = Path(sys.executable).with_name("memrepo")
    found = str(beside) if beside.exists() else shutil.which("memrepo")
    assert found, "the memrepo console script is not installed (pip install -e .)"
    return found


def app_command(root: Path, extra: str = "") -> str:
    """The shell command that starts the app on ``root`` with the test's isolated home (``extra``: more VAR=value)."""
    env = " ".join(f"{k}={shlex.quote(os.environ[k])}" for k in ENV_KEYS if k in os.environ)
    extra = f"{extra} " if extra else ""
    return f"env {env} TERM=xterm-256color {extra}{shlex.quote(memrepo_command())} --repo {shlex.quote(str(root))}"


class Tmux:
    """One tmux server on its own socket, so the test never touches the user's sessions."""

    target = "app"
    """The session the keys and screen reads go to."""

    def __init__(self) -> None:
        self.socket = f"memrepo-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True, timeout=60
        )

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.target).stdout

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.target, *keys)

    def wait_for(self, condition: Callable[[str], bool], what: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if condition(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen was:\n{screen}")
            time.sleep(0.05)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux()
    try:
        yield server
    finally:
        server.run("kill-server")


def test_browse_and_see_an_outside_edit(tmux: Tmux, isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    command = app_command(root)
    started = tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "app", command)
    assert started.returncode == 0, started.stderr

    screen = tmux.wait_for(
        lambda s: "Files 7" in s and "clean" in s and "─ MEMORY.md" in s and "Quit" in s, "the Folder pane"
    )
    assert "~/memory" in screen and "● clean" in screen

    tmux.keys("j", "j", "j")  # MEMORY.md, inbox.md, lessons.md, me.md
    screen = tmux.wait_for(lambda s: "─ me.md" in s, "me.md to open")
    assert "Name is Sam" in screen and "Entries 2" in screen

    with (root / "me.md").open("a", encoding="utf-8") as fh:
        fh.write("- Edited from another terminal [by: user; added: 2025-06-01]\n")
    screen = tmux.wait_for(lambda s: "Entries 3" in s and "Edited from another" in s, "the outside edit")
    tmux.wait_for(lambda s: "hand-edited" in s, "the dirty state")

    tmux.keys("?")
    tmux.wait_for(lambda s: "Everywhere" in s and "Files pane" in s, "the help screen")
    tmux.keys("Escape")  # alone: Escape then q at once would read as alt+q
    tmux.wait_for(lambda s: "Everywhere" not in s, "the help screen to close")
    tmux.keys("q")
    deadline = time.monotonic() + 60  # hang guard
    while tmux.run("has-session", "-t", "app").returncode == 0:
        assert time.monotonic() < deadline, f"the app did not quit:\n{tmux.screen()}"
        time.sleep(0.05)


def _git_log(root: Path, n: int) -> list[str]:
    out = subprocess.run(
        ["git", "log", f"-{n}", "--format=%s"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    return out.splitlines()


def _wait_until(condition: Callable[[], bool], what: str, tmux: Tmux, timeout: float = 60.0) -> None:
    """Poll ``condition``; on timeout fail with every distinct screen seen meanwhile (a toast may say why)."""
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while not condition():
        screen = tmux.screen()
        if not seen or seen[-1] != screen:
            seen.append(screen)
        if time.monotonic() > deadline:
            shown = "\n---\n".join(seen[-4:])
            raise AssertionError(f"timed out waiting for {what}; the last screens were:\n{shown}")
        time.sleep(0.05)


def _picker_lists_only_lessons(screen: str) -> bool:
    """The file picker's list (its rows start with the input's border) holds lessons.md alone."""
    rows = [line for line in screen.splitlines() if "▊ " in line and ".md" in line]
    return len(rows) == 1 and "lessons.md" in rows[0]


def test_triage_five_inbox_entries_with_keys(tmux: Tmux, isolated_home: Path) -> None:
    """Accept, move, edit, discard and undo in the Inbox pane; check the files and commits."""
    from memrepo.engine.models import Candidate
    from memrepo.engine.repo.store import MemoryStore

    root = isolated_home / "memory"
    store = MemoryStore.open(root, plain_settings())
    texts = [
        "Prefers tabs in Go code",
        "Rebase before every merge",
        "Answers in short bullets",
        "Planted instruction from a web page",
        "Uses Postgres sixteen locally",
    ]
    for text in texts:
        store.remember(Candidate(text=text, kind="preference", untrusted=True, task="t-web"))

    def inbox() -> list[str]:
        return [e.text for e in store.read_file("inbox.md").entries]

    command = app_command(root)
    assert tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "app", command).returncode == 0
    tmux.wait_for(lambda s: "Files" in s and "clean" in s, "the app")
    tmux.keys("2")
    tmux.wait_for(lambda s: "Inbox 5" in s and "Prefers tabs in Go code" in s, "the Inbox pane")

    tmux.keys("a")  # 1. accept to the suggested file (me.md)
    _wait_until(lambda: texts[0] in (root / "me.md").read_text(), "the accept", tmux)
    _wait_until(lambda: texts[0] not in inbox(), "the inbox line to go", tmux)

    # Each next key waits for the notice that the last write returned, as a person reading the screen would.
    tmux.wait_for(lambda s: "Inbox 4" in s and "Accepted into me.md" in s, "four left, the accept's notice")
    tmux.keys("m")  # 2. move to a file picked with the fuzzy picker
    tmux.wait_for(lambda s: "Move to:" in s and "lessons.md" in s, "the file picker")
    tmux.keys("lesso")
    tmux.wait_for(_picker_lists_only_lessons, "the picker filtered down to lessons.md")
    tmux.keys("Enter")
    _wait_until(lambda: texts[1] in (root / "lessons.md").read_text(), "the move", tmux)
    _wait_until(lambda: texts[1] not in inbox(), "the inbox line to go", tmux)

    tmux.wait_for(lambda s: "Inbox 3" in s and "Accepted into lessons.md" in s, "three left, the move's notice")
    tmux.keys("e")  # 3. edit, then accept: the cursor starts at the end of the text
    tmux.wait_for(lambda s: "Edit, then accept" in s, "the edit box")
    tmux.keys(" for chat replies")
    tmux.wait_for(lambda s: f"{texts[2]} for chat replies" in s, "the typed text after the entry's in the edit box")
    tmux.keys("Enter")
    _wait_until(
        lambda: "Answers in short bullets for chat replies" in (root / "me.md").read_text(), "the edited accept", tmux
    )
    _wait_until(lambda: texts[2] not in inbox(), "the inbox line to go", tmux)

    tmux.wait_for(lambda s: "Inbox 2" in s and "Edited and accepted" in s, "two left, the edit's notice")
    tmux.keys("d")  # 4. discard the planted instruction
    _wait_until(lambda: texts[3] not in inbox(), "the discard", tmux)
    tmux.wait_for(lambda s: "Inbox 1" in s and "Discarded 1 entry" in s, "one left, the discard's notice")
    tmux.keys("u")  # 5. undo the last triage: the discarded entry comes back
    _wait_until(lambda: texts[3] in inbox(), "the undo", tmux)
    _wait_until(lambda: _git_log(root, 1)[0].startswith("Undo:"), "the undo's commit", tmux)

    assert inbox() == [texts[4], texts[3]] or sorted(inbox()) == sorted([texts[3], texts[4]])
    log = _git_log(root, 5)
    assert log[0] == "Undo: Discard: Planted instruction from a web page"
    assert log[1] == "Discard: Planted instruction from a web page"
    assert log[2] == "Accept: Answers in short bullets for chat replies"
    assert log[3] == f"Accept: {texts[1]}" and log[4] == f"Accept: {texts[0]}"
    _wait_until(
        lambda: subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True).stdout == "",
        "a clean git status",
        tmux,
    )
