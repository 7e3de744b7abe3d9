"""With ``required = true`` the real Codex CLI lists memrepo's tools in its first model request (breaker5 B5-10).

``memrepo setup codex`` advises marking the server required; this holds the advice to what Codex does.
Codex (``.ci/node``, as in :mod:`test_codex_cli`) runs offline against the fake Responses server, whose
first request is checked for the ``mcp__memrepo`` tools.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_codex_cli import ROOT, _need, fake_model_factory, setup_repo

__all__ = ["fake_model_factory", "setup_repo"]  # the fixtures


def test_a_required_server_is_listed_in_codex_execs_first_request(
    setup_repo: tuple[Path, Path], fake_model_factory, tmp_path: Path
) -> None:
    codex = _need("codex", "MEMREPO_CODEX")
    repo, project = setup_repo
    fake = fake_model_factory("memory_context", {})
    home = tmp_path / "codex-home"
    home.mkdir()
    argv = ["-m", "memrepo.cli.main", "--repo", str(repo), "mcp"]
    (home / "config.toml").write_text(
        f'model = "fake-model"\nmodel_provider = "fake"\ncheck_for_update_on_startup = false\n\n'
        f'[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:{fake.port}/v1"\n'
        f'wire_api = "responses"\nenv_key = "FAKE_MODEL_KEY"\n\n'
        f"[mcp_servers.memrepo]\ncommand = {json.dumps(sys.executable)}\nargs = {json.dumps(argv)}\nrequired = true\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
    env.update(CODEX_HOME=str(home), FAKE_MODEL_KEY="not-a-real-key", PYTHONPATH=str(ROOT), NO_COLOR="1")
    done = subprocess.run(
        [codex, "exec", "--skip-git-repo-check", "Use memory."],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    first = fake.requests[0]
    assert any(tool.get("name") == "mcp__memrepo" for tool in first.get("tools", [])), [
        tool.get("name") for tool in first.get("tools", [])
    ]
    assert "Always answer in metric units" in fake.tool_output()
