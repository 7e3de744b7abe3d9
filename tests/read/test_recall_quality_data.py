"""The recall quality benchmark's labelled data (docs/benchmarks.md "Recall quality") holds together.

Only the data: these tests read the repo and query files, and build repos D, E,
F, H and M through the writer, but never run a recall system on them (repos D, E, F,
H and M are held out whole and written blind; their figures are measured once, by
the benchmark).
"""

from __future__ import annotations

import importlib.util
import re
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


BLIND = {
    # repo: (repo file, query file, exact query count per kind, at least this many superseded pairs)
    "e": ("repo_e.txt", "queries_e_heldout.txt", {"paraphrase": 40, "keyword": 15, "multi": 9, "none": 18}, 15),
    "f": ("repo_f.txt", "queries_f_heldout.txt", {"paraphrase": 15, "keyword": 6, "multi": 3, "none": 9}, 1),
    "h": ("repo_h.txt", "queries_h_heldout.txt", {"paraphrase": 94, "keyword": 49, "multi": 18, "none": 34}, 22),
    "m": ("repo_m.txt", "queries_m_heldout.txt", {"paraphrase": 42, "keyword": 28, "multi": 17, "none": 21}, 17),
}


@pytest.mark.parametrize("repo", sorted(BLIND))
def test_a_blind_split_is_its_repo_alone_and_part_of_all(repo: str) -> None:
    name, queries, _kinds, _pairs = BLIND[repo]
    assert bench.SPLITS[f"{repo}-heldout"] == [(repo, queries)]
    assert bench.REPOS[repo] == name
    others = [split for split, pairs in bench.SPLITS.items() if split != f"{repo}-heldout"]
    assert not any(r == repo for split in others for r, _ in bench.SPLITS[split])
    # "all" runs every split (bench_recall_quality.main): the blind splits are in it by being in SPLITS
    assert f"{repo}-heldout" in bench.SPLITS


@pytest.mark.parametrize("repo", sorted(BLIND))
def test_a_blind_repo_has_every_kind_of_query_and_current_gold_for_superseded_lines(repo: str) -> None:
    name, queries_name, kinds, pairs = BLIND[repo]
    spec = dataset.read_repo(DATA / name)
    queries = dataset.read_queries(DATA / queries_name)
    assert {kind: sum(q.kind == kind for q in queries) for kind in dataset.KINDS} == kinds
    subjects = {e.id for e in spec.entries if e.subject}
    assert len(subjects) >= pairs
    by_id = {e.id: e for e in spec.entries}
    for q in queries:
        gold = {g for group in q.gold for g in group}
        assert not gold & set(q.stale), q.text  # a superseded line is never gold
        for old in q.stale:
            # the stale line is older than a gold line with a subject (the newer one supersedes it)
            assert by_id[old].subject is None, q.text
            assert any(g in subjects and by_id[g].added > by_id[old].added for g in gold), q.text
    # every superseded line of the repo is the stale line of some query
    olds = {e.id for e in spec.entries if e.id.endswith(".old")}
    assert olds <= {s for q in queries for s in q.stale}


def test_repo_e_has_cjk_accents_headings_links_and_twins_in_its_queries() -> None:
    queries = dataset.read_queries(DATA / "queries_e_heldout.txt")
    tags = [t for q in queries for t in q.tags]
    assert tags.count("cjk") >= 8 and tags.count("accent") >= 8
    assert tags.count("heading") >= 3 and tags.count("link") >= 1 and tags.count("neardup") >= 6
    none_cjk = [q for q in queries if q.kind == "none" and "cjk" in q.tags]
    assert len(none_cjk) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("repo", sorted(BLIND))
def test_a_blind_repo_builds_through_the_writer_and_every_entry_is_labelled(repo: str, tmp_path: Path) -> None:
    spec = dataset.read_repo(DATA / BLIND[repo][0])
    root = tmp_path / f"repo_{repo}"
    dataset.build_repo(spec, root)  # raises when the writer refuses or reinforces an entry
    labels = dataset.label_entries(spec, root)  # raises when a written text no longer matches its id
    assert set(labels.values()) == _ids(spec)
    assert len(labels) == len(_ids(spec))  # one line per id: no twin collapsed, no superseded line dropped
    paths = {path for path, _line in labels}
    assert {"MEMORY.md", "me.md", "lessons.md"} <= paths
    assert len([p for p in paths if p.startswith("workspaces/")]) == len({e.workspace for e in spec.entries} - {None})


_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")


def test_repo_h_has_the_size_scripts_twins_and_exact_ids_its_brief_asks_for() -> None:
    spec = dataset.read_repo(DATA / "repo_h.txt")
    queries = dataset.read_queries(DATA / "queries_h_heldout.txt")
    texts = [e.text for e in spec.entries] + list(spec.raw_ids)
    assert 300 <= len(texts) <= 400
    assert sum(bool(re.search(r"[^\x00-\x7f]", t)) for t in texts) >= 25  # CJK or accented lines
    assert sum(bool(_CJK.search(t)) for t in texts) >= 15
    assert sum(e.pin for e in spec.entries) >= 5 and sum(e.inbox for e in spec.entries) >= 3
    assert sum("cjk" in q.tags for q in queries) >= 10
    assert sum("neardup" in q.tags for q in queries) >= 10
    assert any(q.kind == "none" and "cjk" in q.tags for q in queries)
    # exact identifiers: lines that differ only in a number, each the gold of an exact-id query
    by_id = {e.id: e.text for e in spec.entries}
    pairs = [("h.val.bus2217", "h.val.bus2271"), ("h.val.spare501", "h.val.spare510")]
    for a, b in pairs:
        assert by_id[a] != by_id[b] and re.sub(r"\d", "#", by_id[a]) == re.sub(r"\d", "#", by_id[b])
    gold = {g for q in queries if q.kind == "keyword" for group in q.gold for g in group}
    assert {"h.val.bus2217", "h.val.bus2271", "h.val.spare510", "h.rt.ticket4412", "h.rt.ticket4421"} <= gold


