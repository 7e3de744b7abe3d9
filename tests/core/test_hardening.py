"""Regression tests for the hostile cases found by trying it: each would lose data,
misplace it, or end in a traceback without its fix."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings, porcelain

from memrepo.engine.errors import BlockedError, GitError, RefError
from memrepo.engine.files.lock import WriteLock
from memrepo.engine.models import Action, Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write.writer import Transaction


def test_an_edit_saved_while_the_writer_works_is_kept(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """An editor saving me.md between the writer's read and its rename loses nothing."""
    real_read = Transaction.read
    calls = {"n": 0}

    def read_then_editor_saves(self: Transaction, rel: str) -> object:
        parsed = real_read(self, rel)
        calls["n"] += 1
        if calls["n"] == 1:
            with (self.root / rel).open("a", encoding="utf-8") as fh:
                fh.write("- saved by an editor meanwhile\n")
        return parsed

    monkeypatch.setattr(Transaction, "read", read_then_editor_saves)
    result = store.remember(Candidate(text="written by the agent", kind="preference"))
    assert result.action is Action.ADDED
    text = (store.root / "me.md").read_text()
    assert "- saved by an editor meanwhile" in text and "written by the agent" in text
    summaries = [c.summary for c in store.log(3)]
    assert summaries[:2] == ["Remember preference: written by the agent", "Hand edits"]
    assert porcelain(store.root) == ""


def test_a_file_that_never_stops_growing_takes_the_write_and_keeps_every_save(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_read = Transaction.read
    saves = [0]

    def always_changing(self: Transaction, rel: str) -> object:
        parsed = real_read(self, rel)
        with (self.root / rel).open("a", encoding="utf-8") as fh:
            fh.write(f"- another save {saves[0]}\n")
        saves[0] += 1
        return parsed

    monkeypatch.setattr(Transaction, "read", always_changing)
    result = store.remember(Candidate(text="lands anyway", kind="preference"))
    assert result.action is Action.ADDED
    text = (store.root / "me.md").read_text()
    assert "lands anyway" in text
    assert all(f"- another save {n}\n" in text for n in range(saves[0])), text
    assert git(store.root, "show", "HEAD:me.md") == text


def test_forget_with_expect_refuses_a_shifted_ref(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="first fact", kind="preference"))
    store.remember(Candidate(text="second fact", kind="preference"))
    store.forget(first.ref or "", expect="first fact")
    with pytest.raises(RefError, match="now holds 'second fact'"):
        store.forget(first.ref or "", expect="first fact")
    assert "second fact" in (store.root / "me.md").read_text()


def test_the_line_naming_a_workspace_cannot_be_forgotten(store: MemoryStore) -> None:
    result = store.remember(Candidate(text="deploys on fridays", scope="workspace", workspace="billing"))
    assert result.path == "workspaces/billing.md"
    naming = next(e for e in store.read_file("workspaces/billing.md").entries if "workspace" in e.meta)
    with pytest.raises(RefError, match="names the workspace"):
        store.forget(naming.ref)
    again = store.remember(Candidate(text="rolls back with make undo", scope="workspace", workspace="billing"))
    assert again.path == "workspaces/billing.md"


def test_a_detached_head_blocks_writes(store: MemoryStore) -> None:
    store.remember(Candidate(text="first preference", kind="preference"))
    git(store.root, "checkout", "-q", "--detach", "HEAD~1")
    assert store.status().state is RepoState.BLOCKED
    with pytest.raises(BlockedError, match="detached"):
        store.remember(Candidate(text="would be lost", kind="preference"))
    git(store.root, "checkout", "-q", "main")
    assert store.remember(Candidate(text="kept preference", kind="preference")).action is Action.ADDED


def test_a_repo_whose_memory_md_was_deleted_by_hand_still_opens(store: MemoryStore) -> None:
    root = store.root
    (root / "MEMORY.md").unlink()
    reopened = MemoryStore.open(root, plain_settings())
    assert reopened.status().changed == ["MEMORY.md"]
    assert reopened.remember(Candidate(text="still works", kind="preference")).action is Action.ADDED
    # The deletion waits for the user's answer (the entry point is never dropped unasked, B5-12).
    assert "MEMORY.md" in git(root, "ls-files")
    [question] = reopened.status().questions
    assert question.path == "MEMORY.md" and question.deleted


def test_control_characters_and_bidi_overrides_never_reach_disk(store: MemoryStore) -> None:
    result = store.remember(
        Candidate(text="ctrl \x01\x07\x1b[31mRED\x1b[0m \x7f\u202eevil", kind="preference", source="a\x1bb")
    )
    assert result.action is Action.ADDED
    data = (store.root / "me.md").read_bytes()
    for bad in (b"\x01", b"\x07", b"\x1b", b"\x7f", "\u202e".encode()):
        assert bad not in data
    assert "ctrl [31mRED[0m evil" in data.decode()
    assert "\x1b" not in store.log(1)[0].message


def test_a_workspace_name_with_a_newline_makes_one_file_with_one_label_line(store: MemoryStore) -> None:
    for text in ("first fact", "second fact"):
        result = store.remember(Candidate(text=text, scope="workspace", workspace="multi\nline"))
        assert result.path == "workspaces/multi-line.md"
    lines = (store.root / "workspaces" / "multi-line.md").read_text().splitlines()
    assert lines[2].startswith("- Workspace multi line [workspace: ws-")
    assert [line.split(" [")[0] for line in lines[3:]] == ["- first fact", "- second fact"]


