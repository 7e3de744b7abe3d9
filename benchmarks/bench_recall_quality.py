#!/usr/bin/env python3
"""Benchmark: recall quality on a labelled repo, beside SQLite FTS5 BM25 (docs/architecture.md §4).

Builds the labelled repos through the real write path (``recall_quality/repo_a.txt``,
the tuning repo, ``repo_b.txt``, another person's repo held out, ``repo_c.txt``,
a third person's repo with its own tuning and held-out queries, ``repo_d.txt``,
a fourth person's repo written blind, held out whole through round 3 and tuned on from
round 4, ``repo_e.txt``, a fifth person's ~160-entry repo, and ``repo_f.txt``, a
brand-new user's 20 entries after one week, where every entry is near every query;
E and F were written blind, are held out whole and are never tuned on; ``repo_g.txt``,
another brand-new user's 22 entries, written to tune the small-repo case; ``repo_h.txt``, an eighth
person's ~310-entry repo, written blind, held out whole and never tuned on; ``repo_k.txt``, a ninth
person's ~80 entries mixing Korean, Chinese, Japanese, accented Latin and ids in CJK lines, written to
tune recall on scripts; ``repo_l.txt``, a tenth person's ~200 entries written before any system ran
on them, to tune recall on a repo unlike the others; ``repo_m.txt``, an eleventh person's ~250 entries over four
projects, written blind by helper blind20 on 2026-12-07 with its queries before any recall system was run on it,
held out whole and never tuned on), then runs
the labelled queries of ``recall_quality/queries_*.txt`` against each system:

- **fts5**: SQLite FTS5 (``unicode61 remove_diacritics 2``) over the same
  entries, query words OR'ed, ranked by ``bm25()``; returns every match.
- **fts5-porter**: the same with the Porter stemmer.
- **memrepo**: :func:`memrepo_lexical` by default (``memrepo recall``'s own
  path, :func:`memrepo.engine.read.coldrecall.recall`); ``--memrepo MODULE:FUNC``
  points it at another entry point.
- **memrepo --all**: the same ranking with no confidence minimum (what the
  ranking alone finds: every hit counted, the marked ones too; left out with ``--no-baseline``).
- more systems with ``--system NAME=MODULE:FUNC`` (hybrid recall, for one;
  :func:`memrepo_related` is ``memrepo recall`` with its nearest entries).

A system is a function ``fn(root: Path, query: str, limit: int)`` returning
its hits best first, each with ``path`` and ``line`` (attributes, dict keys,
or a ``(path, line)`` tuple). A hit may also say it is no answer, only one of
the nearest entries given when nothing answers confidently: ``answer`` False
(an attribute or dict key, or a third tuple item ``(path, line, False)``);
without it a hit is an answer. It may build what it needs on its first call
for a repo (each repo gets one untimed warm-up call).

Measures, per split (``tune``: repo A's tuning queries; ``heldout``: repo A's
held-out queries and all of repo B's; ``c-tune`` and ``c-heldout``: repo C's; ``d-heldout``:
repo D's, which has no tuning split; written blind and held out through round 3, it is a tuning
split from round 4 on, its name kept; ``e-heldout`` and ``f-heldout``: repos E and F, written
blind, held out whole, never tuned on; ``g-tune``: repo G's, the small repo tuned on; ``h-heldout``:
repo H's, written blind, held out whole, never tuned on; ``m-heldout``: repo M's, written blind by helper blind20
on 2026-12-07, held out whole, never tuned on; ``k-tune``: repo K's, the scripts tuning set; ``t-tune``: task-style prompts over repo A
(the prompt hook's case: an instruction with a sentence of context; a tuning split); ``l-tune``:
repo L's, a tuning split;
``all``: every split) and per query kind:

- **hit@1, hit@5**: a gold entry at rank 1 / in the top 5. For ``multi``
  queries (several entries needed) hit@k is the share of the needed entries
  in the top k (max(k, needed) for hit@1, so a perfect answer scores 1).
- **MRR**: 1 / rank of the first gold entry (0 when none in the top 10).
- **answered**: share of queries that got any answer (marked nearest entries not counted).
- **no-answer precision** (``none`` queries, ``no-ans``): share with no confident
  answer (no hit, or only nearest entries marked as not an answer).

The columns above count answers only, so a system that marks its nearest
entries scores there as it would without them. Beside them:

- **hit@5+n**: hit@5 counting the marked nearest entries too (what a reader
  of the whole list finds); **any**: share of queries that got any hit, marked or not.
- **empty** (``none`` queries): share that got nothing at all, marked or not.
- **stale above**: queries whose superseded line ranks above the current one (or is shown without it).

Usage:
    python benchmarks/bench_recall_quality.py
        [--split tune|heldout|c-tune|c-heldout|d-heldout|e-heldout|f-heldout|g-tune|h-heldout|m-heldout|k-tune|t-tune|l-tune|all]
        [--json OUT]
        [--memrepo MODULE:FUNC] [--system NAME=MODULE:FUNC ...] [--show-misses]
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "recall_quality"))

import dataset  # noqa: E402

LIMIT = 10
"""Hits asked of every system (MRR looks this deep)."""

REPOS = {
    "a": "repo_a.txt",
    "b": "repo_b.txt",
    "c": "repo_c.txt",
    "d": "repo_d.txt",
    "e": "repo_e.txt",
    "f": "repo_f.txt",
    "g": "repo_g.txt",
    "h": "repo_h.txt",
    "k": "repo_k.txt",
    "l": "repo_l.txt",
    "m": "repo_m.txt",
}
SPLITS = {
    "tune": [("a", "queries_a_tune.txt")],
    "heldout": [("a", "queries_a_heldout.txt"), ("b", "queries_b_heldout.txt")],
    "c-tune": [("c", "queries_c_tune.txt")],
    "c-heldout": [("c", "queries_c_heldout.txt")],
    "d-heldout": [("d", "queries_d_heldout.txt")],
    "e-heldout": [("e", "queries_e_heldout.txt")],
    "f-heldout": [("f", "queries_f_heldout.txt")],
    "g-tune": [("g", "queries_g_tune.txt")],
    "h-heldout": [("h", "queries_h_heldout.txt")],
    "m-heldout": [("m", "queries_m_heldout.txt")],
    "k-tune": [("k", "queries_k_tune.txt")],
    "t-tune": [("a", "queries_t_tune.txt")],
    "l-tune": [("l", "queries_l_tune.txt")],
}
TAGS = ("superseded", "cjk", "accent", "heading", "link", "neardup", "task")

System = Callable[[Path, str, int], Iterable[object]]


def memrepo_lexical(root: Path, query: str, limit: int) -> list[object]:
    """``memrepo recall QUERY -n LIMIT`` as the CLI runs it (:func:`memrepo.engine.read.coldrecall.recall`)."""
    from memrepo.engine.read import coldrecall

    return list(coldrecall.recall(root, query, limit=limit))


def memrepo_related(root: Path, query: str, limit: int) -> list[object]:
    """``memrepo recall QUERY -n LIMIT`` with its nearest entries (marked ``answer`` False) when none answers."""
    from memrepo.engine.read import coldrecall

    return list(coldrecall.recall(root, query, limit=limit, related=True))


def memrepo_all(root: Path, query: str, limit: int) -> list[object]:
    """``memrepo recall QUERY --all``: the same ranking with no confidence minimum (every match).

    Each hit counts as found, though ``--all`` marks the hits under the minimum ``answer`` False: this
    row measures the ranking alone (the ``memrepo`` row measures what answers).
    """
    from memrepo.engine.read import coldrecall

    return [(hit.path, hit.line) for hit in coldrecall.recall(root, query, limit=limit, min_confidence=0.0)]


class Fts5:
    """The baseline: every entry's text in an FTS5 table, query words OR'ed, ranked by bm25()."""

    def __init__(self, tokenize: str) -> None:
        self.tokenize = tokenize
        self.dbs: dict[Path, sqlite3.Connection] = {}

    def _db(self, root: Path) -> sqlite3.Connection:
        db = self.dbs.get(root)
        if db is None:
            db = sqlite3.connect(":memory:")
            db.execute(
                f"CREATE VIRTUAL TABLE e USING fts5(text, path UNINDEXED, line UNINDEXED, tokenize={self.tokenize!r})"
            )
            db.executemany(
                "INSERT INTO e(text, path, line) VALUES(?, ?, ?)", [(t, p, n) for p, n, t in dataset.entry_rows(root)]
            )
            self.dbs[root] = db
        return db

    def __call__(self, root: Path, query: str, limit: int) -> list[tuple[str, int]]:
        words = re.findall(r"\w+", query)
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', "") + '"' for w in words)
        rows = self._db(root).execute(
            "SELECT path, line FROM e WHERE e MATCH ? ORDER BY bm25(e) LIMIT ?", (match, limit)
        )
        return [(p, int(n)) for p, n in rows]


def load(spec: str) -> System:
    """``MODULE:FUNC`` imported (a module path, or a file path ending in .py)."""
    module_name, _, func = spec.partition(":")
    if module_name.endswith(".py"):
        sys.path.insert(0, str(Path(module_name).resolve().parent))
        module_name = Path(module_name).stem
    module = (
        sys.modules[__name__] if module_name in ("", "bench_recall_quality") else importlib.import_module(module_name)
    )
    return getattr(module, func)


def where(hit: object) -> tuple[str, int]:
    """A hit's ``(path, line)``, whatever shape the system gives it."""
    if isinstance(hit, tuple):
        return str(hit[0]), int(hit[1])
    if isinstance(hit, dict):
        return str(hit["path"]), int(hit["line"])
    return str(hit.path), int(hit.line)  # type: ignore[attr-defined]


