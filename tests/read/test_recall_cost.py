"""The recall index's cost (docs/architecture.md §4): its size against the markdown, a first build that resumes.

- The index file is at most the size of the markdown it indexes (measured
  here against the same repo's files; it was about 3x before the entries
  were packed per file and the posting lists packed).
- A first build commits in batches: a build SIGKILLed midway keeps what it
  committed, the next sync reads only the files not yet done (plus those
  written meanwhile, which are then found), and its results are those of a
  build that never stopped.
- A SQLite error while building is one line (a ``MemrepoError``), and the
  batches committed before it are kept.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memrepo.engine.errors import MemrepoError
from memrepo.engine.read import recall, recallbuild
from memrepo.engine.read.recall import RecallIndex, index_path
from memrepo.engine.read.recallpost import RecallIndexError, pack_ids, unpack_ids

PEOPLE = ["Søren", "Aiko", "Marta", "Jonas", "Priya", "Li Wei", "Kofi", "Ana"]
TOOLS = ["pnpm", "uv", "ruff", "pytest", "Postgres 16", "Redis", "Terraform", "Grafana", "k6", "Sentry"]
VERBS = ["prefers", "uses", "avoids", "requires", "owns", "reviews", "keeps", "rejects", "migrated to", "pins"]
AREAS = ["billing", "auth", "search", "deploys", "the mobile app", "CI", "the data pipeline", "onboarding", "alerts"]
TAILS = [
    "because the old setup broke twice in March",
    "after the outage review",
    "until the next quarterly planning",
    "for anything that touches customer data",
    "and asks for a second reviewer",
    "except on Fridays",
    "since the team agreed on it in the retro",
    "",
]
KINDS = ["preference", "decision", "lesson", "fact", "setup"]


def _entry(rng: random.Random, n: int) -> str:
    text = (
        f"{rng.choice(PEOPLE)} {rng.choice(VERBS)} {rng.choice(TOOLS)} for {rng.choice(AREAS)} "
        f"{rng.choice(TAILS)} (ticket {rng.randint(100, 99999)})"
    ).replace("  ", " ")
    meta = [
        f"by: {rng.choice(['user', 'agent'])}",
        f"added: 202{rng.randint(4, 6)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    ]
    if rng.random() < 0.3:
        meta.append(f"kind: {rng.choice(KINDS)}")
    if rng.random() < 0.2:
        meta.append(f"subject: {rng.choice(AREAS)}")
    if rng.random() < 0.1:
        meta.append(f"source: https://example.com/sessions/{rng.randint(1, 10**6)}")
    return f"- {text} [{'; '.join(meta)}]"


def _corpus(root: Path, files: int, entries: int, seed: int = 7) -> int:
    """Write ``files`` memory files of ``entries`` entries each under ``root``; returns their bytes."""
    rng = random.Random(seed)
    size = n = 0
    for f in range(files):
        rel = f"topics/area-{f:04d}.md" if f % 3 else f"workspaces/p{f:04d}.md"
        lines = [f"# {rng.choice(AREAS).title()} notes {f}", ""]
        for i in range(entries):
            if i and i % 12 == 0:
                lines += ["", f"## {rng.choice(TOOLS)} {rng.choice(AREAS)}", ""]
            n += 1
            lines.append(_entry(rng, n))
        data = ("\n".join(lines) + "\n").encode("utf-8")
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        size += len(data)
    return size


def _results(index: RecallIndex, queries: list[str]) -> list[list[tuple]]:
    return [[(index.entry(i)[:2], key) for i, key in index.search(q, limit=10, min_confidence=0)] for q in queries]


QUERIES = ["pnpm", "Soren billing", "outage review", "the team", "Postgres 16 for auth", "ticket", "Grafana alerts"]


def test_the_index_is_at_most_the_size_of_its_markdown(tmp_path: Path) -> None:
    markdown = _corpus(tmp_path, files=400, entries=36)
    index = RecallIndex(tmp_path)
    index.sync()
    assert len(index) == 400 * 36
    index.close()
    size = os.path.getsize(index_path(tmp_path))
    assert size <= markdown, f"index {size} bytes for {markdown} bytes of markdown ({size / markdown:.2f}x)"


def test_posting_lists_round_trip_packed() -> None:
    from array import array

    rng = random.Random(3)
    for n in (0, 1, 2, 7, 8, 9, 1000):
        days = [rng.randint(753_000, 754_000) * 2 + rng.randint(0, 1) for _ in range(n)]  # two years of ranks
        ids = array("q", sorted({(day << 32) | rng.randint(0, 1 << 20) for day in days}))
        blob = pack_ids(ids)
        assert unpack_ids(blob) == ids
        if n >= 1000:
            assert len(blob) < 5 * n  # packed: well under 8 bytes an id
    with pytest.raises(ValueError):
        unpack_ids(b"\x01not deflate")


CHILD = """
import sys, time
from pathlib import Path
from memrepo.engine.read import recall, recallbuild
recall.BUILD_BATCH_FILES = 10
real = recallbuild.update_file
def slow(*args):
    time.sleep(0.03)  # a slow disk: the parent kills the build midway
    return real(*args)
