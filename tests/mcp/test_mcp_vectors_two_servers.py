"""Two real ``memrepo mcp`` processes building the vectors of one repo at once (docs/architecture.md §4).

The app and the MCP server open on one repo each start a first build of vectors. One build runs at a time
across processes (``vectors.lock``): every entry is embedded once, not once a process; and neither process's
recall falls back to lexical while the other's build commits (a read of the vectors between two of the
other's commits once failed and left recall lexical for a minute). The model is the fake OpenAI-compatible
server on 127.0.0.1 (the real request format), slowed so the builds overlap.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
from helpers.mcp_helpers import call, mcp_session
from helpers.semantic_fakes import fake_openai_server

from memrepo.engine.read.recallfile import open_index
from memrepo.engine.read.recallnear import NEAREST_LINE
from memrepo.engine.read.semantic_store import vectors_path

ENTRIES = 64
QUERY = "which JS package manager do I use"


def _repo(root: Path) -> list[str]:
    """A repo of :data:`ENTRIES` entries written by hand and committed; returns their texts."""
    texts = [f"Fact {i}: the {('billing', 'deploy', 'coffee', 'pnpm')[i % 4]} note number {i}" for i in range(ENTRIES)]
    root.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    body = "\n".join(f"- {text} [by: user; added: 2026-01-01]" for text in texts)
    (root / "MEMORY.md").write_text(f"# Memory\n\n{body}\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "entries"], check=True
    )
    # The recall index exists (the app opened the repo before): the vectors' first build is what both start.
    open_index(root).close()
    return texts


def _stored(root: Path) -> int:
    path = vectors_path(root)
    if not path.is_file():
        return 0
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        return int(db.execute("SELECT count(*) FROM vec").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        db.close()


@pytest.mark.slow
async def test_two_mcp_servers_build_once_and_stay_hybrid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mem = tmp_path / "mem"
    texts = _repo(mem)
    monkeypatch.delenv("MEMREPO_SEMANTIC", raising=False)  # tests/conftest.py turns it off for the others
    with fake_openai_server() as (url, record):
        record.delay = 0.15  # 8 batches of 8: each build spans over a second
        config = tmp_path / "config.toml"
        config.write_text(
            "[semantic]\nprovider = 'openai'\nmin_similarity = 0.5\nanswer_similarity = 0.6\n"
            f"[semantic.openai]\nbase_url = '{url}'\ntimeout_s = 5\n",
            encoding="utf-8",
        )
        monkeypatch.setenv("MEMREPO_CONFIG", str(config))
        async with mcp_session(mem, tmp_path) as one, mcp_session(mem, tmp_path) as two:
            # Both first recalls at once: each server kicks its build of vectors.
            firsts = await asyncio.gather(*(call(s, "memory_recall", query=QUERY) for s in (one, two)))
            assert not any(is_error for is_error, _text in firsts)
            modes: dict[int, list[str]] = {0: [], 1: []}
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                answers = await asyncio.gather(*(call(s, "memory_recall", query=QUERY) for s in (one, two)))
                for n, (is_error, text) in enumerate(answers):
                    assert not is_error
                    # the mode line, after the nearest-entries line when nothing answers confidently (rec14's gate
                    # leaves this made-up repo's query unanswered: 64 lines, none standing out)
                    modes[n].append(next((x for x in text.splitlines() if x != NEAREST_LINE), ""))
                if _stored(mem) == ENTRIES and all(m and m[-1].startswith("(hybrid recall") for m in modes.values()):
                    break
                await asyncio.sleep(0.05)
    assert _stored(mem) == ENTRIES
    for n, lines in modes.items():
        assert lines[-1].startswith("(hybrid recall"), (n, lines[-1])
        assert not any("cannot be read" in line for line in lines), (n, [x for x in lines if "cannot" in x])
        first = next(i for i, line in enumerate(lines) if line.startswith("(hybrid recall"))
        assert all(line.startswith("(hybrid recall") for line in lines[first:]), (n, lines[first:])
    queries = ([QUERY], ["warm"])  # recalls, and each server's load of the model at its start
    embedded = Counter(
        text for _headers, body in record.requests if body["input"] not in queries for text in body["input"]
    )
    assert set(embedded) == {t for t in embedded if any(t.startswith(x) for x in texts)}
    assert len(embedded) == ENTRIES
    assert max(embedded.values()) == 1, embedded.most_common(3)  # one build at a time: nothing embedded twice
