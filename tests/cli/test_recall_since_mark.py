"""Recall marks a user's line a newer agent line corrects, as the context block does (breaker7 B7-18).

User "My editor is vim", then an agent "The user switched from vim to Helix": the block shows "L<n> My editor is vim
(an agent line since says: L<m>)"; recall listed the user's line with no mark, so the agent reading it could not tell a
newer line says otherwise. Now every recall (``memrepo recall`` plain and ``--json``, the store's recall the MCP
server and the app use, the prompt hook's block) carries the same mark by the same rule.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers.repo_helpers import plain_settings
from test_claude_code import hook
from test_hook_replaced_lines import prompt_payload
from test_hook_same_project import cli

from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.repo.store import MemoryStore

OLD = "My editor is vim"
NEW = "The user switched from vim to Helix"


def test_recall_marks_a_users_line_an_agent_line_since_corrects(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text=OLD, by="user"))
    store.remember(Candidate(text="Prefers dark themes", by="user"))
    store.remember(Candidate(text=NEW, by="agent"))
    block = store.context(None).text
    marked = re.search(r"L(\d+) My editor is vim \(an agent line since says: L(\d+)\)", block)
    assert marked, block
    since = int(marked.group(2))
    query = "which editor does the user use vim"

    by_store = {hit.text: hit.since for hit in store.recall(query)}
    by_cold = {hit.text: hit.since for hit in coldrecall.recall(store.root, query)}
    assert by_store[OLD] == by_cold[OLD] == since and by_store[NEW] is None and by_cold[NEW] is None

    plain = cli(store.root, home, "recall", query, cwd=tmp_path)
    assert f"{OLD} (an agent line since says: L{since})" in plain.stdout, plain.stderr
    rows = [
        json.loads(line) for line in cli(store.root, home, "recall", query, "--json", cwd=tmp_path).stdout.splitlines()
    ]
    assert {row["text"]: row["since"] for row in rows}[OLD] == since

    payload = prompt_payload(tmp_path, tmp_path, "what editor do I use, still vim?")
    done = hook(store.root, "prompt", payload, home)
    assert done.returncode == 0 and done.stdout, done.stderr
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert f"{OLD} (an agent line since says: L{since})" in text, text
