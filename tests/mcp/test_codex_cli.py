"""The real Codex CLI, offline, against a fake Responses server on 127.0.0.1 (issue 15 item 2).

Codex (npm package ``@openai/codex``) is pointed at the fake server with a ``[model_providers]``
entry (``wire_api = "responses"``) in a ``config.toml`` of its own (``CODEX_HOME``), and at memrepo
with ``[mcp_servers.memrepo]``. The fake model answers the first request with one call of a
memrepo tool (Codex lists MCP tools as the namespace ``mcp__memrepo``), in the Responses API's
server-sent events (``response.created``, ``response.output_item.done``, ``response.completed``),
and the next request, which carries the tool's output, with a final message. ``codex exec`` runs
with its default approval policy: before the tools carried annotations, Codex refused every call
("MCP tool call requires approval, but approval policy is never").

Codex is found on PATH, at ``$MEMREPO_CODEX``, or under ``.ci/node`` (where ``.ci/run`` installs
it); without it (or without node) the test is skipped, saying so. The MCP Inspector CLI
(``@modelcontextprotocol/inspector``) lists the tools with their annotations the same way.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.repo.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
NODE_BIN = ROOT / ".ci" / "node" / "node_modules" / ".bin"


def _tool(name: str, env: str) -> str | None:
    if os.environ.get(env):
        return os.environ[env]
    found = shutil.which(name)
    if found:
        return found
    local = NODE_BIN / name
    return str(local) if local.exists() else None


def _need(name: str, env: str) -> str:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the Codex CLI and the MCP Inspector are node programs")
    path = _tool(name, env)
    if path is None:
        pytest.skip(f"{name} is not installed (npm install --prefix .ci/node ...; see .ci/run) nor named by ${env}")
    return path


class FakeModel:
    """A Responses API server: one memrepo tool call, then a final message; every request kept."""

    def __init__(self, tool: str, arguments: dict) -> None:
        self.tool, self.arguments = tool, arguments
        self.requests: list[dict] = []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # a models list, should Codex ask
                self._send("application/json", b'{"object": "list", "data": []}')

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                request = json.loads(body or b"{}")
                fake.requests.append({"path": self.path, **request})
                self._send("text/event-stream", fake.events(request))

            def _send(self, kind: str, data: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def events(self, request: dict) -> bytes:
        answered = any(
            item.get("type") == "function_call_output" and item.get("call_id") == "call_1"
            for item in request.get("input", [])
        )
        listed = any(tool.get("name") == "mcp__memrepo" for tool in request.get("tools", []))
        n = len(self.requests)
        if answered:
            item = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}
        elif not listed and n < 60:
            # Codex starts the turn before the MCP server has listed its tools: wait a second, and ask
            # again by calling a tool Codex does not have (it answers at once and samples again).
            time.sleep(1)
            item = {"type": "function_call", "name": "wait_for_tools", "arguments": "{}", "call_id": f"wait_{n}"}
        else:
            item = {
                "type": "function_call",
                "namespace": "mcp__memrepo",
                "name": self.tool,
                "arguments": json.dumps(self.arguments),
                "call_id": "call_1",
            }
        events = [
            {"type": "response.created", "response": {"id": f"resp_{n}"}},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {
                "type": "response.completed",
                "response": {
                    "id": f"resp_{n}",
                    "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
                },
            },
        ]
        return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()

    def tool_output(self) -> str:
        for request in self.requests:
            for item in request.get("input", []):
                if item.get("type") == "function_call_output" and item.get("call_id") == "call_1":
                    out = item.get("output")
                    return out if isinstance(out, str) else json.dumps(out)
        raise AssertionError(f"Codex never sent the tool's output back ({len(self.requests)} requests)")

    def listed_memrepo(self) -> list[str]:
        """The memrepo tools Codex offered the model when it called one."""
        for request in self.requests:
            for tool in request.get("tools", []):
                if tool.get("name") == "mcp__memrepo":
                    return [t.get("name") for t in tool.get("tools", [])]
        return []


@pytest.fixture
def fake_model_factory() -> Iterator:
    started: list[FakeModel] = []

    def make(tool: str, arguments: dict) -> FakeModel:
        fake = FakeModel(tool, arguments)
        fake.thread.start()
        started.append(fake)
        return fake

    yield make
    for fake in started:
        fake.server.shutdown()
        fake.server.server_close()


def run_codex(codex: str, fake: FakeModel, repo: Path, project: Path, home: Path) -> subprocess.CompletedProcess:
    home.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "mcp"]
    (home / "config.toml").write_text(
        f"""model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:{fake.port}/v1"
