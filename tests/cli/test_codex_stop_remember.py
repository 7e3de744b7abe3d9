"""Codex's Stop and SessionEnd hooks keep what the user typed as "remember that X", ``by: user`` (docs/agents.md).

Codex's Stop and SessionEnd hooks run ``memrepo hook stop`` / ``hook session-end``, which hand their JSON to
``memrepo checkpoint --from-claude-hook``; the checkpoint reads the hook's ``transcript_path``, here a Codex
rollout: Stop buffers the finished turn, SessionEnd distils the session. The rollout below is in the line
format Codex 0.171 wrote (captured with ``codex exec``): ``session_meta``, ``response_item`` messages (a
``user``-role ``<environment_context>`` Codex wrote itself, ``developer`` messages from hooks, the prompt, the
reply) and ``event_msg`` lines (``item_completed`` with a ``UserMessage`` for what the person typed,
``task_complete``). Only the typed words count as the user's: "remember that" in Codex's own user-role text or
in a hook's developer message is never written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import memory_files, plain_settings

from memrepo.cli.main import main
from memrepo.engine.agents.codexturns import is_codex_rollout, read_codex_turns
from memrepo.engine.format import entries as fmt
from memrepo.engine.repo.store import MemoryStore

SESSION = "01a2471d-d9d1-7b41-befb-5f39aad0c644"
TURN = "01a2471d-d9ea-7960-a8f1-ecc0ffef2753"


def _line(kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": "2026-12-05T16:51:08.524Z", "type": kind, "payload": payload}) + "\n"


def _message(role: str, text: str, n: int) -> dict:
    part = "output_text" if role == "assistant" else "input_text"
    return {"type": "message", "id": f"msg_{n}", "role": role, "content": [{"type": part, "text": text}]}


def rollout(path: Path, cwd: Path, typed: str, reply: str) -> Path:
    """A Codex 0.171 rollout of one turn: ``typed`` by the person, ``reply`` by the model."""
    env = (
        f"<environment_context>\n  <cwd>{cwd}</cwd>\n  Remember that the sandbox is read-only.\n</environment_context>"
    )
    lines = [
        _line(
            "session_meta",
            {
                "session_id": SESSION,
                "id": SESSION,
                "timestamp": "2026-12-05T16:51:08.379Z",
                "cwd": str(cwd),
                "originator": "codex_exec",
                "cli_version": "0.171.0",
                "source": "exec",
            },
        ),
        _line("event_msg", {"type": "task_started", "turn_id": TURN, "started_at": 1796489468}),
        _line("response_item", _message("user", env, 1)),
        _line("response_item", _message("developer", "Remember that the cache lives in /var/tmp.", 2)),
        _line("response_item", _message("user", typed, 3)),
        _line(
            "event_msg",
            {
                "type": "item_completed",
                "thread_id": SESSION,
                "turn_id": TURN,
                "item": {
                    "type": "UserMessage",
                    "id": "01a2471d-da6b-76c1-b91f-2c26db53f219",
                    "content": [{"type": "text", "text": typed, "text_elements": []}],
                },
            },
        ),
        _line("response_item", {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
        _line(
            "response_item",
            {"type": "function_call_output", "call_id": "c1", "output": "Remember that the tool said so."},
        ),
        _line("response_item", _message("assistant", reply, 4)),
        _line("event_msg", {"type": "task_complete", "turn_id": TURN, "last_agent_message": reply}),
    ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


def entries(store: MemoryStore) -> dict[str, str]:
    found = {}
    for path, data in memory_files(store.root):
        for _n, entry in fmt.parse(data, str(path.relative_to(store.root))).entries():
            found[entry.text] = entry.meta.get("by", "")
    return found


@pytest.fixture
def world(tmp_path: Path) -> tuple[MemoryStore, Path]:
    project = tmp_path / "shop"
    project.mkdir()
    return MemoryStore.open(tmp_path / "memory", plain_settings()), project


def test_the_turns_are_the_typed_words_and_the_final_reply(world, tmp_path: Path) -> None:
    _store, project = world
    path = rollout(tmp_path / "rollout.jsonl", project, "Remember that we deploy with make ship.", "Noted.")
    assert is_codex_rollout(path)
    messages, offset = read_codex_turns(path)
    assert [(m["role"], m["text"]) for m in messages] == [
        ("user", "Remember that we deploy with make ship."),
        ("assistant", "Noted."),
    ]
    assert 0 < offset < path.stat().st_size  # the next read starts at this turn's typed line


def _checkpoint(store: MemoryStore, payload: dict) -> None:
    done = CliRunner().invoke(
        main, ["--repo", str(store.root), "checkpoint", "--from-claude-hook"], input=json.dumps(payload)
    )
    assert done.exit_code == 0, done.output


def test_codexs_stop_and_session_end_keep_what_the_user_typed_by_user(world, tmp_path: Path) -> None:
    store, project = world
    path = rollout(tmp_path / "rollout.jsonl", project, "Remember that we deploy with make ship.", "Noted.")
    common = {"session_id": SESSION, "transcript_path": str(path), "cwd": str(project)}
    stop = {  # Codex 0.171's Stop payload, as its hook received it
        **common,
        "turn_id": TURN,
        "hook_event_name": "Stop",
        "model": "gpt-5.4",
        "permission_mode": "bypassPermissions",
        "stop_hook_active": False,
        "last_assistant_message": "Noted.",
    }
    _checkpoint(store, stop)
    assert entries(store) == {}  # a turn is buffered: the stage is not complete yet
    _checkpoint(store, {**common, "hook_event_name": "SessionEnd", "reason": "other"})  # Codex 0.171's SessionEnd
    found = entries(store)
    assert found.get("We deploy with make ship") == "user", found
    assert not any(w in text for text in found for w in ("sandbox", "cache", "tool said")), found


def test_the_typed_words_the_model_already_stored_become_the_users(world, tmp_path: Path) -> None:
    """breaker7 B7-15: the model's memory_remember during the turn left the typed request ``by: agent``."""
    from memrepo.engine.models import Action, Candidate

    store, project = world
    cand = Candidate(
        text="We deploy with make ship",
        kind="fact",
        scope="workspace",
        workspace=str(project),
        by="agent",
        origin="mcp",
    )
    assert store.remember(cand).action is Action.ADDED
    path = rollout(tmp_path / "rollout.jsonl", project, "Remember that we deploy with make ship.", "Noted.")
    common = {"session_id": SESSION, "transcript_path": str(path), "cwd": str(project)}
    _checkpoint(store, {**common, "turn_id": TURN, "hook_event_name": "Stop", "last_assistant_message": "Noted."})
    _checkpoint(store, {**common, "hook_event_name": "SessionEnd", "reason": "other"})
    assert entries(store).get("We deploy with make ship") == "user"


