"""Hand edits are committed only when settled and plausible (docs/architecture.md §3, engine/write/settle.py)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import commit_by_hand, git, plain_settings

from memrepo.cli.main import main
from memrepo.engine.errors import HandEditQuestion
from memrepo.engine.format import entries as fmt
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore

ENTRIES = 40


def _forty(repo_path: Path) -> bytes:
    """MEMORY.md with 40 of the user's entries, committed by hand; returns its bytes."""
    memory = repo_path / "MEMORY.md"
    lines = [f"- pinned fact number {i}" for i in range(ENTRIES)]
    memory.write_bytes(memory.read_bytes() + ("\n".join(lines) + "\n").encode())
    commit_by_hand(repo_path, "forty entries")
    return memory.read_bytes()


def _entries_in_head(repo_path: Path, path: str) -> int:
    return len(fmt.parse(git(repo_path, "show", f"HEAD:{path}"), path).entries())


def test_truncate_and_stall_is_asked_about_and_loses_nothing(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    full = _forty(repo_path)
    before = _entries_in_head(repo_path, "MEMORY.md")
    saved = repo_path.parent / "saved.md"
    saved.write_bytes(full + b"- one more pinned fact from the slow save\n")
    # `slow_command > MEMORY.md`: the shell truncates at once, the command writes when the test opens the gate
    # (it wrote 2.5 s later: a loaded machine started the shell late, or ran the checks below past those 2.5 s).
    gate = repo_path.parent / "gate"
    slow = subprocess.Popen(
        ["sh", "-c", f"{{ while [ ! -e '{gate}' ]; do sleep 0.05; done; cat '{saved}'; }} > MEMORY.md"], cwd=repo_path
    )
    try:
        deadline = time.monotonic() + 60  # a hang guard: the shell truncates the file as it starts
        while (repo_path / "MEMORY.md").stat().st_size:
            assert time.monotonic() < deadline, "the shell never truncated MEMORY.md"
            time.sleep(0.05)
        time.sleep(0.8)  # quiet for longer than the settle time: the truncated file looks saved
        assert (repo_path / "MEMORY.md").read_bytes() == b""
        assert store.commit_hand_edits() is None  # the app's quiet-period commit: nothing committed
        questions = store.status().questions
        assert [q.path for q in questions] == ["MEMORY.md"] and questions[0].empty
        assert "commit-hand-edits --yes" in questions[0].message
        with pytest.raises(HandEditQuestion, match=r"MEMORY\.md is empty") as refused:
            store.remember(Candidate(text="a pinned fact written meanwhile", pin=True, by="user"))
        assert refused.value.kept  # applied once the question is gone
        other = store.remember(Candidate(text="the user likes tea"))  # other files still take writes
        assert other.action is Action.ADDED
        assert _entries_in_head(repo_path, "MEMORY.md") == before
    finally:
        gate.touch()
        slow.wait(60)
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None  # the finished save is plausible: committed
    assert _entries_in_head(repo_path, "MEMORY.md") == before + 2  # the save's line and the kept write
    assert b"written meanwhile" in (repo_path / "MEMORY.md").read_bytes()
    assert b"tea" in (repo_path / "me.md").read_bytes()


def test_losing_most_entries_needs_the_users_yes(repo_path: Path) -> None:
    MemoryStore.open(repo_path, plain_settings(), create=True)
    full = _forty(repo_path)
    kept = b"\n".join(full.splitlines()[: -(ENTRIES - 5)]) + b"\n"
    (repo_path / "MEMORY.md").write_bytes(kept)
    time.sleep(0.4)
    runner = CliRunner()
    out = runner.invoke(main, ["--repo", str(repo_path), "status"])
    assert "MEMORY.md lost 35 of its" in out.output and "commit-hand-edits --yes" in out.output
    out = runner.invoke(main, ["--repo", str(repo_path), "commit-hand-edits"])
    assert "nothing to commit" in out.output
    assert _entries_in_head(repo_path, "MEMORY.md") >= ENTRIES
    out = runner.invoke(main, ["--repo", str(repo_path), "commit-hand-edits", "--yes"])
    assert out.exit_code == 0 and "committed" in out.output
    assert _entries_in_head(repo_path, "MEMORY.md") < 10


def test_a_write_waits_for_a_file_being_saved(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    me = repo_path / "me.md"
    # A save in three bursts, 0.15 s apart: the write must build on the finished file.
    script = (
        "import sys, time\n"
        "f = open('me.md', 'wb')\n"
        "for part in (b'- first half of a hand entry', b' and its second half\\n', b'- second hand entry\\n'):\n"
        "    f.write(part); f.flush(); print('saving', flush=True); time.sleep(0.15)\n"
        "f.close()\n"
    )
    (repo_path.parent / "save.py").write_text(script)
    saver = subprocess.Popen(
        ["python3", str(repo_path.parent / "save.py")], cwd=repo_path, stdout=subprocess.PIPE, text=True
    )
    assert saver.stdout is not None and saver.stdout.readline().strip() == "saving"
    result = store.remember(Candidate(text="written during the save"))
    saver.wait(60)
    assert result.action is Action.ADDED
    text = me.read_bytes()
    assert b"- first half of a hand entry and its second half\n- second hand entry\n" in text
    assert b"written during the save" in text
