"""A switch that names only its new value replaces the line of its kind (breaker30 B30-1's rest, B30-21; sess20).

Our own phrasings, in English, German, French and Spanish; semantic off (the rules alone) unless a test gives a model.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from memrepo.engine.checkpoints import meaningmatch
from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections, where
from memrepo.engine.checkpoints.newswitch import (
    NEAR_WAITS,
    NO_LINE_WAITS,
    NO_MODEL_WAITS,
    SEVERAL_WAITS,
    family,
    new_value,
    unnamed_switch,
    waits,
)

YARN = ExistingEntry("E1", "me.md", 5, "I install JavaScript packages with yarn", "user", {"kind": "preference"})
EDITOR = ExistingEntry("E2", "me.md", 6, "My editor of choice is Sublime", "user", {"kind": "preference"})
SHELL = ExistingEntry("E3", "me.md", 7, "I work in zsh", "user", {"kind": "preference"})
DB = ExistingEntry("E4", "workspaces/kiosk.md", 5, "The kiosk stores orders in MariaDB", "user", {"kind": "fact"})
HOST = ExistingEntry("E5", "workspaces/kiosk.md", 6, "The kiosk runs on Railway", "user", {"kind": "fact"})
NOTES = ExistingEntry("E6", "me.md", 8, "I keep my notes in Bear", "user", {"kind": "preference"})
LINES = [YARN, EDITOR, SHELL, DB, HOST, NOTES]


@pytest.fixture(autouse=True)
def _rules_alone() -> Iterator[None]:
    meaningmatch.use_model(None)
    yield
    meaningmatch.reset()


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I'm using pnpm these days.", YARN),
        ("Now I use Neovim.", EDITOR),
        ("I've switched to fish.", SHELL),
        ("We migrated to SQLite.", DB),
        ("We're on Fly.io now.", HOST),
        ("Ich verwende inzwischen Helix.", EDITOR),
        ("Wir sind auf Postgres gewechselt.", DB),
        ("J'utilise maintenant bun.", YARN),
        ("On est passé à Vercel.", HOST),
        ("Me cambié a nushell.", SHELL),
    ],
)
def test_a_known_kind_replaces_its_one_line(said: str, line: ExistingEntry) -> None:
    assert where(said.rstrip("."), "kiosk", LINES)[1] is line
    assert correction_statements([said], LINES) == [said.rstrip(".")]
    assert proposed_corrections([said], LINES) == []


@pytest.mark.parametrize(
    "said",
    [
        "I use pnpm for side projects too.",  # an addition, for a part
        "My teammate uses Neovim now.",  # another person
        "I used Neovim back in 2020.",  # the past
        "I use pnpm.",  # no change said
        "Maybe I'll switch to fish.",  # a plan
        "I'm on call now.",  # no tool
        "We moved to Thursday.",  # a day
        "Mein Kollege benutzt jetzt Helix.",
        "Je suis passé chez le dentiste.",
    ],
)
def test_look_alikes_keep_nothing(said: str) -> None:
    assert correction_statements([said], LINES) == []
    assert proposed_corrections([said], LINES) == []


def test_a_line_about_someone_the_user_knows_is_never_the_users_switch() -> None:
    for line in ("My teammate works in Sublime", "My boss's editor is Sublime"):
        lines = [ExistingEntry("E1", "me.md", 5, line, "user", {})]
        assert unnamed_switch("I'm on Neovim these days", lines).line is None  # type: ignore[union-attr]
        assert correction_statements(["I'm on Neovim these days."], lines) == []


def test_a_known_kind_with_no_line_of_it_relates_none_not_another_kind() -> None:
    lines = [SHELL, NOTES, HOST]  # no package manager stored: bun is not zsh's replacement
    assert unnamed_switch("I use bun now", lines) is not None
    assert unnamed_switch("I use bun now", lines).line is None  # type: ignore[union-attr]
    assert where("I use bun now", None, lines)[1] is None
    assert correction_statements(["I use bun now."], lines) == proposed_corrections(["I use bun now."], lines) == []


def test_a_we_switch_looks_at_the_project_and_an_i_switch_at_the_user() -> None:
    assert unnamed_switch("I'm on Postgres now", LINES).line is None  # type: ignore[union-attr]
    assert unnamed_switch("We use Emacs now", LINES).line is None  # type: ignore[union-attr]


def test_two_lines_of_the_kind_or_a_line_of_several_things_are_only_proposed() -> None:
    other = ExistingEntry("E9", "me.md", 9, "I use npm at work", "user", {"kind": "preference"})
    assert proposed_corrections(["I'm using pnpm these days."], [YARN, other]) == ["I'm using pnpm these days"]
    both = ExistingEntry("E9", "me.md", 9, "I work in zsh and keep notes in Bear", "user", {})
    assert proposed_corrections(["I've switched to fish."], [both]) == ["I've switched to fish"]
    assert correction_statements(["I've switched to fish."], [both]) == []


def test_a_new_version_of_a_stored_name_is_left_to_the_version_rules() -> None:
    line = ExistingEntry("E1", "workspaces/kiosk.md", 5, "The kiosk stores orders in MariaDB 10", "user", {})
    assert new_value("We're on MariaDB 11 now") == ("MariaDB 11", True)
    assert unnamed_switch("We're on MariaDB 11 now", [line]) is None


def test_values_and_families() -> None:
    assert new_value("I'm on Emacs these days") == ("Emacs", False)
    assert new_value("We've moved over to VS Code") == ("VS Code", True)
    assert new_value("I'm on Emacs") is None  # no change said
    assert family("pnpm") == "js package manager" and family("Postgres 16") == "database"
    assert family("Ghostty") == "terminal" and family("Logseq") is None


AXES = {"logseq": 0, "bear": 0, "notes": 0, "yarn": 1, "sublime": 2, "zsh": 3, "mariadb": 4, "railway": 5}


class _Words:
    """A stand-in model: a word's vector is its kind's axis, so Logseq is near Bear (notes) and far from the rest."""

    def model_id(self) -> str:
        return "words"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        out = []
        for text in texts:
            vec = [0.0] * 7
            vec[AXES.get(text.casefold(), 6)] = 1.0
            vec[0] += 0.05 * (len(text) % 4)  # a little of everything near the notes axis, unequal
            norm = sum(x * x for x in vec) ** 0.5
            out.append([x / norm for x in vec])
        return out


def test_another_name_is_matched_by_meaning_and_only_proposed() -> None:
    meaningmatch.use_model(_Words())
    more = [
        ExistingEntry(f"E{i}", "me.md", i, f"I like {w}", "user", {}) for i, w in enumerate(("tea", "jazz", "cats"))
    ]
    lines = [YARN, EDITOR, SHELL, NOTES, *more]
    found = unnamed_switch("I'm using Logseq now", lines)
    assert found is not None and found.line is NOTES and not found.sure
    assert proposed_corrections(["I'm using Logseq now."], lines) == ["I'm using Logseq now"]
    assert correction_statements(["I'm using Logseq now."], lines) == []
    meaningmatch.use_model(None)
    assert unnamed_switch("I'm using Logseq now", lines).line is None  # type: ignore[union-attr]  # no model: no line
    assert waits("I'm using Logseq now", lines) == NO_MODEL_WAITS  # proposed with no line named, saying why


def test_a_name_of_no_known_kind_with_no_line_is_proposed_saying_why() -> None:
    lines = [YARN, EDITOR, NOTES]
    assert proposed_corrections(["I switched to Capacities."], lines) == ["I switched to Capacities"]
    assert waits("I switched to Capacities", lines) == NO_MODEL_WAITS  # the rules alone (the fixture)
    meaningmatch.use_model(_Words())  # a model, and no line stands out (too few lines to tell)
    assert waits("I switched to Capacities", lines) == NO_LINE_WAITS
    assert waits("I'm using pnpm these days", lines) is None  # a known kind: its line, no waiting reason


def test_a_lowercase_word_of_no_known_kind_is_left_to_the_other_rules() -> None:
    for said in ("We're running tests now", "I'm running late now", "I'm on mobile now"):
        assert new_value(said) is not None and unnamed_switch(said, LINES) is None, said
        assert proposed_corrections([said + "."], LINES) == correction_statements([said + "."], LINES) == []


def test_a_proposal_naming_a_line_says_how_it_was_found() -> None:
    other = ExistingEntry("E9", "me.md", 9, "I use npm at work", "user", {"kind": "preference"})
    assert waits("I'm using pnpm these days", [YARN, other]) == SEVERAL_WAITS  # two lines of its family
    meaningmatch.use_model(_Words())
    more = [
        ExistingEntry(f"E{i}", "me.md", i, f"I like {w}", "user", {}) for i, w in enumerate(("tea", "jazz", "cats"))
    ]
    assert waits("I'm using Logseq now", [YARN, EDITOR, SHELL, NOTES, *more]) == NEAR_WAITS  # found by meaning
    assert waits("I've switched to fish", LINES) is None  # sure: kept at once, no waiting
