#!/usr/bin/env python3
"""Study: a semantic-only answer's floor relative to the query's own cosines, replayed leave-one-repo-out (rec11).

Hybrid recall answers a question no line holds confidently (no lexical answer) only when its best cosine reaches
``[semantic] answer_similarity`` (0.845, less a small repo's shift). rec10 counted 20 answerable questions of the
tuning splits under that floor (best cosine 0.823-0.844), 6 of them with the gold line first in the fused list. This
replays other rules on coverage_study's dump (``--save FILE`` there first), for the queries with no lexical answer
only, each rule's parameters chosen on the other repos (repo A's two splits held out together):

- ``floor``: one floor ``f`` (today's rule is f = 0.845);
- ``gap``: ``s1 >= lo`` and the best cosine stands ``g`` or more above the k-th (k = 2, 5 or 10);
- ``z``: ``s1 >= lo`` and the best cosine is ``z`` standard deviations or more above the mean of all entries';
- ``agree``: ``s1 >= lo`` and the best cosine's line is among the lexical list's first k (under the minimum).

"Right" = answerable hit@5 (the fused list when answered, nothing otherwise) + no-answer questions left empty.

    PYTHONPATH=.:benchmarks python benchmarks/coverage_study.py --save FILE   (the dump; about 8 minutes)
    PYTHONPATH=.:benchmarks python benchmarks/floor_study.py FILE [--cases]

Result (rec11, 2026-12-06, integration f51c54f, the seven tuning splits, 489 queries). The floor decides 188
queries (no lexical answer): 128 answerable, 20 of them under it (s1 0.823-0.844: A 6, C 1, D 3, E 9, K 1; 16 with
the gold line in the ungated fused top 5), and 60 with no answer, 24 over it (s1 0.846-0.904) and 36 under it
(0.795-0.844). The 20 answerable ones stand out from their neighbours no more than the no-answer ones under the
floor do: gap from the best cosine to the second 0.000-0.020 (no answer: 0.000-0.031), to the fifth 0.004-0.038
(0.004-0.057), z over all entries 1.94-3.30 (2.01-4.53). Leave-one-repo-out (held-out repo's right answers, base -> rule):

| rule | picks | A | C | D | E | G | K | mean gain per held-out repo | folds losing |
|---|---|---|---|---|---|---|---|---|---|
| one floor f | 0.82, 0.845, 0.85 | 146 -> 132 | 37 -> 36 | 56 -> 56 | 57 -> 57 | 27 -> 27 | 70 -> 70 | -2.67 | 2 |
| gap to the k-th | (0.815, 0.02, 2), (0.815, 0.04, 2), (0.82, 0.01, 10) | 146 -> 134 | 37 -> 37 | 56 -> 56 | 57 -> 57 | 27 -> 27 | 70 -> 70 | -2.33 | 2 |
| z over all entries | (0.815, 4.5), (0.815, 5.0) | 146 -> 146 | 37 -> 37 | 56 -> 56 | 57 -> 57 | 27 -> 27 | 70 -> 70 | -0.17 | 1 |
| lexical list agrees | (0.84, 1) | 146 -> 146 | 37 -> 37 | 56 -> 56 | 57 -> 57 | 27 -> 27 | 70 -> 70 | +0.00 | 0 |

None gains: a lower floor answers repo A's task prompts (no answer, s1 0.84-0.86) as often as it finds a
paraphrase, and the rules that guard it pick parameters that answer nothing new. The floor stays 0.845.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
from coverage_rules import REPO_OF  # noqa: E402

FLOOR = 0.845
"""Today's ``answer_similarity``."""

Row = dict[str, Any]
Rule = Callable[[Row], bool]


def shifted(row: Row) -> list[float]:
    """Every entry's cosine to the query, the small-repo shift added (comparable with the floor), best first."""
    raw = sorted(row["cos"].values(), reverse=True)
    shift = row["s1"] - raw[0]
    return [c + shift for c in raw]


def semantic_only(row: Row) -> bool:
    """Whether the query's answer is decided by the floor: no lexical answer, and not vetoed by answer type."""
    return not row["lexgate"] and (row["today"][1] or row["s1"] < FLOOR)


