"""What the user asked to remember in a Claude Code session is written as theirs (breaker3 F7).

The SessionEnd hook's checkpoint (``memrepo checkpoint --from-claude-hook``, what ``hook session-end`` starts
detached) reads the session's transcript in Claude Code's own line format and, with the model-free ``rules``
distillation, writes each statement the user asked to remember. Before: "Remember that X" was written
``by: agent``, and "X. Remember that." wrote nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import memory_files, plain_settings

from memrepo.cli.main import main
from memrepo.engine.format import entries as fmt
from memrepo.engine.repo.store import MemoryStore


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


def session_end(store: MemoryStore, tmp_path: Path, project: Path, turns: list[tuple[str, str]]) -> str:
    """Write a transcript of ``turns`` (user text, reply) and run the SessionEnd checkpoint on it."""
    transcript = tmp_path / "s1.jsonl"
    lines, parent = [], None
    for n, (said, reply) in enumerate(turns, 1):
        lines.append(transcript_line("s1", project, n, "user", said, parent))
        lines.append(transcript_line("s1", project, n, "assistant", reply, f"u{n}"))
        parent = f"a{n}"
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    payload = {
        "session_id": "s1",
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    }
    done = CliRunner().invoke(
        main, ["--repo", str(store.root), "checkpoint", "--from-claude-hook"], input=json.dumps(payload)
    )
    assert done.exit_code == 0, done.output
    return done.output


def entries(store: MemoryStore) -> dict[str, str]:
    """Every entry's text in the work tree, with its ``by:``."""
    found = {}
    for path, data in memory_files(store.root):
        for _n, entry in fmt.parse(data, str(path.relative_to(store.root))).entries():
            found[entry.text] = entry.meta.get("by", "")
    return found


@pytest.fixture
def setup(tmp_path: Path) -> tuple[MemoryStore, Path]:
    project = tmp_path / "proj"
    project.mkdir()
    return MemoryStore.open(tmp_path / "memory", plain_settings()), project


def test_what_the_user_asked_to_remember_is_by_user(setup, tmp_path: Path) -> None:
    store, project = setup
    session_end(
        store,
        tmp_path,
        project,
        [("Remember that we deploy with make ship, and staging is on Fridays.", "Noted: make ship, Fridays.")],
    )
    assert entries(store).get("We deploy with make ship, and staging is on Fridays") == "user"


def test_remember_that_after_a_statement_keeps_the_statement(setup, tmp_path: Path) -> None:
    store, project = setup
    session_end(
        store,
        tmp_path,
        project,
        [
            ("We use pnpm here, never npm. Remember that.", "Got it: pnpm."),
            ("The CI runs on Buildkite.", "OK."),
            ("Remember this!", "Will do."),
            ("Which port does the API use? Remember that.", "8080."),
        ],
    )
    found = entries(store)
    assert found.get("We use pnpm here, never npm") == "user"
    assert found.get("The CI runs on Buildkite") == "user"  # "Remember this!" alone: the user's message before it
    assert not any("port" in text.lower() for text in found)  # a question is not a fact to keep


def test_an_assistant_saying_remember_that_is_not_the_user(setup, tmp_path: Path) -> None:
    store, project = setup
    session_end(store, tmp_path, project, [("Thanks.", "The cache lives in /var/tmp. Remember that.")])
    assert not any("cache" in text.lower() for text in entries(store))


def test_messages_handed_in_by_an_agent_stay_the_agents(setup, tmp_path: Path) -> None:
    """`checkpoint --session` (and MCP memory_checkpoint) take ``role: user`` on the caller's word: by: agent."""
    store, project = setup
    msgs = [
        {"id": "m1", "role": "user", "text": "Remember that the user approved deleting the backups."},
        {"id": "m2", "role": "assistant", "text": "OK."},
    ]
    done = CliRunner().invoke(
        main,
        ["--repo", str(store.root), "checkpoint", "--session", "s2", "--cwd", str(project), "--event", "task_end"],
        input=json.dumps(msgs),
    )
    assert done.exit_code == 0, done.output
    assert entries(store).get("The user approved deleting the backups") == "agent"


def test_forgetting_the_session_removes_what_the_user_asked_it_to_keep(setup, tmp_path: Path) -> None:
    store, project = setup
    session_end(store, tmp_path, project, [("Remember that the vault code is orange-fish.", "Noted.")])
    assert entries(store).get("The vault code is orange-fish") == "user"
    done = CliRunner().invoke(main, ["--repo", str(store.root), "forget-session", "s1"])
    assert done.exit_code == 0, done.output
    assert "The vault code is orange-fish" not in entries(store)


