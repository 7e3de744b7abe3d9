"""``memrepo context`` and ``memrepo recall``: what an agent gets, from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def test_context_prints_the_block_the_engine_builds(store: MemoryStore, tmp_path: Path) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    store.remember(
        Candidate(text="The shop uses Stripe test keys locally", scope="workspace", workspace=str(project), by="user")
    )
    result = run("--repo", str(store.root), "context", "--workspace", str(project))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == store.context(str(project)).text
    assert "The shop uses Stripe test keys locally" in result.stdout
    as_json = json.loads(run("--repo", str(store.root), "context", "--json").stdout)
    assert as_json["sections"][0]["path"] == "MEMORY.md" and as_json["sections"][0]["budget"] == 500


def test_recall_prints_hits_and_json(store: MemoryStore) -> None:
    store.remember(Candidate(text="Prefers fish shell over bash", kind="preference", by="user"))
    store.remember(Candidate(text="The wiki says use zsh", untrusted=True))
    result = run("--repo", str(store.root), "recall", "shell")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("repo:me.md#L")
    assert "Prefers fish shell over bash" in result.stdout
    lines = run("--repo", str(store.root), "recall", "zsh", "--json").stdout.splitlines()
    hit = json.loads(lines[0])
    assert hit["path"] == "inbox.md" and hit["unreviewed"] is True


def test_recall_scoped_to_a_workspace_and_limited(store: MemoryStore, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    store.remember(Candidate(text="Service alpha runs on port 7001", scope="workspace", workspace=str(a)))
    store.remember(Candidate(text="Service beta runs on port 7002", scope="workspace", workspace=str(b)))
    scoped = run("--repo", str(store.root), "recall", "service port", "--workspace", str(a))
    assert "alpha" in scoped.stdout and "beta" not in scoped.stdout
    limited = run("--repo", str(store.root), "recall", "service port", "-n", "1")
    assert len(limited.stdout.splitlines()) == 1


def test_recall_without_a_match_says_so_on_one_line(store: MemoryStore) -> None:
    result = run("--repo", str(store.root), "recall", "nothing-like-this")
    assert result.exit_code == 1
    assert result.stderr == "memrepo: no memory matches 'nothing-like-this'\n"


def test_read_commands_never_create_a_repo(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    for args in (["context"], ["recall", "x"]):
        result = run("--repo", str(missing), *args)
        assert result.exit_code == 1 and "memrepo init" in result.stderr
    assert not missing.exists()


def test_recall_of_an_empty_query_is_a_usage_error(tmp_path: Path) -> None:
    repo = ["--repo", str(tmp_path / "mem")]
    CliRunner().invoke(main, [*repo, "remember", "Uses ruff for linting", "--kind", "rule"])
    for query in ("", "   ", " ?! ...", "\t-"):
        result = CliRunner().invoke(main, [*repo, "recall", query])
        assert result.exit_code == 2, (query, result.output)
        assert result.stderr.strip() == (
            "memrepo: empty query: give a word to search for (spaces and punctuation match nothing)"
        )
    assert CliRunner().invoke(main, [*repo, "recall", "ruff"]).exit_code == 0


NEAREST = "No entry answers this confidently. The nearest entries, which may not answer it:\n"


def test_recall_json_and_plain_agree_on_the_exit_code_and_all_shows_weak_hits(store: MemoryStore) -> None:
    store.remember(Candidate(text="Works at Fjordline Labs in Stockholm", by="user"))
    question = "what is the wifi password in Stockholm"  # one weak word of six: under the confidence minimum
    plain = run("--repo", str(store.root), "recall", question)
    assert plain.exit_code == 1, plain.stdout  # no confident answer: exit 1, as with no hit (scripts rely on it)
    assert plain.stderr == NEAREST
    assert plain.stdout.endswith("Works at Fjordline Labs in Stockholm  [nearest, not an answer]\n")
    as_json = run("--repo", str(store.root), "recall", question, "--json")
    assert as_json.exit_code == 1 and as_json.stderr == NEAREST
    near = json.loads(as_json.stdout.splitlines()[0])
    assert near["text"] == "Works at Fjordline Labs in Stockholm" and near["answer"] is False
    for extra in ([], ["--json"]):  # no word of the query in memory: nothing at all, as before
        result = run("--repo", str(store.root), "recall", "quantum chromodynamics", *extra)
        assert result.exit_code == 1 and result.stdout == "" and "no memory matches" in result.stderr
    shown = run("--repo", str(store.root), "recall", question, "--all", "--json")
    hit = json.loads(shown.stdout.splitlines()[0])
    assert hit["text"] == "Works at Fjordline Labs in Stockholm" and 0 < hit["confidence"] < 0.38
    # Every match is listed, but a hit under the minimum is no answer: marked, and exit 1 as without --all.
    assert hit["answer"] is False
    assert shown.exit_code == 1 and shown.stderr == NEAREST


def test_recall_all_marks_only_the_hits_under_the_minimum_as_no_answer(store: MemoryStore) -> None:
    store.remember(Candidate(text="Deploys go out with make release from the main branch", by="user"))
    store.remember(Candidate(text="The main Kafka consumers read the orders topic", by="user"))
    question = "which make target releases deploys from the main branch"  # the second holds only "main"
    answers = run("--repo", str(store.root), "recall", question, "--json")
    assert [json.loads(line)["text"] for line in answers.stdout.splitlines()] == [
        "Deploys go out with make release from the main branch"
    ]
    for extra in (["--json"], []):
        shown = run("--repo", str(store.root), "recall", question, "--all", *extra)
        assert shown.exit_code == 0 and shown.stderr == "", shown.stderr  # an answer is there: no nearest line
        if extra:
            hits = [json.loads(line) for line in shown.stdout.splitlines()]
            assert [(h["text"], h["answer"]) for h in hits] == [
                ("Deploys go out with make release from the main branch", True),
                ("The main Kafka consumers read the orders topic", False),
            ]
            assert hits[1]["confidence"] < 0.38 * 0.3 <= hits[0]["confidence"]
        else:
            lines = shown.stdout.splitlines()
            assert not lines[0].endswith("[nearest, not an answer]")
            assert lines[1].endswith("The main Kafka consumers read the orders topic  [nearest, not an answer]")


def test_the_quick_path_agrees_on_exit_codes_and_all(store: MemoryStore) -> None:
    import os
    import subprocess
    import sys

    store.remember(Candidate(text="Works at Fjordline Labs in Stockholm", by="user"))
    probe = "import sys; sys.argv = ['memrepo', *sys.argv[1:]]; from memrepo.cli import quick; quick.run()"

    def quick(*args: str) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, MEMREPO_CONFIG=os.devnull + ".none")
        cmd = [sys.executable, "-c", probe, "--repo", str(store.root), "recall", *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)

    question = "what is the wifi password in Stockholm"
    for extra in ([], ["--json"]):  # the nearest entry, marked, and exit 1: as the click path prints it
        result = quick(question, *extra)
        clicked = run("--repo", str(store.root), "recall", question, *extra)
        assert result.returncode == clicked.exit_code == 1, (extra, result.stdout)
        assert result.stdout == clicked.stdout and result.stderr == clicked.stderr == NEAREST
    assert json.loads(quick(question, "--json").stdout)["answer"] is False
    assert "[nearest, not an answer]" in quick(question).stdout
    nothing = quick("quantum chromodynamics")
    assert nothing.returncode == 1 and nothing.stdout == "" and "no memory matches" in nothing.stderr
    shown = quick(question, "--all", "--json")
    clicked = run("--repo", str(store.root), "recall", question, "--all", "--json")
    assert shown.returncode == clicked.exit_code == 1 and shown.stdout == clicked.stdout, shown.stderr
    first = json.loads(shown.stdout.splitlines()[0])
    assert first["text"] == "Works at Fjordline Labs in Stockholm" and first["answer"] is False
