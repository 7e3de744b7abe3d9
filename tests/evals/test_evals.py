"""The eval runner (docs/architecture.md §10): scoring, controls, the shipped cases, and ``memrepo eval``."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from memrepo.engine.errors import FormatError
from memrepo.evals.runner import (
    SHIPPED_DIR,
    EvalQuery,
    load_cases,
    parse_case,
    run_case,
    run_evals,
    score_query,
    shipped_cases,
)

PROJECT = Path(__file__).resolve().parents[2]


def _case(**over: object) -> dict:
    base: dict = {
        "name": "hand-made",
        "setup": [{"op": "remember", "text": "Prefers tabs over spaces TABMARK", "by": "user", "pin": True}],
        "query": [{"target": "context", "expect": ["TABMARK"], "forbid": ["SPACEMARK"]}],
        "control": [
            {
                "name": "a planted line",
                "extra_setup": [{"op": "remember", "text": "Loves SPACEMARK", "by": "user", "pin": True}],
            }
        ],
    }
    base.update(over)
    return base


def test_query_score_is_share_of_expected_hits_and_zero_on_any_forbidden_hit() -> None:
    q = EvalQuery(name="q", target="context", args={}, expect=("a", "b", "c", "d"), forbid=("x",))
    assert score_query(q, {"a": "here", "b": "here", "c": None, "d": None, "x": None}).score == 0.5
    assert score_query(q, {"a": "here", "b": "here", "c": "here", "d": "here", "x": None}).score == 1.0
    floored = score_query(q, {"a": "here", "b": "here", "c": "here", "d": "here", "x": "there"})
    assert floored.score == 0.0
    assert [(h.text, h.kind, h.found) for h in floored.hits][-1] == ("x", "forbidden", True)
    only_forbid = EvalQuery(name="q", target="context", args={}, forbid=("x",))
    assert score_query(only_forbid, {"x": None}).score == 1.0


def test_a_hand_made_case_scores_one_and_its_control_fires() -> None:
    result = run_case(parse_case(_case()))
    assert result.error is None
    assert result.score == 1.0
    assert [(h.text, h.found) for h in result.queries[0].hits] == [("TABMARK", True), ("SPACEMARK", False)]
    assert result.controls[0].fired and result.controls[0].hits[0].text == "SPACEMARK"


def test_a_case_whose_forbidden_text_appears_scores_zero() -> None:
    setup = [
        {"op": "remember", "text": "Prefers tabs over spaces TABMARK", "by": "user", "pin": True},
        {"op": "remember", "text": "Loves SPACEMARK", "by": "user", "pin": True},
    ]
    result = run_case(parse_case(_case(setup=setup)))
    assert result.error is None
    assert result.queries[0].score == 0.0
    assert result.score == 0.0
    assert any(h.kind == "forbidden" and h.found and h.where == "context block" for h in result.queries[0].hits)


def test_a_control_that_does_not_fire_zeroes_the_case() -> None:
    """A check that cannot fail proves nothing: its case scores 0 although every query scored 1."""
    case = _case(
        control=[
            {
                "name": "vacuous",
                "extra_setup": [{"op": "remember", "text": "Something unrelated entirely", "by": "user", "pin": True}],
            }
        ]
    )
    result = run_case(parse_case(case))
    assert [q.score for q in result.queries] == [1.0]
    assert not result.controls[0].fired
    assert result.score == 0.0


def test_a_failing_setup_step_is_reported_and_scores_zero() -> None:
    case = _case(setup=[{"op": "forget", "contains": "nothing holds this"}])
    result = run_case(parse_case(case))
    assert result.score == 0.0 and "setup step 1 (forget)" in (result.error or "")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"query": [{"target": "context", "expect": ["a"]}]}, "no forbidden hit"),
        ({"control": []}, "no control"),
        ({"setup": [{"op": "teleport"}]}, "unknown op 'teleport'"),
        ({"query": [{"target": "crystal-ball", "forbid": ["a"]}]}, "unknown target 'crystal-ball'"),
        ({"name": ""}, "needs a name"),
    ],
)
def test_malformed_cases_are_refused_with_a_clear_message(change: dict, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_case(_case(**change))


def test_every_shipped_case_has_a_forbidden_hit_and_a_control() -> None:
    cases = shipped_cases()
    names = {c.name for c in cases}
    assert {
        "planted-page-goes-to-inbox",
        "secret-redacted-on-disk",
        "no-memory-blocks",
        "other-workspace-never-appears",
        "forget-and-compact-leave-no-trace",
        "planted-hook-never-runs",
        "closing-tag-only-escaped",
    } <= names
    for case in cases:
        assert any(q.forbid for q in case.queries), case.name
        assert case.controls, case.name
    for path in SHIPPED_DIR.glob("*.toml"):
        tomllib.loads(path.read_text())


def test_the_shipped_cases_score_one_and_every_control_fires() -> None:
    report = run_evals(shipped_cases())
    assert report.passed
    for case in report.cases:
        assert case.score == 1.0, (case.name, case.error, case.model_dump())
        assert all(c.fired for c in case.controls), case.name


def test_duplicate_case_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="unique"):
        run_evals([parse_case(_case()), parse_case(_case())])


def _memrepo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", *args], cwd=PROJECT, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_memrepo_eval_runs_the_shipped_cases_and_exits_zero(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = _memrepo("eval", "--out", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("eval run ")
    assert "planted-hook-never-runs" in result.stdout and "fired (the check can fail)" in result.stdout
    report = json.loads(out.read_text())
    assert report["passed"] is True and report["run_id"] in result.stdout
    assert len(report["cases"]) == len(list(SHIPPED_DIR.glob("*.toml")))
    assert "[1/" in result.stderr


def test_memrepo_eval_with_a_failing_case_in_dir(tmp_path: Path) -> None:
    """A DIR case that scores 0 is reported (JSON), and the run still passes: only shipped cases gate it."""
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "bad.toml").write_text(
        'name = "leaky"\n'
        '[[setup]]\nop = "remember"\ntext = "Loves SPACEMARK"\nby = "user"\npin = true\n'
        '[[query]]\ntarget = "context"\nforbid = ["SPACEMARK"]\n'
        '[[control]]\nname = "same"\n'
    )
    result = _memrepo("eval", str(cases), "--only-dir", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    (case,) = report["cases"]
    assert case["name"] == "leaky" and case["score"] == 0.0 and case["shipped"] is False
    assert case["queries"][0]["hits"] == [
        {"text": "SPACEMARK", "kind": "forbidden", "found": True, "where": "context block"}
    ]


def test_memrepo_eval_exits_one_when_a_shipped_case_fails(tmp_path: Path) -> None:
    """The gate itself: the same runner, with a 'shipped' case scoring 0, exits non-zero."""
    code = (
        "import sys\n"
        "import memrepo.evals.runner as ev\n"
        "from memrepo.evals.runner import parse_case\n"
        "bad = {'name': 'leaky', 'setup': [{'op': 'remember', 'text': 'Loves SPACEMARK', 'by': 'user',"
        " 'pin': True}], 'query': [{'target': 'context', 'forbid': ['SPACEMARK']}],"
        " 'control': [{'name': 'same'}]}\n"
        "ev.shipped_cases = lambda: [parse_case(bad, 'x', shipped=True)]\n"
        "from memrepo.cli.main import run\n"
        "sys.argv = ['memrepo', 'eval']\n"
        "run()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert "a shipped case scored below 1.0" in result.stderr
    assert "<-- below 1.0" in result.stdout


def test_load_cases_names_the_bad_file(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text("name = \n")
    with pytest.raises(FormatError, match=r"broken\.toml"):
        load_cases(tmp_path)
    with pytest.raises(FormatError, match="not a folder"):
        load_cases(tmp_path / "missing")


def test_a_feature_adds_its_own_step_and_target_without_changing_the_format(tmp_path: Path) -> None:
    """The case format is open: registering a step and a target is all a later feature (checkpoints) needs."""
    import json as _json

    from memrepo.evals.steps import STEPS, TARGETS, step, target

    @step("queue_buffer")
    def _queue(run, args):  # type: ignore[no-untyped-def]
        folder = run.store.state_dir / "checkpoints"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "s1.json").write_text(_json.dumps({"turns": [args["text"]]}))

    @target("buffers")
    def _buffers(run, args, needles):  # type: ignore[no-untyped-def]
        folder = run.store.state_dir / "checkpoints"
        texts = [(p.name, p.read_text()) for p in folder.glob("*.json")] if folder.is_dir() else []
        return {n: next((w for w, t in texts if n in t), None) for n in needles}

    try:
        (tmp_path / "buffer.toml").write_text(
            'name = "buffer-dropped-by-compaction"\n'
            '[[setup]]\nop = "remember"\ntext = "Keep me KEEPMARK"\nby = "user"\npin = true\n'
            '[[setup]]\nop = "queue_buffer"\ntext = "user: the code is BUFMARK"\n'
            '[[setup]]\nop = "remember"\ntext = "The code is BUFMARK"\nby = "user"\n'
            '[[setup]]\nop = "forget"\ncontains = "BUFMARK"\ncompact = true\n'
            '[[query]]\ntarget = "buffers"\nforbid = ["BUFMARK"]\n'
            '[[query]]\ntarget = "context"\nexpect = ["KEEPMARK"]\nforbid = ["BUFMARK"]\n'
            '[[control]]\nname = "no compaction"\nsetup = [{op = "queue_buffer", text = "user: BUFMARK"}]\n'
        )
        (case,) = load_cases(tmp_path)
        result = run_case(case)
        assert result.score == 1.0, result.model_dump()
        assert result.controls[0].fired
    finally:
        STEPS.pop("queue_buffer", None)
        TARGETS.pop("buffers", None)


def _escape_case(setup: list[dict], query: dict | None = None) -> dict:
    return _case(
        name="escape",
        setup=setup,
        query=[query or {"target": "files", "expect": ["x"], "forbid": ["ZZZNEVER"]}],
        control=[{"name": "c", "extra_setup": [{"op": "remember", "text": "ZZZNEVER fact", "by": "user"}]}],
    )


@pytest.mark.parametrize("name", ["../../../escaped-hook", "../hook-in-git", "/abs/hook", "sub/../../x", ""])
def test_plant_hook_refuses_a_name_that_leaves_git_hooks(tmp_path: Path, name: str) -> None:
    target = tmp_path / "escaped-hook"
    setup = [{"op": "plant_hook", "name": name.replace("/abs", str(tmp_path)), "script": "#!/bin/sh\n"}]
    result = run_case(parse_case(_escape_case(setup)))
    assert result.score == 0.0 and "setup step 1 (plant_hook)" in (result.error or "")
    assert not target.exists() and not (tmp_path / "hook").exists()


def test_plant_hook_does_not_write_through_a_symlinked_hook(tmp_path: Path) -> None:
    outside = tmp_path / "outside.sh"
    outside.write_text("original\n")
    setup = [{"op": "plant_hook", "name": "pre-commit", "script": "#!/bin/sh\n"}]
    # a write_file step cannot make the symlink, so plant it with a custom step
    from memrepo.evals.steps import STEPS, step

    @step("link_hook_out")
    def _link(run, args):  # type: ignore[no-untyped-def]
        (run.root / ".git" / "hooks").mkdir(exist_ok=True)
        (run.root / ".git" / "hooks" / "pre-commit").symlink_to(outside)

    try:
        result = run_case(parse_case(_escape_case([{"op": "link_hook_out"}, *setup])))
    finally:
        STEPS.pop("link_hook_out")
    assert "setup step 2 (plant_hook)" in (result.error or "")
    assert outside.read_text() == "original\n" and not outside.stat().st_mode & 0o111


@pytest.mark.parametrize("path", ["../../../../../../../../etc/hostname", "/etc/hostname"])
def test_the_file_target_cannot_read_outside_the_repo(path: str) -> None:
    secret = Path("/etc/hostname").read_text().strip()
    query = {"target": "file", "path": path, "expect": [secret], "forbid": ["ZZZNEVER"]}
    result = run_case(parse_case(_escape_case([], query)))
    assert result.score == 0.0 and "file target" in (result.error or "")
    assert not any(h.found for q in result.queries for h in q.hits)


def test_write_file_refuses_a_symlinked_folder_that_leads_out(tmp_path: Path) -> None:
    from memrepo.evals.steps import STEPS, step

    @step("link_dir_out")
    def _link(run, args):  # type: ignore[no-untyped-def]
        (run.root / "notes").symlink_to(tmp_path, target_is_directory=True)

    try:
        setup = [{"op": "link_dir_out"}, {"op": "write_file", "path": "notes/planted.md", "text": "x"}]
        result = run_case(parse_case(_escape_case(setup)))
    finally:
        STEPS.pop("link_dir_out")
    assert "setup step 2 (write_file)" in (result.error or "")
    assert not (tmp_path / "planted.md").exists()
