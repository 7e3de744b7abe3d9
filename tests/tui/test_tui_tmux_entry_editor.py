"""``ctrl+o`` in the edit box hands the terminal to real vim or nano and saves what they wrote (tmux at 80x24).

The inbox entry is edited in the editor, the app takes the terminal back, and the entry is accepted
through the same write as ``enter`` in the box; vim's ``:cq`` (an editor that fails) changes nothing.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_tui_tmux as base
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

pytestmark = [pytest.mark.skipif(base.TMUX is None, reason="tmux is not installed"), pytest.mark.slow]

TEXTS = ["Use pnpm for the web app", "Prefers dark mode"]
VIM = "vim -u NONE -N -i NONE -n"  # no vimrc, viminfo or swap file: the isolated home has none anyway
NANO = "nano --ignorercfiles"


@pytest.fixture
def tmux() -> Iterator[base.Tmux]:
    server = base.Tmux()  # its own -L socket
    try:
        yield server
    finally:
        server.run("kill-server")


def _start(tmux: base.Tmux, root: Path, editor: str) -> MemoryStore:
    store = MemoryStore.open(root, plain_settings())
    for text in TEXTS:
        store.remember(Candidate(text=text, kind="preference", untrusted=True, task="t-web"))
    command = base.app_command(root, f"EDITOR='{editor}' VISUAL=")
    assert tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "app", command).returncode == 0
    tmux.wait_for(lambda s: "Files" in s and "clean" in s, "the app")
    tmux.keys("2")
    tmux.wait_for(lambda s: "Inbox 2" in s and TEXTS[1] in s, "the Inbox pane")
    tmux.keys("j", "e")
    tmux.wait_for(lambda s: "Edit, then accept" in s and "ctrl+o edits in $EDITOR" in s, "the edit box and its keys")
    return store


def _log(root: Path) -> list[str]:
    return subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True).stdout.splitlines()


def _accepted(tmux: base.Tmux, root: Path, store: MemoryStore, text: str) -> None:
    tmux.wait_for(lambda s: "Edited and accepted" in s and "Inbox 1" in s, "the app back with the accept")
    base._wait_until(lambda: text in (root / "me.md").read_text(encoding="utf-8"), "the entry in me.md", tmux)
    assert [e.text for e in store.read_file("inbox.md").entries] == [TEXTS[0]]


@pytest.mark.skipif(shutil.which("vim") is None, reason="vim is not installed")
def test_ctrl_o_edits_the_entry_in_vim_and_accepts_it(tmux: base.Tmux, isolated_home: Path) -> None:
    root = isolated_home / "memory"
    store = _start(tmux, root, VIM)
    before = _log(root)
    tmux.keys("C-o")
    tmux.wait_for(lambda s: "memrepo-entry-" in s and "Prefers dark mode" in s and "Inbox" not in s, "vim")
    tmux.keys(":%s/$/ in every editor/", "Enter")
    tmux.wait_for(lambda s: "Prefers dark mode in every editor" in s, "vim's substitution")
    tmux.keys(":wq", "Enter")
    _accepted(tmux, root, store, "Prefers dark mode in every editor")
    assert len(_log(root)) == len(before) + 1


@pytest.mark.skipif(shutil.which("vim") is None, reason="vim is not installed")
def test_vim_quitting_with_an_error_changes_nothing(tmux: base.Tmux, isolated_home: Path) -> None:
    root = isolated_home / "memory"
    store = _start(tmux, root, VIM)
    before = _log(root)
    tmux.keys("C-o")
    tmux.wait_for(lambda s: "memrepo-entry-" in s and "Inbox" not in s, "vim")
    tmux.keys(":%s/dark/light/", "Enter")
    tmux.wait_for(lambda s: "Prefers light mode" in s, "vim's substitution")
    tmux.keys(":w", "Enter")  # saved, then quit with an error code: like git, nothing is used
    tmux.wait_for(lambda s: "written" in s, "vim's write")
    tmux.keys(":cq", "Enter")
    tmux.wait_for(lambda s: "exited with 1: nothing changed" in s and "Edit, then accept" in s, "the box back")
    assert _log(root) == before
    assert [e.text for e in store.read_file("inbox.md").entries] == TEXTS
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Edit, then accept" not in s and "Inbox 2" in s, "the box closed")
    assert _log(root) == before


@pytest.mark.skipif(shutil.which("nano") is None, reason="nano is not installed")
def test_ctrl_o_edits_the_entry_in_nano_and_accepts_it(tmux: base.Tmux, isolated_home: Path) -> None:
    root = isolated_home / "memory"
    store = _start(tmux, root, NANO)
    tmux.keys("C-o")
    tmux.wait_for(lambda s: "^X Exit" in s and "memrepo-entry-" in s and "Prefers dark mode" in s, "nano")
    tmux.keys("End", " after sunset")
    tmux.wait_for(lambda s: "Prefers dark mode after sunset" in s, "the typed text in nano")
    tmux.keys("C-o")  # nano's Write Out asks for the file name: enter keeps it
    tmux.wait_for(lambda s: "File Name to Write" in s, "nano's write prompt")
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "Wrote 1 line" in s, "nano's write")
    tmux.keys("C-x")
    _accepted(tmux, root, store, "Prefers dark mode after sunset")