recallbuild.update_file = slow
recall.RecallIndex(Path(sys.argv[1])).sync()
print("finished")
"""


def _files_done(path: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return int(db.execute("SELECT count(*) FROM files").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def test_a_first_build_killed_midway_resumes_and_finds_what_was_written_meanwhile(tmp_path: Path) -> None:
    files = 90
    _corpus(tmp_path, files=files, entries=8)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path)], stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while _files_done(index_path(tmp_path)) < 30 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        # Written while the build runs: an entry in a file it may have read already, and a new file.
        first = tmp_path / "topics" / "area-0001.md"
        first.write_text(first.read_text() + "- Marta pins zebrafish-oracle for billing [by: user]\n")
        (tmp_path / "topics" / "late.md").write_text("- Kofi owns the quokka-ledger [by: user]\n")
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(30)
        out = child.stdout.read() if child.stdout else b""
        if child.stdout:
            child.stdout.close()
    assert b"finished" not in out, "the build ended before it was killed: make it slower"
    done = _files_done(index_path(tmp_path))
    assert 30 <= done < files, done  # the committed batches were kept

    index = RecallIndex(tmp_path)
    assert not index.built
    reread = index.sync()
    # Resumed: only the files not done, the new one and the one written after its batch (if it was done).
    assert reread <= files - done + 2, (reread, done)
    assert index.built
    assert [index.entry(i)[0] for i, _k in index.search("zebrafish oracle")] == ["topics/area-0001.md"]
    assert [index.entry(i)[0] for i, _k in index.search("quokka ledger")] == ["topics/late.md"]
    assert len(index) == files * 8 + 2
    # The same results as a build that never stopped, and one list per key once done.
    fresh = RecallIndex(tmp_path, tmp_path / "fresh.sqlite")
    fresh.sync()
    assert _results(index, QUERIES) == _results(fresh, QUERIES)
    joined = "SELECT count(*) FROM (SELECT key FROM post GROUP BY key HAVING count(*) > 1)"
    assert index.db.execute(joined).fetchone()[0] == 0
    index.close()
    fresh.close()


def test_an_error_while_building_is_one_line_and_keeps_the_batches_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus(tmp_path, files=40, entries=5)
    monkeypatch.setattr(recall, "BUILD_BATCH_FILES", 10)
    real = recallbuild.update_file
    calls = {"n": 0}

    def failing(*args):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 25:
            raise sqlite3.OperationalError("disk I/O error")
        return real(*args)

    monkeypatch.setattr(recallbuild, "update_file", failing)
    index = RecallIndex(tmp_path)
    with pytest.raises(RecallIndexError) as caught:
        index.sync()
    message = str(caught.value)
    assert isinstance(caught.value, MemrepoError) and isinstance(caught.value, sqlite3.Error)
    assert "\n" not in message and "disk I/O error" in message and "recall index" in message
    assert not index.built
    index.close()
    assert _files_done(index_path(tmp_path)) == 20  # two batches committed, the third rolled back

    monkeypatch.setattr(recallbuild, "update_file", real)
    index = RecallIndex(tmp_path)
    assert index.sync() == 20  # the rest, not everything
    assert len(index) == 40 * 5
    index.close()