def right(row: Row, rule: Rule) -> float:
    q = row["q"]
    ids, answered = row["today"]
    if semantic_only(row):
        answered = rule(row)
    got = bench.judge(q, ids if answered else [])
    return got["empty"] if q.kind == "none" else got["hit5"]


def floor_rule(f: float) -> Rule:
    return lambda r: r["s1"] >= f


def gap_rule(lo: float, g: float, k: int) -> Rule:
    def rule(r: Row) -> bool:
        c = r["_c"]
        return r["s1"] >= FLOOR or (r["s1"] >= lo and c[0] - c[min(k, len(c)) - 1] >= g)

    return rule


def z_rule(lo: float, z: float) -> Rule:
    def rule(r: Row) -> bool:
        return r["s1"] >= FLOOR or (r["s1"] >= lo and r["_z"] >= z)

    return rule


def agree_rule(lo: float, k: int) -> Rule:
    def rule(r: Row) -> bool:
        if r["s1"] >= FLOOR:
            return True
        if r["s1"] < lo:
            return False
        best = max(r["cos"], key=r["cos"].get)
        return best in [h["iid"] for h in r["hits"][:k]]

    return rule


def loo(rows: list[Row], family: str, make: Callable[..., Rule], grid: list[tuple]) -> None:
    repos = sorted(set(REPO_OF.values()))
    today = floor_rule(FLOOR)
    base = {rp: sum(right(r, today) for r in rows if REPO_OF[r["split"]] == rp) for rp in repos}
    scored = {p: {rp: sum(right(r, make(*p)) for r in rows if REPO_OF[r["split"]] == rp) for rp in repos} for p in grid}
    gains, losing, picks = [], 0, []
    for held in repos:
        best = max(grid, key=lambda p: (sum(scored[p][rp] - base[rp] for rp in repos if rp != held), -grid.index(p)))
        picks.append(best)
        g = scored[best][held] - base[held]
        gains.append(g)
        losing += g < 0
    cells = " | ".join(f"{base[rp]:.0f} -> {scored[p][rp]:.0f}" for rp, p in zip(repos, picks, strict=True))
    print(f"| {family} | {sorted(set(picks))} | {cells} | {sum(gains) / len(gains):+.2f} | {losing} |")


def cases(rows: list[Row]) -> None:
    """The queries the floor decides, answerable first: s1, the gap to the 2nd/5th, z, gold first in the list."""
    for r in sorted((r for r in rows if semantic_only(r)), key=lambda r: (r["q"].kind == "none", -r["s1"])):
        c = r["_c"]
        ids, _answered = r["today"]
        gold = r["q"].kind != "none" and bench.judge(r["q"], ids)["hit5"] > 0
        print(
            f"{REPO_OF[r['split']]} {r['q'].kind:10} s1 {r['s1']:.3f} gap2 {c[0] - c[1]:.3f} gap5 {c[0] - c[4]:.3f}"
            f" z {r['_z']:.2f} gold@5 {int(gold)} | {r['q'].text[:70]}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dump", type=Path)
    parser.add_argument("--cases", action="store_true")
    args = parser.parse_args()
    rows = pickle.loads(args.dump.read_bytes())
    for r in rows:
        c = shifted(r)
        r["_c"] = c
        sd = statistics.pstdev(c) or 1.0
        r["_z"] = (c[0] - statistics.fmean(c)) / sd
    if args.cases:
        cases(rows)
    print("| rule | picks | A | C | D | E | G | K | mean gain per held-out repo | folds losing |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    loo(rows, "one floor f", floor_rule, [(f / 1000,) for f in range(815, 866, 5)])
    los = [x / 1000 for x in range(815, 846, 5)]
    loo(
        rows,
        "gap to the k-th",
        gap_rule,
        [(lo, g, k) for lo in los for g in (0.01, 0.02, 0.03, 0.04) for k in (2, 5, 10)],
    )
    loo(rows, "z over all entries", z_rule, [(lo, z) for lo in los for z in (3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0)])
    loo(rows, "lexical list agrees", agree_rule, [(lo, k) for lo in los for k in (1, 3, 5, 10)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
