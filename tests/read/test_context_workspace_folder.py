"""A workspace with no file yet is named by its folder in the context block, not only by its id (breaker3 F8).

Before: SessionStart's block said "## workspace ws-32732222" and "(no file for this workspace yet)": the id is a
hash of the folder, so a reader could not tell which project it was. Every reader of the block says the same:
the store, ``memrepo context`` (its cold path) and the SessionStart hook.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.engine.format.paths import workspace_id
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def test_a_workspace_with_no_file_is_named_by_its_folder(store: MemoryStore, tmp_path: Path) -> None:
    folder = tmp_path / "shop"
    folder.mkdir()
    header = f"## workspace {workspace_id(str(folder))}, folder {folder}\n(no file for this workspace yet)"
    assert header in store.context(str(folder)).text
    cold = CliRunner().invoke(main, ["--repo", str(store.root), "context", "--workspace", str(folder)])
    assert cold.exit_code == 0 and header in cold.stdout, cold.output
    payload = {"session_id": "s", "transcript_path": str(tmp_path / "s.jsonl"), "cwd": str(folder)}
    hook = CliRunner().invoke(
        main,
        ["--repo", str(store.root), "hook", "session-start"],
        input=json.dumps({**payload, "hook_event_name": "SessionStart", "source": "startup"}),
    )
    assert hook.exit_code == 0, hook.output
    assert header in json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_workspace_with_a_file_or_an_id_only_keeps_its_header(store: MemoryStore, tmp_path: Path) -> None:
    folder = tmp_path / "shop"
    folder.mkdir()
    assert "folder" not in store.context("ws-00000000").text  # an id alone names no folder
    store.remember(Candidate(text="The shop deploys on Fridays", scope="workspace", workspace=str(folder)))
    text = store.context(str(folder)).text
    assert f"## workspaces/shop.md (workspace {workspace_id(str(folder))})\n" in text  # its file names it
    assert ", folder" not in text
