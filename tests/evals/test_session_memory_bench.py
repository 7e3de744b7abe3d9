"""``benchmarks/bench_session_memory.py`` runs end to end and judges what the agent gets (issue 30, e2e9).

Three tuning scenarios go through the real hook commands (SessionStart, UserPromptSubmit, the checkpoint of
Stop and SessionEnd) in a subprocess against a fresh repo, so the benchmark cannot rot: a hook that stops
keeping "Remember that X", a block that stops showing it, or a prompt hook that starts answering a question
memory knows nothing about fails here. The judge's own rules (a replaced line marked as such is not current;
a label counts within one line) are checked on hand-made text.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_session_memory as bench


def scenario(sid: str) -> dict:
    return next(s for s in bench.load("tune") if s["id"] == sid)


def test_the_splits_load_and_every_scenario_is_labelled() -> None:
    scenarios = bench.load("all")
    assert {s["split"] for s in scenarios} == {
        "tune",
        "tune_corpus",
        "heldout",
        "heldout2",
        "heldout3",
        "heldout4",
        "heldout5",
        "heldout6",
        "heldout7",
        "heldout8",
        "heldout9",
        "heldout10",
    }
    assert len({s["id"] for s in scenarios}) == len(scenarios)
    for s in scenarios:
        assert s["checks"] and s["kind"], s["id"]
        for check in s["checks"]:
            for prompt in check.get("prompts", []):
                assert prompt.get("none") or prompt.get("has") or prompt.get("not"), (s["id"], prompt)


@pytest.mark.parametrize("split", ["all", "heldout10"])
def test_show_is_refused_for_a_held_out_split(
    split: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_args: object) -> None:
        raise AssertionError("a held-out split was loaded or run with --show")

    monkeypatch.setattr(bench, "load", never)
    monkeypatch.setattr(bench, "run_scenario", never)
    with pytest.raises(SystemExit) as done:
        bench.main(["--split", split, "--show"])
    assert done.value.code == 2
    assert "--show is refused" in capsys.readouterr().err


def test_the_spent_splits_are_tuning_data_and_fit_and_aside_split_them_in_thirds() -> None:
    spent = bench.load("spent")
    assert {s["split"] for s in spent} == {f"heldout{n}" for n in ("", 2, 3, 4, 5, 6, 7, 8, 9)}
    fit, aside = bench.load("fit"), bench.load("aside")
    assert not {s["id"] for s in fit} & {s["id"] for s in aside}
    assert len(fit) + len(aside) == len(bench.load("tune")) + len(bench.load("tune_corpus")) + len(spent)
    assert all(bench.aside(s["id"]) for s in aside) and not any(bench.aside(s["id"]) for s in fit)


def test_tune_corpus_repeats_each_fresh_repo_correction_and_chain_from_the_noise_repo() -> None:
    spent = {s["id"]: s for s in bench.load("spent")}
    variants = bench.load("tune_corpus")
    fresh = [s for s in spent.values() if s["kind"] in ("correction", "chain") and not s.get("corpus")]
    assert sorted(v["variant_of"] for v in variants) == sorted(s["id"] for s in fresh)
    for v in variants:
        old = spent[v["variant_of"]]
        assert v["corpus"] is True and v["id"] == f"cx-{old['id']}"
        assert {k: x for k, x in v.items() if k not in ("id", "corpus", "variant_of", "split")} == {
            k: x for k, x in old.items() if k not in ("id", "corpus", "split")
        }


def test_a_scenario_needing_the_noise_repo_stops_when_make_corpus_is_missing(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"make_corpus\.py not found"):
        bench.noise_corpus(tmp_path, tmp_path / "missing.py")


def test_a_remembered_fact_reaches_the_next_sessions_block_and_prompt_and_a_no_answer_gets_nothing() -> None:
    result = bench.run_scenario(scenario("t-fact-shop"), None)
    [check] = result["checks"]
    assert check["block"] == "right", check
    assert [p["verdict"] for p in check["prompts"]] == ["right", "empty"], check["prompts"]
    assert any("Thursday afternoon" in line and "by: user" in line for line in result["stored"])


def test_a_pasted_secret_is_never_stored_and_the_rest_of_the_request_is() -> None:
    result = bench.run_scenario(scenario("t-secret-stripe"), None)
    [check] = result["checks"]
    assert check["leaked"] == [] and check["stale"] == [], check
    assert check["block"] == "right"


def test_a_replaced_pin_is_current_only_when_unmarked() -> None:
    check = {"project": "p", "block": {"has": ["fast tests"], "not": ["full test suite"]}, "prompts": []}
    marked = "L5 Always run the full test suite (an agent line since says: L6)\nL6 Run only the fast tests"
    assert bench.judge(check, marked, [], [])["block"] == "right"
    unmarked = "L5 Always run the full test suite\nL6 Run only the fast tests"
    assert bench.judge(check, unmarked, [], [])["block"] == "wrong"
    assert bench.judge(check, "L5 Always run the full test suite", [], [])["block"] == "wrong"
    assert bench.judge(check, "L9 nothing", [], [])["block"] == "missed"
    stored = {"project": "p", "block": {}, "stored_not": ["Zq8"], "prompts": [{"prompt": "q?", "none": True}]}
    judged = bench.judge(stored, "", ["repo:me.md#L5 (user): x"], ["- pw Zq8 [by: user]"])
    assert judged["block"] == "wrong" and judged["prompts"][0]["verdict"] == "not-empty"