def is_answer(hit: object) -> bool:
    """False for a hit marked as one of the nearest entries, not an answer (the hit protocol above)."""
    if isinstance(hit, tuple):
        return len(hit) < 3 or bool(hit[2])
    if isinstance(hit, dict):
        return bool(hit.get("answer", True))
    return bool(getattr(hit, "answer", True))


def judge(query: dataset.Query, ids: list[str | None], near: list[str | None] | None = None) -> dict[str, float]:
    """The measures of one query's ranked ids (None for a hit that is no labelled entry).

    Args:
        query: the labelled query.
        ids: the answers' ids, best first.
        near: every hit's ids, marked nearest entries too (None: ``ids``).
    """
    near = ids if near is None else near
    if query.kind == "none":
        return {"empty": float(not ids), "nothing": float(not near)}
    with_near = judge_ranks(query, near)
    return {**judge_ranks(query, ids), "hit5n": with_near["hit5"], "any": float(bool(near))}


def judge_ranks(query: dataset.Query, ids: list[str | None]) -> dict[str, float]:
    """hit@1, hit@5, MRR, answered and stale of an answerable query's ranked ids."""
    ranks = []
    for group in query.gold:
        rank = next((i for i, got in enumerate(ids) if got in group), None)
        ranks.append(rank)
    found = [r for r in ranks if r is not None]
    first = min(found) if found else None
    need = len(query.gold)
    if query.kind == "multi":
        hit1 = sum(1 for r in found if r < max(1, need)) / need
        hit5 = sum(1 for r in found if r < max(5, need)) / need
    else:
        hit1 = float(first == 0)
        hit5 = float(first is not None and first < 5)
    stale = 0.0
    for sid in query.stale:
        srank = next((i for i, got in enumerate(ids) if got == sid), None)
        if srank is not None and (first is None or srank < first):
            stale = 1.0
    return {
        "hit1": hit1,
        "hit5": hit5,
        "mrr": 0.0 if first is None else 1.0 / (first + 1),
        "answered": float(bool(ids)),
        "stale": stale,
    }