wire_api = "responses"
env_key = "FAKE_MODEL_KEY"

[mcp_servers.memrepo]
command = {json.dumps(argv[0])}
args = {json.dumps(argv[1:])}
startup_timeout_sec = 120
""",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
    env.update(CODEX_HOME=str(home), FAKE_MODEL_KEY="not-a-real-key", PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run(
        [codex, "exec", "--skip-git-repo-check", "Use memory."],  # the default approval policy: no flags
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def setup_repo(tmp_path: Path) -> tuple[Path, Path]:
    repo = tmp_path / "memory"
    store = MemoryStore.open(repo, plain_settings())
    from memrepo.engine.models import Candidate

    store.remember(Candidate(text="Always answer in metric units", pin=True, by="user"))
    project = tmp_path / "shop"
    project.mkdir()
    return repo, project


def test_codex_exec_runs_memory_context_under_its_default_policy(
    setup_repo: tuple[Path, Path], fake_model_factory, tmp_path: Path
) -> None:
    codex = _need("codex", "MEMREPO_CODEX")
    repo, project = setup_repo
    fake = fake_model_factory("memory_context", {})
    done = run_codex(codex, fake, repo, project, tmp_path / "codex-home")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "memory_context" in fake.listed_memrepo(), fake.listed_memrepo()
    output = fake.tool_output()
    assert "requires approval" not in output, output
    assert "memory_repo" in output and "Always answer in metric units" in output


def test_codex_exec_runs_memory_remember_and_asks_before_forget(
    setup_repo: tuple[Path, Path], fake_model_factory, tmp_path: Path
) -> None:
    codex = _need("codex", "MEMREPO_CODEX")
    repo, project = setup_repo
    fake = fake_model_factory(
        "memory_remember", {"content": "The shop deploys with make ship", "kind": "fact", "scope": "workspace"}
    )
    done = run_codex(codex, fake, repo, project, tmp_path / "codex-home")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "added repo:workspaces/shop.md#L" in fake.tool_output()
    assert "make ship" in (repo / "workspaces" / "shop.md").read_text(encoding="utf-8")
    # forget is destructive: the default policy asks, and codex exec cannot ask, so it is refused
    fake = fake_model_factory("memory_forget", {"ref": "repo:workspaces/shop.md#L3"})
    done = run_codex(codex, fake, repo, project, tmp_path / "codex-home-2")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "requires approval" in fake.tool_output()
    assert "make ship" in (repo / "workspaces" / "shop.md").read_text(encoding="utf-8")


def test_mcp_inspector_lists_every_tool_with_annotations(setup_repo: tuple[Path, Path]) -> None:
    inspector = _need("mcp-inspector", "MEMREPO_MCP_INSPECTOR")
    repo, project = setup_repo
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [
            inspector,
            "--cli",
            sys.executable,
            "-m",
            "memrepo.cli.main",
            "--repo",
            str(repo),
            "mcp",
            "--method",
            "tools/list",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    tools = {t["name"]: t.get("annotations") for t in json.loads(done.stdout)["tools"]}
    assert len(tools) == 6 and all(tools.values()), tools
    assert {n for n, a in tools.items() if a.get("readOnlyHint")} == {"memory_context", "memory_recall", "memory_read"}
    assert tools["memory_forget"]["destructiveHint"] is True
