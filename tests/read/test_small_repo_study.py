"""Round 19's recall studies (docs/benchmarks.md, "Round 19") draw only on tuning data and replay their rules as named.

No recall system runs here: the studies' data helpers and rule replays only (in process, no model).
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH / "recall_quality"))
sys.path.insert(0, str(BENCH))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402
import meaning_only_study  # noqa: E402
import small_repo_study  # noqa: E402

HELD_OUT = {"heldout", "c-heldout", "f-heldout", "h-heldout"}


def test_the_studies_tuning_splits_leave_out_every_held_out_and_blind_split() -> None:
    assert set(meaning_only_study.TUNING) <= set(bench.SPLITS)
    assert not set(meaning_only_study.TUNING) & HELD_OUT


def test_the_small_repos_are_drawn_from_tuning_repos_asked_their_tuning_queries_only() -> None:
    tuning_pairs = {pair for split in meaning_only_study.TUNING for pair in bench.SPLITS[split]}
    held_pairs = {pair for split in HELD_OUT for pair in bench.SPLITS[split]}
    for source, qfiles in small_repo_study.SOURCES.items():
        for qfile in qfiles:
            assert (source, qfile) in tuning_pairs
            assert (source, qfile) not in held_pairs
    assert not {"b", "f", "h"} & set(small_repo_study.SOURCES)


def test_a_small_repo_is_size_entries_in_write_order_the_same_for_a_seed() -> None:
    spec = dataset.read_repo(BENCH / "recall_quality" / "repo_c.txt")
    small = small_repo_study.small_spec(spec, 22, 1)
    order = [e.id for e in spec.entries]
    got = [e.id for e in small.entries]
    assert len(got) == 22
    assert got == sorted(got, key=order.index)
    assert got == [e.id for e in small_repo_study.small_spec(spec, 22, 1).entries]
    assert got != [e.id for e in small_repo_study.small_spec(spec, 22, 2).entries]
    assert not small.raw_files


def _row(**kw: object) -> dict[str, object]:
    base: dict[str, object] = {
        "kind": "paraphrase",
        "n": 24,
        "floor": 0.814,
        "lexical": False,
        "sem_top": 0.820,
        "shared": 0,
        "answered": True,
        "judged": {"hit5": 1.0},
    }
    return {**base, **kw}


def test_the_meaning_only_rule_drops_only_an_answer_by_meaning_alone_with_no_stem_in_common() -> None:
    dropped = meaning_only_study.dropped
    assert dropped(_row(), 0.01, True)
    assert not dropped(_row(sem_top=0.830), 0.01, True)  # over the floor by the margin
    assert not dropped(_row(shared=1), 0.01, True)  # a stem in common
    assert not dropped(_row(lexical=True), 0.01, True)  # lexical recall answered
    assert not dropped(_row(answered=False), 0.01, True)  # nothing to drop
    assert not dropped(_row(n=185), 0.01, True)  # a large repo, the rule for small ones
    assert dropped(_row(n=185), 0.01, False)


def test_the_meaning_only_score_counts_a_dropped_answer_as_empty_and_as_a_miss() -> None:
    rows = [_row(), _row(kind="none", judged=None), _row(kind="none", judged=None, answered=False)]
    assert meaning_only_study.score(rows, None, True) == (0.5, 1.0, 2, 1)
    assert meaning_only_study.score(rows, 0.01, True) == (1.0, 0.0, 2, 1)


def test_the_small_repo_rules_drop_only_answers_by_meaning_alone() -> None:
    alone = {"kind": "none", "hyb": True, "lexical": False, "sem_top": 0.82, "floor": 0.814, "z": 1.6, "zbar": 1.9}
    backed = {**alone, "lexical": True}
    gold = {**alone, "kind": "answerable", "hyb_hit5": 1.0, "z": 2.4}
    rows = [alone, backed, gold]
    assert small_repo_study.measure(rows, "today", 0.0) == (0.0, 1.0, 2, 1)
    assert small_repo_study.measure(rows, "z", 2.0) == (0.5, 1.0, 2, 1)  # the wrong one alone
    assert small_repo_study.measure(rows, "z", 2.5) == (0.5, 0.0, 2, 1)
    assert small_repo_study.measure(rows, "margin", 0.01) == (0.5, 0.0, 2, 1)
