"""The ``memrepo`` command line: init, remember, forget, log, status; where the
repo comes from; errors as one line on stderr with a non-zero exit."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.repo_helpers import git, plain_settings

from memrepo.cli.main import main
from memrepo.engine.repo.store import MemoryStore


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=True)


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def one_line_error(result: Result, *words: str, code: int = 1) -> str:
    """Assert the run failed with exactly one ``memrepo: ...`` line on stderr."""
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("memrepo: ")
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# -- commands -----------------------------------------------------------------------


def test_init_creates_then_adopts(repo_path: Path) -> None:
    out = ok("--repo", str(repo_path), "init")
    head = git(repo_path, "rev-parse", "--short=7", "HEAD").strip()
    assert out == f"memory repo ready at {repo_path} (HEAD {head})\n"
    assert ok("--repo", str(repo_path), "init") == out  # adopting makes no commit
    other = repo_path.parent / "other"
    assert ok("init", str(other)).startswith(f"memory repo ready at {other} ")
    assert (other / "MEMORY.md").is_file()


def test_remember_with_every_option(repo_path: Path) -> None:
    ok("init", str(repo_path))
    base = ("--repo", str(repo_path), "remember")
    out = ok(
        *base,
        "Prefers short answers",
        "--kind",
        "preference",
        "--subject",
        "style",
        "--source",
        "https://example.com/a;b",
        "--task",
        "t-1",
    )
    assert out.startswith("added repo:me.md#L5 (")
    entry = MemoryStore.open(repo_path, plain_settings()).read_file("me.md").entries[0]
    assert entry.text == "Prefers short answers"
    assert entry.meta["by"] == "user"  # the CLI's default: a person typing
    assert (entry.meta["kind"], entry.meta["subject"]) == ("preference", "style")
    # A URL keeps its own escapes (tests/format/test_url_values.py): the ; a value cannot hold is
    # written as the URL's percent-escape, and read back as written.
    assert (entry.meta["source"], entry.meta["task"]) == ("https://example.com/a%3Bb", "t-1")
    assert "source: https://example.com/a%3Bb;" in (repo_path / "me.md").read_text()
    top = MemoryStore.open(repo_path, plain_settings()).log(limit=1)[0]
    assert (top.origin, top.task) == ("cli", "t-1")

    out = ok(*base, "Prefers long answers", "--kind", "preference", "--subject", "style")
    assert out.startswith("replaced repo:me.md#L5 (")

    assert ok(*base, "always run ruff", "--kind", "rule").startswith("added repo:lessons.md#L")
    out = ok(*base, "deploys with make", "--workspace", "/src/billing", "--by", "agent")
    assert out.startswith("added repo:workspaces/billing.md#L4 (")
    out = ok(*base, "uses uv", "--scope", "workspace", "--workspace", "billing-api")
    assert out.startswith("added repo:workspaces/billing-api.md#L4 (")
    assert ok(*base, "answer in English", "--pin").startswith("added repo:MEMORY.md#L")

    result = run(*base, "answer in English", "--pin", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["action"] == "reinforced" and data["commit"] is None
    assert data["ref"].startswith("repo:MEMORY.md#L")
    assert ok(*base, "prefers SHORT answers.", "--kind", "preference").startswith("added repo:me.md#L")


def test_forget_log_and_status(repo_path: Path) -> None:
    ok("init", str(repo_path))
    repo = ("--repo", str(repo_path))
    ok(*repo, "remember", "likes tea")
    ok(*repo, "remember", "likes coffee")
    forgot = run(*repo, "forget", "repo:me.md#L5")
    head = git(repo_path, "rev-parse", "--short=7", "HEAD").strip()
    assert forgot.exit_code == 0 and forgot.stdout == f"forgot repo:me.md#L5 ({head})\n"
    # A forget is a commit: the text stays in its parent until a compaction, and stderr says so (B20-15).
    assert "stays in git history" in forgot.stderr and "memrepo forget --compact" in forgot.stderr
    assert [e.text for e in MemoryStore.open(repo_path, plain_settings()).read_file("me.md").entries] == [
        "likes coffee"
    ]

    lines = ok(*repo, "log").splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(f"{head}  ")
    assert lines[0].split("  ")[2].strip() == "cli"
    assert lines[0].endswith("Forget: likes tea")
    assert lines[-1].endswith("Create memory repo")
    assert len(ok(*repo, "log", "-n", "2").splitlines()) == 2
    records = [json.loads(line) for line in ok(*repo, "log", "--json").splitlines()]
    assert [r["summary"] for r in records][:2] == ["Forget: likes tea", "Remember fact: likes coffee"]
    assert records[0]["origin"] == "cli"

    assert ok(*repo, "status") == "clean\n"
    (repo_path / "lessons.md").write_text("# Lessons\n\n- hand edit\n")
    assert ok(*repo, "status") == "hand_edited\n  lessons.md\n"
    (repo_path / ".git" / "index.lock").write_text("")
    blocked = run(*repo, "status")  # the user must act: exit 3, not 0 (a script sees it) nor 1 (an error)
    assert blocked.exit_code == 3, (blocked.stdout, blocked.stderr)
    assert blocked.stdout.startswith("blocked: ") and "index.lock" in blocked.stdout


# -- where the repo comes from -----------------------------------------------------------


def test_repo_resolution_order(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flag, env, conf = tmp_path / "flag", tmp_path / "env", tmp_path / "conf"
    config = tmp_path / "config.toml"
    config.write_text(f'repo = "{conf}"\n')
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    monkeypatch.setenv("MEMREPO_REPO", str(env))

    ok("--repo", str(flag), "remember", "fact one")
    assert [p.name for p in (flag, env, conf) if p.exists()] == ["flag"]
    ok("remember", "fact two")
    assert [p.name for p in (flag, env, conf) if p.exists()] == ["flag", "env"]
    monkeypatch.delenv("MEMREPO_REPO")
    ok("remember", "fact three")
    assert [p.name for p in (flag, env, conf) if p.exists()] == ["flag", "env", "conf"]
    monkeypatch.delenv("MEMREPO_CONFIG")
    default = isolated_home / "agent-memory"
    assert not default.exists()
    ok("remember", "fact four")  # created when missing
    assert (default / "MEMORY.md").is_file()
    for path, text in ((flag, "fact one"), (env, "fact two"), (conf, "fact three"), (default, "fact four")):
        assert [e.text for e in MemoryStore.open(path, plain_settings()).read_file("me.md").entries] == [text]


def test_config_repo_with_tilde(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = isolated_home / "memrepo.toml"
    config.write_text('repo = "~/notes/memory"\n')
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    ok("init")
    assert (isolated_home / "notes" / "memory" / "MEMORY.md").is_file()


# -- errors ---------------------------------------------------------------------------------


def test_a_bad_ref_is_one_line(repo_path: Path) -> None:
    ok("init", str(repo_path))
    one_line_error(run("--repo", str(repo_path), "forget", "repo:../x.md#L1"), "climbs out")
    one_line_error(run("--repo", str(repo_path), "forget", "me.md:3"), "not an entry ref")
    one_line_error(run("--repo", str(repo_path), "forget", "repo:me.md#L1"), "not an entry")


def test_a_path_rule_is_one_line(isolated_home: Path, tmp_path: Path) -> None:
    home = one_line_error(run("--repo", str(isolated_home), "init"), "the repo path is the home folder itself")
    (tmp_path / "proj").mkdir()
    git(tmp_path / "proj", "init", "-q")
    inside = one_line_error(run("--repo", str(tmp_path / "proj" / "mem"), "remember", "x"), "inside the git work tree")
    assert "rule:" not in home + inside  # plain words for people (breaker27 B27-6: "(rule: missing)")
    # A script asks with --json: the rule's id ends the line.
    one_line_error(run("--repo", str(isolated_home), "log", "--json"), "home folder itself", "(rule: home)")
    one_line_error(run("--repo", str(tmp_path / "missing"), "log"), "memrepo init")
    assert not (tmp_path / "missing").exists()


def test_a_bad_config_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    config.write_text("repoo = '/tmp/x'\n")
    one_line_error(run("status"), "repoo", "unknown key")
    config.write_text("[dream]\ndaily_token_budget = 'lots'\n")
    one_line_error(run("log"), "dream.daily_token_budget")
    config.write_text("repo = [unclosed\n")
    one_line_error(run("remember", "x"), "not valid TOML")


def test_a_refused_write_is_one_line(repo_path: Path) -> None:
    ok("init", str(repo_path))
    head = git(repo_path, "rev-parse", "HEAD")
    line = one_line_error(run("--repo", str(repo_path), "remember", "x" * 501), "refused", "500")
    assert "topics/" in line
    one_line_error(run("--repo", str(repo_path), "remember", "pin me", "--pin", "--by", "agent"), "refused")
    (repo_path / ".git" / "index.lock").write_text("")
    # kept and applied once the block is gone: one line that says so, exit 3 as `status` (breaker8 B8-10)
    line = one_line_error(run("--repo", str(repo_path), "remember", "blocked write"), "blocked", "index.lock", code=3)
    assert line.startswith("memrepo: kept: not written yet") and "nothing was written" not in line
    assert git(repo_path, "rev-parse", "HEAD") == head


def test_bad_usage_exits_2(repo_path: Path) -> None:
    # `--scope workspace` alone takes the current folder now (B7-11, tests/cli/test_cli_loss8.py).
    result = run("--repo", str(repo_path), "remember", "x", "--scope", "global", "--workspace", ".")
    one_line_error(result, "--workspace", code=2)
    assert run("remember").exit_code == 2  # missing TEXT: click's usage error


# -- the real console script -------------------------------------------------------------------


def test_the_installed_console_script(repo_path: Path) -> None:
    script = shutil.which("memrepo", path=str(Path(sys.executable).parent))
    assert script is not None
    done = subprocess.run(
        [script, "--repo", str(repo_path), "remember", "from a real process", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["action"] == "added"
    log = subprocess.run([script, "--repo", str(repo_path), "log"], capture_output=True, text=True)
    assert log.stdout.splitlines()[0].endswith("Remember fact: from a real process")
    bad = subprocess.run(
        [script, "--repo", str(repo_path), "forget", "repo:.git/config#L1"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and ".git" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_show_lists_entries_with_refs_for_forget(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from memrepo.cli.main import main

    repo = tmp_path / "mem"
    runner = CliRunner()
    assert runner.invoke(main, ["--repo", str(repo), "init"]).exit_code == 0
    assert runner.invoke(main, ["--repo", str(repo), "remember", "Likes tea", "--kind", "preference"]).exit_code == 0
    shown = runner.invoke(main, ["--repo", str(repo), "show", "me.md"])
    assert shown.exit_code == 0
    ref, by, text = shown.output.split(None, 2)
    assert ref.startswith("repo:me.md#L") and by == "user" and text.strip() == "Likes tea"
    forgot = runner.invoke(main, ["--repo", str(repo), "forget", ref, "--expect", "Likes tea"])
    assert forgot.exit_code == 0, forgot.output
    assert runner.invoke(main, ["--repo", str(repo), "show", "me.md"]).output == ""
    missing = runner.invoke(main, ["--repo", str(repo), "show", "nope.md"])
    assert missing.exit_code == 1 and "no file nope.md" in missing.output


def test_remember_says_which_secret_types_were_redacted(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from memrepo.cli.main import main

    repo = tmp_path / "mem"
    token = "ghp_" + "A1b2C3d4" * 4 + "Zz9y"
    result = CliRunner().invoke(main, ["--repo", str(repo), "remember", f"CI deploys with token {token}"])
    assert result.exit_code == 0, result.output
    assert "[redacted: github-token]" in result.output and token not in result.output
    assert token not in (repo / "me.md").read_text()
