"""One project, one memory, wherever its checkout is (breaker finding B6-13).

A session in a linked worktree (``git worktree add``, how parallel Claude Code sessions run) or in a
moved or renamed clone got "(no file for this workspace yet)", nothing on its prompts, and started a
second file for the same project. Now a linked worktree is its main worktree's workspace, and a clone
with no workspace of its own takes the one whose ``origin`` remote it has; a fork (another remote), a
repo with no remote and a submodule stay apart. Everything here runs real git.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.gitproject import FACT, ORIGIN, git, make_project

from memrepo.engine.format.gitfolder import main_worktree, normalize_remote, origin_of, origin_url
from memrepo.engine.format.paths import normalize_workspace
from memrepo.engine.models import Candidate
from memrepo.engine.read.workspacemap import scrub_workspace_map
from memrepo.engine.repo.store import MemoryStore


def workspace_files(store: MemoryStore) -> list[str]:
    return sorted(p.name for p in (store.root / "workspaces").glob("*.md"))


def remember(store: MemoryStore, text: str, folder: Path) -> None:
    store.remember(Candidate(text=text, scope="workspace", workspace=str(folder), by="user"))


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj" / "shop")


def test_a_linked_worktree_is_its_main_worktrees_workspace(store: MemoryStore, shop: Path, tmp_path: Path) -> None:
    remember(store, FACT, shop)
    feat = tmp_path / "proj" / "shop-feat"
    git("worktree", "add", "-q", str(feat), "-b", "feat", cwd=shop)
    (feat / "src").mkdir()
    assert main_worktree(str(feat)) == str(shop)
    assert normalize_workspace(str(feat))[0] == normalize_workspace(str(shop))[0]
    assert normalize_workspace(str(feat / "src"))[0] == normalize_workspace(str(shop))[0]
    block = store.context(str(feat)).text
    assert FACT in block and "no file for this workspace" not in block
    assert [h.text for h in store.recall("postgres version shop db", workspace=str(feat))][:1] == [FACT]
    remember(store, "The feat branch adds Apple Pay", feat)  # from the worktree: the project's one file
    assert workspace_files(store) == ["shop.md"]
    assert "Apple Pay" in store.context(str(shop)).text


def test_a_moved_clone_keeps_its_memory(store: MemoryStore, shop: Path, tmp_path: Path) -> None:
    remember(store, FACT, shop)
    head = (store.root / "workspaces" / "shop.md").read_text()
    assert "remote: github.com/jlee/shop" in head  # stored with the workspace, as a new file is made
    moved = tmp_path / "code" / "shop-renamed"
    moved.parent.mkdir()
    shutil.move(str(shop), str(moved))
    assert normalize_workspace(str(moved))[0] != normalize_workspace(str(shop))[0]  # another folder, another id
    block = store.context(str(moved)).text
    assert FACT in block and "no file for this workspace" not in block
    remember(store, "Checkout bug tracked in SHOP-4417", moved)
    assert workspace_files(store) == ["shop.md"]  # no second file for the same project
    assert "SHOP-4417" in store.context(str(moved)).text


def test_a_workspace_made_before_remotes_were_stored_learns_its_remote_from_its_folder(
    store: MemoryStore, shop: Path, tmp_path: Path
) -> None:
    ws_id, _slug, path = normalize_workspace(str(shop))
    (store.root / "workspaces").mkdir(exist_ok=True)
    (store.root / "workspaces" / "shop.md").write_text(
        f"# shop\n\n- Workspace shop [workspace: {ws_id}; path: {path}; by: user]\n- {FACT} [by: user]\n"
    )
    store.commit_hand_edits()
    assert FACT in store.context(str(shop)).text  # the map reads the file while the folder is there
    moved = tmp_path / "shop-copy"
    shutil.move(str(shop), str(moved))
    assert FACT in store.context(str(moved)).text
    remember(store, "Checkout bug tracked in SHOP-4417", moved)  # the file changed, its old folder is gone
    assert workspace_files(store) == ["shop.md"]
    assert "SHOP-4417" in store.context(str(moved)).text  # the remote learnt before is kept


def test_a_write_stores_the_remote_in_an_older_workspace_file(store: MemoryStore, shop: Path, tmp_path: Path) -> None:
    ws_id, _slug, path = normalize_workspace(str(shop))
    (store.root / "workspaces").mkdir(exist_ok=True)
    (store.root / "workspaces" / "shop.md").write_text(
        f"# shop\n\n- Workspace shop [workspace: {ws_id}; path: {path}; by: user]\n- {FACT} [by: user]\n"
    )
    store.commit_hand_edits()
    remember(store, "Checkout bug tracked in SHOP-4417", shop)
    head = (store.root / "workspaces" / "shop.md").read_text().splitlines()[2]
    assert head == f"- Workspace shop [workspace: {ws_id}; path: {path}; remote: github.com/jlee/shop; by: user]"
    moved = tmp_path / "elsewhere" / "shop"
    moved.parent.mkdir()
    shutil.move(str(shop), str(moved))
    scrub_workspace_map(store.root)  # what the map knew is gone (compaction; a clone on another machine)
    assert FACT in store.context(str(moved)).text and "SHOP-4417" in store.context(str(moved)).text


def test_a_fork_an_unrelated_repo_and_a_repo_with_no_remote_stay_apart(
    store: MemoryStore, shop: Path, tmp_path: Path
) -> None:
    remember(store, FACT, shop)
    fork = tmp_path / "fork"
    git("clone", "-q", str(shop), str(fork))  # the same root commit: only the remote tells them apart
    git("remote", "set-url", "origin", "git@github.com:someone/shop.git", cwd=fork)
    unrelated = make_project(tmp_path / "blog", "https://github.com/jlee/blog.git")
    bare = make_project(tmp_path / "scratch", None)
    for folder in (fork, unrelated, bare):
        block = store.context(str(folder)).text
        assert FACT not in block and "no file for this workspace yet" in block, folder
        assert not [h for h in store.recall("postgres version shop db", workspace=str(folder)) if h.text == FACT]
    remember(store, "The fork ships to fly.io", fork)
    assert workspace_files(store) == ["fork.md", "shop.md"]
    assert "fly.io" not in store.context(str(shop)).text


def test_a_second_clone_shares_the_memory_but_never_guesses_between_two(
    store: MemoryStore, shop: Path, tmp_path: Path
) -> None:
    remember(store, FACT, shop)
    other = tmp_path / "shop-2"
    git("clone", "-q", str(shop), str(other))
    git("remote", "set-url", "origin", ORIGIN, cwd=other)
    assert FACT in store.context(str(other)).text  # one workspace has the remote: the same project
    ws_id, _slug, path = normalize_workspace(str(other))
    (store.root / "workspaces" / "shop-2.md").write_text(  # a file of its own, made by hand
        f"# shop-2\n\n- Workspace shop-2 [workspace: {ws_id}; path: {path}; remote: github.com/jlee/shop]\n"
        "- Clone two tracks the release branch [by: user]\n"
    )
    store.commit_hand_edits()
    assert "release branch" in store.context(str(other)).text and FACT not in store.context(str(other)).text
    third = tmp_path / "shop-3"
    git("clone", "-q", str(shop), str(third))
    git("remote", "set-url", "origin", ORIGIN, cwd=third)
    block = store.context(str(third)).text  # two live clones of the remote have files: no guess between them
    assert FACT not in block and "release branch" not in block and "no file for this workspace yet" in block


def test_a_submodule_is_its_own_project(store: MemoryStore, shop: Path, tmp_path: Path) -> None:
    lib = make_project(tmp_path / "lib", "git@github.com:jlee/lib.git")
    git("submodule", "add", "-q", str(lib), "vendor/lib", cwd=shop)
    sub = shop / "vendor" / "lib"
    assert main_worktree(str(sub)) is None
    assert normalize_workspace(str(sub))[2] == str(sub)


def test_remote_urls_are_compared_without_user_token_port_or_dot_git(tmp_path: Path) -> None:
    same = [
        "git@github.com:jlee/shop.git",
        "ssh://git@github.com:22/jlee/shop",
        "https://user:ghp_secret123@GitHub.com/jlee/shop.git/",
        "https://github.com/jlee/shop",
    ]
    assert {normalize_remote(url) for url in same} == {"github.com/jlee/shop"}
    assert normalize_remote("git@github.com:someone/shop.git") == "github.com/someone/shop"
    assert normalize_remote("/srv/git/shop.git") == "file:/srv/git/shop.git"
    assert normalize_remote("file:///srv/git/shop.git") == "file:/srv/git/shop.git"
    assert normalize_remote("") is None
    config = '[core]\n\tbare = false\n[remote "upstream"]\n\turl = x\n[remote "origin"]\n\turl = "git@h:a/b.git" # c\n'
    assert origin_url(config) == "git@h:a/b.git"
    assert origin_of(str(tmp_path)) is None  # no work tree
