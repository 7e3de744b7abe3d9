"""Coverage (docs/architecture.md §6): successive dreams examine every file, and each run says which it left out.

A repo of ~560 entries in 8 workspace files is past one model dream's 48,000-character
input. Each run's record lists the files it examined and those it left out;
the next run starts at the first file left out, so every file is examined
within the documented number of runs. ``dreams show`` and ``--json`` say the same.
The offline ``rules`` dream sends no model anything: it examines the whole folder
in one run (breaker6 B6-8). The model's runs here are a ``command`` provider in
its real form (a process reading the prompt on stdin, answering JSON on stdout).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from click.testing import CliRunner
from helpers.dream_helpers import make_repo

from memrepo.cli.main import main
from memrepo.engine.config import Settings
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.dreams.input import FOLDER_CAP
from memrepo.engine.repo.store import MemoryStore

QUIET_MODEL = ["sh", "-c", "cat > /dev/null; echo '{\"operations\": []}'"]
"""A ``command`` provider that reads the whole prompt and proposes nothing."""

NAMES = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel")


def _workspace(name: str, n: int = 70) -> str:
    lines = [f"# {name}", "", f"- Workspace {name} [workspace: ws-{name}; path: /src/{name}; by: user]"]
    for i in range(n):
        lines.append(
            f"- The {name} module number {i} keeps its fixtures in tests/{name}/fixture_{i}.json "
            f"and its docs in docs/{name}/page_{i}.md [by: agent; added: 2025-02-{i % 28 + 1:02d}]"
        )
    return "\n".join(lines) + "\n"


def _big_repo(root: Path, extra: dict[str, str] | None = None):
    files = {
        "MEMORY.md": "# Memory\n\n- Answer in English [by: user]\n\n## Index\n- [[me]]\n",
        "me.md": "# About me\n\n- Name is Sam [by: user]\n",
    }
    files.update({f"workspaces/{n}.md": _workspace(n) for n in NAMES})
    files.update(extra or {})
    return make_repo(root, files)


def _model(store: MemoryStore) -> Dreamer:
    """A dreamer whose provider is a model (a ``command``), held to the model's input."""
    data = Settings().model_dump()
    data["dream"].update(provider="command", command={"argv": QUIET_MODEL}, daily_token_budget=10_000_000)
    return Dreamer(store, Settings.model_validate(data))


def _folder_files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*.md") if ".git" not in p.parts and p.name != "inbox.md"}


def test_one_dream_lists_what_it_examined_and_what_it_left_out(repo_path: Path) -> None:
    store = _big_repo(repo_path)
    record = _model(store).run()
    everything = _folder_files(repo_path)
    assert record.left_out, "the repo is meant to be past one dream's input"
    assert set(record.examined) | set(record.left_out) == everything
    assert not set(record.examined) & set(record.left_out)
    assert record.left_out_count == len(record.left_out)
    assert {"MEMORY.md", "me.md"} <= set(record.examined)


def test_successive_dreams_cover_every_file_within_the_documented_runs(repo_path: Path) -> None:
    store = _big_repo(repo_path)
    everything = _folder_files(repo_path)
    sizes = {p: len((repo_path / p).read_bytes()) for p in everything}
    bound = math.ceil(sum(sizes.values()) / FOLDER_CAP) + 1
    seen: set[str] = set()
    dreamer = _model(store)
    for _ in range(bound):
        record = dreamer.run()
        seen |= set(record.examined)
    assert seen == everything


def test_a_file_larger_than_the_whole_input_is_listed_and_never_blocks_the_rest(repo_path: Path) -> None:
    huge = _workspace("zulu", 400)
    assert len(huge) > FOLDER_CAP
    store = _big_repo(repo_path, {"workspaces/zulu.md": huge})
    dreamer = _model(store)
    seen: set[str] = set()
    for _ in range(6):
        record = dreamer.run()
        assert "workspaces/zulu.md" in record.left_out
        assert "workspaces/zulu.md" in record.too_large
        seen |= set(record.examined)
    assert seen == _folder_files(repo_path) - {"workspaces/zulu.md"}


def test_dreams_show_and_json_name_the_files_left_out(repo_path: Path, tmp_path: Path, monkeypatch) -> None:
    _big_repo(repo_path)
    config = tmp_path / "config.toml"
    config.write_text(f"[dream.command]\nargv = {json.dumps(QUIET_MODEL)}\n", encoding="utf-8")
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    runner = CliRunner()
    out = runner.invoke(main, ["--repo", str(repo_path), "dream", "--provider", "command", "--json"])
    assert out.exit_code == 0, out.output
    record = json.loads(out.stdout)
    assert record["left_out"] and record["examined"]
    shown = runner.invoke(main, ["--repo", str(repo_path), "dreams", "show", record["id"]])
    assert shown.exit_code == 0, shown.output
    assert f"examined: {len(record['examined'])} files" in shown.stdout
    assert f"left out: {len(record['left_out'])} files" in shown.stdout
    for path in record["left_out"]:
        assert path in shown.stdout
    plain = runner.invoke(main, ["--repo", str(repo_path), "dream", "--provider", "command"])
    assert "left out" in plain.stdout


def test_the_rules_dream_examines_the_whole_folder_in_one_run(repo_path: Path) -> None:
    """It sends no model anything, so the model's input bound does not hold it (breaker6 B6-8)."""
    huge = _workspace("zulu", 400)
    assert len(huge) > FOLDER_CAP
    store = _big_repo(repo_path, {"workspaces/zulu.md": huge})
    record = Dreamer(store).run()  # the default provider: rules
    assert record.provider == "rules"
    assert set(record.examined) == _folder_files(repo_path)
    assert record.left_out == [] and record.left_out_count == 0 and record.too_large == []
    assert record.next_file is None
    model = _model(store).run()  # the model path keeps its bound
    assert model.left_out


def test_dreams_show_names_a_dozen_examined_files_and_counts_the_rest(repo_path: Path) -> None:
    """breaker29 B29-17: all 1,999 examined names of a 2,000-file repo were printed, 71 KB on one line."""
    from memrepo.cli.dream import NAMES_SHOWN, _coverage
    from memrepo.engine.dreams.record import DreamRecord

    names = [f"topics/topic-{n:04d}.md" for n in range(1999)]
    record = DreamRecord.model_construct(examined=names, left_out=[], left_out_count=0, folder_files=0)
    first = _coverage(record)[0]
    assert first == f"examined: 1999 files: {', '.join(names[:NAMES_SHOWN])} and {1999 - NAMES_SHOWN} more"
    few = DreamRecord.model_construct(examined=names[:3], left_out=[], left_out_count=0, folder_files=0)
    assert _coverage(few)[0] == f"examined: 3 files: {', '.join(names[:3])}"
