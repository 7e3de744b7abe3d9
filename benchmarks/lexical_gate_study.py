#!/usr/bin/env python3
"""Study: the lexical confidence minimum's frontier on the tuning splits (docs/architecture.md §4).

Builds the labelled repos of ``bench_recall_quality.py`` and runs every query
of the chosen splits (the tuning splits by default: ``tune``, ``c-tune`` and
``d-heldout``, repo D being a tuning repo since round 4; never pass the
held-out splits while choosing) through lexical recall
(:meth:`memrepo.engine.read.recall.RecallIndex.search`, the rule
``memrepo recall`` and the prompt hook answer with) at each confidence
minimum of a grid. For each minimum it prints, per split, paraphrase hit@5,
all answerable hit@5, keyword hit@5, CJK hit@5 and the share of no-answer
questions left empty, then the worst split's balanced score
``(paraphrase hit@5 + no-answer empty) / 2`` (the rule is chosen to
maximise it, keyword hit@5 1.00 and CJK hit@5 not below main's) and the
mean over the splits.

``--no-filler`` counts every query term in the confidence, as before round 4
(:func:`memrepo.engine.read.recallrank.confidence_weights` made the identity),
to compare the two formulas on the same grid.

Usage:
    python benchmarks/lexical_gate_study.py [--split tune,c-tune,d-heldout] [--work DIR] [--no-filler]
        [--grid 0.20:0.46:0.01]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402

TUNING = ("tune", "c-tune", "d-heldout")


def measure(roots: dict, labels: dict, split: str, minimum: float, indexes: dict) -> dict[str, float]:
    """Paraphrase, answerable, keyword and CJK hit@5, and no-answer empty, of one split at one minimum."""
    per: dict[str, list[float]] = {"paraphrase": [], "answerable": [], "keyword": [], "cjk": [], "none": []}
    for repo, name in bench.SPLITS[split]:
        index = indexes[repo]
        for q in dataset.read_queries(HERE / "recall_quality" / name):
            found = index.search(q.text, limit=bench.LIMIT, min_confidence=minimum)
            ids = [labels[repo].get(tuple(index.row(iid)[:2])) for iid, _key in found]
            got = bench.judge(q, ids)
            if q.kind == "none":
                per["none"].append(got["empty"])
                continue
            per["answerable"].append(got["hit5"])
            if q.kind in ("paraphrase", "keyword"):
                per[q.kind].append(got["hit5"])
            if "cjk" in q.tags:
                per["cjk"].append(got["hit5"])
    return {k: statistics.fmean(v) if v else float("nan") for k, v in per.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default=",".join(TUNING))
    parser.add_argument("--work", type=Path, help="build the repos here (kept) instead of a temporary folder")
    parser.add_argument("--no-filler", action="store_true", help="count filler words in the confidence (before)")
    parser.add_argument("--grid", default="0.20:0.46:0.01", help="FROM:TO:STEP of confidence minima")
    args = parser.parse_args()
    if args.no_filler:
        from memrepo.engine.read import recallrank

        recallrank.confidence_weights = lambda weights: weights  # type: ignore[assignment]
    from memrepo.engine.read.recall import RecallIndex

    lo, hi, step = (float(x) for x in args.grid.split(":"))
    grid = [round(lo + i * step, 4) for i in range(round((hi - lo) / step) + 1)]
    splits = args.split.split(",")
    with tempfile.TemporaryDirectory(prefix="lexical-gate-") as tmp:
        work = args.work or Path(tmp)
        roots, labels, indexes = {}, {}, {}
        for repo in sorted({r for s in splits for r, _f in bench.SPLITS[s]}):
            roots[repo] = work / f"repo_{repo}"
            labels[repo] = dataset.built_repo(HERE / "recall_quality" / bench.REPOS[repo], roots[repo])
            indexes[repo] = RecallIndex(roots[repo])
            indexes[repo].sync()
        for minimum in grid:
            got = {s: measure(roots, labels, s, minimum, indexes) for s in splits}
            balanced = [(g["paraphrase"] + g["none"]) / 2 for g in got.values()]
            cells = "  ".join(
                f"{s}: para {g['paraphrase']:.3f} ans {g['answerable']:.3f} kw {g['keyword']:.2f} "
                f"cjk {g['cjk']:.2f} none {g['none']:.3f}"
                for s, g in got.items()
            )
            print(f"min {minimum:.2f}  worst {min(balanced):.3f}  mean {statistics.fmean(balanced):.3f}  |  {cells}")
        for index in indexes.values():
            index.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
