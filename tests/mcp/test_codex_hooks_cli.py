"""The real Codex CLI runs the hooks ``memrepo setup codex --write`` puts in its ``hooks.json`` (offline).

``codex exec`` (npm ``@openai/codex``, 0.171) is pointed at a fake Responses server on 127.0.0.1 by a
``[model_providers]`` entry in its own ``CODEX_HOME``; ``memrepo setup codex --write`` (run as a user would,
with that ``CODEX_HOME``) writes the hooks. Codex adds a hook's ``additionalContext`` to the model's input as a
``developer`` message: the SessionStart one (the context block) before the user's prompt, the
UserPromptSubmit one (the recall hits) after it. The fake server keeps every request, so the test reads the
model's real input.

Codex runs a user's hook only once trusted (``/hooks`` in its TUI records the trust in ``config.toml``);
``codex exec --dangerously-bypass-hook-trust`` runs enabled hooks without it, which is what automation uses.
The same run without that flag shows an untrusted hook is skipped, and one trusted the way ``/hooks`` records
it (the key and hash Codex's app server lists) runs. The Stop and SessionEnd hooks keep a typed "remember
that X" ``by: user``. Codex is found as in
``test_codex_cli.py`` (PATH, ``$MEMREPO_CODEX``, ``.ci/node``); without it the test is skipped, saying so.
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
from helpers.repo_helpers import memory_files, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
NODE_BIN = ROOT / ".ci" / "node" / "node_modules" / ".bin"
PROMPT = "How does the shop deploy?"


def _codex() -> str:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the Codex CLI is a node program")
    for path in (os.environ.get("MEMREPO_CODEX"), shutil.which("codex"), NODE_BIN / "codex"):
        if path and Path(path).exists():
            return str(path)
    pytest.skip("codex is not installed (npm install --prefix .ci/node ...; see .ci/run) nor named by $MEMREPO_CODEX")


class FinalAnswer:
    """A Responses API server that answers every request with one final message, and keeps each request."""

    def __init__(self) -> None:
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
                fake.requests.append(json.loads(body or b"{}"))
                n = len(fake.requests)
                item = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}
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
                self._send(
                    "text/event-stream",
                    "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode(),
                )

            def _send(self, kind: str, data: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def messages(self) -> list[tuple[str, str]]:
        """(role, text) of each message in the first request's input, in order."""
        out = []
        for item in self.requests[0].get("input", []) if self.requests else []:
            if item.get("type") == "message":
                text = "".join(part.get("text", "") for part in item.get("content", []) if isinstance(part, dict))
                out.append((item.get("role"), text))
        return out


@pytest.fixture
def fake_model() -> Iterator[FinalAnswer]:
    fake = FinalAnswer()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
    env.update(CODEX_HOME=str(home), FAKE_MODEL_KEY="not-a-real-key", PYTHONPATH=str(ROOT), NO_COLOR="1")
    return env


def _codex_home(home: Path, port: int, repo: Path) -> None:
    home.mkdir(parents=True)
    (home / "config.toml").write_text(
        f"""model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "FAKE_MODEL_KEY"
""",
        encoding="utf-8",
    )
    written = subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "setup", "codex", "--write"],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert written.returncode == 0, written.stderr
    assert (home / "hooks.json").is_file(), written.stdout


