"""Dream providers through their real client code: the openai and anthropic SDKs against fake
endpoints on 127.0.0.1, and a real ``command`` script. Failures record the run as failed and change nothing."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.dream_helpers import FILES, make_repo, settings
from helpers.fake_endpoint import FakeEndpoint
from helpers.repo_helpers import plain_settings

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.dreams.providers import RulesProvider
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def endpoints() -> Iterator[list[FakeEndpoint]]:
    made: list[FakeEndpoint] = []
    yield made
    for endpoint in made:
        endpoint.close()


def rules_answer(body: dict) -> str:
    """What the offline provider would answer for the same prompt (a realistic canned answer)."""
    data = json.loads(body_prompt(body).rstrip().splitlines()[-1])
    lessons = next(f for f in data["folder"] if f["path"] == "lessons.md")["lines"]
    dup = [row["alias"] for row in lessons if row["text"] == "Run ruff before committing"][1]
    return json.dumps({"operations": [{"op": "delete", "line": dup, "reason": "duplicate"}]})


def body_prompt(body: dict) -> str:
    return body["messages"][-1]["content"]


def chat_completion(content: str) -> dict:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 1234, "completion_tokens": 56, "total_tokens": 1290},
    }


def openai_settings(home: Path, url: str, timeout: float = 10.0):
    cfg = settings(home, provider="openai")
    cfg.dream.openai.base_url = url + "/v1"
    cfg.dream.openai.model = "fake-model"
    cfg.dream.openai.api_key_env = "FAKE_OPENAI_KEY"
    cfg.dream.openai.timeout_s = timeout
    return cfg


def test_openai_provider_through_the_sdk(repo_path: Path, isolated_home: Path, endpoints, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_OPENAI_KEY", "sk-test-123")
    server = FakeEndpoint(lambda req, body: (200, chat_completion(rules_answer(body))))
    endpoints.append(server)
    store = make_repo(repo_path)
    record = Dreamer(store, openai_settings(isolated_home, server.url)).run()
    assert record.status == "applied" and record.provider == "openai"
    assert record.tokens.input == 1234 and record.tokens.output == 56
    path, headers, body = server.requests[0]
    assert path == "/v1/chat/completions"
    assert headers["authorization"] == "Bearer sk-test-123"
    assert body["model"] == "fake-model" and body["response_format"] == {"type": "json_object"}
    assert "Never:" in body_prompt(body) and "L1" in body_prompt(body)
    assert (repo_path / "lessons.md").read_text().count("Run ruff before committing") == 1


@pytest.mark.parametrize(
    ("status", "content", "reason"),
    [
        (500, None, "HTTP 500"),
        (200, '```json\n{"operations": [{"op": "delete", "line": "L1", "why": 1}]}\n```', "unexpected field"),
        (200, '{"operations": [', "not JSON"),
    ],
)
def test_openai_failures_are_recorded_and_change_nothing(
    repo_path: Path, isolated_home: Path, endpoints, monkeypatch, status, content, reason
) -> None:
    monkeypatch.setenv("FAKE_OPENAI_KEY", "k")

    def answer(req: dict, body: dict) -> tuple[int, dict]:
        if status != 200:
            return status, {"error": {"message": "upstream exploded", "type": "server_error"}}
        return 200, chat_completion(content)

    server = FakeEndpoint(answer)
    endpoints.append(server)
    store = make_repo(repo_path)
    head = store.head()
    record = Dreamer(store, openai_settings(isolated_home, server.url)).run()
    assert record.status == "failed" and reason in (record.reason or "")
    assert store.head() == head
    assert {p: (repo_path / p).read_text() for p in FILES} == FILES
    assert len(server.requests) == 1  # no retries


def test_openai_timeout_is_a_failed_run(repo_path: Path, isolated_home: Path, endpoints, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_OPENAI_KEY", "k")
    release = threading.Event()
    server = FakeEndpoint(lambda req, body: (200, chat_completion('{"operations": []}')), hold=release)
    endpoints.append(server)
    store = make_repo(repo_path)
    head = store.head()
    record = Dreamer(store, openai_settings(isolated_home, server.url, timeout=0.3)).run()
    # The run is over while the endpoint still holds its answer: the client's own timeout ended it.
    assert len(server.requests) == 1 and server.answered == 0
    assert record.status == "failed" and "did not answer within 0.3 s" in (record.reason or "")
    assert store.head() == head
    release.set()


def test_anthropic_provider_through_the_sdk(repo_path: Path, isolated_home: Path, endpoints, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_ANTHROPIC_KEY", "ak-test")

    def answer(req: dict, body: dict) -> tuple[int, dict]:
        text = rules_answer(body)
        return 200, {
            "id": "m1",
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 900, "output_tokens": 40},
        }

    server = FakeEndpoint(answer)
    endpoints.append(server)
    cfg = settings(isolated_home, provider="anthropic")
    cfg.dream.anthropic.base_url = server.url
    cfg.dream.anthropic.api_key_env = "FAKE_ANTHROPIC_KEY"
    cfg.dream.anthropic.model = "fake-claude"
    store = make_repo(repo_path)
    record = Dreamer(store, cfg).run()
    assert record.status == "applied" and (record.tokens.input, record.tokens.output) == (900, 40)
    path, headers, body = server.requests[0]
    assert path == "/v1/messages" and "ak-test" in (headers.get("x-api-key") or headers.get("authorization", ""))
    assert body["max_tokens"] == 4000 and body["model"] == "fake-claude"


def test_a_missing_anthropic_package_says_how_to_add_it_as_readme_installs(
    repo_path: Path, isolated_home: Path, monkeypatch
) -> None:
    """The hint names memrepo's own environment (pipx or ~/.local/memrepo), not a bare pip (breaker28 B28-4)."""
    monkeypatch.setitem(sys.modules, "anthropic", None)  # import anthropic -> ImportError
    monkeypatch.setenv("FAKE_ANTHROPIC_KEY", "ak-test")
    cfg = settings(isolated_home, provider="anthropic")
    cfg.dream.anthropic.api_key_env = "FAKE_ANTHROPIC_KEY"
    record = Dreamer(make_repo(repo_path), cfg).run()
    assert record.status == "failed", record
    said = json.dumps(record.__dict__, default=str)
    assert "pipx install --force './memrepo[mcp,anthropic]'" in said, said
    assert "~/.local/memrepo/bin/pip install './memrepo[mcp,anthropic]'" in said, said


