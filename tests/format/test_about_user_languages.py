"""A statement about the user said in another language goes where "My editor is Helix" goes: me.md
(breaker29 B29-2: "Merk dir bitte: mein Editor ist Helix." was kept in the project's file, so no other project's
session learnt the user's editor)."""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.corrections import where
from memrepo.engine.format.remembering import about_user


@pytest.mark.parametrize(
    "text",
    [
        "Mein Editor ist Helix",
        "Meine Zeitzone ist CET",
        "Ich arbeite dienstags von zu Hause",
        "Mi editor es Helix",
        "Mon fuseau horaire est CET",
        "J'utilise fish comme shell",
        "Il mio editor è Helix",
        "O meu editor é o Helix",
        "Mijn editor is Helix",
        "Min editor är Helix",
        "Mój edytor to Helix",
    ],
)
def test_a_first_person_statement_is_the_users_in_any_language(text: str) -> None:
    assert about_user(text)
    assert where(text, "/home/u/proj/wren", [], False) == ("global", None)  # me.md, not wren's file


@pytest.mark.parametrize(
    "text",
    [
        "Die Staging-DB heißt olive",
        "Ja, die Staging-DB heißt olive",  # German "yes", not Polish "I"
        "La base de datos se llama olive",
        "Minor releases ship on Fridays",  # "min" only as a whole word
    ],
)
def test_a_statement_about_something_else_stays_the_projects(text: str) -> None:
    assert not about_user(text)
    assert where(text, "/home/u/proj/wren", [], False) == ("workspace", None)
