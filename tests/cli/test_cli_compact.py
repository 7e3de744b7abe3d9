"""CLI: memrepo compact [--yes], memrepo clear workspace|global|task [--compact], forget --compact, health [--json]."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result
from helpers.compact_helpers import fsck, git

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.health import REMOVALS_WARN
from memrepo.engine.repo.store import MemoryStore


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=True)


def _repo(store: MemoryStore) -> list[str]:
    store.remember(Candidate(text="Deploys on Fridays", scope="workspace", workspace="billing"))
    store.remember(Candidate(text="Task fact", task="t1"))
    store.remember(Candidate(text="Name is Sam", kind="identity", by="user"))
    git(store.root, "branch", "dream/x1")
    return ["--repo", str(store.root)]


def test_compact_asks_with_what_will_be_lost_and_no_changes_nothing(store: MemoryStore) -> None:
    repo = _repo(store)
    head = store.head()
    result = run(*repo, "compact", input="n\n")
    assert result.exit_code == 1
    assert (
        "undo history will be lost" in result.stdout
        and "1 dream review branch will be deleted and its dream marked stale: dream/x1." in result.stdout
    )
    assert "not compacted; nothing changed" in result.stderr
    assert store.head() == head
    result = run(*repo, "compact", input="y\n")
    assert result.exit_code == 0, result.output
    assert "[3/10] Writing the new pack" in result.stderr and "compacted: one commit" in result.stdout
    assert git(store.root, "rev-list", "--all").split() == [store.head()]
    fsck(store.root)


def test_compact_yes_does_not_ask(store: MemoryStore) -> None:
    repo = _repo(store)
    result = run(*repo, "compact", "--yes")
    assert result.exit_code == 0 and "Compact history now?" not in result.output
    assert len(store.log(10)) == 1
    again = run(*repo, "compact", input="n\n")  # one commit already: no "drop the other 0 commits"
    assert "The history is one commit already" in again.stdout and "other 0" not in again.stdout


def test_clear_workspace_with_compact(store: MemoryStore) -> None:
    repo = _repo(store)
    result = run(*repo, "clear", "workspace", "billing", "--compact")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("cleared (") and "compacted: one commit" in result.stdout
    assert "Deploys on Fridays" not in git(store.root, "log", "--all", "-p")


def test_clear_global_without_compact_says_how_to_compact(store: MemoryStore) -> None:
    repo = _repo(store)
    result = run(*repo, "clear", "global", "--no-compact")
    assert result.exit_code == 0
    assert "stays in the history until `memrepo compact`" in result.stderr
    assert "Name is Sam" in git(store.root, "log", "-p")
    assert store.read_file("me.md").entries == []


def test_clear_task_and_the_old_options_still_work(store: MemoryStore) -> None:
    repo = _repo(store)
    assert run(*repo, "clear", "task", "t1").exit_code == 0
    assert "Task fact" not in (store.root / "lessons.md").read_text() + (store.root / "me.md").read_text()
    result = run(*repo, "clear", "--global", "--compact")
    assert result.exit_code == 0 and len(store.log(10)) == 1
    bad = run(*repo, "clear", "--global", "workspace", "x")
    assert bad.exit_code == 2 and "not both" in bad.stderr
    assert run(*repo, "clear").exit_code == 2


def test_forget_compact(store: MemoryStore) -> None:
    repo = _repo(store)
    ref = next(e.ref for e in store.read_file("me.md").entries if e.text == "Name is Sam")
    result = run(*repo, "forget", ref, "--compact")
    assert result.exit_code == 0 and "compacted the history" in result.stdout
    assert "Name is Sam" not in git(store.root, "log", "--all", "-p")


def test_health_prints_rows_and_json_and_exits_1_on_fail(store: MemoryStore, tmp_path: Path) -> None:
    repo = ["--repo", str(store.root)]
    result = run(*repo, "health")
    assert result.exit_code == 0
    assert any(line.startswith("OK    work tree") for line in result.stdout.splitlines())
    rows = json.loads(run(*repo, "health", "--json").stdout)
    assert {"name", "status", "reason", "fix_key"} <= set(rows[0]) and rows[0]["name"] == "memory repo"
    (store.root / "MEMORY.md").write_text("# Memory\n\n" + "x" * 5000 + "\n")
    result = run(*repo, "health")
    assert result.exit_code == 1 and "FAIL  MEMORY.md size" in result.stdout
    missing = run("--repo", str(tmp_path / "none"), "health", "--json")
    assert missing.exit_code == 1 and json.loads(missing.stdout)[0]["status"] == "FAIL"
    (store.root / "MEMORY.md").write_text("# Memory\n")
    for n in range(REMOVALS_WARN + 1):  # one new removal is an OK row (breaker3 F26); past the count, a WARN
        ref = store.remember(Candidate(text=f"Forget me later {n}", by="user")).ref
        assert ref is not None
        store.forget(ref)
        out = run(*repo, "health").stdout if n in (0, REMOVALS_WARN) else ""
        if n == 0:
            assert "OK    history" in out and "(fix: press c in the app)" not in out
    assert "WARN  history" in out and "(fix: press c in the app)" in out


def test_clear_in_a_terminal_offers_to_compact(store: MemoryStore) -> None:
    """With a terminal on stdin, clear says what compaction would lose and asks; y compacts."""
    import os
    import shutil
    import subprocess
    import sys

    repo = _repo(store)
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [script, *repo, "clear", "workspace", "billing"],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.write(master, b"y\n")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, err
    assert "The cleared text is still in the history." in out and "undo history will be lost" in out
    assert "Compact history now?" in err and "compacted: one commit" in out
    assert len(store.log(10)) == 1


def test_the_question_before_compacting_speaks_of_the_future_and_the_report_of_the_past(store: MemoryStore) -> None:
    repo = _repo(store)
    git(store.root, "branch", "keepme")
    git(store.root, "tag", "oldtag")
    asked = run(*repo, "compact", input="n\n")
    lines = asked.stdout.splitlines()
    assert "2 other refs will be deleted: keepme, tags/oldtag." in lines
    assert lines[-1].startswith(".git is ") and lines[-1].endswith(" now, before compacting.")
    assert not any(" deleted:" in line and "will be" not in line for line in lines)
    done = run(*repo, "compact", input="y\n")
    assert done.exit_code == 0, done.output
    report = done.stdout.splitlines()[-1]
    assert report.startswith("compacted: one commit ") and "3 ref(s) deleted; .git " in report
