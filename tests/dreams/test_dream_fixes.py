"""QA fixes to dreams: records after compaction, oversized and hostile command answers, undo after
accept, the rules provider's choice of duplicate, and escapes in printed reasons."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.dream_helpers import alias, make_repo, run_with, settings
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.config import Settings
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.dreams.input import build_input
from memrepo.engine.dreams.ops import ProviderError
from memrepo.engine.dreams.providers import MAX_OUTPUT_TOKENS, CommandProvider, RulesProvider
from memrepo.engine.dreams.record import DreamRecords
from memrepo.engine.repo.store import MemoryStore


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


def _command_settings(home: Path, *argv: str):
    cfg = settings(home, provider="command")
    cfg.dream.command.argv = list(argv)
    return cfg


def test_an_oversized_command_answer_fails_without_using_up_the_budget(
    repo_path: Path, isolated_home: Path, tmp_path: Path
) -> None:
    script = tmp_path / "big.py"
    script.write_text("import sys\nsys.stdin.read()\nsys.stdout.write('QUJD' * 75_000)\n")  # 300,000 characters
    store = make_repo(repo_path)
    cfg = _command_settings(isolated_home, sys.executable, str(script))
    record = Dreamer(store, cfg).run()
    assert record.status == "failed" and "over the 200,000 limit" in (record.reason or "")
    assert 0 < record.tokens.output <= MAX_OUTPUT_TOKENS
    # the next dream is not refused for the budget
    assert Dreamer(store, cfg).budget_left() == 50_000 - record.tokens.input - record.tokens.output
    assert Dreamer(store, cfg).prepare().lock.release() is None


def test_a_command_answering_without_end_is_cut_off_at_the_cap(
    repo_path: Path, isolated_home: Path, tmp_path: Path
) -> None:
    script = tmp_path / "endless.py"
    script.write_text("import sys\nsys.stdin.read()\nwhile True:\n    sys.stdout.write('QUJD' * 4096)\n")
    store = make_repo(repo_path)
    record = Dreamer(store, _command_settings(isolated_home, sys.executable, str(script))).run()
    # Ended by the output cap ("stopped reading"), not by the command timeout ("did not answer within").
    assert record.status == "failed" and "stopped reading" in (record.reason or "")
    assert "did not answer" not in (record.reason or "")
    assert record.tokens.output <= MAX_OUTPUT_TOKENS


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in state


def test_a_command_timeout_kills_the_processes_it_started(repo_path: Path, tmp_path: Path) -> None:
    pidfile = tmp_path / "sleep.pid"
    script = tmp_path / "spawn.sh"
    # The sleep first (its pid on record before anything waits), and one that outlives every guard here.
    script.write_text(f"#!/bin/sh\nsleep 600 &\necho $! > {pidfile}\ncat > /dev/null\nwait\n")
    script.chmod(0o755)
    store = make_repo(repo_path)
    din = build_input(repo_path, [p for p, _ in store.list_files()], [])
    cfg = Settings()
    cfg.dream.command.argv = [str(script)]
    with pytest.raises(ProviderError, match="did not answer within 5 s"):
        CommandProvider(cfg.dream, timeout=5.0).propose(din)
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 60  # hang guard
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _alive(pid)
    if alive:
        os.kill(pid, signal.SIGKILL)  # a failing run leaves no sleep behind
    assert not alive, "the sleep the command started outlived its timeout"


def test_undo_of_the_auto_commit_after_accepting_the_review_of_the_same_file(repo_path: Path) -> None:
    files = {
        "me.md": (
            "# About me\n\n"
            "- Prefers dark mode [by: agent]\n"
            "- Billing invoices are in cents [by: user; workspace: ws-1a2b3c4d]\n"
            "- Prefers dark mode [by: agent]\n"
            "- Likes green tea [by: agent]\n"
        ),
        "workspaces/billing.md": "# billing\n\n- Workspace billing [workspace: ws-1a2b3c4d; by: user]\n",
    }
    store = make_repo(repo_path, files)
    dreamer = Dreamer(store)
    record = dreamer.run()
    assert record.auto_commit and record.branch, record
    assert (repo_path / "me.md").read_text().count("Prefers dark mode") == 1
    dreamer.accept(record.id)
    assert "Billing invoices" not in (repo_path / "me.md").read_text()
    undone = dreamer.undo(record.id)
    assert undone.undo_commit
    text = (repo_path / "me.md").read_text()
    assert text.count("Prefers dark mode") == 2 and "Billing invoices" not in text
    assert text.endswith("- Likes green tea [by: agent]\n")
    assert "Billing invoices are in cents" in (repo_path / "workspaces" / "billing.md").read_text()


def _rules_ops(repo_path: Path, files: dict[str, str]) -> tuple[object, list[dict]]:
    store = make_repo(repo_path, files)
    din = build_input(repo_path, [p for p, _ in store.list_files()], [])
    return din, json.loads(RulesProvider().propose(din).text)["operations"]


def test_rules_keeps_the_users_duplicate_and_deletes_the_agents(repo_path: Path) -> None:
    din, ops = _rules_ops(repo_path, {"notes.md": "# Notes\n\n- dd line [by: agent]\n- dd line [by: user]\n"})
    assert len(ops) == 1 and ops[0]["op"] == "delete"
    assert din.lines[ops[0]["line"]].by == "agent"
    assert ops[0]["keep"] == alias(din, "dd line", 1) and ops[0]["relation"] == "duplicate"
    assert ops[0]["reason"] == 'same text (other metadata) as "dd line" (notes.md:4), which stays (the user\'s line)'

    record = Dreamer(MemoryStore.open(repo_path, plain_settings())).run()
    assert record.status == "applied"  # deleting the agent's copy is automatic
    assert (repo_path / "notes.md").read_text() == "# Notes\n\n- dd line [by: user]\n"


def test_rules_keeps_the_users_duplicate_over_an_agents_with_more_metadata(repo_path: Path) -> None:
    """The user's line always wins (docs/architecture.md §6), whatever metadata the agent's copy has."""
    files = {"notes.md": "# Notes\n\n- Use   PNPM  for installs\n- Use pnpm for installs [by: agent; subject: pkg]\n"}
    din, ops = _rules_ops(repo_path, files)
    assert len(ops) == 1
    assert din.lines[ops[0]["line"]].text == "Use pnpm for installs"
    assert "exact" not in ops[0]["reason"] and "but for case, spacing" in ops[0]["reason"]
    assert "the user's line" in ops[0]["reason"]
    record = Dreamer(MemoryStore.open(repo_path, plain_settings())).run()
    assert record.status == "applied" and record.auto_commit  # deleting the agent's copy is automatic
    assert (repo_path / "notes.md").read_text() == "# Notes\n\n- Use   PNPM  for installs\n"


def test_rules_says_exact_duplicate_only_for_identical_lines(repo_path: Path) -> None:
    din, ops = _rules_ops(repo_path, {"notes.md": "# Notes\n\n- Same thing [by: agent]\n- Same thing [by: agent]\n"})
    first = alias(din, "Same thing")
    assert ops == [
        {
            "op": "delete",
            "line": alias(din, "Same thing", 1),
            "keep": first,
            "relation": "duplicate",
            "reason": 'exact duplicate of "Same thing" (notes.md:3), which stays (the first one)',
        }
    ]


def test_escapes_in_model_text_are_dropped_at_validation_and_never_printed(repo_path: Path) -> None:
    store = make_repo(repo_path)

    def answer(din) -> dict:
        return {
            "operations": [
                {
                    "op": "edit",
                    "line": alias(din, "Use uv for installs"),
                    "text": "Use uv \u202efor every\u001b[2J install",
                    "reason": "\u001b[31mred\u0007",
                },
                {
                    "op": "add",
                    "path": "\u001b[31mx.md",
                    "text": "hi there",
                    "reason": "r",
                    "quote": "a\u001b]0;t\u0007b",
                },
            ]
        }

    record = run_with(store, answer)
    saved = (repo_path / ".git" / "memrepo" / "dreams" / f"{record.id}.json").read_text()
    assert "\\u001b" not in saved and "\\u202e" not in saved and "\\u0007" not in saved
    edit, add = record.operations
    assert edit.reason == "[31mred" and edit.text == "Use uv for every[2J install"
    assert add.rejection == "unsafe_path" and add.path == "[31mx.md" and add.quote == "a]0;tb"
    # a record written before this fix (or by hand) is still printed without its escapes
    path = repo_path / ".git" / "memrepo" / "dreams" / f"{record.id}.json"
    data = json.loads(saved)
    data["operations"][0]["reason"] = "\u001b[31mred"
    data["operations"][0]["text"] = "\u001b]0;title\u0007x"
    data["reason"] = "\u001b[2Jwiped"
    path.write_text(json.dumps(data))
    shown = cli("--repo", str(repo_path), "dreams", "show", record.id)
    assert shown.exit_code == 0 and "red" in shown.stdout and "wiped" in shown.stdout
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    listed = cli("--repo", str(repo_path), "dreams")
    assert "\x1b" not in listed.stdout


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["dreams", "diff"], "see memrepo dreams diff --help"),
        (["dreams", "show", "--nope"], "see memrepo dreams show --help"),
        (["dreams", "--nope"], "see memrepo dreams --help"),
        (["remember"], "see memrepo remember --help"),
        (["--nope"], "see memrepo --help"),
    ],
)
def test_usage_errors_point_at_the_full_command_path(
    argv: list[str], hint: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memrepo.cli.main import run

    monkeypatch.setattr(sys, "argv", ["memrepo", *argv])
    with pytest.raises(SystemExit) as done:
        run()
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.startswith("memrepo: ") and err.rstrip().endswith(hint), err
    assert len(err.strip().splitlines()) == 1
