"""A moved clone's workspace file follows it: its first write from the new folder moves ``path:`` (loss8).

wsmap7 made a moved or renamed clone find its workspace file by its ``origin`` remote, but the file's
header kept ``path:`` naming the old folder: ``memrepo workspaces`` listed the file in use as "gone", and
``workspaces archive`` would move it out of every session's context. The first write from the new folder
now points ``path:`` there, in that write's one commit. A second live clone and a linked worktree keep the
file's ``path:`` (their main folder still exists). Everything here runs real git.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.gitproject import FACT, ORIGIN, git, make_project
from helpers.repo_helpers import git as repo_git

from memrepo.engine.errors import MemrepoError
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def remember(store: MemoryStore, text: str, folder: Path) -> None:
    assert store.remember(Candidate(text=text, scope="workspace", workspace=str(folder), by="user")).commit


def header(store: MemoryStore) -> str:
    return (store.root / "workspaces" / "shop.md").read_text().splitlines()[2]


def listed(store: MemoryStore) -> list[tuple[str | None, bool | None]]:
    return [(info.path, info.exists) for info in store.all_workspaces()]


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj" / "shop")


def test_the_first_write_from_a_moved_clone_moves_its_path(store: MemoryStore, shop: Path, tmp_path: Path) -> None:
    remember(store, FACT, shop)
    moved = tmp_path / "code" / "shop-renamed"
    moved.parent.mkdir()
    shutil.move(str(shop), str(moved))
    assert listed(store) == [(str(shop), False)]  # before any write from the new folder: the old one, gone
    commits = int(repo_git(store.root, "rev-list", "--count", "HEAD"))
    remember(store, "Checkout bug tracked in SHOP-4417", moved)
    assert int(repo_git(store.root, "rev-list", "--count", "HEAD")) == commits + 1  # the write's one commit
    assert f"path: {moved};" in header(store) and "workspace: ws-" in header(store)
    assert listed(store) == [(str(moved), True)]
    with pytest.raises(MemrepoError):  # its folder exists: archive refuses without --force
        store.archive_workspace(str(moved))
    block = store.context(str(moved)).text
    assert FACT in block and "SHOP-4417" in block
    remember(store, "Payments retry twice on timeout", moved)  # later writes leave the header alone
    assert f"path: {moved};" in header(store)
    assert sorted(p.name for p in (store.root / "workspaces").glob("*.md")) == ["shop.md"]


def test_a_second_clone_and_a_worktree_keep_the_files_path(store: MemoryStore, shop: Path, tmp_path: Path) -> None:
    remember(store, FACT, shop)
    before = header(store)
    other = tmp_path / "shop-2"
    git("clone", "-q", str(shop), str(other))
    git("remote", "set-url", "origin", ORIGIN, cwd=other)
    remember(store, "Clone two tracks the release branch", other)  # the first clone still exists
    feat = tmp_path / "shop-feat"
    git("worktree", "add", "-q", str(feat), "-b", "feat", cwd=shop)
    remember(store, "The feat branch adds Apple Pay", feat)
    assert header(store) == before and f"path: {shop};" in before
