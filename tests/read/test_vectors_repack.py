"""The vectors file after a large build: rewritten densely, so the index stays small beside the markdown
(docs/architecture.md §4; issue 30: index size at most the markdown's)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from memrepo.engine.read import semantic_build
from memrepo.engine.read.recall import RecallIndex
from memrepo.engine.read.semantic_build import build_vectors
from memrepo.engine.read.semantic_store import PAGE_SIZE, vectors_path

DIM = 384
"""The local model's dimension: rows of its size are what leave pages part-empty."""


class HashEmbedder:
    """A deterministic embedder of the local model's size (the repack is about row sizes, not meaning)."""

    model_id = "test:hash384"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        out = []
        for text in texts:
            seed = hashlib.sha512(text.encode()).digest() * (DIM // 64 + 1)
            vec = [(b - 127.5) / 127.5 for b in seed[:DIM]]
            norm = sum(x * x for x in vec) ** 0.5
            out.append([x / norm for x in vec])
        return out


def _repo(tmp_path: Path, entries: int) -> Path:
    root = tmp_path / "mem"
    (root / ".git").mkdir(parents=True)
    lines = "".join(f"- Entry {i} says something about project {i % 37} and its release {i}\n" for i in range(entries))
    (root / "MEMORY.md").write_text("# Memory\n\n" + lines, encoding="utf-8")
    index = RecallIndex(root)
    index.sync()
    index.close()
    return root


def _pages(path: Path) -> tuple[int, int, int]:
    """(page size, pages, rows) of a vectors file."""
    db = sqlite3.connect(path)
    try:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        rows = db.execute("SELECT count(*) FROM vec").fetchone()[0]
    finally:
        db.close()
    return size, pages, rows


@pytest.mark.parametrize("repack_after", [10**9, 100])
def test_a_large_build_leaves_the_vectors_file_dense(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repack_after: int
) -> None:
    monkeypatch.setattr(semantic_build, "REPACK_AFTER", repack_after)
    root = _repo(tmp_path, 600)
    assert build_vectors(root, HashEmbedder(), 600) == 600
    size, pages, rows = _pages(vectors_path(root))
    assert rows == 600
    row_bytes = DIM + 16 + 8 + 8  # the vector, its text's digest, its scale, its id
    fill = rows * row_bytes / (size * pages)
    if repack_after <= 600:
        assert size == PAGE_SIZE
        assert fill > 0.85, fill  # rewritten densely: the file is about its rows
    else:
        assert fill < 0.85, fill  # without the repack, the pages split on out-of-order ids stay part-empty


def test_a_small_build_does_not_rewrite_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(semantic_build, "REPACK_AFTER", 100)
    root = _repo(tmp_path, 20)
    calls: list[int] = []
    original = semantic_build.VectorStore.repack
    monkeypatch.setattr(semantic_build.VectorStore, "repack", lambda self: calls.append(1) or original(self))
    assert build_vectors(root, HashEmbedder(), 20) == 20
    assert calls == []  # a write's one or two vectors never pay for a rewrite of the file
