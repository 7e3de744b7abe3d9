"""Which remote and branch sync works with, and the errors a refused push raises (split from :mod:`.remote`).

A git-capability module like :mod:`.remote`: the branch HEAD names, whether a remote is a folder on this
machine, and the push rejections :mod:`memrepo.engine.sync.sync` retries on.
"""

from __future__ import annotations

from pathlib import Path

import pygit2

from memrepo.engine.errors import GitError

from .store import BRANCH

_REJECTED = ("not present locally", "non-fast-forward", "fastforward", "fast-forward", "rejected", "stale info")


class PushRejected(GitError):
    """The remote refused the push: it moved since our fetch (fetch, merge and retry)."""


class RemoteRefLocked(PushRejected):
    """The remote's branch was locked (``refs/heads/<branch>.lock``): another push at that moment, or a killed one."""


def local_git_dir(url: str | None) -> Path | None:
    """The git folder of a remote on a local path (``/path``, ``~/path``, ``file://``), or None for a network URL.

    A push there writes the remote's objects and refs itself, as libgit2's local transport does.
    """
    if url is None:
        return None
    path = url[len("file://") :] if url.startswith("file://") else url
    if not path.startswith(("/", "~")):
        return None
    folder = Path(path).expanduser()
    for candidate in (folder, folder / ".git"):
        if (candidate / "HEAD").is_file() and (candidate / "refs").is_dir():
            return candidate.resolve()
    return None


def is_rejection(exc: Exception) -> bool:
    """Whether libgit2's error says the remote refused the push (it moved since the fetch)."""
    text = str(exc).lower()
    return any(word in text for word in _REJECTED)


def current_branch(repo: pygit2.Repository) -> str:
    """The branch HEAD names, born or not (``master`` in a repo made with stock git); :data:`BRANCH` when detached."""
    try:
        target = repo.references["HEAD"].target
    except (KeyError, pygit2.GitError):
        return BRANCH
    if isinstance(target, str) and target.startswith("refs/heads/"):
        return target.removeprefix("refs/heads/")
    return BRANCH
