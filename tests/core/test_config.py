"""Configuration (docs/architecture.md §11): defaults without a file, one clear error per
bad key or value, invalid TOML, and where the file and the repo path come from."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.engine.config import Settings, config_path, load_settings, resolve_repo_path
from memrepo.engine.errors import ConfigError


def test_defaults_without_a_file(isolated_home: Path) -> None:
    path = config_path()
    assert path == isolated_home / ".config" / "memrepo" / "config.toml"
    assert not path.exists()
    settings = load_settings()
    assert settings == Settings()
    assert settings.repo == "~/agent-memory"
    assert settings.theme == "memrepo-dark"
    assert settings.writes.agent_to_inbox is False
    assert settings.writes.commit_hand_edits_after == 2.0
    assert settings.dream.enabled is True
    assert settings.dream.provider == "rules"
    assert settings.dream.daily_token_budget == 50_000
    assert settings.dream.interval_hours == 20
    assert settings.dream.openai.base_url == "https://api.openai.com/v1"
    assert settings.dream.openai.api_key_env == "OPENAI_API_KEY"
    assert settings.dream.command.argv == ["llm", "-m", "gpt-4o-mini"]
    assert settings.sync.remote == ""
    assert settings.sync.interval_s == 300


def test_memrepo_config_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "elsewhere.toml"
    monkeypatch.setenv("MEMREPO_CONFIG", str(path))
    assert config_path() == path
    path.write_text(
        'repo = "~/mem"\ntheme = "memrepo-light"\n'
        "[writes]\ncommit_hand_edits_after = 0\n"
        '[dream]\nprovider = "command"\n[dream.command]\nargv = ["ollama", "run", "x"]\n'
    )
    settings = load_settings()
    assert (settings.repo, settings.theme) == ("~/mem", "memrepo-light")
    assert settings.writes.commit_hand_edits_after == 0
    assert settings.dream.provider == "command"
    assert settings.dream.command.argv == ["ollama", "run", "x"]
    assert settings.dream.daily_token_budget == 50_000  # untouched keys keep defaults


@pytest.mark.parametrize(
    ("toml", "key", "what"),
    [
        ("colour = 'red'\n", "colour", "unknown key"),
        ("[writes]\nagent_to_inbox = true\nauto = 1\n", "writes.auto", "unknown key"),
        ("[dream.openai]\nmodle = 'x'\n", "dream.openai.modle", "unknown key"),
        ("[nope]\nx = 1\n", "nope", "unknown key"),
        ("[dream]\nprovider = 'gpt'\n", "dream.provider", "rules"),
        ("[dream]\ndaily_token_budget = -5\n", "dream.daily_token_budget", "greater than"),
        ("[dream]\nenabled = 'sometimes'\n", "dream.enabled", "bool"),
        ("[writes]\ncommit_hand_edits_after = -1\n", "writes.commit_hand_edits_after", "greater"),
        ("[sync]\ninterval_s = 0\n", "sync.interval_s", "greater than"),
        ("repo = 5\n", "repo", "string"),
    ],
)
def test_an_unknown_key_or_bad_value_names_the_key(tmp_path: Path, toml: str, key: str, what: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as info:
        load_settings(path)
    message = str(info.value)
    assert f": {key}: " in message
    assert what in message
    assert str(path) in message
    assert "\n" not in message


@pytest.mark.parametrize("raw", [b"repo = \n", b"[dream\n", b"a = 'x'\na = 'y'\n", b"\xff\xfe"])
def test_invalid_toml_is_a_config_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(raw)
    with pytest.raises(ConfigError, match="not valid TOML") as info:
        load_settings(path)
    assert str(path) in str(info.value)


def test_an_unreadable_config_is_a_config_error(tmp_path: Path) -> None:
    folder = tmp_path / "config.toml"
    folder.mkdir()  # a folder where the file should be
    with pytest.raises(ConfigError, match="cannot read config"):
        load_settings(folder)


def test_repo_path_order(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text('repo = "~/from-config"\n')
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    settings = load_settings()
    monkeypatch.setenv("MEMREPO_REPO", "~/from-env")
    assert resolve_repo_path("~/from-flag", settings) == (isolated_home / "from-flag", "--repo")
    assert resolve_repo_path(None, settings) == (isolated_home / "from-env", "MEMREPO_REPO")
    monkeypatch.delenv("MEMREPO_REPO")
    assert resolve_repo_path(None, settings) == (isolated_home / "from-config", "config")
    assert resolve_repo_path(None, Settings()) == (isolated_home / "agent-memory", "default")


def test_the_engine_never_loads_the_config_itself() -> None:
    """One settings object per process: only front ends call load_settings (docs/architecture.md §11)."""
    import ast

    engine = Path(__file__).resolve().parents[2] / "engine"
    offenders = []
    for path in sorted(engine.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if path.name != "config.py" and name == "load_settings":
                offenders.append(f"{path.name}:{node.lineno} load_settings()")
            loader_default = path.name == "config.py" and name == "Settings" and not node.keywords
            if name in ("Settings", "SyncSettings", "DreamSettings", "WritesSettings") and not node.args:
                offenders += [] if loader_default else [f"{path.name}:{node.lineno} {name}()"]
    assert offenders == []
