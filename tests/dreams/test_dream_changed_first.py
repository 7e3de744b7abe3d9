"""A dream reads the files changed since a dream last examined them first, and says how much is covered.

docs/architecture.md §6, coverage: one dream reads at most its cap; the rest of the folder takes its
turn in a rotation. A file written after the rotation passed it waited a whole pass before this (at
20,000 files, seven rules dreams). Now it is read by the next dream, and each run records how many
files were examined since they last changed ("covered N of M files").
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from test_dream_coverage import QUIET_MODEL, _big_repo, _folder_files, _model

from memrepo.cli.main import main
from memrepo.engine.dreams.cover import CHANGED, EXAMINED, UNEXAMINED, ranks, reading_order, seen_after


def test_the_rotation_reads_changed_files_first_and_keeps_its_own_order() -> None:
    files = ["a.md", "b.md", "c.md", "d.md", "e.md", "me.md"]
    rank = {"a.md": CHANGED, "b.md": EXAMINED, "c.md": UNEXAMINED, "d.md": EXAMINED, "e.md": CHANGED}
    order, rotation = reading_order(files, ["me.md"], "c.md", rank)
    assert order == ["me.md", "e.md", "a.md", "c.md", "d.md", "b.md"]
    assert rotation == ["c.md", "d.md", "e.md", "a.md", "b.md"]  # where the next dream starts is found in this order


def test_a_files_turn_follows_what_the_last_dream_saw() -> None:
    now = {"a.md": "1:1", "b.md": "2:2", "c.md": "3:3", "new.md": "4:4"}
    seen = seen_after({"a.md": "1:1", "b.md": "2:0", "c.md": "3:3", "gone.md": "5:5"}, {}, ["a.md", "b.md"])
    assert seen == {"a.md": "1:1", "b.md": "2:0", "c.md": "-3:3", "gone.md": "-5:5"}
    assert ranks(now, seen) == {"a.md": EXAMINED, "b.md": CHANGED, "c.md": UNEXAMINED, "new.md": CHANGED}
    assert "gone.md" not in seen_after(now, seen, [])  # a file gone is forgotten
    assert seen_after(now, seen, [])["a.md"] == "1:1"  # examined earlier and unchanged: still examined


def test_a_file_changed_behind_the_rotation_is_read_by_the_next_dream(repo_path: Path) -> None:
    store = _big_repo(repo_path)
    dreamer = _model(store)
    first = dreamer.run()
    assert first.left_out, "the repo is meant to be past one dream's input"
    behind = next(p for p in first.examined if p.startswith("workspaces/"))
    with (repo_path / behind).open("a", encoding="utf-8") as f:
        f.write("- Deploys now go through the blue-green pipeline [by: agent; added: 2025-03-01]\n")
    store.commit_hand_edits()
    second = dreamer.run()
    assert behind in second.examined  # without it first, the rotation would reach it only after every other file
    assert first.next_file in second.examined  # the rotation still goes on where it stopped


def test_each_run_says_how_many_files_are_covered(repo_path: Path) -> None:
    store = _big_repo(repo_path)
    everything = _folder_files(repo_path)
    dreamer = _model(store)
    first = dreamer.run()
    assert first.folder_files == len(everything)
    assert first.covered == len(first.examined) < len(everything)
    second = dreamer.run()
    assert second.covered == len(set(first.examined) | set(second.examined))
    runs = [first, second]
    while runs[-1].covered < len(everything) and len(runs) < 10:
        runs.append(dreamer.run())
    assert runs[-1].covered == len(everything)
    changed = sorted(everything)[-1]
    with (repo_path / changed).open("a", encoding="utf-8") as f:
        f.write("- One more line written after the whole folder was covered [by: agent]\n")
    store.commit_hand_edits()
    again = dreamer.run()
    assert changed in again.examined
    assert again.covered == len(everything)


def test_the_cli_prints_the_covered_line(repo_path: Path, tmp_path: Path, monkeypatch) -> None:
    _big_repo(repo_path)
    config = tmp_path / "config.toml"
    config.write_text(f"[dream.command]\nargv = {json.dumps(QUIET_MODEL)}\n", encoding="utf-8")
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    runner = CliRunner()
    out = runner.invoke(main, ["--repo", str(repo_path), "dream", "--provider", "command", "--json"])
    assert out.exit_code == 0, out.output
    record = json.loads(out.stdout)
    total = len(_folder_files(repo_path))
    assert record["folder_files"] == total and 0 < record["covered"] < total
    line = f"covered {record['covered']:,} of {total:,} files"
    shown = runner.invoke(main, ["--repo", str(repo_path), "dreams", "show", record["id"]])
    assert line in shown.stdout
    plain = runner.invoke(main, ["--repo", str(repo_path), "dream", "--provider", "command"])
    assert plain.exit_code == 0, plain.output
    assert "covered " in plain.stdout and f"of {total:,} files" in plain.stdout
