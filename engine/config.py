"""Configuration: one TOML file validated by pydantic (docs/architecture.md §11).

The file is ``$MEMREPO_CONFIG``, else ``config.toml`` in the platformdirs user
config folder for ``memrepo``. Every key has a default, so no file is needed.
An unknown key or a bad value is one :class:`ConfigError` naming the key.

One :class:`Settings` object per process: a front end (the CLI, the app, the
MCP server) calls :func:`load_settings` once and passes the result to
``MemoryStore.open(path, settings)`` / ``MemoryRepo.open(path, settings)``;
everything in the engine reads ``store.settings``. The engine itself never
loads the file and never falls back to defaults (docs/architecture.md §11).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memrepo.engine.format.paths import DEFAULT_REPO

from .configpath import (
    ENV_CONFIG,
    ENV_REPO,
    SEMANTIC_ANSWER_SIMILARITY,
    SEMANTIC_HOOK_ANSWER_SIMILARITY,
    SEMANTIC_MAX_ENTRIES,
    SEMANTIC_MIN_SIMILARITY,
    SEMANTIC_SIZE_SLOPE,
    SEMANTIC_WEIGHT,
    SERVER_IDLE_S,
    config_path,
    remember_valid,
    resolve_repo_path,
)
from .errors import ConfigError

__all__ = [
    "ENV_CONFIG",
    "ENV_REPO",
    "Settings",
    "config_path",
    "load_settings",
    "resolve_repo_path",
]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WritesSettings(_Section):
    """``[writes]``: how writes are governed."""

    agent_to_inbox: bool = False
    """Ask before saving: every agent write goes to the inbox."""
    commit_hand_edits_after: float = Field(2.0, ge=0)
    """Seconds of quiet before a hand edit is committed; 0 = only before writes."""
    server_idle_s: float = Field(SERVER_IDLE_S, ge=0)
    """Seconds the write server of ``memrepo remember`` waits for the next write before it exits; 0 = no server."""


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
    """``[dream]``: the clean-up pass (docs/architecture.md §6)."""

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
    idle_hours: float = Field(4.0, gt=0)
    """A session not written for this long counts as finished, even with no final reply (interrupted)."""


class ContextSettings(_Section):
    """``[context]``: what the context block carries (docs/architecture.md §4)."""

    me_md: bool = True
    """me.md's entries (the user's lines first, a budget of their own) are in every context block."""


class WorkspaceSettings(_Section):
    """``[workspaces]``: how a working folder becomes a workspace (docs/architecture.md §2)."""

    git_toplevel: bool = True
    """A folder inside a git work tree is the workspace of the work tree's top level (/proj/src is /proj)."""


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


class SemanticEndpointSettings(_Section):
    """``[semantic.openai]``: any OpenAI-compatible ``/v1/embeddings`` endpoint (Ollama, LM Studio, llama.cpp, OpenAI)."""

    base_url: str = "http://127.0.0.1:11434/v1"
    """The API root; ``/embeddings`` is appended (Ollama's default shown)."""
    model: str = "nomic-embed-text"
    api_key_env: str = ""
    """Environment variable holding the API key; empty: no ``Authorization`` header."""
    timeout_s: float = Field(10.0, gt=0)
    query_prefix: str = ""
    """Put before a query (``"query: "`` for e5 models, ``"search_query: "`` for nomic)."""
    passage_prefix: str = ""
    """Put before an entry (``"passage: "`` for e5 models, ``"search_document: "`` for nomic)."""
    batch: int = Field(32, ge=1, le=2048)
    """Entries sent in one request."""


class SemanticSettings(_Section):
    """``[semantic]``: hybrid recall (docs/architecture.md §4)."""

    provider: Literal["auto", "local", "openai", "off"] = "auto"
    """``auto``: the bundled local model when ``memrepo[semantic]`` is installed, else lexical only;
    ``local``: that model (a clear line when it is missing); ``openai``: ``[semantic.openai]``; ``off``."""
    max_entries: int = Field(SEMANTIC_MAX_ENTRIES, ge=0)
    """The most entries that get a vector: global files first, then workspace files most recently
    written first, newest entries first inside a file; recall reports the share it covered."""
    min_similarity: float = Field(SEMANTIC_MIN_SIMILARITY, ge=-1, le=1)
    """Cosine similarity a semantic neighbour needs to be a hit on its own."""
    answer_similarity: float = Field(SEMANTIC_ANSWER_SIMILARITY, ge=-1, le=1)
    """When no entry matched a query word, the cosine the best neighbour needs for recall to answer at all."""
    semantic_weight: float = Field(SEMANTIC_WEIGHT, ge=0)
    """The semantic list's weight in the fusion (the lexical list's is 1)."""
    size_slope: float = Field(SEMANTIC_SIZE_SLOPE, ge=0)
    """How much both cosine floors drop in a repo of fewer than 135 entries with a vector, per unit of
    ``ln(135 / entries)`` (docs/architecture.md §4, "Small repos"; 0: the floors as set, whatever the size)."""
    hook: bool = False
    """Whether the Claude Code prompt hook fuses too, with the vectors the MCP server or the app built (off: it
    costs each prompt about 110-150 ms of CPU for numpy and the model; docs/architecture.md §7)."""
    hook_answer_similarity: float = Field(SEMANTIC_HOOK_ANSWER_SIMILARITY, ge=-1, le=1)
    """``answer_similarity`` for the prompt hook (stricter: its hits land in every prompt's context)."""
    openai: SemanticEndpointSettings = Field(default_factory=SemanticEndpointSettings)


class Settings(_Section):
    """All settings, with the defaults of docs/architecture.md §11."""

    repo: str = DEFAULT_REPO
    theme: str = "memrepo-dark"
    writes: WritesSettings = Field(default_factory=WritesSettings)
    dream: DreamSettings = Field(default_factory=DreamSettings)
    transcripts: TranscriptSettings = Field(default_factory=TranscriptSettings)
    context: ContextSettings = Field(default_factory=ContextSettings)
    workspaces: WorkspaceSettings = Field(default_factory=WorkspaceSettings)
    sync: SyncSettings = Field(default_factory=SyncSettings)
    semantic: SemanticSettings = Field(default_factory=SemanticSettings)


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
        return _applied(Settings())
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config {path} is not valid TOML: {exc}") from exc
    try:
        settings = Settings.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "(top level)"
        what = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        raise ConfigError(f"config {path}: {key}: {what}") from exc
    remember_valid(path, raw)  # a later read-only process takes its repo from these bytes unvalidated
    return _applied(settings)


def _applied(settings: Settings) -> Settings:
    """Apply the settings that are process-wide rules rather than arguments (``[workspaces] git_toplevel``)."""
    from .format import paths

    paths.GIT_TOPLEVEL = settings.workspaces.git_toplevel
    return settings
