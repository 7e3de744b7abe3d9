"""The vectors file shared by two processes (docs/architecture.md §4): a recall reads the vectors as one snapshot
while another process's build commits, and two builds never run at once (``vectors.lock``)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.semantic_build import build_lock, build_vectors
from memrepo.engine.read.semantic_store import VectorStore, vectors_path

DIM = 8


class CountingEmbedder:
    """A deterministic embedder that counts what it embeds."""

    model_id = "test:count8"

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        self.embedded.extend(texts)
        return [[1.0 if d == len(t) % DIM else 0.0 for d in range(DIM)] for t in texts]


def _repo(tmp_path: Path, entries: int) -> Path:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = "".join(f"- Entry {i} about project {i % 7}\n" for i in range(entries))
    (root / "MEMORY.md").write_text("# Memory\n\n" + lines, encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    index.close()
    return root


def test_a_commit_by_another_connection_mid_read_does_not_break_the_read(tmp_path: Path) -> None:
    root = _repo(tmp_path, 40)
    build_vectors(root, CountingEmbedder(), 30)
    reader = VectorStore(root)
    other = sqlite3.connect(vectors_path(root), isolation_level=None, timeout=0)
    other.execute("ATTACH ? AS r", (str(root / ".git/memrepo/recall.sqlite"),))
    spare = [iid for (iid,) in other.execute("SELECT id FROM r.items WHERE id NOT IN (SELECT id FROM vec)")]
    assert spare
    tried: list[str] = []

    def between(sql: str) -> None:  # another process's batch commits as the rows are read
        if sql.startswith("SELECT id, scale, v FROM vec") and not tried:
            try:
                other.execute("INSERT INTO vec VALUES(?, ?, ?, ?)", (spare[0], b"h" * 16, 1.0, bytes(DIM)))
                tried.append("committed")
            except sqlite3.OperationalError as exc:
                tried.append(str(exc))

    reader._db.set_trace_callback(between)
    try:
        ids, mat, scales = reader.matrix()  # before: ValueError "the vectors file changed while it was read"
    finally:
        reader._db.set_trace_callback(None)
    assert tried == ["database is locked"]  # the read holds its snapshot: the other commit waits for it
    assert len(ids) == len(mat) == len(scales) == 30
    other.execute("INSERT INTO vec VALUES(?, ?, ?, ?)", (spare[0], b"h" * 16, 1.0, bytes(DIM)))
    assert len(reader.matrix()[0]) == 31  # the next read sees it
    reader.close()
    other.close()


def test_a_second_build_waits_for_the_first_and_embeds_nothing_twice(tmp_path: Path) -> None:
    root = _repo(tmp_path, 24)
    embedder = CountingEmbedder()
    held = threading.Event()
    release = threading.Event()

    def hold_lock() -> None:  # another process's build holds the lock (flock: per open file, so a thread shows it)
        with build_lock(root) as got:
            assert got
            held.set()
            release.wait(120)

    holder = threading.Thread(target=hold_lock)
    holder.start()
    assert held.wait(60)
    stop = threading.Event()
    result: list[int] = []
    waiting = threading.Thread(target=lambda: result.append(build_vectors(root, embedder, 100, stop=None)))
    waiting.start()
    time.sleep(0.3)
    assert embedder.embedded == []  # it waits: nothing embedded while the lock is held
    first = CountingEmbedder()
    release.set()
    holder.join(60)
    waiting.join(60)
    assert result == [24] and len(embedder.embedded) == 24
    assert build_vectors(root, first, 100) == 0 and first.embedded == []  # the next finds nothing left
    with build_lock(root) as got:  # a build told to stop gives up its wait
        assert got
        stop.set()
        gave_up: list[int] = []
        quitter = threading.Thread(
            target=lambda: gave_up.append(build_vectors(root, CountingEmbedder(), 100, stop=stop))
        )
        quitter.start()
        quitter.join(60)
        assert gave_up == [0]
