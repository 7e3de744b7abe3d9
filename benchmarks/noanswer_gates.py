#!/usr/bin/env python3
"""Replay no-answer gate rules on :mod:`noanswer_study`'s rows, leave-one-repo-out (docs/architecture.md §4).

Each rule decides from a query's signals whether recall answers at all (a
rule that says no leaves the query empty: no-answer questions count as right,
answerable ones as missed). For each tuning repo in turn, every rule's
thresholds are chosen on the other three (the most no-answer questions left
empty, on their mean, with no paraphrase hit@5 lost on any of the three against
today's gate), then measured on the repo left out. The sums of the left-out
measures are the honest estimate; the thresholds picked in each fold show how
stable a rule is. ``--lexical`` replays the lexical system instead (a rule can
only take answers away from today's lexical recall there).

Usage: ``python benchmarks/noanswer_gates.py ROWS.json [--lexical]``
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

Row = dict[str, Any]
Gate = Callable[[Row], bool]


def _grid(lo: float, hi: float, step: float) -> list[float]:
    return [round(lo + i * step, 4) for i in range(round((hi - lo) / step) + 1)]


C = _grid(0.0, 0.8, 0.02)
T = _grid(0.80, 0.92, 0.0025)
U = _grid(0.78, 0.92, 0.0025)
V = _grid(0.0, 0.08, 0.005)

RULES: dict[str, tuple[Callable[..., Gate], list[list[float]]]] = {
    "today (lexical answer or s1 >= 0.845)": (lambda: lambda r: r["today"], []),
    "lex >= c or s1 >= t": (lambda c, t: lambda r: r["lex"] >= c or r["s1"] + r["shift"] >= t, [C, T]),
    "focus >= c or s1 >= t": (lambda c, t: lambda r: r["focus"] >= c or r["s1"] + r["shift"] >= t, [C, T]),
    "lexans and focus >= c, or s1 >= t": (
        lambda c, t: lambda r: (r["lexans"] and r["focus"] >= c) or r["s1"] + r["shift"] >= t,
        [C, T],
    ),
    "lex >= c or m1 >= u": (lambda c, u: lambda r: r["lex"] >= c or r["m1"] + r["shift"] >= u, [C, U]),
    "focus >= c or m1 >= u": (lambda c, u: lambda r: r["focus"] >= c or r["m1"] + r["shift"] >= u, [C, U]),
    "focus >= c or mtop >= u": (lambda c, u: lambda r: r["focus"] >= c or r["mtop"] + r["shift"] >= u, [C, U]),
    "lex >= c or (s1 >= 0.845 and mloss <= v)": (
        lambda c, v: lambda r: r["lex"] >= c or (r["s1"] + r["shift"] >= 0.845 and r["mloss"] <= v),
        [C, V],
    ),
    "today and mloss <= v": (lambda v: lambda r: r["today"] and r["mloss"] <= v, [V]),
}
"""name -> (make a gate from its thresholds, each threshold's grid)."""

LEX_RULES: dict[str, tuple[Callable[..., Gate], list[list[float]]]] = {
    "today (lexical answer)": (lambda: lambda r: r["lexans"], []),
    "lexical answer and focus >= c": (lambda c: lambda r: r["lexans"] and r["focus"] >= c, [C]),
    "lexical answer and lex >= c": (lambda c: lambda r: r["lexans"] and r["lex"] >= c, [C]),
}


def measure(rows: list[Row], gate: Gate, hit: str) -> tuple[float, float, float, int, int, int]:
    """(no-answer empty, answerable hit@5, paraphrase hit@5, and the three counts) of ``rows`` under ``gate``."""
    none = [not gate(r) for r in rows if r["kind"] == "none"]
    ans = [r[hit] if gate(r) else 0.0 for r in rows if r["kind"] != "none"]
    para = [r[hit] if gate(r) else 0.0 for r in rows if r["kind"] == "paraphrase"]

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs) if xs else math.nan

    return mean([float(x) for x in none]), mean(ans), mean(para), len(none), len(ans), len(para)


def choose(
    rows: list[Row], repos: list[str], make: Callable[..., Gate], grids: list[list[float]], base: Gate, hit: str
) -> tuple[float, ...] | None:
    """The thresholds with the most no-answer questions left empty (mean over ``repos``), no paraphrase lost on any."""
    floor = {s: measure([r for r in rows if r["split"] == s], base, hit)[2] for s in repos}
    best: tuple[float, float, tuple[float, ...]] | None = None
    for params in itertools.product(*grids):
        gate = make(*params)
        got = [measure([r for r in rows if r["split"] == s], gate, hit) for s in repos]
        if any(g[2] < floor[s] - 1e-9 for g, s in zip(got, repos, strict=True)):
            continue
        empty = sum(g[0] for g in got) / len(got)
        kept = sum(g[1] for g in got) / len(got)
        if best is None or (empty, kept) > (best[0], best[1]):
            best = (empty, kept, params)
    return None if best is None else best[2]


SIGNALS = ("lex", "focus", "s1", "m1", "mtop", "m5", "mm5", "mloss", "z", "mz", "bgz", "bgmax", "mbgz")
"""The signals whose AUC is printed (cosines with the small-repo shift added back)."""


