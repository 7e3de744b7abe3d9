"""A session in the home folder, ``/`` or a temporary folder is global, not a workspace named after it
(engine/format/paths.py ``session_workspace``; breaker30 B30-26)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.dream_helpers import settings

from memrepo.cli.quickhook import _workspace
from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.checkpoints.flow import run_checkpoint
from memrepo.engine.format.paths import no_project_folder, session_workspace
from memrepo.engine.repo.health import check
from memrepo.engine.repo.store import MemoryStore

OFFSITE = "Remember that the team offsite is in Lisbon in March."


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "b30home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def test_the_home_folder_root_and_tmp_are_no_workspace(home: Path) -> None:
    for folder in (str(home), f"{home}/", "~", "/", "/tmp", "/var/tmp"):
        assert no_project_folder(folder), folder
        assert session_workspace(folder) is None, folder
        assert _workspace({"cwd": folder}) is None, folder  # the prompt and session-start hooks' scope
        assert Checkpointer.scope_of(folder) == ("global", None), folder
    for folder in (str(home / "projects" / "shop"), "/tmp/scratch"):  # a folder under them: its own workspace
        assert session_workspace(folder) == folder
        assert Checkpointer.scope_of(folder)[0].startswith("ws-")
    assert session_workspace("  ") is None and session_workspace(None) is None


def test_what_is_said_in_the_home_folder_goes_to_the_global_files(store: MemoryStore, home: Path) -> None:
    cp = Checkpointer(store.state_dir)
    talk = [{"id": "u1", "role": "user", "text": OFFSITE}, {"id": "a1", "role": "assistant", "text": "Noted."}]
    result = run_checkpoint(store, cp, settings(home), "s1", str(home), talk, "force")
    assert result.status == "distilled"
    assert not (store.root / "workspaces").exists() or not list((store.root / "workspaces").iterdir())
    globals_ = "".join((store.root / name).read_text(encoding="utf-8") for name in ("me.md", "MEMORY.md", "lessons.md"))
    assert "offsite is in Lisbon" in globals_  # B30-26: it was filed in workspaces/b30home.md


def test_health_suggests_moving_an_existing_home_workspace(store: MemoryStore, home: Path) -> None:
    assert not [r for r in check(store) if "no project" in r.reason]
    (store.root / "workspaces").mkdir(exist_ok=True)
    (store.root / "workspaces" / "b30home.md").write_text(
        f"# b30home\n\n- Workspace b30home [workspace: ws-c574a756; path: {home}; by: user]\n"
        "- The team offsite is in Lisbon in March [by: user; added: 2026-12-07]\n",
        encoding="utf-8",
    )
    rows = [r for r in check(store) if r.name == "workspaces"]
    assert len(rows) == 1 and rows[0].status == "WARN"
    assert re.search(r"workspaces/b30home\.md .*no project.*move the ones you want to me\.md", rows[0].reason)
    assert (store.root / "workspaces" / "b30home.md").is_file()  # suggested, never moved


def test_a_folder_reached_through_a_symlink_is_its_real_folders_workspace(home: Path) -> None:
    """breaker31 B31-18: ``~/work/shop`` (``~/work`` -> ``~/projects``) was a second, empty workspace."""
    (home / "projects" / "shop").mkdir(parents=True)
    (home / "work").symlink_to(home / "projects")
    real = str(home / "projects" / "shop")
    for given in (str(home / "work" / "shop"), "~/work/shop", f"{home}/work/shop/"):
        assert session_workspace(given) == real, given
        assert _workspace({"cwd": given}) == real  # the prompt and session-start hooks' scope
        assert Checkpointer.scope_of(given) == Checkpointer.scope_of(real)
    (home / "here").symlink_to(home)  # a link to the home folder is still the global scope
    assert session_workspace(str(home / "here")) is None
