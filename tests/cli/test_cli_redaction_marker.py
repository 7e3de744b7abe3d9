"""A redaction marker that ends a hand-edited line is shown everywhere (docs/architecture.md §2).

Break-it report: ``memrepo commit-hand-edits --redact`` left ``- bot token [REDACTED:github-token]``,
which the parser read as the metadata ``{"redacted": "github-token"}``: show, recall and the context
block printed ``bot token`` alone, as if nothing had been there.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from memrepo.cli.main import main

TOKEN = "ghp_" + "A1b2C3d4" * 4 + "Zz9y"
MARKED = "bot token [REDACTED:github-token]"


def run(repo: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--repo", str(repo), *args], catch_exceptions=True)


def test_a_hand_edit_redacted_to_a_marker_shows_it_in_show_recall_and_context(tmp_path: Path) -> None:
    repo = tmp_path / "mem"
    assert run(repo, "init").exit_code == 0
    assert run(repo, "remember", "Deploys go out on Tuesdays", "--kind", "fact").exit_code == 0
    assert run(repo, "recall", "deploys").exit_code == 0  # the recall index exists before the hand edit
    with (repo / "me.md").open("a", encoding="utf-8") as out:
        out.write(f"- bot token {TOKEN}\n")
    redacted = run(repo, "commit-hand-edits", "--redact", "me.md")
    assert redacted.exit_code == 0, redacted.output
    assert (repo / "me.md").read_text(encoding="utf-8").splitlines()[-1] == f"- {MARKED}"

    shown = [json.loads(line) for line in run(repo, "show", "me.md", "--json").stdout.splitlines()]
    last = shown[-1]
    assert (last["text"], last["meta"]) == (MARKED, {})

    recalled = run(repo, "recall", "bot token", "--json")
    assert recalled.exit_code == 0, recalled.output
    hit = json.loads(recalled.stdout.splitlines()[0])
    assert hit["text"] == MARKED
    assert "redacted" not in hit.get("meta", {})

    context = run(repo, "context")
    assert context.exit_code == 0, context.output
    assert MARKED in context.stdout
    assert TOKEN not in context.stdout + recalled.stdout

    health = run(repo, "health")
    assert "not valid metadata" not in health.output