def test_names_without_ascii_get_distinct_files(store: MemoryStore) -> None:
    a = store.remember(Candidate(text="fact x", scope="workspace", workspace="数据库"))
    b = store.remember(Candidate(text="fact y", scope="workspace", workspace="部署"))
    assert a.path != b.path
    assert a.path.startswith("workspaces/ws-") and b.path.startswith("workspaces/ws-")


def test_a_stray_temp_file_from_a_killed_writer_is_removed_not_committed(store: MemoryStore) -> None:
    import json

    (store.root / ".memrepo-tmp-abc123").write_text("half a file")
    (store.root / "workspaces").mkdir(exist_ok=True)
    (store.root / "workspaces" / ".memrepo-tmp-undo-1-2").write_text("an old version's second name")
    assert porcelain(store.root) == ""  # git never shows them (.git/info/exclude)
    holder = store.root / ".git" / "memrepo" / "write.holder"
    holder.write_text(json.dumps({"pid": 2**22 + 17, "purpose": "remember", "at": 1.0}))  # above pid_max: dead
    store.remember(Candidate(text="next write", kind="preference"))
    assert not (store.root / "workspaces" / ".memrepo-tmp-undo-1-2").exists()
    assert not (store.root / ".memrepo-tmp-abc123").exists()
    assert ".memrepo-tmp" not in git(store.root, "ls-files")
    assert porcelain(store.root) == ""


def test_a_tracked_file_replaced_by_a_symlink_is_blocked_in_status_too(store: MemoryStore, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("not memory\n")
    (store.root / "me.md").unlink()
    (store.root / "me.md").symlink_to(outside)
    status = store.status()
    assert status.state is RepoState.BLOCKED and "symlink" in (status.reason or "")
    assert outside.read_text() == "not memory\n"


def test_a_missing_object_in_history_is_a_clear_error(store: MemoryStore) -> None:
    for i in range(3):
        store.remember(Candidate(text=f"fact {i}", kind="preference"))
    victim = git(store.root, "rev-parse", "HEAD~2").strip()
    (store.root / ".git" / "objects" / victim[:2] / victim[2:]).unlink()
    with pytest.raises(GitError, match="history is damaged"):
        store.log(10)


def test_commits_follow_gitattributes_eol_rules(store: MemoryStore) -> None:
    root = store.root
    (root / ".gitattributes").write_text("*.md text eol=lf\n")
    (root / "me.md").write_bytes(b"# About me\r\n\r\n- crlf line\r\n")
    assert store.commit_hand_edits() is not None
    store.remember(Candidate(text="written through filters", kind="preference"))
    assert porcelain(root) == ""
    assert store.status().state is RepoState.CLEAN


def test_the_busy_error_never_names_a_writer_that_is_gone(store: MemoryStore) -> None:
    store.remember(Candidate(text="a write that took and released the lock", kind="preference"))
    lock = WriteLock(store.git.git_dir)
    assert lock.holder() is None


def test_cli_usage_errors_are_one_line(store: MemoryStore) -> None:
    exe = shutil.which("memrepo") or str(Path(sys.executable).parent / "memrepo")
    for args in (["--bogus"], ["remember"], ["log", "-n", "-5"], ["--repo", "", "log"], ["forget", "repo:me.md\n#L4"]):
        result = subprocess.run(
            [exe, "--repo", str(store.root), *args] if args[0] != "--repo" else [exe, *args],
            capture_output=True,
            text=True,
        )
        assert result.returncode != 0, args
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("memrepo: "), (args, result.stderr)
        assert "Traceback" not in result.stderr


KILLED_BEFORE_COMMIT = """
import os, signal, sys
from pathlib import Path
from memrepo.engine.config import Settings
from memrepo.engine.files.undo import Undo
from memrepo.engine.repo.store import MemoryStore

store = MemoryStore.open(Path(sys.argv[1]), Settings(), create=False)
with store.transaction("remember", hand_edits=False) as tx:
    data = tx.read_bytes("me.md")
    tx.write("me.md", data + b"- Written by a writer killed before its commit [by: user]\\n")
    tx.apply(Undo(store.root))
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_writer_killed_between_its_write_and_its_commit_is_kept_not_asked_about(store: MemoryStore) -> None:
    before = (store.root / "me.md").read_bytes()
    done = subprocess.run([sys.executable, "-c", KILLED_BEFORE_COMMIT, str(store.root)], capture_output=True)
    assert done.returncode == -9, done.stderr
    assert b"killed before its commit" in (store.root / "me.md").read_bytes()
    assert [p.name for p in store.root.glob(".memrepo-tmp-undo-*")]  # its second name is left
    store.remember(Candidate(text="next write after the kill", kind="preference"))
    text = git(store.root, "show", "HEAD:me.md")
    # Kept as a hand edit (as a killed write always was), not held as an editor's stale save.
    assert "killed before its commit" in text and text.startswith(before.decode())
    assert not list(store.root.rglob(".memrepo-tmp-*"))
    assert porcelain(store.root) == ""
    assert store.status().state is RepoState.CLEAN