def run_system(
    fn: System,
    roots: dict[str, Path],
    labels: dict[str, dict[tuple[str, int], str]],
    queries: list[tuple[str, dataset.Query]],
) -> tuple[list[dict[str, float]], list[list[str | None]], list[float]]:
    """Every query through ``fn``: its measures, its ranked ids, its time (ms)."""
    for repo in sorted({r for r, _ in queries}):
        fn(roots[repo], "warm up", LIMIT)  # a first call may build an index or load a model
    results, ranked, times = [], [], []
    for repo, q in queries:
        start = time.perf_counter()
        hits = list(fn(roots[repo], q.text, LIMIT))[:LIMIT]
        times.append((time.perf_counter() - start) * 1000)
        every = [labels[repo].get(where(h)) for h in hits]
        ids = [got for got, h in zip(every, hits, strict=True) if is_answer(h)]
        ranked.append(ids)
        results.append(judge(q, ids, every))
    return results, ranked, times


def summarise(queries: list[tuple[str, dataset.Query]], results: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    """Mean measures per kind, per tag, and over all answerable queries."""
    groups: dict[str, list[int]] = {}
    for i, (_repo, q) in enumerate(queries):
        groups.setdefault(q.kind, []).append(i)
        if q.kind != "none":
            groups.setdefault("answerable", []).append(i)
        for tag in q.tags:
            if tag in TAGS:
                groups.setdefault(f"{tag}{'-none' if q.kind == 'none' else ''}", []).append(i)
    out: dict[str, dict[str, float]] = {}
    for name, members in groups.items():
        keys = results[members[0]].keys()
        out[name] = {k: round(statistics.fmean(results[i][k] for i in members), 3) for k in keys}
        out[name]["n"] = len(members)
    return out


def table(split: str, summary: dict[str, dict[str, dict[str, float]]], times: dict[str, list[float]]) -> str:
    """A plain-text table: one row per (group, system)."""
    order = ["paraphrase", "keyword", "multi", "answerable", "none", *TAGS]
    lines = [
        f"== split: {split} ==",
        f"{'group':<14}{'system':<16}{'n':>4}{'hit@1':>8}{'hit@5':>8}{'MRR':>8}{'answered':>10}{'stale':>7}"
        f"{'no-ans':>8}{'hit@5+n':>9}{'any':>7}{'empty':>7}",
    ]
    for group in order:
        for system, per in summary.items():
            row = per.get(group)
            if row is None:
                continue
            if "empty" in row:
                lines.append(
                    f"{group:<14}{system:<16}{row['n']:>4}{'':>8}{'':>8}{'':>8}{'':>10}{'':>7}{row['empty']:>8.3f}"
                    f"{'':>9}{'':>7}{row['nothing']:>7.3f}"
                )
            else:
                lines.append(
                    f"{group:<14}{system:<16}{row['n']:>4}{row['hit1']:>8.3f}{row['hit5']:>8.3f}{row['mrr']:>8.3f}"
                    f"{row['answered']:>10.3f}{row['stale']:>7.3f}{'':>8}{row['hit5n']:>9.3f}{row['any']:>7.3f}"
                )
        lines.append("")
    lines.append(
        "time per query (ms, median / p90): "
        + ", ".join(
            f"{s} {statistics.median(t):.1f} / {sorted(t)[int(0.9 * (len(t) - 1))]:.1f}" for s, t in times.items()
        )
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="all")
    parser.add_argument(
        "--memrepo", default="bench_recall_quality:memrepo_lexical", help="MODULE:FUNC of memrepo's recall"
    )
    parser.add_argument("--system", action="append", default=[], help="NAME=MODULE:FUNC, another system to compare")
    parser.add_argument("--no-baseline", action="store_true", help="skip the FTS5 baselines")
    parser.add_argument("--json", type=Path, help="write every measure here")
    parser.add_argument("--show-misses", action="store_true", help="print memrepo's misses and no-answer hits")
    parser.add_argument("--work", type=Path, help="build the repos here (kept) instead of a temporary folder")
    args = parser.parse_args()

    systems: dict[str, System] = {}
    if not args.no_baseline:
        systems["fts5-bm25"] = Fts5("unicode61 remove_diacritics 2")
        systems["fts5-porter"] = Fts5("porter unicode61 remove_diacritics 2")
    systems["memrepo"] = load(args.memrepo)
    if not args.no_baseline:
        systems["memrepo --all"] = memrepo_all
    for spec in args.system:
        name, _, target = spec.partition("=")
        systems[name] = load(target)

    with tempfile.TemporaryDirectory(prefix="recall-quality-") as tmp:
        work = args.work or Path(tmp)
        roots: dict[str, Path] = {}
        labels: dict[str, dict[tuple[str, int], str]] = {}
        wanted = {repo for split in SPLITS if args.split in ("all", split) for repo, _f in SPLITS[split]}
        for repo, name in REPOS.items():
            if repo not in wanted:
                continue
            roots[repo] = work / f"repo_{repo}"
            labels[repo] = dataset.built_repo(HERE / "recall_quality" / name, roots[repo])
        splits = list(SPLITS) if args.split == "all" else [args.split]
        report: dict[str, object] = {}
        for split in splits:
            queries = [
                (repo, q) for repo, f in SPLITS[split] for q in dataset.read_queries(HERE / "recall_quality" / f)
            ]
            summary: dict[str, dict[str, dict[str, float]]] = {}
            times: dict[str, list[float]] = {}
            for name, fn in systems.items():
                results, ranked, took = run_system(fn, roots, labels, queries)
                summary[name] = summarise(queries, results)
                times[name] = took
                if args.show_misses and name == "memrepo":
                    for (_repo, q), res, ids in zip(queries, results, ranked, strict=True):
                        if res.get("hit5", 1.0) < 1.0 or res.get("empty", 1.0) < 1.0 or res.get("stale"):
                            print(f"  miss [{q.kind}] {q.text!r} gold={[sorted(g) for g in q.gold]} got={ids[:5]}")
            print(table(split, summary, times))
            print()
            report[split] = {"summary": summary, "ms_median": {s: statistics.median(t) for s, t in times.items()}}
        if args.json:
            args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