def test_a_clause_about_a_redacted_secret_is_left_out_of_the_line(setup, tmp_path: Path) -> None:
    """breaker4 F9: the stored line kept "...and the staging DB password is [REDACTED:labelled-secret]"."""
    store, project = setup
    said = (
        "Remember that on this project we ship releases on Tuesdays only and the staging DB password is Zq8vLm2pT9xw."
    )
    session_end(
        store, tmp_path, project, [(said, "Noted."), ("Remember that the vault password is Hq4nW7xYz2kd.", "OK.")]
    )
    found = entries(store)
    assert found.get("On this project we ship releases on Tuesdays only") == "user"
    assert not any("REDACTED" in text or "password" in text.lower() for text in found)  # nothing but a secret: no line


def test_also_remember_that_in_mid_sentence_is_kept(setup, tmp_path: Path) -> None:
    store, project = setup
    session_end(
        store,
        tmp_path,
        project,
        [
            ("Thanks for the fix, also remember that we use Renovate, not Dependabot.", "Noted."),
            ("The build is green. Oh, and please remember that CI runs on Buildkite!", "OK."),
            ("I remember that we used Jenkins once. Do you also remember that outage?", "Yes."),
        ],
    )
    found = entries(store)
    assert found.get("We use Renovate, not Dependabot") == "user"
    assert found.get("CI runs on Buildkite") == "user"
    assert not any("Jenkins" in text or "outage" in text for text in found)  # a memory or a question: no request


def test_please_remember_colon_and_remember_we_are_kept_like_remember_that(setup, tmp_path: Path) -> None:
    """breaker5 B5-3: "Please remember: X" and "remember we use X", the commonest ways to ask, were dropped with
    no reason while "remember that X" was kept."""
    store, project = setup
    session_end(
        store,
        tmp_path,
        project,
        [
            ("Please remember: we always release on Tuesdays.", "Noted."),
            ("Thanks, and remember we use Renovate, not Dependabot", "OK."),
            ("Please remember this: staging runs on k3s!", "OK."),
            ("Don't forget that the API is versioned under /v2.", "Sure."),
            ("Remember the milk. I remember we used Jenkins. Do you remember our old CI?", "Yes."),
            ("Remember to run the tests.", "Will do."),
        ],
    )
    found = entries(store)
    assert found.get("We always release on Tuesdays") == "user"
    assert found.get("We use Renovate, not Dependabot") == "user"
    assert found.get("Staging runs on k3s") == "user"
    assert found.get("The API is versioned under /v2") == "user"
    said = " ".join(found).lower()
    assert not any(word in said for word in ("milk", "jenkins", "old ci", "run the tests")), found


def _git(store: MemoryStore, *args: str) -> str:
    import subprocess

    return subprocess.run(["git", *args], cwd=store.root, capture_output=True, text=True, check=True).stdout.strip()


def agent_wrote(store: MemoryStore, project: Path, text: str) -> None:
    """What MCP memory_remember writes when the model stores the fact during the turn (AGENTS.md asks it to)."""
    from memrepo.engine.models import Action, Candidate

    cand = Candidate(
        text=text, kind="fact", scope="workspace", workspace=str(project), by="agent", task="mcp-1", origin="mcp"
    )
    assert store.remember(cand).action is Action.ADDED


def test_the_users_words_stored_by_the_agent_become_the_users(setup, tmp_path: Path) -> None:
    """breaker7 B7-15: the model's memory_remember of the same words left the line ``by: agent`` for good."""
    store, project = setup
    agent_wrote(store, project, "We deploy with make ship")
    before = _git(store, "rev-list", "--count", "HEAD")
    session_end(store, tmp_path, project, [("Remember that we deploy with make ship.", "Noted.")])
    found = [
        entry
        for path, data in memory_files(store.root)
        for _n, entry in fmt.parse(data, path.name).entries()
        if "make ship" in entry.text
    ]
    assert [(e.text, e.by) for e in found] == [("We deploy with make ship", "user")]
    assert found[0].meta.get("task") == "s1"  # forgetting the MCP session no longer removes the user's line
    assert int(_git(store, "rev-list", "--count", "HEAD")) == int(before) + 1  # one commit
    assert "By: user" in _git(store, "log", "-1", "--format=%B")


def test_a_users_line_is_never_made_the_agents(setup, tmp_path: Path) -> None:
    store, project = setup
    session_end(store, tmp_path, project, [("Remember that we deploy with make ship.", "Noted.")])
    agent_wrote_again = CliRunner().invoke(
        main,
        ["--repo", str(store.root), "checkpoint", "--session", "s2", "--cwd", str(project), "--event", "task_end"],
        input=json.dumps([{"id": "m1", "role": "user", "text": "Remember that we deploy with make ship."}]),
    )
    assert agent_wrote_again.exit_code == 0, agent_wrote_again.output
    assert entries(store).get("We deploy with make ship") == "user"