def _exec(codex: str, home: Path, project: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [codex, "exec", "--skip-git-repo-check", *flags, PROMPT],
        cwd=project,
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def memory(tmp_path: Path) -> tuple[Path, Path]:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Always answer in metric units", pin=True, by="user"))
    store.remember(Candidate(text="The shop deploys with make ship", by="user"))
    project = tmp_path / "shop"
    project.mkdir()
    return store.root, project


def test_codex_gives_the_model_the_context_block_and_the_recalled_line(
    memory: tuple[Path, Path], fake_model: FinalAnswer, tmp_path: Path
) -> None:
    codex = _codex()
    repo, project = memory
    home = tmp_path / "codex-home"
    _codex_home(home, fake_model.port, repo)
    done = _exec(codex, home, project, "--dangerously-bypass-hook-trust")
    assert done.returncode == 0, done.stderr[-2000:]
    messages = fake_model.messages()
    prompt_at = next(i for i, (role, text) in enumerate(messages) if role == "user" and text == PROMPT)
    block = [i for i, (role, text) in enumerate(messages) if role == "developer" and "memory_repo" in text]
    assert block and block[0] < prompt_at, messages  # the context block, before the prompt
    assert "Always answer in metric units" in messages[block[0]][1]
    recalled = [i for i, (role, text) in enumerate(messages) if role == "developer" and "<memory_recall>" in text]
    assert recalled and recalled[0] > prompt_at, messages  # the prompt's recall hits, after the prompt
    assert "The shop deploys with make ship" in messages[recalled[0]][1]


def _hooks_list(codex: str, home: Path, project: Path) -> list[dict]:
    """Codex's own view of the hooks (key, current hash, trust status), from its app server's ``hooks/list``."""
    server = subprocess.Popen(
        [codex, "app-server"],
        env=_env(home),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        for message in (
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"clientInfo": {"name": "t", "version": "1"}},
            },
            {"jsonrpc": "2.0", "method": "initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(project)]}},
        ):
            server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()
        for line in server.stdout:
            answer = json.loads(line)
            if answer.get("id") == 2:
                return answer["result"]["data"][0]["hooks"]
        raise AssertionError("codex app-server answered no hooks/list")
    finally:
        server.kill()
        server.wait()


def test_codex_runs_the_hooks_once_trusted_as_setup_codex_check_reads_it(
    memory: tuple[Path, Path], fake_model: FinalAnswer, tmp_path: Path
) -> None:
    """Untrusted, Codex skips them; with the trust ``/hooks`` records (``[hooks.state."<key>"] trusted_hash``, the
    hash Codex reports) it runs them without any flag, and ``setup codex --check`` stops asking for trust."""
    codex = _codex()
    repo, project = memory
    home = tmp_path / "codex-home"
    _codex_home(home, fake_model.port, repo)
    done = _exec(codex, home, project)
    assert done.returncode == 0, done.stderr[-2000:]
    messages = fake_model.messages()
    assert any(role == "user" and text == PROMPT for role, text in messages), messages
    assert not any("Always answer in metric units" in text or "make ship" in text for _role, text in messages)

    hooks = _hooks_list(codex, home, project)
    ours = [h for h in hooks if "hook " in (h.get("command") or "") and "--repo" in h["command"]]
    assert {h["trustStatus"] for h in ours} == {"untrusted"} and len(ours) == 4, hooks
    with (home / "config.toml").open("a", encoding="utf-8") as fh:
        for h in ours:
            fh.write(f'\n[hooks.state."{h["key"]}"]\ntrusted_hash = "{h["currentHash"]}"\n')
    assert {h["trustStatus"] for h in _hooks_list(codex, home, project) if h["key"] in {o["key"] for o in ours}} == {
        "trusted"
    }
    check = subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "setup", "codex", "--check"],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "trust:" not in check.stdout and "ok: hooks.SessionStart" in check.stdout, check.stdout

    fake_model.requests.clear()
    done = _exec(codex, home, project)  # no bypass flag: trusted hooks run
    assert done.returncode == 0, done.stderr[-2000:]
    assert any(role == "developer" and "Always answer in metric units" in text for role, text in fake_model.messages())


def test_setup_codex_check_computes_codexs_hash_and_names_a_modified_hook(
    memory: tuple[Path, Path], fake_model: FinalAnswer, tmp_path: Path
) -> None:
    """breaker7 B7-14: once a trusted hook's command changed, Codex marks it "modified" and skips it silently;
    ``--check`` computes Codex's own hash (the ``currentHash`` of hooks/list) and says to trust it again."""
    from memrepo.cli.codexhooks import EVENT_KEY, codex_hook_hash

    codex = _codex()
    repo, project = memory
    home = tmp_path / "codex-home"
    _codex_home(home, fake_model.port, repo)
    data = json.loads((home / "hooks.json").read_text(encoding="utf-8"))
    hooks = {h["key"]: h for h in _hooks_list(codex, home, project)}
    for event, label in EVENT_KEY.items():
        group = data["hooks"][event][0]
        listed = hooks[f"{home / 'hooks.json'}:{label}:0:0"]
        assert codex_hook_hash(event, group.get("matcher"), group["hooks"][0]) == listed["currentHash"], listed
    with (home / "config.toml").open("a", encoding="utf-8") as fh:
        for key, h in hooks.items():
            fh.write(f'\n[hooks.state."{key}"]\ntrusted_hash = "{h["currentHash"]}"\n')
    start = data["hooks"]["SessionStart"][0]["hooks"][0]
    start["command"] = start["command"].replace(f"--repo {repo}", f"--repo {repo}/")  # --write with another path
    (home / "hooks.json").write_text(json.dumps(data), encoding="utf-8")
    status = {h["key"].split(":")[-3]: h["trustStatus"] for h in _hooks_list(codex, home, project)}
    assert status == {
        "session_start": "modified",
        "user_prompt_submit": "trusted",
        "stop": "trusted",
        "session_end": "trusted",
    }, status
    check = subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), "setup", "codex", "--check"],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 1, check.stdout
    assert "hooks.SessionStart in" in check.stdout and "modified: re-trust in /hooks" in check.stdout, check.stdout


def _entries(repo: Path) -> dict[str, str]:
    from memrepo.engine.format import entries as fmt

    found = {}
    for path, data in memory_files(repo):
        for _n, entry in fmt.parse(data, str(path.relative_to(repo))).entries():
            found[entry.text] = entry.meta.get("by", "")
    return found


def test_codex_keeps_what_the_user_asked_to_remember_by_user(
    memory: tuple[Path, Path], fake_model: FinalAnswer, tmp_path: Path
) -> None:
    """Stop and SessionEnd run `hook stop` / `hook session-end`; the detached checkpoint reads Codex's rollout."""
    codex = _codex()
    repo, project = memory
    home = tmp_path / "codex-home"
    _codex_home(home, fake_model.port, repo)
    typed = "Remember that the staging database is called olive."
    done = subprocess.run(
        [codex, "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", typed],
        cwd=project,
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    deadline = time.monotonic() + 120  # the checkpoint runs detached, after codex exits
    while time.monotonic() < deadline and "The staging database is called olive" not in _entries(repo):
        time.sleep(0.5)
    found = _entries(repo)
    assert found.get("The staging database is called olive") == "user", found
    assert not any("environment_context" in text or "cwd" in text for text in found), found