def test_the_g_tune_split_is_repo_g_alone_and_part_of_all() -> None:
    assert bench.SPLITS["g-tune"] == [("g", "queries_g_tune.txt")]
    assert bench.REPOS["g"] == "repo_g.txt"
    assert not any(repo == "g" for split, pairs in bench.SPLITS.items() if split != "g-tune" for repo, _ in pairs)


def test_repo_g_is_a_new_users_small_repo_with_every_kind_of_query() -> None:
    spec = dataset.read_repo(DATA / "repo_g.txt")
    queries = dataset.read_queries(DATA / "queries_g_tune.txt")
    assert 15 <= len(spec.entries) <= 25  # small: a top 5 is about a quarter of the repo
    assert {kind: sum(q.kind == kind for q in queries) for kind in dataset.KINDS} == {
        "paraphrase": 17,
        "keyword": 6,
        "multi": 3,
        "none": 10,
    }
    by_id = {e.id: e for e in spec.entries}
    assert {e.kind for e in spec.entries} >= {"identity", "preference", "rule", "fact", "command"}
    assert len({e.workspace for e in spec.entries} - {None}) == 2
    stale = [(q, old) for q in queries for old in q.stale]
    assert stale
    for q, old in stale:
        gold = {g for group in q.gold for g in group}
        assert by_id[old].subject is None and any(
            by_id[g].subject and by_id[g].added > by_id[old].added for g in gold
        ), q.text


def test_repo_g_builds_through_the_writer_and_every_entry_is_labelled(tmp_path: Path) -> None:
    spec = dataset.read_repo(DATA / "repo_g.txt")
    root = tmp_path / "repo_g"
    dataset.build_repo(spec, root)  # raises when the writer refuses or reinforces an entry
    labels = dataset.label_entries(spec, root)  # raises when a written text no longer matches its id
    assert set(labels.values()) == _ids(spec)
    assert len(labels) == len(_ids(spec))  # one line per id: no twin collapsed, no superseded line dropped


def test_the_k_tune_split_is_repo_k_alone() -> None:
    assert bench.SPLITS["k-tune"] == [("k", "queries_k_tune.txt")]
    assert bench.REPOS["k"] == "repo_k.txt"
    assert not any(repo == "k" for split, pairs in bench.SPLITS.items() if split != "k-tune" for repo, _ in pairs)


def test_repo_k_mixes_scripts_and_ids_with_every_kind_of_query() -> None:
    spec = dataset.read_repo(DATA / "repo_k.txt")
    queries = dataset.read_queries(DATA / "queries_k_tune.txt")
    assert 60 <= len(spec.entries) + len(spec.raw_ids) <= 100
    texts = [e.text for e in spec.entries] + list(spec.raw_ids)
    scripts = {
        "hangul": r"[\uac00-\ud7a3]",
        "kana": r"[\u3040-\u30ff]",
        "han": r"[\u4e00-\u9fff]",
        "accent": r"[À-ɏ]",
    }
    for name, pattern in scripts.items():
        assert sum(bool(re.search(pattern, t)) for t in texts) >= 8, name
    for ident in ("v2.3", "PR #4412", "서버 3호기", "第二期"):
        assert any(ident in t for t in texts), ident
    kinds = {kind: [q for q in queries if q.kind == kind] for kind in dataset.KINDS}
    assert all(kinds.values())
    assert sum("cjk" in q.tags for q in kinds["paraphrase"]) >= 25
    assert any(re.search(r"[a-z]{3}", q.text) and re.search(r"[\uac00-\ud7a3]", q.text) for q in queries)  # mixed
    assert sum("cjk" in q.tags for q in kinds["none"]) >= 8
    assert any(q.stale for q in queries)


def test_repo_k_builds_through_the_writer_and_every_entry_is_labelled(tmp_path: Path) -> None:
    spec = dataset.read_repo(DATA / "repo_k.txt")
    root = tmp_path / "repo_k"
    dataset.build_repo(spec, root)
    labels = dataset.label_entries(spec, root)
    assert set(labels.values()) == _ids(spec)
    assert len(labels) == len(_ids(spec))


def test_the_l_tune_split_is_repo_l_alone() -> None:
    assert bench.SPLITS["l-tune"] == [("l", "queries_l_tune.txt")]
    assert bench.REPOS["l"] == "repo_l.txt"
    assert not any(repo == "l" for split, pairs in bench.SPLITS.items() if split != "l-tune" for repo, _ in pairs)


def test_repo_l_queries_cover_every_kind_with_superseded_pairs_and_twins() -> None:
    spec = dataset.read_repo(DATA / "repo_l.txt")
    queries = dataset.read_queries(DATA / "queries_l_tune.txt")
    assert 200 <= len(spec.entries) + len(spec.raw_ids) <= 250
    kinds = {kind: sum(q.kind == kind for q in queries) for kind in dataset.KINDS}
    assert kinds == {"paraphrase": 30, "keyword": 25, "multi": 12, "none": 15}
    assert sum(bool(q.stale) for q in queries) >= 15
    assert sum(any(len(group) > 1 for group in q.gold) for q in queries) >= 4  # near-duplicate twins
    assert sum("cjk" in q.tags for q in queries) >= 5
    subjects = {e.id for e in spec.entries if e.subject}
    for q in queries:
        if q.stale:
            assert any(g in subjects for group in q.gold for g in group), q.text
