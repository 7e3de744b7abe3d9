"""A newer pin or rule that turns an older one around hides it in the block, an added clause or not (issue 30;
engine/read/changeframe.py ``reversed_value``, contextselect.py ``_turned``; docs/architecture.md §4).

breaker23 B23-8: ``remember --pin "Deploy from the release branch again; main is frozen until January"`` left the
older pin "Deploy from main; the release branch is retired" in every block, first: the clause "until January" is a
new value, so the line read as a value added. B23-12 (block side): "Use npm instead of pnpm" stood beside "Use
pnpm", both the user's rules. A newer line with the older line's head and frame whose value is turned, and that says
so ("instead of X", ", not X", "X was ..." naming the older value; "again" or "back" around a frame holding a topic
word), replaces it; what follows its first ";" or "," does not stop the match.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.engine.format.entries import Entry
from memrepo.engine.read.contextselect import candidates, replaced

DAY = {"by": "user", "added": "2026-12-05"}
FILLER = "Prefers tea over coffee"


def hides(old: str, new: str, kind: str = "") -> bool:
    """Whether ``new`` hides ``old`` in a file of the two with an unrelated line between (all of ``kind``)."""
    meta = DAY | ({"kind": kind} if kind else {})
    rows = [(n, Entry("", "-", text, dict(meta))) for n, text in enumerate((old, FILLER, new), start=1)]
    return replaced(candidates(rows)).get(1) == 3


TURNED = [
    (
        "Deploy from main; the release branch is retired",
        "Deploy from the release branch again; main is frozen until January",
    ),
    ("Use pnpm", "Use npm instead of pnpm"),
    ("Use tabs for indentation", "Use spaces instead of tabs for indentation"),
    ("Indent with 2 spaces", "Indent with 4 spaces; 2 was too cramped"),
    ("Answer in German", "Answer in English again, German was a bad idea"),
    ("Deploy on Mondays", "Deploy on Fridays, not on Mondays"),
    ("Use yarn", "Instead of yarn, use pnpm; yarn was too slow"),
    ("Reply in English", "Reply in German again, the client asked"),
]


@pytest.mark.parametrize(("old", "new"), TURNED)
@pytest.mark.parametrize("kind", ["", "rule"])
def test_a_newer_line_that_turns_the_older_value_around_hides_it(old: str, new: str, kind: str) -> None:
    assert hides(old, new, kind)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Use pnpm", "Use npm for the docs site"),  # no turn named: another scope
        ("Use pnpm for the web app", "Use npm instead of pnpm for the docs site"),  # another scope
        ("Use pnpm in the web app", "Use npm instead of pnpm in the docs app"),
        ("Deploy from main", "Deploy the docs from the release branch again"),
        ("Deploy web from main", "Deploy api from the release branch again"),  # another subject
        ("Use tabs in Go files", "Use spaces instead of tabs in Python files"),
        ("Use 2 spaces in YAML", "Use 4 spaces in Python; 2 was too cramped"),
        ("I use pnpm", "My team uses npm instead of pnpm"),  # another owner
        ("Alice reviews payments PRs", "Bob reviews payments PRs again"),
        ("Alice owns billing", "Alice owns invoicing again"),  # a second duty ("again" alone needs the same fact)
        ("Use pnpm", "Use npm instead of yarn"),  # turns away from a value the older line never held
        ("Use pnpm", "Use Redis again"),  # "again" around a frame of function words only
        ("Answer in German", "Answer in English when the client is on the call"),
        ("Use Postgres for the api", "Use MySQL for the web, not Postgres"),
    ],
)
def test_a_turn_of_another_scope_owner_or_value_hides_nothing(old: str, new: str) -> None:
    assert not hides(old, new)


def _shown(block: str) -> list[str]:
    return [line for line in block.splitlines() if re.match(r"L\d+ ", line)]


def test_remember_pin_that_turns_the_older_pin_around_leaves_only_the_newer_in_the_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """breaker23 B23-8's repro through the CLI, and B23-12's "Use npm instead of pnpm" as two ``--kind rule`` lines."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMREPO_CONFIG", str(tmp_path / "none.toml"))
    repo = tmp_path / "memory"
    runner = CliRunner()

    def mr(*args: str) -> str:
        done = runner.invoke(main, ["--repo", str(repo), *args])
        assert done.exit_code == 0, (args, done.output)
        return done.stdout

    mr("init", str(repo))
    mr("remember", "--pin", "Deploy from main; the release branch is retired")
    mr("remember", "--pin", "Deploy from the release branch again; main is frozen until January")
    mr("remember", "--kind", "rule", "Use pnpm")
    mr("remember", "--kind", "rule", "Use npm instead of pnpm")
    shown = _shown(mr("context"))
    assert any(line.endswith("Deploy from the release branch again; main is frozen until January") for line in shown)
    assert not any("Deploy from main" in line for line in shown), shown
    assert any(line.endswith("Use npm instead of pnpm") for line in shown), shown
    assert not any(line.endswith("Use pnpm") for line in shown), shown
