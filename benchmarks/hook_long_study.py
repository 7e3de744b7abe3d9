#!/usr/bin/env python3
"""Study: the prompt hook's long-prompt rule, leave-one-repo-out (engine/read/recallnear.py ``LONG_TERMS``).

A prompt of more than ``n0`` counted terms that nothing answers at the minimum gets the hits reaching
``minimum x n0 / n`` (each alone, at most the hook's 3). For each ``n0`` of a grid and each tuning split it
counts, over the queries lexical recall leaves empty, the answerable ones the rule answers with a gold entry
among the hits, those it answers with none, and the no-answer ones it adds a hit to (noise). Then, leaving out
one repo at a time, it picks the lowest ``n0`` that adds no hit to a no-answer query of the other repos and
reports the left-out repo at it. Lexical only (what the rule changes); the hook systems of
``bench_recall_quality.py`` measure the whole hook.

Usage (from the repository root; the tuning splits only, never a held-out one):
    PYTHONPATH=.:benchmarks python benchmarks/hook_long_study.py [--split t-tune,tune,c-tune,d-heldout,e-heldout,g-tune,k-tune]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402

TUNING = ("t-tune", "tune", "c-tune", "d-heldout", "e-heldout", "g-tune", "k-tune")
GRID = (4, 5, 6, 7, 8, 9)
HOOK_HITS = 3


def rows(splits: list[str], work: Path) -> list[dict]:
    """Per query: split, repo, kind, whether recall answered, the counted terms, the top hits' (confidence, gold)."""
    from memrepo.engine.read.recall import RecallIndex
    from memrepo.engine.read.recallrank import confidence_weights, query_index_terms

    out, indexes, labels = [], {}, {}
    for split in splits:
        for repo, name in bench.SPLITS[split]:
            if repo not in indexes:
                labels[repo] = dataset.built_repo(HERE / "recall_quality" / bench.REPOS[repo], work / f"repo_{repo}")
                indexes[repo] = RecallIndex(work / f"repo_{repo}")
                indexes[repo].sync()
            index = indexes[repo]
            for q in dataset.read_queries(HERE / "recall_quality" / name):
                found = index.search(q.text, limit=5, min_confidence=0.0)
                hits = []
                for iid, key in found:
                    lid = labels[repo].get(tuple(index.row(iid)[:2]))
                    hits.append((float(key[1]), any(lid in g for g in q.gold) if lid else False))
                terms = query_index_terms(q.text)[1]
                out.append(
                    {
                        "split": split,
                        "repo": repo,
                        "none": q.kind == "none",
                        "answered": bool(index.search(q.text, limit=5)),
                        "n": len(confidence_weights(dict.fromkeys(terms, 1.0))),
                        "minimum": found.minimum,
                        "hits": hits,
                    }
                )
    for index in indexes.values():
        index.close()
    return out


def effect(row: dict, n0: int) -> str | None:
    """'gold', 'wrong' or 'noise' when the rule at ``n0`` adds hits to this query, else None."""
    if row["answered"] or row["n"] <= n0:
        return None
    floor = row["minimum"] * n0 / row["n"]
    got = [gold for conf, gold in row["hits"] if conf >= floor][:HOOK_HITS]
    if not got:
        return None
    return "noise" if row["none"] else "gold" if any(got) else "wrong"


def leave_one_repo_out(
    effect_of: Callable[[dict, float], str | None], grid: tuple[float, ...], label: str, prefix: str, doc: str
) -> int:
    """Run a study: every repo's effect at each value of ``grid``, then, leaving out one repo at a time, the lowest
    value that adds no hit to a no-answer query of the others and the left-out repo's effect at it.

    Args:
        effect_of: what a value does to one query row ('gold', 'wrong', 'noise' or None).
        grid: the values, lowest first.
        label: how a value is printed (``"n0 {}"``, ``"r {:.2f}"``).
        prefix: the temporary folder's prefix.
        doc: the study's docstring (its first line is the command's description).

    Returns:
        int: the exit code, 0.
    """
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--split", default=",".join(TUNING))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        data = rows(args.split.split(","), Path(tmp))
    repos = sorted({r["repo"] for r in data})

    def count(n0: float, repo_set: set[str]) -> dict[str, int]:
        got = [effect_of(r, n0) for r in data if r["repo"] in repo_set]
        return {k: got.count(k) for k in ("gold", "wrong", "noise")}

    for n0 in grid:
        cells = "  ".join(
            f"{repo}: {'+{gold} wrong {wrong} noise {noise}'.format(**count(n0, {repo}))}" for repo in repos
        )
        print(f"{label.format(n0)}  {cells}")
    for out in repos:
        train = set(repos) - {out}
        chosen = next((n0 for n0 in grid if count(n0, train)["noise"] == 0), grid[-1])
        held = count(chosen, {out})
        print(
            f"leave out {out}: {label.format(chosen)} -> {out} +{held['gold']} gold, {held['wrong']} wrong, "
            f"{held['noise']} noise"
        )
    return 0


def main() -> int:
    return leave_one_repo_out(effect, GRID, "n0 {}", "hook-long-", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
