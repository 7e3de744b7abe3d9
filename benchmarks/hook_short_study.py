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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hook_long_study import HOOK_HITS, leave_one_repo_out  # the same rows and leave-one-out loop

GRID = (0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 1.0)


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
    return leave_one_repo_out(effect, GRID, "r {:.2f}", "hook-short-", __doc__ or "")


if __name__ == "__main__":
    raise SystemExit(main())
