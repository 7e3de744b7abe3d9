"""Configuration: one TOML file validated by pydantic (DESIGN.md §11).

The file is ``$MEMREPO_CONFIG``, else ``config.toml`` in the platformdirs user
config folder for ``memrepo``. Every key has a default, so no file is needed.
An unknown key or a bad value is one :class:`ConfigError` naming the key.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import ConfigError
from .paths import DEFAULT_REPO

ENV_CONFIG = "MEMREPO_CONFIG"
ENV_REPO = "MEMREPO_REPO"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WritesSettings(_Section):
    """``[writes]``: how writes are governed."""

    agent_to_inbox: bool = False
    """Ask before saving: every agent write goes to the inbox."""
    commit_hand_edits_after: float = Field(2.0, ge=0)
    """Seconds of quiet before a hand edit is committed; 0 = only before writes."""


class OpenAISettings(_Section):
    """``[dream.openai]``: any OpenAI-compatible endpoint."""

    base_url: str = "https://api.openai.com/v1"
    model: str = "gpt-4o-mini"
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = Field(60.0, gt=0)


class AnthropicSettings(_Section):
    """``[dream.anthropic]``."""

    model: str = "claude-sonnet-4-5"
    api_key_env: str = "ANTHROPIC_API_KEY"
    base_url: str = ""
    """An Anthropic-compatible endpoint; empty = the SDK's default (or ``ANTHROPIC_BASE_URL``)."""
    timeout_s: float = Field(60.0, gt=0)


class CommandSettings(_Section):
    """``[dream.command]``: an argv that reads the prompt on stdin and prints JSON."""

    argv: list[str] = Field(default_factory=lambda: ["llm", "-m", "gpt-4o-mini"])


class DreamSettings(_Section):
    """``[dream]``: the clean-up pass (DESIGN.md §6)."""

    enabled: bool = True
    provider: Literal["rules", "openai", "anthropic", "command"] = "rules"
    daily_token_budget: int = Field(50_000, ge=0)
    interval_hours: float = Field(20.0, gt=0)
    openai: OpenAISettings = Field(default_factory=OpenAISettings)
    anthropic: AnthropicSettings = Field(default_factory=AnthropicSettings)
    command: CommandSettings = Field(default_factory=CommandSettings)


class TranscriptSettings(_Section):
    """``[transcripts]``: where other tools keep their session files."""

    claude_code: str = "~/.claude/projects"
    codex: str = "~/.codex/sessions"


class SyncSettings(_Section):
    """``[sync]``: the private git remote (set only by ``memrepo remote set``)."""

    remote: str = ""
    interval_s: float = Field(300.0, gt=0)
    """Seconds between automatic syncs of the app and ``memrepo watch``."""
    debounce_s: float = Field(5.0, ge=0)
    """Seconds of quiet after a commit before the automatic sync runs."""
    ssh_key: str = ""
    """Private key file for SSH remotes; empty: the SSH agent."""
    ssh_passphrase_env: str = ""
    """Environment variable holding the SSH key's passphrase; empty: no passphrase."""
    token_env: str = "MEMREPO_GIT_TOKEN"
    """Environment variable holding the token for HTTPS remotes."""
    https_user: str = "x-access-token"
    """User name sent with the HTTPS token."""
    push_retries: int = Field(5, ge=1, le=50)
    """How often a rejected push fetches, merges and pushes again before giving up."""


class Settings(_Section):
    """All settings, with the defaults of DESIGN.md §11."""

    repo: str = DEFAULT_REPO
    theme: str = "memrepo-dark"
    writes: WritesSettings = Field(default_factory=WritesSettings)
    dream: DreamSettings = Field(default_factory=DreamSettings)
    transcripts: TranscriptSettings = Field(default_factory=TranscriptSettings)
    sync: SyncSettings = Field(default_factory=SyncSettings)


def config_path() -> Path:
    """The config file's path: ``$MEMREPO_CONFIG`` or the platformdirs user config folder."""
    env = os.environ.get(ENV_CONFIG)
    if env:
        return Path(os.path.expanduser(env))
    from platformdirs import user_config_path

    return user_config_path("memrepo", appauthor=False) / "config.toml"


def load_settings(path: Path | None = None) -> Settings:
    """Read and validate the config file; defaults when it does not exist.

    Args:
        path: the file; :func:`config_path` when None.

    Returns:
        Settings: the validated settings.

    Raises:
        ConfigError: the file is not valid TOML, or a key is unknown or has a
            bad value (the message names the key and the file).
    """
    path = path or config_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config {path} is not valid TOML: {exc}") from exc
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "(top level)"
        what = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        raise ConfigError(f"config {path}: {key}: {what}") from exc


def resolve_repo_path(cli_value: str | None, settings: Settings | None = None) -> tuple[Path, str]:
    """Pick the repo path: ``--repo``, then ``MEMREPO_REPO``, then config, then ``~/agent-memory``.

    Args:
        cli_value: the ``--repo`` option, or None.
        settings: loaded settings; loaded from the config file when None.

    Returns:
        tuple[Path, str]: the expanded path and where it came from
        (``--repo``, ``MEMREPO_REPO``, ``config``, ``default``).

    Raises:
        ConfigError: the config file is invalid (only read when needed).
    """
    if cli_value:
        return Path(os.path.expanduser(cli_value)), "--repo"
    env = os.environ.get(ENV_REPO)
    if env:
        return Path(os.path.expanduser(env)), ENV_REPO
    settings = settings or load_settings()
    source = "config" if settings.repo != DEFAULT_REPO else "default"
    return Path(os.path.expanduser(settings.repo)), source
