"""``memrepo import``: each source on its fixture, twice, with a broken item in the middle."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.compact_helpers import entries_by_file
from helpers.repo_helpers import plain_settings, porcelain

from memrepo.cli.main import main
from memrepo.engine.errors import FormatError
from memrepo.engine.importers import detect_format, import_source, marker_path, read_items
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

FIXTURES = Path(__file__).resolve().parent / "import_fixtures"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def _twice(
    store: MemoryStore, source: Path, expected_added: int, expected_errors: list[str], fmt: str | None = None
) -> dict[str, list[str]]:
    """Import, check counts, commits and trailers; import again and check nothing is added."""
    before = len(store.log(1000))
    report = import_source(store, source, fmt)
    assert report.counts.get("added", 0) == expected_added, report.model_dump()
    assert [e.where for e in report.errors] == expected_errors
    log = store.log(1000)
    assert len(log) - before == expected_added  # each fact its own commit
    assert all(c.origin == "import" for c in log[:expected_added])
    assert porcelain(store.root) == ""
    files = entries_by_file(store)
    head = store.head()
    again = import_source(store, source, fmt)
    assert again.counts.get("added", 0) == 0
    assert again.counts.get("already imported", 0) == sum(
        1 for i in report.items if i.action not in ("skipped", "refused")
    )
    assert again.counts.get("refused", 0) == report.counts.get("refused", 0)  # refusals are retried
    assert store.head() == head and entries_by_file(store) == files
    return files


def test_open_cowork_core(store: MemoryStore) -> None:
    source = FIXTURES / "open-cowork" / "core_memory.json"
    assert detect_format(source) == "open-cowork-core"
    files = _twice(store, source, 6, ["core_memory.json: skills.languages"])
    assert "name: Sam Rivera" in files["me.md"]
    assert "editor: Neovim with vim keys" in files["me.md"]
    view = store.read_file("me.md")
    editor = next(e for e in view.entries if e.text.startswith("editor"))
    assert editor.meta["subject"] == "preferences.editor" and editor.meta["kind"] == "preference"
    assert editor.by == "agent"


def test_open_cowork_core_changed_value_replaces_by_subject(store: MemoryStore, tmp_path: Path) -> None:
    source = tmp_path / "core_memory.json"
    source.write_text(json.dumps({"preferences.editor": "Neovim"}))
    import_source(store, source)
    source.write_text(json.dumps({"preferences.editor": "Helix these days"}))
    report = import_source(store, source)
    assert report.counts == {"replaced": 1}
    texts = entries_by_file(store)["me.md"]
    assert "editor: Helix these days" in texts and "editor: Neovim" not in texts


def test_open_cowork_experience(store: MemoryStore) -> None:
    source = FIXTURES / "open-cowork" / "experience_memory.json"
    assert detect_format(source) == "open-cowork-experience"
    files = _twice(store, source, 4, ["experience_memory.json: session s-100 chunk c2"])
    ws = store.context("/home/sam/src/billing").text
    assert "Invoice tests must freeze time with freezegun" in ws and "stored in cents" in ws
    assert "Uses uv to manage Python versions" in files["me.md"]
    assert "Prefers answers with a short summary first" in files["me.md"]  # a session without chunks


def test_dsh_scopes_map_to_global_and_workspace_files(store: MemoryStore) -> None:
    source = FIXTURES / "dsh"
    assert detect_format(source) == "dsh"
    files = _twice(store, source, 4, ["scopes/ws-77aa0b12/memory_entries.json"])
    assert "Uses fish as the login shell" in files["me.md"]
    assert "Uses bash as the login shell" not in files["me.md"]  # superseded: skipped
    harness = store.context("/home/sam/src/harness").text
    assert "Run the harness tests with pnpm test --filter core" in harness
    assert "Voco routing has a 250 ms recall deadline" in harness  # after the broken entry h2
    assert not any("ARCHIVEDMARK" in t for texts in files.values() for t in texts)  # archived scopes stay out
    assert not store.recall("harness tests pnpm", workspace="/home/sam/src/other") or all(
        "harness" not in h.path for h in store.recall("harness tests pnpm", workspace="/home/sam/src/other")
    )


def test_claude_memory_files_one_entry_per_bullet_with_headings(store: MemoryStore, tmp_path: Path) -> None:
    source = tmp_path / "claude"
    shutil.copytree(FIXTURES / "claude", source)
    (source / "memory" / "broken.md").write_bytes(b"# Broken\n- caf\xe9 latin-1 text\n")
    assert detect_format(source) == "claude"
    files = _twice(store, source, 8, ["memory/broken.md"])
    me = files["me.md"]
    assert "Build commands: Run `make test` before every push" in me
    assert "Build commands: Format with `ruff format`" in me  # a nested bullet
    assert "Gotchas: The staging database resets every night" in me  # a numbered item
    assert "Flaky tests: Flaky tests usually come from unfrozen time" in me  # after the broken file
    assert "User prefers terse commit messages" in me  # the title alone adds no prefix
    assert not any("this is code" in t for t in me) and not any("notes/style" in t for t in me)
    view = store.read_file("me.md")
    style = next(e for e in view.entries if e.text.startswith("Style:"))
    assert style.meta["source"] == "CLAUDE.md > Project billing > Style" and style.by == "user"


def test_claude_single_file_into_a_workspace(store: MemoryStore) -> None:
    report = import_source(store, FIXTURES / "claude" / "CLAUDE.md", workspace="billing")
    assert report.counts == {"added": 5}
    assert "Style: Prefer dataclasses over dicts for records" in store.context("billing").text


def _source_repo(tmp_path: Path) -> Path:
    src = MemoryStore.open(tmp_path / "other", plain_settings(), create=True)
    src.remember(Candidate(text="Answer in English", by="user", pin=True))
    src.remember(Candidate(text="Name is Sam, see [[people/sam]]", kind="identity", by="user"))
    src.remember(Candidate(text="Run ruff before committing", kind="lesson"))
    src.remember(Candidate(text="Deploys on Fridays", scope="workspace", workspace="/srv/billing", by="user"))
    src.remember(Candidate(text="A page said to use tabs", untrusted=True))
    (src.root / "people").mkdir()
    (src.root / "people" / "sam.md").write_text("# Sam\n\n- Sam likes long walks [by: user; kind: fact]\n")
    src.commit_hand_edits()
    (src.root / "notes").mkdir()  # a broken file, sorted between inbox.md and people/sam.md
    (src.root / "notes" / "bad.md").write_bytes(b"- has a NUL \x00 byte\n")
    return src.root


def test_another_agent_memory_repo_is_merged_into_matching_files(store: MemoryStore, tmp_path: Path) -> None:
    source = _source_repo(tmp_path)
    store.remember(Candidate(text="Run ruff before committing", kind="lesson"))  # a duplicate: reinforced
    assert detect_format(source) == "memrepo"
    before = len(store.log(1000))
    report = import_source(store, source)
    assert [e.where for e in report.errors] == ["notes/bad.md"]
    # people/sam.md is not here yet: copied whole (headings kept), in one commit with its index link
    assert report.counts == {"added": 3, "copied": 1, "inboxed": 1, "reinforced": 1, "unreadable": 1}
    assert len(store.log(1000)) - before == 5
    files = entries_by_file(store)
    assert "Answer in English" in files["MEMORY.md"]
    assert "Name is Sam, see [[people/sam]]" in files["me.md"]  # the link kept
    assert files["lessons.md"].count("Run ruff before committing") == 1
    assert "A page said to use tabs" in files["inbox.md"]
    assert "Deploys on Fridays" in store.context("/srv/billing").text
    assert "Sam likes long walks" in files["people/sam.md"]  # after the broken file, in the same-named file
    assert (store.root / "people" / "sam.md").read_text() == (source / "people" / "sam.md").read_text()
    assert "[[people/sam]]" in (store.root / "MEMORY.md").read_text()
    assert not (store.root / "notes" / "bad.md").exists()  # not text: never copied
    again = import_source(store, source)
    assert again.counts.get("added", 0) == 0 and "already imported" in again.counts


def test_generic_jsonl(store: MemoryStore) -> None:
    source = FIXTURES / "generic.jsonl"
    assert detect_format(source) == "jsonl"
    files = _twice(store, source, 5, ["generic.jsonl:5", "generic.jsonl:6"])
    assert "Prefers dark themes in every tool" in files["me.md"]
    assert "Never force-push main" in files["lessons.md"]
    assert "The billing service deploys on Thursdays" in store.context("billing").text
    assert "Coffee black, no sugar" in store.context("ws-0a1b2c3d").text
    # Policy applies: the token is redacted on disk.
    assert "The API token is [REDACTED:github-token] for CI" in files["me.md"]
    assert "ghp_" not in (store.root / "me.md").read_text()


def test_dry_run_writes_nothing(store: MemoryStore) -> None:
    head = store.head()
    before = {p: (store.root / p).read_bytes() for p, _ in store.list_files()}
    result = run("--repo", str(store.root), "import", str(FIXTURES / "generic.jsonl"), "--dry-run")
    assert result.exit_code == 1  # two lines could not be read
    assert "would write -> me.md  [generic.jsonl:1]: Prefers dark themes in every tool" in result.stdout
    assert "would write -> workspaces/billing.md" in result.stdout
    assert "[REDACTED:github-token]" in result.stdout and "ghp_" not in result.stdout
    assert "dry run, nothing written" in result.stdout
    assert "could not read generic.jsonl:5" in result.stderr
    assert store.head() == head
    assert {p: (store.root / p).read_bytes() for p, _ in store.list_files()} == before
    assert not marker_path(store, "jsonl").exists()
    assert not (store.state_dir / "pending").exists() or not any((store.state_dir / "pending").iterdir())
    # A real run afterwards still imports everything.
    assert import_source(store, FIXTURES / "generic.jsonl").counts["added"] == 5


def test_cli_import_json_report_and_progress(store: MemoryStore, tmp_path: Path) -> None:
    source = tmp_path / "many.jsonl"
    source.write_text(
        "".join(json.dumps({"text": f"Imported fact number {i} about widgets"}) + "\n" for i in range(30))
    )
    result = run("--repo", str(store.root), "import", str(source), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["counts"] == {"added": 30} and report["format"] == "jsonl"
    assert "imported 25/30" in result.stderr and "imported 30/30" in result.stderr
    result = run("--repo", str(store.root), "import", str(source))
    assert result.exit_code == 0 and "30 already imported" in result.stdout


def test_format_override_and_undetectable_source(store: MemoryStore, tmp_path: Path) -> None:
    odd = tmp_path / "memories.txt"
    odd.write_text(json.dumps({"text": "Likes tea with lemon"}) + "\n")
    with pytest.raises(FormatError, match="--format"):
        import_source(store, odd)
    result = run("--repo", str(store.root), "import", str(odd))
    assert result.exit_code == 1 and "pass --format" in result.stderr
    result = run("--repo", str(store.root), "import", str(odd), "--format", "jsonl")
    assert result.exit_code == 0, result.output
    assert "Likes tea with lemon" in entries_by_file(store)["me.md"]


def test_a_source_that_cannot_be_parsed_is_one_error(store: MemoryStore, tmp_path: Path) -> None:
    bad = tmp_path / "core_memory.json"
    bad.write_text("{not json")
    items = read_items(bad, "open-cowork-core")
    assert len(items) == 1 and "not valid JSON" in (items[0].error or "")
    head = store.head()
    report = import_source(store, bad)
    assert report.counts == {"unreadable": 1} and store.head() == head


def test_a_copied_memory_repo_without_git_is_still_detected(tmp_path: Path) -> None:
    source = _source_repo(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".git"))
    assert detect_format(copy) == "memrepo"
    claude = tmp_path / "claude-only"
    claude.mkdir()
    (claude / "MEMORY.md").write_text("# Auto memory\n\n- Likes tea\n")
    assert detect_format(claude) == "claude"  # a Claude auto-memory folder also has a MEMORY.md


# -- QA: broken bytes, FIFOs, deep nesting, refusals retried --


def test_one_non_utf8_line_is_one_error_and_the_rest_imports(store: MemoryStore, tmp_path: Path) -> None:
    source = tmp_path / "h.jsonl"
    good = [json.dumps({"text": f"Good imported fact number {i} about gadgets"}).encode() for i in range(3)]
    source.write_bytes(b"\n".join([*good[:2], b'{"text": "caf\xe9 latte"}', good[2]]) + b"\n")
    report = import_source(store, source)
    assert report.counts.get("added") == 3, report.model_dump()
    assert [(e.where, "not UTF-8" in e.message) for e in report.errors] == [("h.jsonl:3", True)]
    assert "Good imported fact number 2 about gadgets" in entries_by_file(store)["me.md"]


@pytest.mark.parametrize("name", ["fifo.jsonl", "core_memory.json", "memories.md"])
def test_a_fifo_is_refused_with_one_line_instead_of_hanging(store: MemoryStore, tmp_path: Path, name: str) -> None:
    import os

    fifo = tmp_path / name
    os.mkfifo(fifo)
    head = store.head()
    with pytest.raises(FormatError, match="not a regular file"):
        import_source(store, fifo)
    result = run("--repo", str(store.root), "import", str(fifo), "--format", "jsonl")
    assert result.exit_code == 1 and "not a regular file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert store.head() == head


def test_a_fifo_inside_a_source_folder_is_one_error(store: MemoryStore, tmp_path: Path) -> None:
    import os

    folder = tmp_path / "claude"
    folder.mkdir()
    (folder / "CLAUDE.md").write_text("# Notes\n\n- Likes oolong tea\n")
    os.mkfifo(folder / "stuck.md")
    report = import_source(store, folder, "claude")
    assert report.counts.get("added") == 1
    assert [e.where for e in report.errors] == ["stuck.md"] and "not a regular file" in report.errors[0].message


def test_a_source_larger_than_the_cap_is_refused(tmp_path: Path) -> None:
    from memrepo.engine.importers.sourcefile import read_source_bytes

    big = tmp_path / "big.jsonl"
    big.write_bytes(b"x" * 2048)
    with pytest.raises(FormatError, match="too large"):
        read_source_bytes(big, cap=1024)
    assert read_source_bytes(big, cap=4096) == b"x" * 2048


def test_deeply_nested_json_is_reported_unreadable_in_one_line(store: MemoryStore, tmp_path: Path) -> None:
    deep = tmp_path / "experience_memory.json"
    deep.write_text("[" * 100_000)
    head = store.head()
    report = import_source(store, deep, "open-cowork-experience")
    assert report.counts == {"unreadable": 1} and "nested too deeply" in report.errors[0].message
    result = run("--repo", str(store.root), "import", str(deep))
    assert "RecursionError" not in result.output and "internal error" not in result.output
    lines = tmp_path / "deep.jsonl"
    lines.write_text(json.dumps({"text": "A fine fact about kettles"}) + "\n" + "[" * 100_000 + "\n")
    report = import_source(store, lines)
    assert report.counts.get("added") == 1 and "nested too deeply" in report.errors[0].message
    assert store.head() != head


def test_a_refused_item_is_not_marked_so_a_rerun_retries_it(store: MemoryStore, tmp_path: Path) -> None:
    full = "".join(f"- Filler line number {i} to make me.md large {'x' * 40}\n" for i in range(1100))
    (store.root / "me.md").write_text("# Me\n\n" + full)
    store.commit_hand_edits()
    source = tmp_path / "one.jsonl"
    source.write_text(json.dumps({"text": "Prefers green tea in the morning"}) + "\n")
    first = import_source(store, source)
    assert first.counts == {"refused": 1}, first.model_dump()
    assert not marker_path(store, "jsonl").exists() or marker_path(store, "jsonl").read_text() == ""
    (store.root / "me.md").write_text("# Me\n\n- Short now\n")
    store.commit_hand_edits(confirm=True)  # the user cut it down on purpose (a mass deletion asks first)
    again = import_source(store, source)
    assert again.counts == {"added": 1}, again.model_dump()
    assert import_source(store, source).counts == {"already imported": 1}


def _plain_repo(tmp_path: Path) -> Path:
    """Another memory repo written by hand: a workspace file naming only its id, and a topics/ file."""
    src = tmp_path / "plain"
    (src / "workspaces").mkdir(parents=True)
    (src / "topics").mkdir()
    (src / "MEMORY.md").write_text("# Memory\n\n## Index\n\n- [[workspaces/project-0097]]\n")
    (src / "me.md").write_text("# Me\n\n- Likes tea [by: user]\n")
    (src / "workspaces" / "project-0097.md").write_text(
        "# project-0097\n\n- project-0097 workspace [workspace: ws-90015791; by: user]\n"
        "- Deploys go out on Tuesdays [by: user]\n- Staging is on port 8081 [by: agent]\n"
    )
    (src / "topics" / "databases.md").write_text(
        "# databases\n\n- Postgres 16 runs the billing data [by: user; kind: fact]\n"
        "- Never run VACUUM FULL at noon [by: agent; kind: lesson]\n"
    )
    return src


def test_workspace_entries_keep_the_source_file_name_and_topics_keep_their_path(
    store: MemoryStore, tmp_path: Path
) -> None:
    source = _plain_repo(tmp_path)
    report = import_source(store, source, "memrepo")
    assert report.counts == {"added": 3, "copied": 2}, report.model_dump()  # the topics file copied whole
    files = entries_by_file(store)
    assert files["workspaces/project-0097.md"][1:] == ["Deploys go out on Tuesdays", "Staging is on port 8081"]
    assert [i.id for i in store.all_workspaces() if i.file == "workspaces/project-0097.md"] == ["ws-90015791"]
    assert not (store.root / "workspaces" / "ws-90015791.md").exists()
    assert "Deploys go out on Tuesdays" in store.context("ws-90015791").text
    assert files["topics/databases.md"] == ["Postgres 16 runs the billing data", "Never run VACUUM FULL at noon"]
    assert "Postgres" not in " ".join(files["me.md"] + files.get("lessons.md", []))
    assert porcelain(store.root) == ""
    assert all(c.origin == "import" for c in store.log(4))  # one commit per fact, one for the copied file


def test_workspace_entries_join_the_file_that_already_names_the_workspace(store: MemoryStore, tmp_path: Path) -> None:
    (store.root / "workspaces").mkdir()
    (store.root / "workspaces" / "billing.md").write_text(
        "# billing\n\n- billing workspace [workspace: ws-90015791; by: user]\n- Uses pnpm [by: user]\n"
    )
    store.commit_hand_edits()
    import_source(store, _plain_repo(tmp_path), "memrepo")
    files = entries_by_file(store)
    assert files["workspaces/billing.md"][1:] == ["Uses pnpm", "Deploys go out on Tuesdays", "Staging is on port 8081"]
    assert not (store.root / "workspaces" / "project-0097.md").exists()


def test_a_topics_file_that_cannot_be_written_falls_back_to_the_global_files(
    store: MemoryStore, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (store.root / "topics").symlink_to(elsewhere, target_is_directory=True)
    import_source(store, _plain_repo(tmp_path), "memrepo")
    files = entries_by_file(store)
    assert "Postgres 16 runs the billing data" in files["me.md"]
    assert "Never run VACUUM FULL at noon" in files["lessons.md"]
    assert list(elsewhere.iterdir()) == []


def test_dry_run_foresees_limits_duplicates_and_subjects(store: MemoryStore, tmp_path: Path) -> None:
    filler = "".join(f"- Filler line number {i} to make me.md large {'x' * 40}\n" for i in range(720))
    (store.root / "me.md").write_text(
        "# Me\n\n- Likes tea [by: user]\n- editor: vim [by: user; subject: editor]\n" + filler
    )
    store.commit_hand_edits()
    room = 64 * 1024 - (store.root / "me.md").stat().st_size
    lines = [{"text": "Likes tea"}, {"text": "editor: emacs", "subject": "editor"}]
    lines += [{"text": f"Imported fact number {i:03d} about the garden shed and its tools"} for i in range(40)]
    source = tmp_path / "many.jsonl"
    source.write_text("".join(json.dumps(x) + "\n" for x in lines))
    head = store.head()
    dry = import_source(store, source, dry_run=True)
    assert store.head() == head
    assert dry.counts["would reinforce"] == 1 and dry.counts["would be outranked"] == 1
    fits = dry.counts["would write"]
    assert 0 < fits < 40 and dry.counts["would refuse"] == 40 - fits, (room, dry.counts)
    assert all("limit" in (i.reason or "") for i in dry.items if i.action == "would refuse")
    real = import_source(store, source)
    assert real.counts.get("added") == fits and real.counts.get("refused") == 40 - fits, real.counts
    assert real.counts.get("reinforced") == 1 and real.counts.get("outranked") == 1


def test_cli_import_sends_agent_entries_to_the_inbox_with_ask_before_saving(
    store: MemoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``[writes] agent_to_inbox = true`` governs imports too: the CLI hands its settings to the store."""
    config = tmp_path / "config.toml"
    config.write_text("[writes]\nagent_to_inbox = true\n")
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    source = tmp_path / "agent.jsonl"
    source.write_text(
        json.dumps({"text": "Prefers tabs over spaces", "kind": "preference", "by": "agent"})
        + "\n"
        + json.dumps({"text": "Always rebase before merging", "kind": "rule", "by": "agent"})
        + "\n"
        + json.dumps({"text": "Drinks tea in the morning", "kind": "preference", "by": "user"})
        + "\n"
    )
    result = run("--repo", str(store.root), "import", str(source))
    assert result.exit_code == 0, result.output
    files = entries_by_file(store)
    assert sorted(files["inbox.md"]) == ["Always rebase before merging", "Prefers tabs over spaces"]
    assert files["me.md"] == ["Drinks tea in the morning"]
    assert files.get("lessons.md", []) == []
