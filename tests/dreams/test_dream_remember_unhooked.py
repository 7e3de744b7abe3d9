"""The offline dream keeps what the user asked to remember in a session no checkpoint read (breaker6 B6-11).

A Claude Code session whose Stop and SessionEnd hooks never ran (Claude Code killed, the laptop asleep, a
hook timed out) reached memory only through the dream, and the ``rules`` dream proposed nothing from its
tasks and moved its cursor past them: "Remember that X" was lost for good. Transcripts here are in Claude
Code's own line format (the one ``tests/cli/test_hook_user_remember.py`` feeds the SessionEnd hook).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.dream_helpers import settings
from helpers.repo_helpers import memory_files, plain_settings

from memrepo.cli.main import main
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.format import entries as fmt
from memrepo.engine.repo.store import MemoryStore

FACT = "Infra DNS is managed in Cloudflare, zone jlee.dev"
SAID = "Remember that infra DNS is managed in Cloudflare, zone jlee.dev."


def transcript_line(session: str, cwd: Path, n: int, role: str, text: str, parent: str | None) -> dict:
    """One line of ``~/.claude/projects/<project>/<session>.jsonl`` as Claude Code 2.1 writes it."""
    content: object = text if role == "user" else [{"type": "text", "text": text}]
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": str(cwd),
        "sessionId": session,
        "version": "2.1.12",
        "gitBranch": "main",
        "type": role,
        "message": {"role": role, "content": content},
        "uuid": f"{role[0]}{n}",
        "timestamp": f"2026-12-05T10:0{n}:00.000Z",
    }


def write_session(
    home: Path, project: Path, session: str, turns: list[tuple[str, str | None]], idle_s: float = 3600
) -> Path:
    """A finished session's transcript where Claude Code keeps it, last written ``idle_s`` seconds ago.

    A turn whose reply is None ends the file with the user's line and no newline (the writer was killed).
    """
    path = home / ".claude" / "projects" / "-proj-infra" / f"{session}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    out, parent = [], None
    for n, (said, reply) in enumerate(turns, 1):
        out.append(json.dumps(transcript_line(session, project, n, "user", said, parent)) + "\n")
        if reply is None:
            out[-1] = out[-1].rstrip("\n")
            break
        out.append(json.dumps(transcript_line(session, project, n, "assistant", reply, f"u{n}")) + "\n")
        parent = f"a{n}"
    path.write_text("".join(out), encoding="utf-8")
    when = time.time() - idle_s
    os.utime(path, (when, when))
    return path


def session_end_hook(store: MemoryStore, transcript: Path, project: Path, session: str) -> None:
    """What Claude Code's SessionEnd hook runs (``memrepo checkpoint --from-claude-hook``) on ``transcript``."""
    payload = {
        "session_id": session,
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    }
    done = CliRunner().invoke(
        main, ["--repo", str(store.root), "checkpoint", "--from-claude-hook"], input=json.dumps(payload)
    )
    assert done.exit_code == 0, done.output


def lines_with(store: MemoryStore, word: str) -> list[tuple[str, str, str]]:
    """``(path, text, by)`` of every entry in the work tree whose text holds ``word``."""
    found = []
    for path, data in memory_files(store.root):
        rel = str(path.relative_to(store.root))
        for _n, entry in fmt.parse(data, rel).entries():
            if word.lower() in entry.text.lower():
                found.append((rel, entry.text, entry.meta.get("by", "")))
    return found


@pytest.fixture
def world(tmp_path: Path) -> tuple[MemoryStore, Path, Path]:
    project = tmp_path / "proj" / "infra"
    project.mkdir(parents=True)
    return MemoryStore.open(tmp_path / "memory", plain_settings()), tmp_path / "home", project


def dream(store: MemoryStore, home: Path):
    return Dreamer(store, settings(home, provider="rules")).run()


def test_a_session_no_hook_read_keeps_what_the_user_asked_to_remember(world) -> None:
    store, home, project = world
    write_session(home, project, "6d6d6d6d-0001", [(SAID, "Noted: Cloudflare, zone jlee.dev."), ("Thanks!", "OK.")])
    record = dream(store, home)
    assert record.tasks == ["claude_code:6d6d6d6d-0001"]
    assert lines_with(store, "Cloudflare") == [("me.md", FACT, "user")]
    assert record.counts["auto"] == 1
    again = dream(store, home)  # the task is read once: the cursor is past it now
    assert again.tasks == []
    assert lines_with(store, "Cloudflare") == [("me.md", FACT, "user")]


def test_a_session_whose_hook_ran_adds_nothing_twice(world) -> None:
    store, home, project = world
    path = write_session(home, project, "6d6d6d6d-0002", [(SAID, "Noted."), ("Thanks!", "Sure.")])
    session_end_hook(store, path, project, "6d6d6d6d-0002")
    stored = lines_with(store, "Cloudflare")
    assert [(text, by) for _p, text, by in stored] == [(FACT, "user")]
    record = dream(store, home)
    assert record.tasks == ["claude_code:6d6d6d6d-0002"]
    assert not [op for op in record.operations if op.op == "add"]
    assert lines_with(store, "Cloudflare") == stored


def test_the_statement_goes_to_the_workspace_file_when_there_is_one(world) -> None:
    store, home, project = world
    first = write_session(home, project, "6d6d6d6d-0003", [("Remember that we deploy with make ship.", "OK.")])
    session_end_hook(store, first, project, "6d6d6d6d-0003")  # makes the workspace's file
    (home / ".claude" / "projects" / "-proj-infra" / "6d6d6d6d-0003.jsonl").unlink()
    write_session(home, project, "6d6d6d6d-0004", [(SAID, "Noted.")])
    dream(store, home)
    [(path, text, by)] = lines_with(store, "Cloudflare")
    assert path.startswith("workspaces/") and (text, by) == (FACT, "user")
    assert lines_with(store, "make ship")[0][0] == path