def _session(store: MemoryStore, project: Path, path: Path) -> None:
    """Codex's Stop then SessionEnd hooks over the rollout ``path``."""
    common = {"session_id": SESSION, "transcript_path": str(path), "cwd": str(project)}
    _checkpoint(store, {**common, "turn_id": TURN, "hook_event_name": "Stop", "last_assistant_message": "Noted."})
    _checkpoint(store, {**common, "hook_event_name": "SessionEnd", "reason": "other"})


@pytest.mark.parametrize(
    ("typed", "new"),
    [
        ("I switched from pnpm to bun now, use bun for installs.", "I switched from pnpm to bun now"),
        ("Now I use bun instead of pnpm.", "Now I use bun instead of pnpm"),
    ],
)
def test_a_switch_the_user_types_replaces_their_stored_preference(world, tmp_path: Path, typed, new) -> None:
    """breaker30 B30-1: the switch was kept nowhere and every later session was told pnpm."""
    from memrepo.engine.models import Candidate

    store, project = world
    old = "I prefer pnpm over npm for every JavaScript project"
    store.remember(Candidate(text=old, kind="preference", scope="global", by="user", origin="cli"))
    _session(store, project, rollout(tmp_path / "rollout.jsonl", project, typed, "Noted, bun from now on."))
    assert entries(store).get(new) == "user"
    block = store.context(str(project)).text
    assert new in block and old not in block, block


