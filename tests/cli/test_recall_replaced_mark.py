"""Recall marks a line a newer line replaces, as the context block hides it (breaker11 B11-7).

The user pinned "Always run the full test suite before a deploy", then "Run only the fast tests before a deploy now;
the full suite runs in CI": the block shows the newer pin alone ("1 replaced by newer lines"), but recall and the
prompt hook listed the older one right under it with no mark, so the agent held two contradicting rules of the
user's. Now every recall (``memrepo recall`` plain and ``--json``, the store's recall the MCP server and the app use,
the prompt hook's block, from a scan of the files or from the index) says "(replaced by L<n>)".
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers.repo_helpers import plain_settings
from test_claude_code import hook
from test_hook_replaced_lines import prompt_payload
from test_hook_same_project import cli

from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.repo.store import MemoryStore

OLD = "Always run the full test suite before a deploy"
NEW = "Run only the fast tests before a deploy now; the full suite runs in CI"
QUERY = "Do I need to run the full test suite before a deploy?"


def _hook_text(root: Path, home: Path, tmp_path: Path) -> str:
    done = hook(root, "prompt", prompt_payload(tmp_path, tmp_path, QUERY), home)
    assert done.returncode == 0 and done.stdout, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_recall_marks_a_replaced_line_in_every_front_end(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text=OLD, by="user", pin=True))
    store.remember(Candidate(text=NEW, by="user", pin=True))
    block = store.context(None).text
    assert OLD not in block and "1 replaced by newer lines" in block, block
    new_line = next(n for n, line in enumerate((store.root / "MEMORY.md").read_text().splitlines(), 1) if NEW in line)
    mark = f"{OLD} (replaced by L{new_line})"

    assert mark in _hook_text(store.root, home, tmp_path)  # the first prompt: a scan of the files or the index

    by_store = {hit.text: hit.replaced_by for hit in store.recall(QUERY)}
    by_cold = {hit.text: hit.replaced_by for hit in coldrecall.recall(store.root, QUERY)}
    assert by_store[OLD] == by_cold[OLD] == new_line and by_store[NEW] is None and by_cold[NEW] is None
    plain = cli(store.root, home, "recall", QUERY, cwd=tmp_path)
    assert mark in plain.stdout, plain.stderr
    rows = [
        json.loads(line) for line in cli(store.root, home, "recall", QUERY, "--json", cwd=tmp_path).stdout.splitlines()
    ]
    assert {row["text"]: row["replaced_by"] for row in rows} == {NEW: None, OLD: new_line}
    assert mark in _hook_text(store.root, home, tmp_path)  # the index built by now


def test_a_scan_marks_the_line_it_brings_a_replacement_for(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text=OLD, by="user", pin=True))
    store.remember(Candidate(text=NEW, by="user", pin=True))
    hits = coldrecall.ScanHits()
    from memrepo.engine.read.coldhit import ColdHit
    from memrepo.engine.read.recallnewer import scan_with_replacements

    line = next(n for n, text in enumerate((store.root / "MEMORY.md").read_text().splitlines(), 1) if OLD in text)
    hits.append(ColdHit("MEMORY.md", line, OLD, "user", {}, 1.0, 1.0))
    got = scan_with_replacements(store.root, hits, 5, lambda text: text)
    assert [hit.text for hit in got] == [NEW, OLD] and got[0].replaced_by is None and got[1].replaced_by == line + 1
