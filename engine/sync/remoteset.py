"""The sync remote and its state: set or remove it, and what the last sync left (docs/architecture.md §2).

One remote (``origin``), set only after a person confirms it is private.
``.git/memrepo/sync.json`` records the last successful sync and the last
error; :func:`sync_state` reads them with the commits not yet pushed or merged.
:mod:`.sync` does the syncing itself.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from memrepo.engine.config import SyncSettings
from memrepo.engine.errors import SyncError
from memrepo.engine.files.atomic import atomic_write
from memrepo.engine.files.lock import state_dir
from memrepo.engine.git.remote import Credentials, GitRemote, has_password
from memrepo.engine.models import SyncState

STATE_FILE = "sync.json"
"""Sync state in ``.git/memrepo/``: ``last_sync``, ``last_error``, ``last_attempt``, ``remote``,
``branch`` and ``branch_problem`` (the branch sync follows, and why it cannot, for Health),
``remote_head`` (the remote's branch after the last successful sync: the base for adopting a
remote compacted elsewhere when the remote-tracking ref is gone)."""


def creds(settings: SyncSettings) -> Credentials:
    return Credentials(settings.ssh_key, settings.ssh_passphrase_env, settings.token_env, settings.https_user)


def git_dir(root: Path) -> Path:
    return Path(root) / ".git"


def read_state(root: Path) -> dict[str, object]:
    try:
        data = json.loads((state_dir(git_dir(root)) / STATE_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_state(root: Path, **changes: object) -> None:
    data = read_state(root)
    data.update(changes)
    atomic_write(state_dir(git_dir(root)) / STATE_FILE, json.dumps(data, indent=1).encode("utf-8"))


def stamp_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def remote_url(root: Path) -> str | None:
    """The remote's URL for showing, or None when none is set.

    A password or token found in the URL (set by hand in the git config;
    :func:`set_remote` refuses them) is masked as ``***``.

    Args:
        root: the memory repo's work tree.
    """
    return GitRemote(Path(root)).shown_url()


def refuse_password(url: str) -> None:
    """Refuse a remote URL that carries a password or token (``https://user:TOKEN@host/...``).

    Such a URL would be stored in plain text in ``.git/config`` and shown by
    ``remote show``, sync errors and health; tokens come from the environment
    variable named by ``[sync] token_env`` instead (docs/architecture.md §11).

    Raises:
        SyncError: the URL has a password part (the message never repeats it).
    """
    if has_password(url):
        raise SyncError(
            "the remote was not set: the URL holds a password or token; memrepo never stores one in the "
            "URL (it would be shown and saved in plain text): give the URL without it and put the token in "
            "the environment variable named by the [sync] token_env setting (default MEMREPO_GIT_TOKEN)"
        )


def set_remote(root: Path, url: str, confirmed_private: bool) -> None:
    """Store ``url`` as the repo's one remote (``origin``), only once a person confirmed it is private.

    Args:
        root: the memory repo's work tree.
        url: an SSH (``ssh://host/path``, ``user@host:path``), HTTPS or local path URL.
        confirmed_private: the person said the remote is private (the CLI
            prompt or ``--yes-private``); memory holds personal facts, so
            nothing is ever added or pushed without it.

    Raises:
        SyncError: not confirmed, or the URL is empty, uses an unknown scheme
            or holds a password or token (:func:`refuse_password`).
        GitError: libgit2 could not store it.
    """
    url = url.strip()
    refuse_password(url)
    if not confirmed_private:
        raise SyncError("the remote was not set: confirm that it is private (memrepo remote set URL --yes-private)")
    if not url:
        raise SyncError("the remote URL is empty: give an SSH, HTTPS or local path URL")
    scheme = url.split("://", 1)[0].lower() if "://" in url else None
    if scheme is not None and scheme not in ("ssh", "https", "http", "file", "git+ssh", "ssh+git"):
        raise SyncError(f"unsupported remote URL scheme {scheme!r}: use ssh://, https:// or a local path")
    if scheme is None and ":" not in url.split("/", 1)[0]:
        # A local path: store it absolute, so the URL means the same from anywhere.
        url = str(Path(url).expanduser().resolve())
    GitRemote(Path(root)).set_url(url)
    write_state(Path(root), remote=url, last_error=None)


def remove_remote(root: Path) -> bool:
    """Forget the remote; sync stops. Returns False when no remote was set."""
    removed = GitRemote(Path(root)).remove()
    if removed:
        write_state(Path(root), remote=None)
    return removed


def sync_state(root: Path) -> SyncState:
    """Where sync stands, without touching the network (for the header and the Health pane).

    ``ahead`` is what the Health pane shows as "N commits not pushed";
    ``last_sync`` is the last successful sync. Counts are as of the last
    fetch or push.

    Args:
        root: the memory repo's work tree.

    Returns:
        SyncState: ``remote`` None (and zero counts) when no remote is set.
    """
    remote = GitRemote(Path(root))
    url = remote.shown_url()
    data = read_state(Path(root))
    last = data.get("last_sync")
    last_sync = datetime.fromisoformat(last) if isinstance(last, str) else None
    error = data.get("last_error")
    if url is None:
        return SyncState(last_sync=last_sync)
    ahead, behind = remote.ahead_behind()
    problem = data.get("branch_problem")
    if data.get("branch") != remote.branch:  # recorded for another branch: the repo moved since
        problem = None
    return SyncState(
        remote=url,
        ahead=ahead,
        behind=behind,
        last_sync=last_sync,
        last_error=error if isinstance(error, str) else None,
        problem=problem if isinstance(problem, str) else None,
    )
