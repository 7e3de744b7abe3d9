"""What a new user meets in their first minutes at the command line (newuser round's findings).

A typo or another tool's word for a command gets a hint (lazy commands included); ``memrepo inbox``
on an empty inbox says so; ``memrepo status`` exits 3 when the user must act, so a script can tell
it from a clean repo (0) and from an error (1).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pygit2
import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main, run
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The console script's ``run()`` on ``argv``: (exit code, stderr)."""
    monkeypatch.setattr(sys, "argv", ["memrepo", *argv])
    with pytest.raises(SystemExit) as done:
        run()
    code = done.value.code
    return (code if isinstance(code, int) else 1), capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["helth"], "memrepo: No such command 'helth'. Did you mean 'health'? See memrepo --help"),  # a lazy command
        (["recal", "x"], "memrepo: No such command 'recal'. Did you mean 'recall' or 'eval'? See memrepo --help"),
        (["doctor"], "memrepo: No such command 'doctor'. Did you mean 'health'? See memrepo --help"),
        (["search", "pnpm"], "memrepo: No such command 'search'. Did you mean 'recall'? See memrepo --help"),
        (["add", "x"], "memrepo: No such command 'add'. Did you mean 'remember'? See memrepo --help"),
        (["inbox", "acept", "x"], "memrepo: No such command 'acept'. Did you mean 'accept'? See memrepo inbox --help"),
        (["xyzzy"], "memrepo: No such command 'xyzzy'; see memrepo --help"),
    ],
)
def test_an_unknown_command_names_the_one_meant(
    argv: list[str], line: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _run(argv, monkeypatch, capsys)
    assert code == 2 and err == line + "\n"


def test_an_empty_inbox_says_so_on_stderr_and_prints_no_line_to_stdout(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    empty = CliRunner().invoke(main, ["--repo", str(repo_path), "inbox"])
    assert empty.exit_code == 0 and empty.stdout == ""
    assert empty.stderr == "inbox is empty: nothing waits for review\n"
    store.remember(Candidate(text="The staging host is staging.internal", by="agent", untrusted=True))
    listed = CliRunner().invoke(main, ["--repo", str(repo_path), "inbox"])
    assert listed.exit_code == 0 and "staging.internal" in listed.stdout and listed.stderr == ""


def test_status_exits_3_while_a_hand_edit_question_is_open(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    store.remember(Candidate(text="Likes green tea a lot", by="user"))
    store.remember(Candidate(text="Uses neovim every day", by="user"))
    status = ["--repo", str(repo_path), "status"]
    assert CliRunner().invoke(main, status).exit_code == 0
    (repo_path / "lessons.md").write_text("# Lessons\n\n- a hand edit\n")
    edited = CliRunner().invoke(main, status)  # memrepo commits this one by itself: nothing to do
    assert (edited.exit_code, edited.stdout) == (0, "hand_edited\n  lessons.md\n")
    (repo_path / "me.md").write_text("")  # emptied in one save: memrepo asks before committing it
    asked = CliRunner().invoke(main, status)
    assert asked.exit_code == 3, asked.stdout
    assert "me.md is empty" in asked.stdout and "commit-hand-edits --yes me.md" in asked.stdout
    done = CliRunner().invoke(main, ["--repo", str(repo_path), "commit-hand-edits", "--yes"])
    assert done.exit_code == 0 and done.stdout.startswith("committed ")
    assert CliRunner().invoke(main, status).exit_code == 0


def test_a_folder_that_is_not_a_memory_repo_gets_a_next_step(tmp_path: Path) -> None:
    missing, plain, project = tmp_path / "new memory", tmp_path / "plain", tmp_path / "project"
    plain.mkdir()
    (plain / "notes.txt").write_text("hi\n")
    project.mkdir()
    pygit2.init_repository(str(project))
    (project / "README").write_text("x\n")
    said = {}
    for folder in (missing, plain, project):
        done = CliRunner().invoke(main, ["--repo", str(folder), "status"])
        assert done.exit_code == 1 and done.stdout == ""
        said[folder] = done.stderr
    # `memrepo init` alone makes the configured repo, not this one: the hint names the folder, quoted
    assert f"make one with `memrepo init '{missing}'`" in said[missing]
    assert "give a new or empty folder to start one" in said[plain]
    assert "memory keeps a repository of its own: give a new or empty folder" in said[project]
    made = CliRunner().invoke(main, ["init", str(missing)])  # the hint's command makes it
    assert made.exit_code == 0 and CliRunner().invoke(main, ["--repo", str(missing), "status"]).stdout == "clean\n"


def test_the_missing_repo_error_names_its_folder_once(tmp_path: Path) -> None:
    # fix17's first ten minutes: "...make one with `memrepo init /x/agent-memory`: /x/agent-memory" said it twice.
    missing = tmp_path / "agent-memory"
    said = CliRunner().invoke(main, ["--repo", str(missing), "recall", "pnpm"]).stderr
    assert said.count(str(missing)) == 1, said
    assert said.rstrip().endswith(f"make one with `memrepo init {missing}`")


def test_setup_check_in_the_home_folder_reads_settings_once_and_names_the_readme_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    repo = tmp_path / "memory"
    MemoryStore.open(repo, plain_settings())
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(home)  # Claude Code started in the home folder: its project settings are the user's
    wrote = CliRunner().invoke(main, ["--repo", str(repo), "setup", "claude-code", "--write"])
    assert wrote.exit_code == 0, wrote.output
    checked = CliRunner().invoke(main, ["--repo", str(repo), "setup", "claude-code", "--check"])
    assert checked.exit_code == 1  # the MCP server is still missing
    assert f"# read: {home / '.claude' / 'settings.json'}\n" in checked.stdout
    assert sum(line.startswith("ok: hooks.SessionStart") for line in checked.stdout.splitlines()) == 1
    missing = next(line for line in checked.stdout.splitlines() if line.startswith("missing: MCP server"))
    assert " run: claude mcp add --scope user memrepo -- " in missing  # as the README and --write say


def test_put_back_answers_a_question_from_the_command_line(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    store.remember(Candidate(text="Likes green tea a lot", by="user"))
    store.remember(Candidate(text="Uses neovim every day", by="user"))
    committed = (repo_path / "me.md").read_text()
    repo = ["--repo", str(repo_path)]
    (repo_path / "me.md").write_text("")  # emptied in one save
    asked = CliRunner().invoke(main, [*repo, "status"])
    assert asked.exit_code == 3 and "`memrepo commit-hand-edits --put-back me.md` puts the committed text back" in (
        asked.stdout
    )
    done = CliRunner().invoke(main, [*repo, "commit-hand-edits", "--put-back", "me.md"])
    assert (done.exit_code, done.stdout) == (0, "put back me.md: the committed text\n")
    assert (repo_path / "me.md").read_text() == committed
    assert CliRunner().invoke(main, [*repo, "status"]).stdout == "clean\n"

    # an editor's stale save: the save kept, the entries memrepo wrote just now put back in it
    (repo_path / "me.md").write_text("# About me\n\n- Drinks coffee after lunch\n")
    asked = CliRunner().invoke(main, [*repo, "status"])
    assert asked.exit_code == 3 and "`memrepo commit-hand-edits --put-back me.md` keeps the save with them back" in (
        asked.stdout
    )
    done = CliRunner().invoke(main, [*repo, "commit-hand-edits", "--put-back"])
    assert done.exit_code == 0 and done.stdout.startswith("put back me.md: committed ")
    texts = [e.text for e in MemoryStore.open(repo_path, plain_settings()).read_file("me.md").entries]
    assert sorted(texts) == ["Drinks coffee after lunch", "Likes green tea a lot", "Uses neovim every day"]
    assert CliRunner().invoke(main, [*repo, "status"]).stdout == "clean\n"
    nothing = CliRunner().invoke(main, [*repo, "commit-hand-edits", "--put-back"])
    assert (nothing.exit_code, nothing.stdout) == (0, "no question waits\n")
    both = CliRunner().invoke(main, [*repo, "commit-hand-edits", "--put-back", "--yes"])
    assert both.exit_code == 2


def test_recall_takes_several_words_without_quotes(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings())
    store.remember(Candidate(text="The deploy bot posts to the releases channel", by="user"))
    store.remember(Candidate(text="Prefers pnpm for JavaScript projects", by="user"))
    repo = ["--repo", str(repo_path), "recall"]
    quoted = CliRunner().invoke(main, [*repo, "deploy bot"])
    words = CliRunner().invoke(main, [*repo, "deploy", "bot", "-n", "5"])  # as a new user types it
    assert (words.exit_code, words.stdout) == (quoted.exit_code, quoted.stdout) == (0, quoted.stdout)
    assert "releases channel" in words.stdout and "pnpm" not in words.stdout
    assert CliRunner().invoke(main, repo).exit_code == 2  # no query is still bad usage