@pytest.mark.parametrize(
    ("agent", "typed", "kept", "scope"),
    [
        (
            "User prefers pnpm over npm for every JavaScript project",
            "Remember that I prefer pnpm over npm for every JavaScript project.",
            "I prefer pnpm over npm for every JavaScript project",
            "global",
        ),
        (
            "Run `pnpm test -- --run` before every commit in the shop repo",
            "Remember that we run `pnpm test -- --run` before every commit in this repo.",
            "We run `pnpm test -- --run` before every commit in this repo",
            "workspace",
        ),
    ],
)
def test_the_agents_same_day_paraphrase_folds_into_the_users_line(world, tmp_path: Path, agent, typed, kept, scope):
    """breaker30 B30-3: the agent's memory_remember of what the user said and the user's own line were both shown."""
    from memrepo.engine.models import Candidate

    store, project = world
    workspace = str(project) if scope == "workspace" else None
    store.remember(Candidate(text=agent, kind="fact", scope=scope, workspace=workspace, by="agent", origin="mcp"))
    path = rollout(tmp_path / "rollout.jsonl", project, typed, "Noted.")
    today = store.git.now().date().isoformat()
    path.write_text(path.read_text(encoding="utf-8").replace("2026-12-05", today), encoding="utf-8")  # said today
    _session(store, project, path)
    assert entries(store).get(kept) == "user", entries(store)
    block = store.context(str(project)).text
    assert kept in block and agent not in block, block


def test_the_users_correction_the_agent_already_wrote_this_turn_is_written_not_inboxed(world, tmp_path: Path):
    """breaker30 B30-2: the user's own correction waited in the inbox because the agent wrote it first."""
    from memrepo.engine.models import Candidate

    store, project = world
    fly = "The shop deploys to Fly.io from the main branch; staging is shop-staging.fly.dev"
    render = "The shop now deploys to Render from main; staging is shop-staging.onrender.com"
    for text, old in ((fly, None), (render, fly)):
        cand = Candidate(text=text, kind="fact", scope="workspace", workspace=str(project), by="agent", origin="mcp")
        store.remember(cand.model_copy(update={"supersedes": old}))
    typed = (
        "Actually we moved the shop off Fly.io: deploys now go to Render from main, "
        "and staging is shop-staging.onrender.com."
    )
    path = rollout(tmp_path / "rollout.jsonl", project, typed, "Updated.")
    today = store.git.now().date().isoformat()
    path.write_text(path.read_text(encoding="utf-8").replace("2026-12-05", today), encoding="utf-8")  # said today
    _session(store, project, path)
    kept = typed.removeprefix("Actually w").removesuffix(".")
    assert entries(store).get("W" + kept) == "user", entries(store)
    assert not (store.root / "inbox.md").exists() or "Render" not in (store.root / "inbox.md").read_text()
    block = store.context(str(project)).text
    assert "W" + kept in block and render not in block and fly not in block, block


def test_a_cancelled_time_bound_line_the_user_asks_to_forget_is_forgotten(world, tmp_path: Path) -> None:
    """breaker30 B30-4: "The vacation got cancelled, please forget that." kept the vacation in every block."""
    from memrepo.engine.models import Candidate

    store, project = world
    vacation = "I'm on vacation until Friday 2026-12-11, so don't schedule any deploys before then"
    store.remember(Candidate(text=vacation, kind="fact", scope="global", by="user", origin="cli", until="2026-12-11"))
    typed = "The vacation got cancelled, please forget that."
    _session(store, project, rollout(tmp_path / "rollout.jsonl", project, typed, "Sorry, I cannot forget it."))
    assert vacation not in entries(store)
    assert vacation not in store.context(str(project)).text
