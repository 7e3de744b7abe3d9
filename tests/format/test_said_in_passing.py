"""Pins, preferences and the user's own setup said in more shapes and languages (issue 30, sess14).

Before: "Pin this one: X" and "Pinne das bitte an: X" were not heard (a word between the verb and its colon), Dutch
and Polish preferences ("Ik heb liever ...", "wolę ...") were not kept, nor "I switched my terminal to fish".
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.preferences import own_setup, passing_preferences
from memrepo.engine.format.remembering import pinned_statements


@pytest.mark.parametrize(
    ("said", "pinned"),
    [
        ("Pin this one: never force-push to main on otter.", "never force-push to main on otter"),
        ("Pin that one too: we release on Fridays.", "we release on Fridays"),
        ("Pinne das bitte an: Migrationen laufen nur über make migrate.", "Migrationen laufen nur über make migrate"),
        ("Heft das bitte oben an: Deploys nur dienstags.", "Deploys nur dienstags"),
        ("Pin dit vast: we deployen op dinsdag.", "we deployen op dinsdag"),
        ("Przypnij to: wdrażamy we wtorki.", "wdrażamy we wtorki"),
    ],
)
def test_a_pin_request_with_words_before_its_colon_is_heard(said: str, pinned: str) -> None:
    assert pinned_statements([said]) == [pinned]


@pytest.mark.parametrize("said", ["Pin this version: numpy 1.26", "Pin this one version: numpy 1.26"])
def test_a_noun_after_this_is_still_a_task(said: str) -> None:
    assert pinned_statements([said]) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Ik heb liever korte antwoorden met code eerst.", "Ik heb liever korte antwoorden met code eerst"),
        ("Trouwens, ik wil liever geen emoji in commits.", "Ik wil liever geen emoji in commits"),
        ("Nie lubię długich wyjaśnień w odpowiedziach.", "Nie lubię długich wyjaśnień w odpowiedziach"),
        (
            "Ogólnie, we wszystkich projektach, wolę krótkie odpowiedzi: najpierw kod, potem wyjaśnienie.",
            "We wszystkich projektach, wolę krótkie odpowiedzi: najpierw kod, potem wyjaśnienie",
        ),
    ],
)
def test_dutch_and_polish_preferences_are_kept(said: str, kept: str) -> None:
    assert passing_preferences([said]) == [kept]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("btw I switched my terminal to fish, so bash-isms won't work", ["I switched my terminal to fish"]),
        ("I moved my dotfiles to chezmoi.", ["I moved my dotfiles to chezmoi"]),
        ("Ich habe meine Shell auf zsh umgestellt.", ["Ich habe meine Shell auf zsh umgestellt"]),
        ("I switched the config to YAML.", []),
        ("I switched to the other branch.", []),
        ("my colleague switched his editor to vim", []),
        ("I think I switched my editor to Zed, not sure", []),
    ],
)
def test_a_change_of_the_users_own_setup_is_kept(said: str, kept: list[str]) -> None:
    assert own_setup([said]) == kept
