"""QA fixes to dreams: records after compaction, oversized and hostile command answers, undo after
accept, the rules provider's choice of duplicate, and escapes in printed reasons."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result
from dream_helpers import alias, make_repo, run_with, settings

from engine.dreamer import Dreamer
from engine.dreamrecord import DreamRecords
from tui.cli import main


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def _dup_and_merge(din) -> dict:
    """Delete the agent's exact duplicate (auto) and merge the user's near-duplicates (review)."""
    return {
        "operations": [
            {"op": "delete", "line": alias(din, "Run ruff before committing", 1), "reason": "duplicate"},
            {
                "op": "merge",
                "lines": [
                    alias(din, "Always run the full test suite before pushing"),
                    alias(din, "Always run the full test suite before pushing code"),
                ],
                "text": "Always run the full test suite before pushing code",
                "path": "lessons.md",
                "reason": "near-duplicates",
            },
        ]
    }


def test_a_pending_dream_stays_readable_and_counted_after_compaction(repo_path: Path, isolated_home: Path) -> None:
    store = make_repo(repo_path)
    record = run_with(store, _dup_and_merge, tokens=(30_000, 5_000))
    assert record.status == "pending_review"
    store.compact()
    saved = json.loads((repo_path / ".git" / "memrepo" / "dreams" / f"{record.id}.json").read_text())
    assert saved["scrubbed"] is True and saved["status"] == "stale"
    for op in saved["operations"]:
        assert op["text"] == op["reason"] == op["before"] == op["after"] == op["quote"] == ""
        assert op["classification"] in ("auto", "review") and op["lines"] and op["op"] in ("delete", "merge")
    assert not any("Run ruff" in json.dumps(op) for op in saved["operations"])

    repo = ["--repo", str(repo_path)]
    listed = cli(*repo, "dreams")
    assert listed.exit_code == 0 and listed.stdout.startswith(record.id) and "stale" in listed.stdout
    shown = cli(*repo, "dreams", "show", record.id)
    assert shown.exit_code == 0, shown.stderr
    assert "stale" in shown.stdout and "auto     delete" in shown.stdout and "review   merge" in shown.stdout
    loaded = Dreamer(store).show(record.id)
    assert loaded.status == "stale" and loaded.scrubbed and loaded.tokens.output == 5_000
    assert Dreamer(store, settings(isolated_home, daily_token_budget=50_000)).budget_left() == 15_000


def test_a_scrubbed_record_with_blanked_structure_still_loads(repo_path: Path, isolated_home: Path) -> None:
    """Records scrubbed by the old generic scrub (classification and lines set to "") load with empty texts."""
    store = make_repo(repo_path)
    record = run_with(store, _dup_and_merge, tokens=(30_000, 5_000))
    path = repo_path / ".git" / "memrepo" / "dreams" / f"{record.id}.json"
    data = json.loads(path.read_text())
    for op in data["operations"]:
        for key in ("text", "reason", "before", "after", "quote", "classification", "lines", "detail", "op"):
            op[key] = ""
        op["refs"] = [""]
    data["scrubbed"] = True
    data["status"] = "stale"
    path.write_text(json.dumps(data))
    loaded = DreamRecords(store.git.git_dir).load(record.id)
    assert loaded.scrubbed and len(loaded.operations) == 2
    assert all(op.text == op.reason == "" for op in loaded.operations)
    assert [r.id for r in DreamRecords(store.git.git_dir).all()] == [record.id]
    assert Dreamer(store, settings(isolated_home, daily_token_budget=50_000)).budget_left() == 15_000
    shown = cli("--repo", str(repo_path), "dreams", "show", record.id)
    assert shown.exit_code == 0, shown.stderr


def test_an_unreadable_record_is_one_line_and_its_tokens_still_count(repo_path: Path, isolated_home: Path) -> None:
    store = make_repo(repo_path)
    record = run_with(store, '{"operations": []}', tokens=(30_000, 5_000))
    path = repo_path / ".git" / "memrepo" / "dreams" / f"{record.id}.json"
    data = json.loads(path.read_text())
    data["status"] = "exploded"
    path.write_text(json.dumps(data))
    assert Dreamer(store, settings(isolated_home, daily_token_budget=50_000)).budget_left() == 15_000
    shown = cli("--repo", str(repo_path), "dreams", "show", record.id)
    assert shown.exit_code == 1 and len(shown.stderr.strip().splitlines()) == 1
    assert "unreadable" in shown.stderr and "status" in shown.stderr
