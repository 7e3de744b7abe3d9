#!/usr/bin/env python3
"""Study: a lower minimum for the prompt hook's short questions, leave-one-repo-out (breaker6 B6-6).

"what terraform version are we on" finds its lines at confidence 0.33, under the minimum of 0.38 (the only word of
the question memory holds besides "terraform" is in the answer; an unknown second word sinks it). Would a lower
minimum for short questions (at most ``LONG_TERMS`` counted terms, engine/read/recallnear.py) help the hook? For each
share ``r`` of the minimum (per script, as the ranking scales it) of a grid and each tuning split it counts, over the
short queries lexical recall leaves empty, the answerable ones that the hits reaching ``r x minimum`` (each alone, at
most the hook's 3) answer with a gold entry, those answered with none, and the no-answer ones given a hit (noise).
Leaving out one repo at a time, it picks the lowest ``r`` that adds no hit to a no-answer query of the other repos
and reports the left-out repo at it. Lexical only.

Usage (from the repository root; the tuning splits only, never a held-out one):
    PYTHONPATH=.:benchmarks python benchmarks/hook_short_study.py [--split t-tune,tune,c-tune,d-heldout,e-heldout,g-tune,k-tune]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402

TUNING = ("t-tune", "tune", "c-tune", "d-heldout", "e-heldout", "g-tune", "k-tune")
GRID = (0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 1.0)
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


def effect(row: dict, n0: float) -> str | None:
    """'gold', 'wrong' or 'noise' when the minimum times ``n0`` adds hits to this short query, else None."""
    from memrepo.engine.read.recallnear import LONG_TERMS

    if row["answered"] or row["n"] > LONG_TERMS or n0 >= 1.0:
        return None
    floor = row["minimum"] * n0
    got = [gold for conf, gold in row["hits"] if conf >= floor][:HOOK_HITS]
    if not got:
        return None
    return "noise" if row["none"] else "gold" if any(got) else "wrong"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default=",".join(TUNING))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hook-short-") as tmp:
        data = rows(args.split.split(","), Path(tmp))
    repos = sorted({r["repo"] for r in data})

    def count(n0: float, repo_set: set[str]) -> dict[str, int]:
        got = [effect(r, n0) for r in data if r["repo"] in repo_set]
        return {k: got.count(k) for k in ("gold", "wrong", "noise")}

    for n0 in GRID:
        cells = "  ".join(
            f"{repo}: {'+{gold} wrong {wrong} noise {noise}'.format(**count(n0, {repo}))}" for repo in repos
        )
        print(f"r {n0:.2f}  {cells}")
    for out in repos:
        train = set(repos) - {out}
        chosen = next((n0 for n0 in GRID if count(n0, train)["noise"] == 0), GRID[-1])
        held = count(chosen, {out})
        print(
            f"leave out {out}: r {chosen:.2f} -> {out} +{held['gold']} gold, {held['wrong']} wrong, {held['noise']} noise"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