def test_a_forgotten_session_is_not_brought_back(world) -> None:
    store, home, project = world
    path = write_session(home, project, "6d6d6d6d-0005", [(SAID, "Noted.")])
    session_end_hook(store, path, project, "6d6d6d6d-0005")
    done = CliRunner().invoke(main, ["--repo", str(store.root), "forget-session", "6d6d6d6d-0005"])
    assert done.exit_code == 0, done.output
    assert lines_with(store, "Cloudflare") == []
    dream(store, home)
    assert lines_with(store, "Cloudflare") == []


def test_a_killed_sessions_last_line_without_its_newline_is_read(world) -> None:
    """Claude Code killed after writing the user's message but before its newline: the session is over."""
    store, home, project = world
    write_session(home, project, "6d6d6d6d-0006", [("Hi.", "Hello."), (SAID, None)], idle_s=5 * 3600)
    record = dream(store, home)
    assert record.tasks == ["claude_code:6d6d6d6d-0006"]
    assert lines_with(store, "Cloudflare") == [("me.md", FACT, "user")]


def test_only_the_users_request_counts(world) -> None:
    """An assistant's "remember that", or a question, is no statement of the user's."""
    store, home, project = world
    write_session(
        home,
        project,
        "6d6d6d6d-0007",
        [("Where is DNS managed?", "In Cloudflare. Remember that the zone is jlee.dev."), ("Remember that?", "Yes.")],
    )
    record = dream(store, home)
    assert record.tasks == ["claude_code:6d6d6d6d-0007"]
    assert lines_with(store, "jlee") == []


def test_a_clause_about_a_secret_is_left_out_as_the_checkpoint_does(world) -> None:
    store, home, project = world
    said = "Remember that we ship on Tuesdays only and the staging DB password is hunter2-Xq9vLp27Rt."
    write_session(home, project, "6d6d6d6d-0008", [(said, "Noted.")])
    dream(store, home)
    assert lines_with(store, "Tuesdays") == [("me.md", "We ship on Tuesdays only", "user")]
    assert lines_with(store, "hunter2") == [] and "hunter2" not in json.dumps(
        [r.model_dump() if hasattr(r, "model_dump") else str(r) for r in Dreamer(store).list()]
    )


def test_a_statement_about_the_user_goes_to_me_md_even_with_a_workspace_file(world) -> None:
    """breaker7 B7-16 for the dream: "my login shell is zsh" said in a project is true in every project."""
    store, home, project = world
    first = write_session(home, project, "6d6d6d6d-0005", [("Remember that we deploy with make ship.", "OK.")])
    session_end_hook(store, first, project, "6d6d6d6d-0005")  # makes the workspace's file
    first.unlink()
    write_session(home, project, "6d6d6d6d-0006", [("Remember that my login shell is zsh.", "Noted.")])
    dream(store, home)
    assert lines_with(store, "login shell") == [("me.md", "My login shell is zsh", "user")]


def session_start_hook(store: MemoryStore, project: Path, session: str) -> None:
    """What Claude Code's SessionStart hook runs (``memrepo hook session-start``), then nothing more (killed)."""
    payload = {"session_id": session, "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    done = CliRunner().invoke(main, ["--repo", str(store.root), "hook", "session-start"], input=json.dumps(payload))
    assert done.exit_code == 0, done.output


def test_a_session_another_repos_hook_read_is_not_copied_here(world, tmp_path: Path) -> None:
    """breaker11 B11-9: a work and a personal memory; a dream of one copied the other's sessions into me.md."""
    store, home, project = world
    other = MemoryStore.open(tmp_path / "other-memory", plain_settings())
    path = write_session(home, project, "6d6d6d6d-0009", [(SAID, "Noted."), ("Thanks!", "Sure.")])
    session_end_hook(other, path, project, "6d6d6d6d-0009")  # the session is the other repo's
    assert [(text, by) for _p, text, by in lines_with(other, "Cloudflare")] == [(FACT, "user")]
    record = dream(store, home)
    assert record.tasks == []
    assert lines_with(store, "Cloudflare") == []


def test_a_killed_session_is_caught_up_only_by_the_repo_its_hooks_used(world, tmp_path: Path) -> None:
    """SessionStart ran for the other repo, then Claude Code was killed: that repo's dream catches it up."""
    store, home, project = world
    other = MemoryStore.open(tmp_path / "other-memory", plain_settings())
    write_session(home, project, "6d6d6d6d-0010", [(SAID, "Noted.")])
    session_start_hook(other, project, "6d6d6d6d-0010")
    assert dream(store, home).tasks == []
    assert lines_with(store, "Cloudflare") == []
    assert dream(other, home).tasks == ["claude_code:6d6d6d6d-0010"]
    assert lines_with(other, "Cloudflare") == [("me.md", FACT, "user")]


def test_a_rule_said_in_a_session_no_hook_read_is_kept_as_the_users_rule(world) -> None:
    """corr10 left this: the ``rules`` dream kept "From now on, X" as a fact in the task's file (or me.md); now it
    proposes it as the user's rule in lessons.md (every project's block); a harmful rule is not proposed."""
    store, home, project = world
    turns = [
        ("From now on, write all commit messages in English.", "OK."),
        ("Going forward, skip all tests.", "Hm, OK."),
    ]
    write_session(home, project, "6d6d6d6d-0011", turns)
    record = dream(store, home)
    adds = [(op.path, op.text) for op in record.operations if op.op == "add"]
    assert adds == [("lessons.md", "Write all commit messages in English")]  # for review: a rule for every project
