"""Sync over SSH: a real sshd started by the test on 127.0.0.1 with temporary
host and user keys; libgit2 authenticates with the key file named in ``[sync] ssh_key``.
(``.ci/run`` installs openssh-server.)"""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pygit2
import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.config import SyncSettings
from memrepo.engine.errors import UnreachableRemote
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync import sync as sync_mod

SSHD = "/usr/sbin/sshd"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.access(SSHD, os.X_OK), reason=f"sshd is not installed ({SSHD}; apt-get install openssh-server)"
    ),
    pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen is not installed (openssh-client)"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path.with_name(path.name + ".pub").read_text().strip()


@pytest.fixture
def sshd(tmp_path: Path, isolated_home: Path) -> Iterator[tuple[int, Path]]:
    """A private sshd on 127.0.0.1 that accepts one temporary user key; yields (port, key file)."""
    folder = tmp_path / "sshd"
    folder.mkdir()
    host_pub = keygen(folder / "host_key")
    user_key = folder / "user_key"
    (folder / "authorized_keys").write_text(keygen(user_key) + "\n")
    port = free_port()
    (folder / "sshd_config").write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {folder / 'host_key'}\n"
        f"AuthorizedKeysFile {folder / 'authorized_keys'}\nPidFile {folder / 'sshd.pid'}\n"
        "StrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        "PubkeyAuthentication yes\nPermitRootLogin prohibit-password\n"
    )
    try:
        Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation folder
    except OSError as exc:
        pytest.skip(f"sshd needs its privilege separation folder /run/sshd: {exc}")
    ssh_dir = isolated_home / ".ssh"
    ssh_dir.mkdir(exist_ok=True)
    (ssh_dir / "known_hosts").write_text(f"[127.0.0.1]:{port} {host_pub}\n")
    # libgit2 reads HOME once, when pygit2 loads: point it at this test's home.
    home_before = pygit2.settings.homedir
    pygit2.settings.homedir = str(isolated_home)
    log = folder / "sshd.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [SSHD, "-D", "-e", "-f", str(folder / "sshd_config")], stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60  # a hang guard, not a speed claim
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "sshd did not listen in 60 s"
                time.sleep(0.05)
        yield port, user_key
    finally:
        pygit2.settings.homedir = home_before
        proc.terminate()
        proc.wait(timeout=60)


def test_sync_over_ssh_with_a_key_file(sshd: tuple[int, Path], tmp_path: Path) -> None:
    port, key = sshd
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    url = f"ssh://{getpass.getuser()}@127.0.0.1:{port}{remote}"
    settings = SyncSettings(ssh_key=str(key))
    a = MemoryStore.open(tmp_path / "a", plain_settings())
    a.remember(Candidate(text="Synced over SSH", kind="preference", by="user"))
    sync_mod.set_remote(a.root, url, confirmed_private=True)
    assert sync_mod.sync(a, settings).action == "pushed"
    assert git(remote, "rev-parse", "main").strip() == a.head()
    b = MemoryStore.open(tmp_path / "b", plain_settings())
    sync_mod.set_remote(b.root, url, confirmed_private=True)
    b.remember(Candidate(text="Also from B", kind="preference", by="user"))
    assert sync_mod.sync(b, settings).action == "merged"
    sync_mod.sync(a, settings)
    texts = [e.text for e in a.read_file("me.md").entries]
    assert texts == ["Also from B", "Synced over SSH"]


def test_ssh_with_a_key_the_server_does_not_know_is_unreachable(sshd: tuple[int, Path], tmp_path: Path) -> None:
    port, _key = sshd
    stranger = tmp_path / "stranger"
    keygen(stranger)
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    store = MemoryStore.open(tmp_path / "a", plain_settings())
    sync_mod.set_remote(store.root, f"ssh://{getpass.getuser()}@127.0.0.1:{port}{remote}", confirmed_private=True)
    with pytest.raises(UnreachableRemote):
        sync_mod.sync(store, SyncSettings(ssh_key=str(stranger)))
    assert sync_mod.sync_state(store.root).last_error
    assert os.listdir(remote / "refs" / "heads") == []


@pytest.mark.parametrize("known", ["other key", "no entry"])
def test_an_unknown_or_changed_host_key_is_refused(
    sshd: tuple[int, Path], tmp_path: Path, isolated_home: Path, known: str
) -> None:
    port, key = sshd
    known_hosts = isolated_home / ".ssh" / "known_hosts"
    if known == "other key":
        known_hosts.write_text(f"[127.0.0.1]:{port} {keygen(tmp_path / 'impostor')}\n")
    else:
        known_hosts.unlink()
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    store = MemoryStore.open(tmp_path / "a", plain_settings())
    sync_mod.set_remote(store.root, f"ssh://{getpass.getuser()}@127.0.0.1:{port}{remote}", confirmed_private=True)
    with pytest.raises(UnreachableRemote, match="known_hosts"):
        sync_mod.sync(store, SyncSettings(ssh_key=str(key)))
    assert os.listdir(remote / "refs" / "heads") == []
