"""Rules and preferences read by the sentence's shape, not its words (issue 30, sess15).

Before: a "please," with its comma before "always" made the mood check read "please" as the clause ("Por favor,
siempre usa ...", "Bitte, immer ..."), an order to stop was heard in English with "-ing" only, a preference after a
lead CLAUSE ("small thing while you're at it, I'd rather ..."), a habit set against what the user never does ("I
use uv, never pip directly", breaker26 B26-2) or one with its verb last ("mir sind X am liebsten", "나는
X 게 좋아", "私はXの方が好きです") was not kept, and "I'd rather you didn't X" read as a choice. The wordings here are
invented, none from a benchmark set.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.preferences import passing_preferences, prefers
from memrepo.engine.format.standing import rule_statements


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Por favor, siempre usa comillas dobles en los mensajes.", "siempre usa comillas dobles en los mensajes"),
        ("Bitte, immer die Tests vor dem Push laufen lassen.", "immer die Tests vor dem Push laufen lassen"),
        ("Alsjeblieft, altijd de tests draaien voor een merge.", "altijd de tests draaien voor een merge"),
        (
            "Neste projeto, por favor, sempre escreva os testes antes do código.",
            "Neste projeto, por favor, sempre escreva os testes antes do código",
        ),
    ],
)
def test_a_please_with_its_comma_before_always_is_still_a_rule(said: str, rule: str) -> None:
    assert rule_statements([said]) == [rule]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Stop met emoji in commitberichten, niemand leest ze.", "Stop met emoji in commitberichten"),
        ("Stop with the emoji in PR descriptions, nobody reads them.", "Stop with the emoji in PR descriptions"),
        ("Hör auf mit den Emojis in den Commit-Nachrichten.", "Hör auf mit den Emojis in den Commit-Nachrichten"),
        (
            "Arrête de mettre des emoji dans les messages de commit.",
            "Arrête de mettre des emoji dans les messages de commit",
        ),
        ("Deja de poner comentarios en inglés en el código.", "Deja de poner comentarios en inglés en el código"),
        ("Smettila di usare le tab nei file YAML.", "Smettila di usare le tab nei file YAML"),
        ("Sluta med emoji i commit-meddelanden, det ser slarvigt ut.", "Sluta med emoji i commit-meddelanden"),
    ],
)
def test_an_order_to_stop_something_is_a_rule_in_any_language(said: str, rule: str) -> None:
    assert rule_statements([said]) == [rule]


@pytest.mark.parametrize(
    "said",
    [
        "Stop that.",
        "Stop met dat nu.",
        "Hör auf damit.",
        "Arrête ça tout de suite.",
        "Para de falar.",
        "Stop the build.",
    ],
)
def test_a_stop_of_the_moment_is_no_rule(said: str) -> None:
    assert rule_statements([said]) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Oh, one more thing: I'd rather you never used wildcard imports in Python code.",
            "I'd rather you never used wildcard imports in Python code",
        ),
        (
            "quick one while we're here, I'd rather you didn't abbreviate names in the public API",
            "I'd rather you didn't abbreviate names in the public API",
        ),
        ("side note: I'd rather you kept answers under ten lines.", "I'd rather you kept answers under ten lines"),
        (
            "Übrigens: mir ist eine kurze Zusammenfassung am Ende jeder Antwort am liebsten.",
            "Mir ist eine kurze Zusammenfassung am Ende jeder Antwort am liebsten",
        ),
        ("förresten, jag föredrar korta svar utan inledning.", "Jag föredrar korta svar utan inledning"),
        ("Ik vind korte antwoorden zonder inleiding prettiger.", "Ik vind korte antwoorden zonder inleiding prettiger"),
        (
            "Por cierto, me gustan más las respuestas cortas y directas.",
            "Me gustan más las respuestas cortas y directas",
        ),
        ("저는 짧은 답변을 선호해요.", "저는 짧은 답변을 선호해요"),
        ("참고로 나는 변수 이름은 길게 쓰는 게 좋아.", "나는 변수 이름은 길게 쓰는 게 좋아"),
        ("ちなみに、僕はコメントは英語で書くほうが好き。", "僕はコメントは英語で書くほうが好き"),
        ("Before we begin: I use pnpm, never npm, for every project.", "I use pnpm, never npm, for every project"),
        ("Ich nutze Podman und nie Docker.", "Ich nutze Podman und nie Docker"),
        ("j'utilise ruff, jamais flake8.", "J'utilise ruff, jamais flake8"),
        ("Jag använder alltid ruff, aldrig flake8.", "Jag använder alltid ruff, aldrig flake8"),
    ],
)
def test_a_preference_after_a_lead_clause_or_with_its_verb_last_is_kept(said: str, kept: str) -> None:
    assert passing_preferences([said]) == [kept]
    assert prefers(kept)


@pytest.mark.parametrize(
    "said",
    [
        "If the tests fail, I'd rather you stopped and asked me.",
        "The build is red, I'd rather you fix it first.",
        "Bob says the docs are fine, I prefer longer docstrings though.",
        "Mir ist das lieber.",
        "I use this function in two places, not one.",
        "I use it, never the other.",
        "Oublie mon numéro de badge, je préfère qu'il ne traîne pas dans tes notes.",
        "Ik vind dat prettiger.",
        "나는 두 번째 옵션이 좋아.",
        "나는 이게 좋아.",
        "私はこれがいい。",
    ],
)
def test_a_condition_a_choice_or_someone_elses_words_is_no_preference(said: str) -> None:
    assert passing_preferences([said]) == []
