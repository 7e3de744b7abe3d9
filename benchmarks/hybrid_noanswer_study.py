#!/usr/bin/env python3
"""Study: why hybrid recall answers no-answer questions lexical recall leaves empty (rec14, issue 30).

For each query of the tuning splits (never the blind or held-out ones) it prints, per query kind, what the answer's
gate of :meth:`memrepo.engine.read.semantic_fuse.SemanticRecall.fuse` reads: whether lexical recall answers
(``found``), the best lexical confidence of the pool, the best semantic neighbour's cosine, the floor it was held
to (``answer_similarity`` less the small-repo shift), and whether the best neighbour holds what is asked
(:func:`memrepo.engine.read.recallasked.holds_asked`) and is in the lexical pool. ``--csv`` writes one row per query.

Usage (from the repository root, ``PYTHONPATH=.:benchmarks``):
    python benchmarks/hybrid_noanswer_study.py [--split tune ...] [--kind none] [--csv OUT]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "recall_quality"))
sys.path.insert(0, str(HERE))

import dataset  # noqa: E402
from _common import write_csv  # noqa: E402
from bench_recall_quality import REPOS, SPLITS  # noqa: E402

TUNING = ("tune", "c-tune", "d-heldout", "e-heldout", "g-tune", "k-tune", "t-tune")
"""The splits tuned on (docs/benchmarks.md): never the blind or held-out ones."""


def rows_for(split: str, work: Path, kinds: set[str]) -> list[dict[str, object]]:
    """One row per query of ``split`` of the kinds asked."""
    import semantic_systems

    from memrepo.engine.configpath import size_shift
    from memrepo.engine.read.recallasked import holds_asked
    from memrepo.engine.read.recallnear import answers_only

    out = []
    for repo, qfile in SPLITS[split]:
        root = work / f"repo_{repo}"
        labels = dataset.built_repo(HERE / "recall_quality" / REPOS[repo], root)
        index, sem = semantic_systems._ready(root)
        store = sem._vectors()
        _have, total = store.counts()
        shift = size_shift(total, sem.settings.size_slope)
        for q in dataset.read_queries(HERE / "recall_quality" / qfile):
            if q.kind not in kinds and not (kinds == {"answerable"} and q.kind != "none"):
                continue
            lexical = index.search(q.text, limit=20)
            gate, _lowered = answers_only(lexical)
            pool = index.search(q.text, limit=20, min_confidence=0.0)
            qvec = sem.embedder.embed([q.text], query=True)[0]
            every = store.nearest(qvec, 100_000, -1.0)
            near = every[:20]
            sims = [sim for _iid, sim in every]
            mean = sum(sims) / len(sims)
            std = (sum((x - mean) ** 2 for x in sims) / len(sims)) ** 0.5
            top_id, top_sim = near[0] if near else (None, 0.0)
            second = near[1][1] if len(near) > 1 else 0.0
            row = index.row(top_id) if top_id is not None else None
            pool_ids = [iid for iid, _k in pool]
            hits = semantic_systems.hybrid(root, q.text, 10)
            gold = {g for group in q.gold for g in group}
            top_label = labels.get(tuple(row[:2])) if row else None
            out.append(
                {
                    "split": split,
                    "kind": q.kind,
                    "query": q.text,
                    "lex_answers": len(gate),
                    "pool_conf": round(float(pool[0][1][1]), 3) if pool else 0.0,
                    "sem_top": round(float(top_sim), 3),
                    "sem_gap": round(float(top_sim - second), 3),
                    "sem_mean": round(mean, 3),
                    "sem_z": round((top_sim - mean) / std, 2) if std else 0.0,
                    "floor": round(sem.settings.answer_similarity - shift, 3),
                    "shift": round(shift, 3),
                    "n": total,
                    "top_in_pool": pool_ids.index(top_id) + 1 if top_id in pool_ids else 0,
                    "top_holds_asked": bool(row) and holds_asked(q.text, row[3]),
                    "top_gold": top_label in gold if gold else None,
                    "top_text": (row[3] if row else "")[:80],
                    "hybrid_answers": len(hits),
                    "hybrid_gold_rank": next((i + 1 for i, h in enumerate(hits) if labels.get(tuple(h)) in gold), 0),
                }
            )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", action="append", choices=TUNING)
    parser.add_argument("--kind", default="none", help="none, answerable, or a query kind")
    parser.add_argument("--csv", type=Path)
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    kinds = {args.kind}
    with tempfile.TemporaryDirectory(prefix="hybrid-noanswer-") as tmp:
        work = args.work or Path(tmp)
        rows: list[dict[str, object]] = []
        for split in args.split or TUNING:
            rows += rows_for(split, work, kinds)
    for r in rows:
        print(
            f"{r['split']:9} lex={r['lex_answers']:2} conf={r['pool_conf']:.2f} sem={r['sem_top']:.3f}"
            f" gap={r['sem_gap']:.3f} mean={r['sem_mean']:.3f} z={r['sem_z']:.2f} floor={r['floor']:.3f} inpool={r['top_in_pool']:2} asked={r['top_holds_asked']!s:5}"
            f" gold={r['top_gold']!s:5} hyb={r['hybrid_answers']:2} {r['query']!r} -> {r['top_text']!r}"
        )
    if args.csv:
        write_csv(args.csv, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
