"""Shared fixtures. Tests never read the developer's home, config or git config
(STYLE.md habit 12): an autouse fixture points HOME, XDG folders and git's
global/system config at a temp folder."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_textual_snapshot

from engine.store import MemoryStore


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh HOME with XDG folders and empty git config for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in ("MEMREPO_REPO", "MEMREPO_CONFIG", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def repo_path(tmp_path: Path) -> Path:
    """A path where a new memory repo can be created (missing folder)."""
    return tmp_path / "memory"


@pytest.fixture
def store(repo_path: Path) -> MemoryStore:
    """A memory repo created at ``repo_path`` with its starting layout."""
    return MemoryStore.open(repo_path)


class _SnapshotsFolder(pytest_textual_snapshot.SVGImageExtension):
    """Keep the SVGs in tests/snapshots/<test file>/ rather than syrupy's __snapshots__."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(Path(test_location.filepath).parent / "snapshots" / test_location.basename)


@pytest.fixture(autouse=True)
def _snapshots_in_tests_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every snapshot test keeps its SVGs under tests/snapshots/ (look at them before accepting)."""
    monkeypatch.setattr(pytest_textual_snapshot, "SVGImageExtension", _SnapshotsFolder)
