"""Where the config file and the memory repo are: the part of :mod:`.config` that needs no pydantic.

A new process that only reads (``memrepo context``) finds its repo and learns
whether a config file exists without importing the validated settings
(docs/architecture.md §11: one settings object per process, read once).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

from .paths import DEFAULT_REPO


class HasRepo(Protocol):
    """What :func:`resolve_repo_path` reads of the settings: the ``repo`` key."""

    @property
    def repo(self) -> str: ...


ENV_CONFIG = "MEMREPO_CONFIG"
ENV_REPO = "MEMREPO_REPO"


def config_path() -> Path:
    """The config file's path: ``$MEMREPO_CONFIG`` or the platformdirs user config folder."""
    env = os.environ.get(ENV_CONFIG)
    if env:
        return Path(os.path.expanduser(env))
    from platformdirs import user_config_path

    return user_config_path("memrepo", appauthor=False) / "config.toml"


def resolve_repo_path(cli_value: str | None, settings: HasRepo) -> tuple[Path, str]:
    """Pick the repo path: ``--repo``, then ``MEMREPO_REPO``, then config, then ``~/agent-memory``.

    Args:
        cli_value: the ``--repo`` option, or None.
        settings: the settings the front end loaded (its ``repo`` key).

    Returns:
        tuple[Path, str]: the expanded path and where it came from
        (``--repo``, ``MEMREPO_REPO``, ``config``, ``default``).
    """
    if cli_value:
        return Path(os.path.expanduser(cli_value)), "--repo"
    env = os.environ.get(ENV_REPO)
    if env:
        return Path(os.path.expanduser(env)), ENV_REPO
    source = "config" if settings.repo != DEFAULT_REPO else "default"
    return Path(os.path.expanduser(settings.repo)), source
