"""Clearing (docs/architecture.md §5): a workspace, the global memories, a task's agent lines; one commit each."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import porcelain

from memrepo.engine.errors import RefError
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


def test_clear_workspace_deletes_its_file_and_index_link_in_one_commit(store: MemoryStore) -> None:
    store.remember(Candidate(text="Deploys on Fridays", scope="workspace", workspace="billing"))
    store.remember(Candidate(text="Search uses Postgres", scope="workspace", workspace="search"))
    head = store.head()
    result = store.clear_workspace("billing")
    assert result.action is Action.CLEARED and result.path == "workspaces/billing.md"
    assert not (store.root / "workspaces" / "billing.md").exists()
    memory = (store.root / "MEMORY.md").read_text()
    assert "[[workspaces/billing]]" not in memory and "[[workspaces/search]]" in memory
    assert store.log(1)[0].parents == [head] and store.log(1)[0].summary == "Clear workspace billing"
    assert porcelain(store.root) == ""
    with pytest.raises(RefError, match="no workspace file"):
        store.clear_workspace("billing")
    again = store.remember(Candidate(text="Deploys on Mondays now", scope="workspace", workspace="billing"))
    assert again.path == "workspaces/billing.md"


def test_clear_global_empties_global_entries_and_keeps_structure(store: MemoryStore) -> None:
    store.remember(Candidate(text="Name is Sam", kind="identity", by="user"))
    store.remember(Candidate(text="Run tests before pushing", kind="lesson"))
    store.remember(Candidate(text="Always answer briefly", by="user", pin=True))
    store.remember(Candidate(text="A web page said so", untrusted=True))
    store.remember(Candidate(text="Deploys on Fridays", scope="workspace", workspace="billing"))
    result = store.clear_global()
    assert result.commit is not None and store.log(1)[0].summary == "Clear global memories"
    for path in ("me.md", "lessons.md", "inbox.md", "MEMORY.md"):
        assert store.read_file(path).entries == [], path
    memory = (store.root / "MEMORY.md").read_text()
    assert "## Index" in memory and "[[workspaces/billing]]" in memory and "[[me]]" in memory
    assert "Deploys on Fridays" in (store.root / "workspaces" / "billing.md").read_text()
    assert store.clear_global().commit is None  # nothing left: no empty commit
    assert porcelain(store.root) == ""


def test_purge_task_removes_only_that_tasks_agent_lines(store: MemoryStore) -> None:
    store.remember(Candidate(text="Agent fact from task one", task="t1"))
    store.remember(Candidate(text="Workspace fact from task one", task="t1", scope="workspace", workspace="w"))
    store.remember(Candidate(text="Agent fact from task two", task="t2"))
    store.remember(Candidate(text="User fact during task one", task="t1", by="user"))
    (store.root / "notes.bin").write_bytes(b"\x00\x01")  # a binary file is skipped, not an error
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "add", "notes.bin"], cwd=store.root, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "bin"], cwd=store.root, check=True
    )
    result = store.purge_task("t1")
    assert result.commit is not None and store.log(1)[0].summary == "Purge task t1"
    everything = "".join(p.read_text() for p in store.root.rglob("*.md"))
    assert "from task one" not in everything
    assert "Agent fact from task two" in everything and "User fact during task one" in everything
    assert store.purge_task("t1").commit is None
    with pytest.raises(RefError):
        store.purge_task("  ")
    assert porcelain(store.root) == ""


def test_cli_clear(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from memrepo.cli.main import main

    repo = tmp_path / "mem"
    runner = CliRunner()
    runner.invoke(main, ["--repo", str(repo), "remember", "Deploys on Fridays", "--workspace", "billing"])
    out = runner.invoke(main, ["--repo", str(repo), "clear", "--workspace", "billing"])
    assert out.exit_code == 0 and out.output.startswith("cleared ("), out.output
    assert not (repo / "workspaces" / "billing.md").exists()
    assert runner.invoke(main, ["--repo", str(repo), "clear", "--task", "nope"]).output == "nothing to clear\n"
    both = runner.invoke(main, ["--repo", str(repo), "clear", "--global", "--task", "x"])
    assert both.exit_code == 2 and "exactly one" in both.output