def auc_table(rows: list[Row]) -> None:
    """Print each signal's AUC, answerable against no-answer and paraphrase against no-answer, per split."""

    def auc(pos: list[float], neg: list[float]) -> float:
        wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
        return wins / (len(pos) * len(neg)) if pos and neg else math.nan

    def value(r: Row, key: str) -> float:
        return float(r[key]) + (r["shift"] if key in ("s1", "m1", "mtop", "m5", "mm5") else 0.0)

    print("AUC (1: every answerable query above every no-answer one; 0.5: none), answerable | paraphrase")
    print(f"{'split':<11}" + "".join(f"{k:>12}" for k in SIGNALS))
    for split in ["all", *sorted({r["split"] for r in rows})]:
        mine = [r for r in rows if split in ("all", r["split"])]
        neg = [r for r in mine if r["kind"] == "none"]
        cells = []
        for key in SIGNALS:
            a = auc([value(r, key) for r in mine if r["kind"] != "none"], [value(r, key) for r in neg])
            b = auc([value(r, key) for r in mine if r["kind"] == "paraphrase"], [value(r, key) for r in neg])
            cells.append(f"{a:.2f}|{b:.2f}")
        print(f"{split:<11}" + "".join(f"{c:>12}" for c in cells))


FEATURES = ("lex", "focus", "s1", "m1", "mtop", "mloss", "z", "mz")
"""The logistic model's inputs (cosines with the small-repo shift added back)."""
SHIFTED = ("s1", "m1", "mtop")


def _x(rows: list[Row]) -> Any:
    import numpy as np

    return np.array([[r[k] + (r["shift"] if k in SHIFTED else 0.0) for k in FEATURES] for r in rows], dtype=float)


def fit_logistic(rows: list[Row], l2: float = 1.0, steps: int = 3000) -> Callable[[Row], float]:
    """A logistic model of "answerable" over :data:`FEATURES`, classes weighted to balance, standardised inputs."""
    import numpy as np

    x = _x(rows)
    y = np.array([r["kind"] != "none" for r in rows], dtype=float)
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mu) / sd
    w8 = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    coef, bias = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ coef + bias)))
        g = w8 * (p - y)
        coef -= 0.1 * (z.T @ g / len(y) + l2 * coef / len(y))
        bias -= 0.1 * g.mean()

    def prob(r: Row) -> float:
        v = (_x([r])[0] - mu) / sd
        return float(1 / (1 + np.exp(-(v @ coef + bias))))

    return prob


TARGET = 0.8
"""The issue's share of no-answer questions to leave empty."""


def at_least(t: float) -> Gate:
    """The gate ``p >= t`` on the logistic model's probability."""
    return lambda r: bool(r["p"] >= t)


P = _grid(0.02, 0.98, 0.02)


def choose_target(
    rows: list[Row], repos: list[str], make: Callable[..., Gate], grids: list[list[float]], hit: str, target: float
) -> tuple[float, ...] | None:
    """The thresholds that leave ``target`` of no-answer questions empty on each of ``repos`` keeping most hits."""
    best: tuple[float, tuple[float, ...]] | None = None
    for params in itertools.product(*grids):
        gate = make(*params)
        got = [measure([r for r in rows if r["split"] == s], gate, hit) for s in repos]
        if any(g[0] < target - 1e-9 for g in got):
            continue
        kept = sum(g[1] + g[2] for g in got)
        if best is None or kept > best[0]:
            best = (kept, params)
    return None if best is None else best[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rows", type=Path)
    parser.add_argument("--lexical", action="store_true", help="replay the lexical system's rules")
    args = parser.parse_args()
    rows: list[Row] = json.loads(args.rows.read_text())
    splits = sorted({r["split"] for r in rows})
    rules, hit = (LEX_RULES, "lexhit5") if args.lexical else (RULES, "hit5")
    base = next(iter(rules.values()))[0]()
    if not args.lexical:
        auc_table(rows)
    print("per split, left out: no-answer empty / answerable hit@5 / paraphrase hit@5 (thresholds picked on the rest)")
    for name, (make, grids) in rules.items():
        print(f"{name}")
        for held in splits:
            rest = [s for s in splits if s != held]
            params = choose(rows, rest, make, grids, base, hit) if grids else ()
            mine = [r for r in rows if r["split"] == held]
            was = measure(mine, base, hit)
            if params is None:
                print(f"  {held:<10} no thresholds keep every paraphrase on the rest")
                continue
            got = measure(mine, make(*params), hit)
            print(
                f"  {held:<10} empty {was[0]:.2f} -> {got[0]:.2f}  answerable {was[1]:.2f} -> {got[1]:.2f}  "
                f"paraphrase {was[2]:.2f} -> {got[2]:.2f}  (n {got[3]}/{got[4]}/{got[5]}) at {params}"
            )
            aim = choose_target(rows, rest, make, grids, hit, TARGET) if grids else None
            if aim is not None:
                got = measure(mine, make(*aim), hit)
                print(
                    f"  {'':<10} {TARGET:.2f} empty on the rest: empty {got[0]:.2f}  answerable {got[1]:.2f}  "
                    f"paraphrase {got[2]:.2f} at {aim}"
                )
    if not args.lexical:
        print("logistic over " + ", ".join(FEATURES) + " (fitted on the other repos), p >= th")
        for held in splits:
            rest = [s for s in splits if s != held]
            prob = fit_logistic([r for r in rows if r["split"] in rest])
            for row in rows:
                row["p"] = prob(row)
            th = choose(rows, rest, at_least, [P], base, hit)
            mine = [r for r in rows if r["split"] == held]
            was = measure(mine, base, hit)
            got = measure(mine, at_least(th[0]) if th else base, hit)
            print(
                f"  {held:<10} empty {was[0]:.2f} -> {got[0]:.2f}  answerable {was[1]:.2f} -> {got[1]:.2f}  "
                f"paraphrase {was[2]:.2f} -> {got[2]:.2f}  at {th}"
            )
            for t in (0.3, 0.4, 0.5, 0.6, 0.7):
                got = measure(mine, at_least(t), hit)
                print(f"      p >= {t}: empty {got[0]:.2f} answerable {got[1]:.2f} paraphrase {got[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
