"""The light context path of a new process (engine/read/coldread.py) prints exactly the store's block."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.console import console
from helpers.repo_helpers import git

from memrepo.engine.config import Settings, load_settings
from memrepo.engine.errors import RefError
from memrepo.engine.models import Candidate
from memrepo.engine.read.coldread import DEFAULT_ME_MD, context_text, head_id
from memrepo.engine.repo.store import MemoryStore


def _fill(store: MemoryStore, project: Path) -> None:
    store.remember(Candidate(text="The shop deploys on Fridays", scope="workspace", workspace=str(project), by="user"))
    store.remember(Candidate(text="Billing runs on Postgres 16", scope="workspace", workspace="billing", by="agent"))
    store.remember(Candidate(text="Prefers tabs over spaces", kind="preference", by="user"))
    with (store.root / "me.md").open("a") as f:  # a hand-written secret and a line with a path in it
        f.write("- my api key is sk-proj-Zq9Xv4Lm2Nb7Kc1Rt8Yw3Pd6Hs0Fg5Jx [by: user]\n")
        f.write("- notes live in docs/runbooks/deploy-2026.md [by: user]\n")
    store.commit_hand_edits()


@pytest.mark.parametrize("me_md", [True, False])
def test_the_light_text_is_the_stores_text_for_every_kind_of_workspace(
    store: MemoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, me_md: bool
) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    _fill(store, project)
    config = tmp_path / "config.toml"
    if not me_md:
        config.write_text("[context]\nme_md = false\n")
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))  # missing for me_md=True: the defaults, with no pydantic
    settings = load_settings()
    fresh = MemoryStore.open(store.root, settings, create=False)
    ws_id = fresh.workspace_index.resolve("billing").id
    given = None if me_md else settings  # no config file: the light path's own defaults
    for workspace in (None, str(project), "billing", "BILLING", ws_id, "shop", str(tmp_path / "new-folder")):
        assert context_text(str(store.root), workspace, given) == fresh.context(workspace).text, workspace
    assert ("Prefers tabs over spaces" in fresh.context().text) is me_md


def test_a_name_is_resolved_with_one_check_of_the_workspace_files_and_no_stat_of_project_folders(
    store: MemoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 20,000 files `context --workspace NAME` checked the 10,000 workspace files twice, matched the name
    against every row and stat'ed every project folder (0.2 s); one check and the map's name indexes are
    enough, and folders are looked at only where a listing shows them."""
    from memrepo.engine.read import workspaceindex
    from memrepo.engine.read import workspacemap as recallindex_workspaces

    project = tmp_path / "shop"
    project.mkdir()
    _fill(store, project)
    refreshes: list[int] = []
    real_refresh = recallindex_workspaces.WorkspaceMap.refresh
    monkeypatch.setattr(
        recallindex_workspaces.WorkspaceMap, "refresh", lambda self: refreshes.append(1) or real_refresh(self)
    )
    listed: list[int] = []
    real_scan = workspaceindex.scan_rows
    monkeypatch.setattr(workspaceindex, "scan_rows", lambda *a, **k: listed.append(1) or real_scan(*a, **k))
    dirs: list[str] = []
    real_isdir = os.path.isdir
    monkeypatch.setattr(workspaceindex.os.path, "isdir", lambda p: dirs.append(str(p)) or real_isdir(p))
    expected = store.context("billing").text
    refreshes.clear()
    dirs.clear()
    assert context_text(str(store.root), "billing") == expected
    assert len(refreshes) == 1
    assert listed == []  # the map's name indexes answered: no pass over every workspace's row
    assert str(project) not in dirs
    assert [w.exists for w in store.workspaces() if w.path == str(project)] == [True]  # a listing still says


def test_errors_are_the_stores(store: MemoryStore) -> None:
    with pytest.raises(RefError) as light:
        context_text(str(store.root), "no-such-name")
    with pytest.raises(RefError) as full:
        store.context("no-such-name")
    assert str(light.value) == str(full.value)


def test_packed_refs_detached_and_unborn_heads_read_as_libgit2_reads_them(store: MemoryStore, tmp_path: Path) -> None:
    git_dir = store.root / ".git"
    assert head_id(git_dir) == store.head()
    git(store.root, "pack-refs", "--all")
    assert not (git_dir / "refs/heads/main").exists()
    assert head_id(git_dir) == store.head()
    assert context_text(str(store.root), None) == store.context().text
    git(store.root, "checkout", "-q", "--detach")
    assert head_id(git_dir) == store.head()
    bare = tmp_path / "unborn"
    subprocess.run(["git", "init", "-q", "-b", "main", str(bare)], check=True)
    assert head_id(bare / ".git") is None


