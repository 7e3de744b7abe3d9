"""``memrepo setup claude-code --check`` holds each settings file's ``hooks`` to Claude Code's published
schema (issue 34 item 4): SchemaStore's claude-code-settings.json, its ``hooks`` part.

Before, ``--check`` looked only for memrepo's commands, so ``"type": "comand"`` and ``"timeout": "15"``
(both of which Claude Code's schema rejects, and with them the file's hooks) passed as configured.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from test_claude_code import check, claude_mcp_add, printed_setup
from test_claude_code import world as world  # the fixture

from memrepo.cli.claudehooks import hook_problems, hooks_schema
from memrepo.cli.setup import hooks_entry


def _configure(world, monkeypatch: pytest.MonkeyPatch, edit) -> tuple[object, Path]:
    """What setup printed, put where Claude Code reads it, with ``edit`` applied to the hooks; then --check."""
    store, project, home = world
    add, hooks, _servers = printed_setup(store.root, monkeypatch, home)
    claude_mcp_add(add, home, project)
    edit(hooks)
    (home / ".claude").mkdir()
    settings = home / ".claude" / "settings.json"
    settings.write_text(json.dumps({"hooks": hooks}))
    return check(store.root, project), settings


def test_a_misspelt_hook_type_is_refused_with_its_place(world, monkeypatch: pytest.MonkeyPatch) -> None:
    def misspell(hooks: dict) -> None:
        hooks["Stop"][0]["hooks"][0]["type"] = "comand"

    done, settings = _configure(world, monkeypatch, misspell)
    assert done.exit_code == 1, done.output
    line = next(line for line in done.output.splitlines() if line.startswith("invalid:") and "comand" in line)
    assert str(settings) in line and "hooks.Stop[0].hooks[0].type" in line and "not a hook type" in line
    assert "configured for Claude Code" not in done.output


def test_a_timeout_written_as_a_string_is_refused(world, monkeypatch: pytest.MonkeyPatch) -> None:
    def quote_timeout(hooks: dict) -> None:
        hooks["SessionStart"][0]["hooks"][0]["timeout"] = "15"

    done, settings = _configure(world, monkeypatch, quote_timeout)
    assert done.exit_code == 1, done.output
    line = next(line for line in done.output.splitlines() if line.startswith("invalid:") and "timeout" in line)
    assert str(settings) in line and "hooks.SessionStart[0].hooks[0].timeout" in line and "number" in line


def test_what_setup_prints_passes_the_schema_and_check(world, monkeypatch: pytest.MonkeyPatch) -> None:
    done, _settings = _configure(world, monkeypatch, lambda hooks: None)
    assert done.exit_code == 0, done.output
    assert hook_problems(hooks_entry("/abs/memory")) == []


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda h: h.update({"Stopp": h["Stop"]}), "Stopp"),  # an event Claude Code does not have
        (lambda h: h["Stop"][0]["hooks"][0].pop("command"), "hooks.Stop[0].hooks[0]"),
        (lambda h: h["Stop"][0]["hooks"][0].update({"timeout": 0}), "hooks.Stop[0].hooks[0].timeout"),
        (lambda h: h["Stop"][0]["hooks"][0].update({"async": "yes"}), "hooks.Stop[0].hooks[0].async"),
        (lambda h: h["Stop"][0].update({"matcher": 3}), "hooks.Stop[0].matcher"),
        (lambda h: h.update({"SessionEnd": {"hooks": []}}), "hooks.SessionEnd"),
    ],
    ids=["unknown-event", "no-command", "zero-timeout", "async-string", "matcher-number", "event-not-a-list"],
)
def test_each_rule_of_the_schema_names_the_place(change, where: str) -> None:
    hooks = copy.deepcopy(hooks_entry("/abs/memory"))
    change(hooks)
    problems = hook_problems(hooks)
    assert len(problems) == 1 and where in problems[0], problems


def test_the_other_hook_types_claude_code_documents_pass() -> None:
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "Is $ARGUMENTS safe?"}]}],
        "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "http", "url": "http://127.0.0.1:9/x"}]}],
        "Stop": [{"hooks": [{"type": "agent", "prompt": "Verify", "timeout": 30.5}]}],
    }
    assert hook_problems(hooks) == []


def test_the_rules_are_the_published_schemas_hooks_part() -> None:
    schema = hooks_schema()
    assert "json.schemastore.org/claude-code-settings.json" in schema["$comment"]
    assert {"SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"} <= set(schema["properties"])
    command = schema["$defs"]["hookCommand"]["anyOf"][0]
    assert command["properties"]["type"]["const"] == "command"
    assert command["properties"]["timeout"] == {**command["properties"]["timeout"], "type": "number"}
