"""``memrepo recall REF`` gives the entry the ref names, as MCP ``memory_recall`` and the app do (breaker8 B8-8).

The store answered a ref-shaped query with its entry; ``memrepo recall 'me.md#L6'`` (the quick path,
:mod:`memrepo.engine.read.coldrecall`) searched it as words: "no memory matches", exit code 1. Both now ask
:func:`memrepo.engine.read.recallref.ref_item`, so the hit, its ``--json`` object and the exit code are the same
everywhere, and an inbox entry named by its ref is marked unreviewed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import commit_by_hand, plain_settings

from memrepo.cli import quick
from memrepo.cli.main import main
from memrepo.engine.read import coldrecall
from memrepo.engine.repo.store import MemoryStore

GAUGES = "Tidepool tide gauges report every 6 minutes"
PROPOSED = "Tidepool buoys may use LoRa radios"


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "mem"
    MemoryStore.open(root, plain_settings())
    (root / "projects").mkdir()
    (root / "projects" / "acme.md").write_text(
        "# Acme\n\n## Tidepool\n\n- Current focus: Tidepool 1.0 release [by: user]\n"
        f"- {GAUGES} [by: user; kind: fact]\n",
        encoding="utf-8",
    )
    (root / "inbox.md").write_text(f"# Inbox\n\n- {PROPOSED} [by: agent]\n", encoding="utf-8")
    commit_by_hand(root)
    return root


def _quick(root: Path, args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple:
    """(stdout, exit code) of ``memrepo --repo ROOT recall ARGS`` on the quick path."""
    argv = ["--repo", str(root), "recall", *args]
    assert quick.parse_recall(argv) is not None and quick.config_keys() is not None  # answered here, not by click
    monkeypatch.setattr(sys, "argv", ["memrepo", *argv])
    code = 0
    try:
        quick.run()
    except SystemExit as exc:
        code = int(exc.code or 0)
    return capsys.readouterr().out, code


@pytest.mark.parametrize("query", ["projects/acme.md#L6", "repo:projects/acme.md#L6", " projects/acme.md#L6 "])
def test_recall_of_a_ref_prints_that_entry_on_both_paths(
    tmp_path: Path, query: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path)
    store = MemoryStore.open(root, plain_settings(), create=False)
    [mcp] = store.recall(query, related=True)  # what MCP memory_recall and the app get
    assert (mcp.ref, mcp.text, mcp.answer, mcp.unreviewed) == ("repo:projects/acme.md#L6", GAUGES, True, False)
    plain, code = _quick(root, [query], monkeypatch, capsys)
    assert code == 0
    assert plain == f"repo:projects/acme.md#L6  user   {GAUGES}\n"
    as_json, json_code = _quick(root, [query, "--json"], monkeypatch, capsys)
    assert json_code == code
    assert [json.loads(line) for line in as_json.splitlines()] == [mcp.model_dump()]  # field for field
    for args in ([query], [query, "--json"]):  # click's path (a config file not validated yet) prints the same
        clicked = CliRunner().invoke(main, ["--repo", str(root), "recall", *args])
        assert (clicked.stdout, clicked.exit_code) == (plain if args == [query] else as_json, 0)


def test_a_ref_to_an_inbox_entry_is_marked_unreviewed_everywhere(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    store = MemoryStore.open(root, plain_settings(), create=False)
    [mcp] = store.recall("inbox.md#L3")
    [cold] = coldrecall.recall(root, "inbox.md#L3")
    assert (mcp.text, mcp.unreviewed, mcp.answer) == (PROPOSED, True, True)  # never shown as reviewed memory
    assert cold.as_dict() == mcp.model_dump()


def test_full_detail_and_the_byte_budget_hold_for_a_ref(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    store = MemoryStore.open(root, plain_settings(), create=False)
    [mcp] = store.recall("projects/acme.md#L6", detail="full")
    [cold] = coldrecall.recall(root, "projects/acme.md#L6", detail="full")
    assert mcp.heading == "## Tidepool" and mcp.section is not None and GAUGES in mcp.section
    assert cold.as_dict() == mcp.model_dump()
    assert (
        store.recall("projects/acme.md#L6", max_bytes=20)
        == coldrecall.recall(root, "projects/acme.md#L6", max_bytes=20)
        == []
    )


@pytest.mark.parametrize("query", ["projects/acme.md#L3", "projects/acme.md#L99", "../mem/projects/acme.md#L6"])
def test_a_ref_naming_no_entry_is_searched_as_words_alike(
    tmp_path: Path, query: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A heading, a line past the end, a path out of the repo: no entry, so the words are searched, never an error."""
    root = _repo(tmp_path)
    store = MemoryStore.open(root, plain_settings(), create=False)
    got = [hit.model_dump() for hit in store.recall(query, related=True)]
    assert [hit.as_dict() for hit in coldrecall.recall(root, query, related=True)] == got
    assert all(hit["ref"] != "repo:projects/acme.md#L3" for hit in got)
    plain, code = _quick(root, [query], monkeypatch, capsys)
    as_json, json_code = _quick(root, [query, "--json"], monkeypatch, capsys)
    assert json_code == code and len(as_json.splitlines()) == len(plain.splitlines()) == len(got)
