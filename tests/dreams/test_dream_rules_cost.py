"""The rules dream's cost stays proportionate to the lines it reads (B28-7: 17 minutes on a 2,000-file folder).

Counted, not timed: the costly tests are asked of pairs only when the pair's words could relate them, and the
context block's replaced rule once per file (docs/benchmarks.md, "The rules dream on a 2,000-file folder").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.dream_helpers import make_repo

import memrepo.engine.dreams.rules as rules
import memrepo.engine.read.contextselect as contextselect
from memrepo.engine.dreams.input import build_input
from memrepo.engine.format import entries as fmt

N = 60
THINGS = ["squash merges", "weekly dependency bumps", "UTC timestamps in logs", "ruff format on save", "pnpm over npm"]


def _file(n: int) -> str:
    """``n`` lines alike the make_corpus folder's: each shares a word or two with many others, none says it changed."""
    verbs = ["owns", "uses", "prefers", "avoids", "keeps"]
    return "# Team\n\n" + "".join(
        f"- Team {verbs[i % 5]} {THINGS[i % 5]} for metrics (item {i}) [by: agent; added: 2025-01-{1 + i % 28:02d}]\n"
        for i in range(n)
    )


def test_same_fact_is_not_asked_of_pairs_nothing_relates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: every pair sharing one topic word was asked ``same_fact`` (0.7 ms each)."""
    asked = []
    real = contextselect.same_fact
    monkeypatch.setattr(contextselect, "same_fact", lambda a, b: asked.append(1) or real(a, b))
    cands = contextselect.candidates(fmt.parse(_file(N)).entries())
    assert len(cands) == N
    assert contextselect.replaced(cands) == {}
    assert len(asked) < N  # was 330 for these 60 lines


def test_the_rules_dream_asks_replaced_once_per_file(repo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: once for the changed facts and again for the pairs it relates, when a line was removed between."""
    files = {
        "a.md": "# A\n\n- The deploy window is Tuesday [by: agent; added: 2025-01-02]\n"
        "- The deploy window is now Thursday [by: agent; added: 2025-03-04]\n"
        "- Run ruff before committing [by: agent]\n- Run ruff before committing [by: agent]\n",
        "b.md": _file(12),
    }
    store = make_repo(repo_path, files)
    din = build_input(repo_path, [p for p, _ in store.list_files()], [])
    paths = {ref.path for ref in din.lines.values() if not ref.inbox and not ref.header}
    asked: list[int] = []
    real = rules.replaced
    monkeypatch.setattr(rules, "replaced", lambda *a, **k: asked.append(1) or real(*a, **k))
    ops = rules.rules_operations(din)
    assert {op["relation"] for op in ops} >= {"duplicate", "replacement"}, ops
    assert len(asked) == len(paths)
