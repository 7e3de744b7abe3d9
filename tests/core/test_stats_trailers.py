"""``memrepo stats`` counts facts by what the commits' trailers say (issue 34 item 4).

Before, a fact's origin came from the lines a commit added: a new workspace file's header line
(``- Workspace <name> [workspace: ws-...; by: user]``, written by memrepo to name the file) counted
as a user fact beside the agent's one fact, and imported items (``Origin: import``) counted as
agent facts. Now ``Origin:`` and ``By:`` decide: a header is no fact, imports are their own count.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import git, plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _facts(root: Path) -> dict[str, int]:
    result = CliRunner().invoke(main, ["--repo", str(root), "stats", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["facts"]


def test_an_agents_first_write_to_a_new_workspace_is_one_agent_fact(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    project = tmp_path / "shop"
    project.mkdir()
    result = store.remember(
        Candidate(text="The shop deploys with make ship", scope="workspace", workspace=str(project), by="agent")
    )
    assert result.path.startswith("workspaces/")
    assert len(store.read_file(result.path).entries) == 2  # the header naming the workspace, and the fact
    assert _facts(store.root) == {"user": 0, "agent": 1, "inbox": 0, "import": 0}


def test_a_users_first_write_to_a_new_workspace_is_one_user_fact(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    done = CliRunner().invoke(
        main, ["--repo", str(store.root), "remember", "Build with make all", "--workspace", "shop"]
    )
    assert done.exit_code == 0, done.output
    assert _facts(store.root) == {"user": 1, "agent": 0, "inbox": 0, "import": 0}


def test_imported_items_are_counted_as_imports_not_agent_facts(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    source = tmp_path / "facts.jsonl"
    source.write_text(
        "\n".join(
            json.dumps({"text": text, "kind": "fact", "scope": "global"})
            for text in ("The staging host is eu-west-1", "Backups run nightly at 02:00")
        )
        + "\n"
    )
    done = CliRunner().invoke(main, ["--repo", str(store.root), "import", str(source), "--format", "jsonl"])
    assert done.exit_code == 0, done.output
    assert _facts(store.root) == {"user": 0, "agent": 0, "inbox": 0, "import": 2}


def test_the_command_line_counts_an_agents_write_by_its_by_trailer(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for who, text in (("agent", "The API is rate limited"), ("user", "Prefers short answers")):
        done = CliRunner().invoke(main, ["--repo", str(store.root), "remember", text, "--by", who])
        assert done.exit_code == 0, done.output
    assert "\nBy: agent" in git(store.root, "log", "-1", "--skip=1", "--format=%B")
    assert _facts(store.root) == {"user": 1, "agent": 1, "inbox": 0, "import": 0}
