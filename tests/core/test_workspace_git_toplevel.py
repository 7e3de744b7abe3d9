"""One workspace per project (issue 15 item 7): a folder inside a git work tree is its top level, and
workspace paths are stored absolute everywhere, the queue of writes kept while blocked included.

Before, ``/proj`` and ``/proj/src`` were two workspaces (a Claude Code session that ``cd``s split its
memory), and a write kept while the repo was blocked stored ``.`` and was later filed under whatever
folder applied it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memrepo.engine.errors import BlockedError
from memrepo.engine.format import paths
from memrepo.engine.format.paths import normalize_workspace
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "src" / "deep").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    return proj


@pytest.fixture(autouse=True)
def _restore_setting():
    before = getattr(paths, "GIT_TOPLEVEL", True)
    yield
    paths.GIT_TOPLEVEL = before


def test_a_folder_inside_a_work_tree_is_its_top_level(store: MemoryStore, project: Path) -> None:
    top = normalize_workspace(str(project))
    assert normalize_workspace(str(project / "src" / "deep")) == top
    store.remember(Candidate(text="Tests run with make check", scope="workspace", workspace=str(project / "src")))
    assert "make check" in store.context(str(project)).text
    assert "make check" in store.context(str(project / "src" / "deep")).text
    assert len(list((store.root / "workspaces").glob("*.md"))) == 1


def test_the_setting_turns_it_off(store: MemoryStore, project: Path, tmp_path: Path, monkeypatch) -> None:
    from memrepo.engine.config import load_settings

    config = tmp_path / "config.toml"
    config.write_text("[workspaces]\ngit_toplevel = false\n", encoding="utf-8")
    assert load_settings(config).workspaces.git_toplevel is False
    assert normalize_workspace(str(project / "src")) != normalize_workspace(str(project))
    load_settings(tmp_path / "missing.toml")  # the default is on
    assert normalize_workspace(str(project / "src")) == normalize_workspace(str(project))


def test_a_dotfiles_repo_in_home_is_never_a_project(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    (home / "code" / "api").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(home)], check=True)
    monkeypatch.setenv("HOME", str(home))
    assert normalize_workspace(str(home / "code" / "api"))[2] == str(home / "code" / "api")


def test_a_write_kept_while_blocked_keeps_its_absolute_workspace(
    store: MemoryStore, project: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(project / "src")
    lock = store.root / ".git" / "index.lock"
    lock.write_text("")
    with pytest.raises(BlockedError) as info:
        store.remember(Candidate(text="Deploys need the VPN", scope="workspace", workspace="."))
    assert info.value.kept
    kept = [json.loads(p.read_text()) for p in (store.state_dir / "pending").glob("*.json")]
    assert [c["workspace"] for c in kept] == [str(project)]  # absolute, and the project's top level
    lock.unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the kept write is applied from another folder
    store.remember(Candidate(text="Prefers short answers", kind="preference", by="user"))
    assert "Deploys need the VPN" in store.context(str(project)).text
    assert "Deploys need the VPN" not in store.context(str(elsewhere)).text
