"""A move is a new home only to a place (breaker22 B22-6; engine/read/changeframe.py, docs/architecture.md §4).

"I've moved to Google / Stripe / Payments / Platform Engineering / Windsurf" hid "I live in Lyon": a capitalised word
after "moved to" read as a place unless a list of tools named it, and no list of tools covers employers and teams.
Now "moved to" and "relocated to" move the user only to a place on GeoNames' list (engine/read/places.txt, from
tools/gen_places.py); "live in" and "based in" say a home whatever its name. Each case is a file as ``memrepo
remember`` writes it (one ``added:`` day, the older line first, a line between them); every "keeps" case was hidden
on integration 495d344.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.engine.format.entries import Entry
from memrepo.engine.read.changeframe import is_place
from memrepo.engine.read.contextselect import candidates, replaced

DAY = {"by": "user", "added": "2026-12-05"}
FILLER = "Prefers tea over coffee"


def hidden(old: str, new: str) -> bool:
    """Whether ``new`` hides ``old`` in a file holding old, a filler line and new, in that order."""
    rows = [(n, Entry("", "-", text, dict(DAY))) for n, text in enumerate((old, FILLER, new), start=1)]
    return 1 in replaced(candidates(rows))


@pytest.mark.parametrize(
    "new",
    [
        "I've moved to Google",
        "I moved to Stripe",
        "I moved to Payments",
        "I moved to Platform Engineering",
        "I've moved to Windsurf",
        "I moved to Hyprland",
        "I moved to Remote",
        "I've moved to Spring Boot",
        "I've relocated to Globex",
    ],
)
def test_a_move_to_an_employer_a_team_or_a_tool_keeps_where_i_live(new: str) -> None:
    assert not hidden("I live in Lyon", new)


@pytest.mark.parametrize(
    "new",
    [
        "I've moved to Cork",
        "I've moved to São Paulo",
        "I moved to Rio de Janeiro",
        "I moved to Frankfurt am Main",
        "I moved to Germany",
        "I moved to Boulder Creek, California",  # a village off the list, in a region on it
        "I've relocated to Munich",
        "I'm now based in Cork",
        "I now live in Smallville",  # "live in" says a home whatever its name
    ],
)
def test_a_move_to_a_place_replaces_where_i_live(new: str) -> None:
    assert hidden("I live in Lyon", new)


def test_places_are_looked_up_whole() -> None:
    assert is_place("New York") and is_place("Nice") and is_place("Montréal, Canada")
    assert not is_place("Spring Boot") and not is_place("Platform Engineering") and not is_place("Google")


def test_the_place_list_ships_with_the_package_and_says_where_it_comes_from() -> None:
    from memrepo.engine.read import changeframe

    text = (Path(changeframe.__file__).parent / "places.txt").read_text("utf-8")
    header = [line for line in text.splitlines() if line.startswith("#")]
    names = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert any("GeoNames" in line and "CC BY 4.0" in line for line in header)
    assert names == sorted(names) and len(names) > 30_000
    assert {"lyon", "sao paulo", "new york", "germany"} <= set(names)


def test_the_block_keeps_my_home_after_a_move_to_an_employer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end, as breaker22 ran it: ``memrepo remember`` the home, then the job move, then ``memrepo context``."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMREPO_CONFIG", str(tmp_path / "none.toml"))
    repo = str(tmp_path / "memory")
    runner = CliRunner()
    assert runner.invoke(main, ["init", repo]).exit_code == 0
    for text in ("I live in Lyon", "I've moved to Stripe", "I moved to Paris"):
        assert runner.invoke(main, ["--repo", repo, "remember", text]).exit_code == 0
        block = runner.invoke(main, ["--repo", repo, "context"]).stdout
        if text == "I've moved to Stripe":
            assert "I live in Lyon" in block and "I've moved to Stripe" in block
    assert "I moved to Paris" in block and "I live in Lyon" not in block
