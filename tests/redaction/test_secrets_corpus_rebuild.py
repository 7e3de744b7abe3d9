"""The secrets benchmark's local parts: the rebuild manifest agrees with its script, and the Veles builder's labels.

benchmarks/secrets_corpus/SOURCES.md lists every locally built part's source repository and snapshot commit;
rebuild.sh runs the builders at those commits (docs/benchmarks.md, "Secret redaction by source").
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from pathlib import Path

CORPUS = Path(__file__).parents[2] / "benchmarks" / "secrets_corpus"


def _rebuild_snapshots() -> dict[str, str]:
    """owner/name -> commit of every snapshot rebuild.sh names."""
    text = (CORPUS / "rebuild.sh").read_text(encoding="utf-8")
    pairs = re.findall(r'"([\w.-]+/[\w.-]+) ([0-9a-f]{7,40})"', text)
    return dict(pairs)


def test_every_snapshot_of_the_rebuild_script_is_in_the_manifest_with_the_same_commit() -> None:
    """SOURCES.md and rebuild.sh name the same repositories at the same commits (one manifest, not two drifting)."""
    script = _rebuild_snapshots()
    manifest = dict(
        re.findall(r"^\| `([\w.-]+/[\w.-]+)` \| `([0-9a-f]{7,40})` \|", (CORPUS / "SOURCES.md").read_text(), re.M)
    )
    assert len(script) > 100
    assert script == manifest


def test_every_part_the_script_scores_has_a_row_in_the_manifest() -> None:
    """Each part name rebuild.sh writes into ALL_ARGS is a row of SOURCES.md's parts table."""
    text = (CORPUS / "rebuild.sh").read_text(encoding="utf-8")
    named = set()
    for var in ("SECRET_PARTS", "BENIGN_PARTS"):
        block = re.search(rf'^{var}="([^"]*)"', text, re.M)
        assert block is not None
        named |= set(block.group(1).split())
    manifest = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([\w-]+)` \|", manifest, re.M))
    assert named <= rows, sorted(named - rows)


def _veles(tmp_path: Path, negatives: bool) -> list[dict]:
    if str(CORPUS) not in sys.path:
        sys.path.insert(0, str(CORPUS))
    import build_veles_tests

    out = io.StringIO()
    argv = ["build_veles_tests.py", str(tmp_path), *(["--negatives"] if negatives else [])]
    old = sys.argv
    sys.argv = argv
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            build_veles_tests.main()
    finally:
        sys.argv = old
    return json.loads(out.getvalue())["samples"]


def test_a_veles_finding_whose_fields_are_public_or_unread_is_no_look_alike(tmp_path: Path) -> None:
    """A case wanting a URL credential (a public-named field) or a map of cookies is a finding, never a no-match."""
    folder = tmp_path / "urlcreds"
    folder.mkdir()
    (folder / "detector_test.go").write_text(
        "func TestDetector(t *testing.T) {\n"
        "\tcases := []struct{ name string; input string; want []veles.Secret }{\n"
        "\t\t{\n"
        '\t\t\tname: "url with a password",\n'
        '\t\t\tinput: "http://user:hunter2hunter2@example.com",\n'
        '\t\t\twant: []veles.Secret{urlcreds.Credentials{URL: "http://user:hunter2hunter2@example.com"}},\n'
        "\t\t},\n"
        "\t\t{\n"
        '\t\t\tname: "cookie",\n'
        '\t\t\tinput: "Cookie: session_id=123456",\n'
        '\t\t\twant: []veles.Secret{http.Cookie{Values: map[string]string{"session_id": "123456"}}},\n'
        "\t\t},\n"
        "\t\t{\n"
        '\t\t\tname: "no match",\n'
        '\t\t\tinput: "http://example.com/path",\n'
        "\t\t},\n"
        "\t}\n"
        "}\n",
        encoding="utf-8",
    )
    assert [s["text"] for s in _veles(tmp_path, negatives=True)] == ["http://example.com/path"]
    assert _veles(tmp_path, negatives=False) == []  # neither finding has a secret field of 16+ characters to score


def test_the_credsweeper_builder_takes_findings_as_secrets_and_unreported_lines_as_look_alikes(tmp_path: Path) -> None:
    """Each true finding's line is a secret sample (public-id rules left out), each line no run reports a look-alike,
    each sample file goes whole to the half its name's SHA-256 picks, and a line in files of both halves to -held."""
    if str(CORPUS) not in sys.path:
        sys.path.insert(0, str(CORPUS))
    import build_credsweeper as bc

    names = [f"sample{i}" for i in range(40)]
    tune = next(n for n in names if bc.half(n) == "tune")
    held = next(n for n in names if bc.half(n) == "held")
    samples, data = tmp_path / "tests" / "samples", tmp_path / "tests" / "data"
    samples.mkdir(parents=True)
    data.mkdir(parents=True)
    secret = "Qz" + "8vLm3xTp"
    shared = "shared_setting = enabled-everywhere"
    (samples / tune).write_text(f'db_password = "{secret}"\nbucket_name = my-bucket-01\n{shared}\n', encoding="utf-8")
    (samples / held).write_text(f"{shared}\nplain look-alike line here\n", encoding="utf-8")

    def finding(rule: str, name: str, num: int, line: str, value: str) -> dict:
        ld = {"path": f"./tests/samples/{name}", "line_num": num, "line": line, "value": value}
        return {"rule": rule, "line_data_list": [ld]}

    found = [
        finding("Password", tune, 1, f'db_password = "{secret}"', secret),
        finding("AWS S3 Bucket", tune, 2, "bucket_name = my-bucket-01", "my-bucket-01"),
    ]
    (data / "output.json").write_text(json.dumps(found), encoding="utf-8")
    (data / "no_ml.json").write_text(json.dumps(found), encoding="utf-8")
    old = sys.argv
    sys.argv = ["build_credsweeper.py", str(tmp_path), str(tmp_path)]
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            bc.main()
    finally:
        sys.argv = old

    def part(name: str) -> list[dict]:
        return json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))["samples"]

    assert [s["secrets"] for s in part("credsweeper-tune")] == [[secret]]
    assert part("credsweeper-held") == []
    assert [s["text"] for s in part("credsweeper-neg-tune")] == []  # the bucket line is reported; the shared one held
    assert sorted(s["text"] for s in part("credsweeper-neg-held")) == sorted([shared, "plain look-alike line here"])


def test_the_twoms_builder_labels_the_value_a_list_repeats_and_reads_go_literals(tmp_path: Path) -> None:
    """A truePositives string's secret is the token most strings of its list hold (3+), read through Go escapes,
    raw strings and ``+``; a value tested once, a call, and an id rule's list are left out; falsePositives are
    look-alikes unless they hold a secret; a test file goes whole to the half its name's SHA-256 picks."""
    if str(CORPUS) not in sys.path:
        sys.path.insert(0, str(CORPUS))
    import build_twoms as bt

    value = "q7Lm" + "2xZp9vKd"
    go = (
        "truePositives: []string{\n"
        f'    "widget_token = \\"{value}\\"",\n'
        f"    `widgetToken := '{value}'`,\n"
        f'    "{{\\"config.ini\\": \\"WIDGET_TOKEN=" + "{value}\\\\nDEBUG=true\\"}}",\n'
        '    "widget_token = once9876value",\n'
        '    fmt.Sprintf("widget_token = %s", secret),\n'
        "},\n"
        'falsePositives: []string{"widget_token = changeme", "widget_token = ' + value + '"},\n'
    )
    names = [f"widget{i}_test.go" for i in range(40)]
    tune = next(n for n in names if bt.half(n) == "tune")
    (tmp_path / tune).write_text(go, encoding="utf-8")
    (tmp_path / "mapbox_test.go").write_text(go, encoding="utf-8")  # a public-token rule: no secret samples
    old = sys.argv
    sys.argv = ["build_twoms.py", str(tmp_path), str(tmp_path)]
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            bt.main()
    finally:
        sys.argv = old

    def part(name: str) -> list[dict]:
        return json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))["samples"]

    got = part("twoms-tune") + part("twoms-held")
    assert [s["family"] for s in got] == [tune.removesuffix("_test.go")] * 3
    assert [s["text"] for s in part("twoms-tune")] == [
        f'widget_token = "{value}"',
        f"widgetToken := '{value}'",
        '{"config.ini": "WIDGET_TOKEN=' + value + '\\nDEBUG=true"}',
    ]
    assert all(s["secrets"] == [value] for s in got)
    negatives = [s["text"] for s in part("twoms-neg-tune") + part("twoms-neg-held")]
    # mapbox labels no secret, so its copy of the value line stays a look-alike; the same text is kept once
    assert sorted(negatives) == sorted(["widget_token = changeme", f"widget_token = {value}"])
