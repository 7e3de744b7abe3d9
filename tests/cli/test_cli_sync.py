"""``memrepo remote set/show/remove``, ``memrepo sync`` and ``memrepo watch``,
against a real bare remote on local disk."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.repo_helpers import git, plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod


def run(repo: Path, *args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--repo", str(repo), *args], input=input, catch_exceptions=True)


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


def test_remote_set_asks_privacy_and_refuses_without_it(store: MemoryStore, remote: Path) -> None:
    refused = run(store.root, "remote", "set", str(remote), input="n\n")
    assert refused.exit_code == 1
    assert "private" in refused.stderr and "not set" in refused.stderr
    assert sync_mod.remote_url(store.root) is None
    no_answer = run(store.root, "remote", "set", str(remote), input="")
    assert no_answer.exit_code == 1 and sync_mod.remote_url(store.root) is None
    agreed = run(store.root, "remote", "set", str(remote), input="y\n")
    assert agreed.exit_code == 0, agreed.stderr
    assert sync_mod.remote_url(store.root) == str(remote)


def test_remote_show_sync_and_remove(store: MemoryStore, remote: Path) -> None:
    assert "no remote" in run(store.root, "remote", "show").stdout
    assert run(store.root, "sync").exit_code == 1
    assert run(store.root, "remote", "set", str(remote), "--yes-private").exit_code == 0
    shown = run(store.root, "remote", "show").stdout
    assert str(remote) in shown and "1 commit(s) not pushed" in shown and "last sync: never" in shown
    done = run(store.root, "sync")
    assert done.exit_code == 0 and "pushed 1 commit(s)" in done.stdout
    assert git(remote, "rev-parse", "main").strip() == store.head()
    shown = run(store.root, "remote", "show").stdout
    assert "0 commit(s) not pushed" in shown and "s ago" in shown
    assert run(store.root, "remote", "remove").exit_code == 0
    assert run(store.root, "remote", "remove").exit_code == 1
    assert "no remote" in run(store.root, "remote", "show").stdout


def test_sync_offline_is_one_line_with_the_commits_kept(store: MemoryStore, remote: Path, tmp_path: Path) -> None:
    run(store.root, "remote", "set", str(remote), "--yes-private")
    remote.rename(tmp_path / "elsewhere.git")
    result = run(store.root, "sync")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("memrepo: offline:") and "1 commit(s) not pushed" in lines[0]


def test_watch_syncs_after_a_commit_and_stops_cleanly_on_ctrl_c(tmp_path: Path, remote: Path) -> None:
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    sync_mod.set_remote(a.root, str(remote), confirmed_private=True)
    sync_mod.sync(a)
    subprocess.run(["git", "clone", "-q", str(remote), str(tmp_path / "b")], check=True)
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    config = tmp_path / "config.toml"
    config.write_text("[sync]\ninterval_s = 0.5\ndebounce_s = 0.1\n")
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    env = {**os.environ, "MEMREPO_CONFIG": str(config)}
    proc = subprocess.Popen(
        [script, "--repo", str(b.root), "watch"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        a.remember(Candidate(text="Written on machine A", kind="preference", by="user"))
        sync_mod.sync(a)
        b.remember(Candidate(text="Written on machine B", kind="preference", by="user"))
        deadline = time.monotonic() + 90  # a hang guard: `memrepo watch` starts (imports) slowly when loaded
        while time.monotonic() < deadline:
            if (b.root / "me.md").read_text().count("Written on machine A") and git(
                remote, "log", "-1", "--format=%s", "main"
            ).startswith("Sync: merge"):
                break
            time.sleep(0.1)
        else:
            pytest.fail("memrepo watch did not sync in 90 s")
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    sync_mod.sync(a)
    texts = [e.text for e in a.read_file("me.md").entries]
    assert sorted(texts) == ["Written on machine A", "Written on machine B"]


def test_compact_with_a_remote_needs_replace_remote(store: MemoryStore, remote: Path) -> None:
    sync_mod.set_remote(store.root, str(remote), confirmed_private=True)
    store.remember(Candidate(text="Uses a standing desk", by="user"))
    sync_mod.sync(store)
    head = git(store.root, "rev-parse", "HEAD").strip()
    refused = run(store.root, "compact", "--yes")
    assert refused.exit_code == 1 and "--replace-remote" in refused.stderr and len(refused.stderr.splitlines()) == 1
    assert git(store.root, "rev-parse", "HEAD").strip() == head
    done = run(store.root, "compact", "--yes", "--replace-remote")
    assert done.exit_code == 0, done.stderr
    assert "the remote's history was replaced" in done.stdout
    new = git(store.root, "rev-parse", "HEAD").strip()
    assert new != head and git(remote, "rev-parse", "refs/heads/main").strip() == new


TOKEN = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12"
HELD = "not committed, waiting for you: me.md: a hand edit added what looks like a secret"


def _watch_stderr(tmp_path: Path, root: Path, before: Callable[[], None] | None = None) -> str:
    """Run `memrepo watch` on ``root`` until it says the secret hand edit waits (90 s at most); its stderr.

    ``before`` runs after the watcher started (else the hand edit is made before it starts).
    """
    config = tmp_path / "config.toml"
    config.write_text("[sync]\ninterval_s = 30\ndebounce_s = 0.1\n")
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    err_path = tmp_path / "watch.err"
    with err_path.open("w") as err_file:
        proc = subprocess.Popen(
            [script, "--repo", str(root), "watch"],
            env={**os.environ, "MEMREPO_CONFIG": str(config)},
            stdout=subprocess.DEVNULL,
            stderr=err_file,
            text=True,
        )
        try:
            if before is not None:
                time.sleep(1.0)  # the watcher starts
                before()
            deadline = time.monotonic() + 90  # a hang guard: a loaded machine starts `memrepo watch` slowly
            while time.monotonic() < deadline and "looks like a secret" not in err_path.read_text():
                time.sleep(0.2)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
    return err_path.read_text()


def _append_secret(root: Path) -> None:
    with (root / "me.md").open("a") as me:
        me.write(f"- The deploy bot token is {TOKEN} [by: user]\n")


def test_watch_says_once_that_a_hand_edit_with_a_secret_waits(tmp_path: Path, remote: Path) -> None:
    """`memrepo watch` said nothing about a held hand edit: the user never learned why it was not synced."""
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    said = _watch_stderr(tmp_path, b.root, before=lambda: _append_secret(b.root))
    assert said.count(HELD) == 1
    assert TOKEN not in said


def test_watch_says_a_held_hand_edit_made_before_it_started(tmp_path: Path, remote: Path) -> None:
    """A secret appended by hand before `memrepo watch` starts was held without a word: watch only looked on events."""
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, str(remote), confirmed_private=True)
    _append_secret(b.root)
    said = _watch_stderr(tmp_path, b.root)
    assert said.count(HELD) == 1
    assert TOKEN not in said