SCRIPT = """
import json, sys
prompt = sys.stdin.read()
data = json.loads(prompt.rstrip().splitlines()[-1])
if "fail" in sys.argv[1:]:
    print("model crashed", file=sys.stderr)
    sys.exit(3)
lessons = next(f for f in data["folder"] if f["path"] == "lessons.md")["lines"]
dup = [r["alias"] for r in lessons if r["text"] == "Run ruff before committing"][1]
print(json.dumps({"operations": [{"op": "delete", "line": dup, "reason": "duplicate"}]}))
"""


def test_command_provider_runs_a_real_script(repo_path: Path, isolated_home: Path, tmp_path: Path) -> None:
    script = tmp_path / "model.py"
    script.write_text(SCRIPT)
    cfg = settings(isolated_home, provider="command")
    cfg.dream.command.argv = [sys.executable, str(script)]
    store = make_repo(repo_path)
    record = Dreamer(store, cfg).run()
    assert record.status == "applied" and record.tokens.input > 100
    assert (repo_path / "lessons.md").read_text().count("Run ruff before committing") == 1

    cfg.dream.command.argv = [sys.executable, str(script), "fail"]
    head = store.head()
    failed = Dreamer(store, cfg).run()
    assert failed.status == "failed" and "status 3: model crashed" in (failed.reason or "")
    assert store.head() == head


def test_missing_command_is_a_failed_run(repo_path: Path, isolated_home: Path) -> None:
    cfg = settings(isolated_home, provider="command")
    cfg.dream.command.argv = ["/nonexistent/model-binary"]
    record = Dreamer(make_repo(repo_path), cfg).run()
    assert record.status == "failed" and "command not found" in (record.reason or "")


def test_rules_provider_moves_an_entry_to_its_workspace_file(repo_path: Path) -> None:
    files = {
        "me.md": "# About me\n\n- Billing invoices are in cents [by: agent; workspace: ws-1a2b3c4d]\n",
        "workspaces/billing.md": "# billing\n\n- Workspace billing [workspace: ws-1a2b3c4d; by: user]\n",
    }
    store = make_repo(repo_path, files)
    from memrepo.engine.dreams.input import build_input

    din = build_input(repo_path, [p for p, _ in store.list_files()], [])
    ops = json.loads(RulesProvider().propose(din).text)["operations"]
    assert [(o["op"], o["path"]) for o in ops] == [("move", "workspaces/billing.md")]
    record = Dreamer(store).run()
    assert record.status == "applied"
    assert "Billing invoices are in cents" in (repo_path / "workspaces" / "billing.md").read_text()
    assert "Billing invoices" not in (repo_path / "me.md").read_text()
    assert MemoryStore.open(repo_path, plain_settings()).status().state.value == "clean"


def test_rules_provider_merges_near_duplicates_that_differ_in_spacing_or_spelling(repo_path: Path) -> None:
    files = {
        "me.md": "# About me\n\n- Prefers vim keybindings [by: agent]\n- Prefers vim key bindings [by: agent]\n"
        "- My favourite language is Python [by: user]\n- My favorite language is Python! [by: user]\n"
        "- Release step 1 runs the smoke tests [by: user]\n"
        "- Release step 2 runs the smoke tests [by: user]\n"
    }
    store = make_repo(repo_path, files)
    from memrepo.engine.dreams.input import build_input

    din = build_input(repo_path, [p for p, _ in store.list_files()], [])
    ops = json.loads(RulesProvider().propose(din).text)["operations"]
    merged = sorted(sorted(din.lines[x].text for x in o["lines"]) for o in ops if o["op"] == "merge")
    assert merged == [
        ["My favorite language is Python!", "My favourite language is Python"],
        ["Prefers vim key bindings", "Prefers vim keybindings"],
    ]
