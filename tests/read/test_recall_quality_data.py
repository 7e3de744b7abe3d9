"""The recall quality benchmark's labelled data (docs/benchmarks.md "Recall quality") holds together.

Only the data: these tests read the repo and query files, and build repo D
through the writer, but never run a recall system on them (repo D is held out
whole and written blind; its figures are measured once, by the benchmark).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[2] / "benchmarks"
DATA = BENCH / "recall_quality"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


dataset = _load("dataset", DATA / "dataset.py")
bench = _load("bench_recall_quality", BENCH / "bench_recall_quality.py")


def _ids(spec) -> set[str]:
    return {e.id for e in spec.entries} | set(spec.raw_ids.values())


@pytest.mark.parametrize("split", sorted(bench.SPLITS))
def test_every_gold_and_stale_id_of_a_split_names_an_entry_of_its_repo(split: str) -> None:
    for repo, name in bench.SPLITS[split]:
        ids = _ids(dataset.read_repo(DATA / bench.REPOS[repo]))
        queries = dataset.read_queries(DATA / name)
        assert queries, name
        unknown = [
            (q.text, got)
            for q in queries
            for got in [*(g for group in q.gold for g in group), *q.stale]
            if got not in ids
        ]
        assert unknown == [], name


def test_the_d_heldout_split_is_repo_d_alone_and_part_of_all() -> None:
    assert bench.SPLITS["d-heldout"] == [("d", "queries_d_heldout.txt")]
    assert bench.REPOS["d"] == "repo_d.txt"
    assert not any(repo == "d" for split, pairs in bench.SPLITS.items() if split != "d-heldout" for repo, _ in pairs)


def test_repo_d_queries_cover_every_kind_and_superseded_pairs() -> None:
    spec = dataset.read_repo(DATA / "repo_d.txt")
    queries = dataset.read_queries(DATA / "queries_d_heldout.txt")
    kinds = {kind: sum(q.kind == kind for q in queries) for kind in dataset.KINDS}
    assert kinds == {"paraphrase": 34, "keyword": 14, "multi": 8, "none": 16}
    assert sum("cjk" in q.tags for q in queries) == 8
    assert sum(e.subject is not None for e in spec.entries) >= 12
    stale = {s for q in queries for s in q.stale}
    assert len(stale) >= 12
    subjects = {e.id for e in spec.entries if e.subject}
    # each stale line is older than a gold line of its query that carries a subject: the newer one replaces it
    for q in queries:
        if q.stale:
            assert any(g in subjects for group in q.gold for g in group), q.text


@pytest.mark.slow
def test_repo_d_builds_through_the_writer_and_every_entry_is_labelled(tmp_path: Path) -> None:
    spec = dataset.read_repo(DATA / "repo_d.txt")
    root = tmp_path / "repo_d"
    dataset.build_repo(spec, root)  # raises when the writer refuses or reinforces an entry
    labels = dataset.label_entries(spec, root)  # raises when a written text no longer matches its id
    assert set(labels.values()) == _ids(spec)
    assert len(labels) == len(_ids(spec))  # one line per id: no twin collapsed, no superseded line dropped
    paths = {path for path, _line in labels}
    assert {"inbox.md", "notes/people.md", "notes/thesis-plan.md", "workspaces/sake-survey.md"} <= paths