def test_anything_unusual_is_left_to_the_store(store: MemoryStore) -> None:
    assert context_text("", None) is None  # the CLI's own usage error
    assert context_text(str(store.root), None) == store.context().text
    for odd in ("reftable", "commondir"):  # reftable refs; a linked work tree's git folder
        (store.root / ".git" / odd).mkdir()
        assert context_text(str(store.root), None) is None, odd
        (store.root / ".git" / odd).rmdir()
    git(store.root, "config", "core.bare", "true")
    assert context_text(str(store.root), None) is None


def test_the_light_defaults_are_the_settings_defaults() -> None:
    assert Settings().context.me_md is DEFAULT_ME_MD


PROBE = """
import sys
from memrepo.engine.read.coldread import context_text
text = context_text(sys.argv[1], sys.argv[2])
lib = sys.modules.get("betterleaks._lib")
print(int(lib is not None and lib._binding_instance is not None), len(text))
"""


def test_a_second_process_does_not_load_betterleaks_for_lines_it_found_clean(
    store: MemoryStore, tmp_path: Path
) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    _fill(store, project)
    env = {**os.environ, "MEMREPO_CONFIG": str(tmp_path / "none.toml")}

    def probe() -> tuple[int, int]:
        out = subprocess.run(
            [sys.executable, "-c", PROBE, str(store.root), str(project)], env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        loaded, size = out.stdout.split()
        return int(loaded), int(size)

    first, second = probe(), probe()
    assert first[0] == 1  # the lines with paths and digits made it load once
    assert second == (0, first[1])  # then the memo answered, for the same block
    with (store.root / "me.md").open("a") as f:  # by hand: this process never scanned it either
        f.write("- the runbook moved to docs/runbooks/rotate-2026-11-30.md [by: user]\n")
    store.commit_hand_edits()
    assert probe()[0] == 1  # a new line is scanned again


def test_a_copied_repo_index_reads_stale_and_a_fresh_one_does_not(store: MemoryStore, tmp_path: Path) -> None:
    from memrepo.engine.git.indexstat import index_looks_stale

    git(store.root, "status", "--porcelain")  # git writes fresh stat data
    assert not index_looks_stale(store.root / ".git", store.root)
    copy = tmp_path / "copy"
    shutil.copytree(store.root, copy, symlinks=True)  # new inodes and ctimes: every entry's stat data is stale
    assert index_looks_stale(copy / ".git", copy)
    (copy / ".git" / "index").write_bytes(b"not an index")
    assert index_looks_stale(copy / ".git", copy)


@pytest.mark.parametrize("config", ["none", "me_md = false"])
def test_memrepo_context_answers_before_click_with_clicks_text(store: MemoryStore, tmp_path: Path, config: str) -> None:
    """What a hook runs in every new session: the same bytes and exit codes as the click command, without
    click or pydantic (a config file once its bytes were validated, docs/architecture.md §11)."""
    from click.testing import CliRunner

    from memrepo.cli import quick
    from memrepo.cli.main import main
    from memrepo.engine.configpath import config_path

    project = tmp_path / "shop"
    project.mkdir()
    _fill(store, project)
    if config != "none":
        path = config_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'repo = "{store.root}"\n\n[context]\n{config}\n', encoding="utf-8")
        assert quick.config_keys() is None
        assert CliRunner().invoke(main, ["context"]).exit_code == 0  # validates it, as every command does
        assert quick.config_keys() is not None and quick.config_keys().me_md is False  # type: ignore[union-attr]
    repo = [] if config != "none" else ["--repo", str(store.root)]
    outs = {}
    for args in (["context"], ["context", "--workspace", str(project)], ["context", "--workspace=billing"],
                 ["context", "--workspace", "no-such-workspace"]):  # fmt: skip
        clicked = CliRunner().invoke(main, [*repo, *args])
        out, err, code, heavy = console(*repo, *args)
        assert (out, err, code) == (clicked.stdout, clicked.stderr, clicked.exit_code), args
        assert not heavy, args
        outs[args[-1]] = (out, code)
    assert outs["no-such-workspace"][1] == 1 and outs["context"][1] == 0
    assert ("Prefers tabs" in outs["context"][0]) is (config == "none")  # [context] me_md = false was applied
    assert "deploys on Fridays" in outs[str(project)][0] and "Postgres 16" in outs["--workspace=billing"][0]


@pytest.mark.parametrize(
    "argv",
    [
        ["context", "--json"],
        ["context", "--help"],
        ["context", "--workspace"],
        ["context", "--workspace", ""],
        ["context", "--workspace", "a", "--workspace", "b"],
        ["context", "extra"],
        ["--repo", "", "context"],
        ["recall", "context"],
    ],
)
def test_anything_but_a_plain_context_goes_to_click(argv: list[str]) -> None:
    from memrepo.cli import quick

    assert quick.parse_context(argv) is None
