"""The prompt hook in a project folder gives that workspace's own line first (breaker14 B14-12).

Claude Code's UserPromptSubmit payload (as in test_claude_code.py) with its ``cwd`` in the shop's folder, over a
memory where a hundred newer topic lines hold "deploy": "When do we deploy?" gets the shop's deploy window first
among the hook's lines (engine/read/recallhome.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_claude_code import hook

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

WINDOW = "Ships from main after a review; the deploy window is Thursday afternoon"
SYSTEMS = ("database", "search", "billing", "auth", "cache", "queue", "mailer", "images", "reports", "payments")


def prompt_payload(cwd: Path, tmp_path: Path, prompt: str) -> dict:
    return {
        "session_id": "abc123",
        "transcript_path": str(tmp_path / "abc123.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }


def test_the_prompt_hook_in_the_shop_gives_the_shops_deploy_window_first(store: MemoryStore, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    shop = tmp_path / "b14shop"
    shop.mkdir()
    done = store.remember(Candidate(text=WINDOW, scope="workspace", workspace=str(shop), by="user"))
    assert done.path is not None
    own = store.root / done.path  # written weeks before the topic notes, as in the breaker's repo
    own.write_text(re.sub(r"added: [0-9-]+", "added: 2026-11-01", own.read_text(encoding="utf-8")), encoding="utf-8")
    (store.root / "topics").mkdir()
    for n in range(20):
        lines = "".join(
            f"- Team prefers the blue-green deploy script for {SYSTEMS[(n + k) % 10]} (item {n * 5 + k})"
            " [by: agent; added: 2026-11-20]\n"
            for k in range(5)
        )
        (store.root / "topics" / f"topic-{n:04d}.md").write_text(f"# Topic {n}\n\n{lines}", encoding="utf-8")

    ran = hook(store.root, "prompt", prompt_payload(shop, tmp_path, "When do we deploy?"), home)
    assert ran.returncode == 0, ran.stderr
    block = json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"]
    assert WINDOW in block
    assert block.index(WINDOW) < block.index("Team prefers the blue-green deploy script")
