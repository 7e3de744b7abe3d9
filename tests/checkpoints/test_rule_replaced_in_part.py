"""A newer rule that replaces the first clause of a stored rule replaces it in part (breaker29 B29-9).

Before: "Going forward, write commit messages in German." left "Write commit messages in English with a lowercase
subject line" in every block beside it: the older rule's extra clause stopped the replacement, two rules
contradicted. Now the newer rule names the older one (``supersedes:``) and the block shows the older rule with its
replaced clause struck, the rest still in force: "~~Write commit messages in English~~ with a lowercase subject line
(replaced in part by L6)" (docs/architecture.md §7, "A rule replaced in part"). A rule said in German, French, Spanish
or Italian is read the same way ("auf Englisch" -> "auf Deutsch", "en inglés" -> "en español").
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.userkept import kept_statements, place
from memrepo.engine.format.samerule import replaced_head, same_rule
from memrepo.engine.read.context import ContextFile, build_context


def _stored(text: str) -> ExistingEntry:
    return ExistingEntry("E1", "lessons.md", 5, text, "user", {"by": "user", "kind": "rule", "added": "2026-11-01"})


@pytest.mark.parametrize(
    ("old", "said", "head"),
    [
        ("Write commit messages in English with a lowercase subject line",
         "Going forward, write commit messages in German.", "Write commit messages in English"),
        ("Answer in English and keep it under ten lines", "From now on, answer in German.", "Answer in English"),
        ("Keep answers under ten lines, with code in fenced blocks", "From now on, keep answers under five lines.",
         "Keep answers under ten lines"),
        ("Indent with 2 spaces and use trailing commas", "Going forward, indent with 4 spaces.",
         "Indent with 2 spaces"),
        ("Schreib Commit-Nachrichten auf Englisch, mit kleingeschriebenem Betreff",
         "Ab jetzt schreib die Commit-Nachrichten bitte auf Deutsch.", "Schreib Commit-Nachrichten auf Englisch"),
        ("Écris les messages de commit en anglais, avec un sujet en minuscules",
         "À partir de maintenant, écris les messages de commit en allemand.",
         "Écris les messages de commit en anglais"),
        ("Escribe los mensajes de commit en inglés y con el asunto en minúsculas",
         "A partir de ahora, escribe los mensajes de commit en español.", "Escribe los mensajes de commit en inglés"),
    ],
)  # fmt: skip
def test_a_newer_rule_replaces_the_first_clause_of_an_older_one(old: str, said: str, head: str) -> None:
    stored = _stored(old)
    kept = kept_statements([said], [stored])
    assert [k.kind for k in kept] == ["rule"]
    assert replaced_head(kept[0].text, old) == head
    assert place(kept[0].text, "rule", None, [stored], [said]) == ("global", stored)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Schreib Commit-Nachrichten auf Englisch", "schreib die Commit-Nachrichten bitte auf Deutsch"),
        ("Écris les messages de commit en anglais", "écris les messages de commit en allemand"),
        ("Scrivi i messaggi di commit in inglese", "scrivi i messaggi di commit in tedesco"),
    ],
)
def test_a_rule_in_another_language_with_a_new_value_replaces_the_older_whole(old: str, new: str) -> None:
    assert same_rule(new, old)
    assert replaced_head(new, old) == ""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Always run the tests before committing and push after", "always run the linter before committing"),
        ("Write commit messages in English with a lowercase subject line", "answer in German"),
        ("Write commit messages in English with a lowercase subject line", "write commit messages in Markdown"),
        ("Write commit messages in English with a lowercase subject line", "write code comments in German"),
    ],
)
def test_a_rule_on_another_subject_or_attribute_replaces_no_part(old: str, new: str) -> None:
    assert not same_rule(new, old)


def test_a_newer_rule_that_says_the_rest_again_replaces_the_older_whole() -> None:
    old = "Write commit messages in English with a lowercase subject line"
    new = "write commit messages in German with a lowercase subject line"
    assert same_rule(new, old)
    assert replaced_head(new, old) == ""


def _block(lessons: str) -> list[str]:
    text = build_context("", [ContextFile("lessons.md", lessons.encode(), 4000)], today="2026-12-07").text
    return [line for line in text.splitlines() if line.startswith("L")]


def test_the_block_strikes_the_replaced_clause_and_keeps_the_rest() -> None:
    shown = _block(
        "# Lessons\n\n"
        "- Write commit messages in English with a lowercase subject line [by: user; added: 2026-11-30; kind: rule]\n"
        "- Keep answers short [by: user; added: 2026-11-30; kind: rule]\n"
        "- Write commit messages in German [by: user; added: 2026-12-05; kind: rule; supersedes: Write commit"
        " messages in English with]\n"
    )
    assert shown == [
        "L3 ~~Write commit messages in English~~ with a lowercase subject line (replaced in part by L5)",
        "L4 Keep answers short",
        "L5 Write commit messages in German",
    ]


def test_a_fact_naming_a_line_is_not_read_as_a_rule_replaced_in_part() -> None:
    shown = _block(
        "# Lessons\n\n"
        "- Write commit messages in English with a lowercase subject line [by: user; added: 2026-11-30; kind: rule]\n"
        "- Write commit messages in German [by: user; added: 2026-12-05; supersedes: Write commit messages in"
        " English with]\n"
    )
    assert shown == ["L4 Write commit messages in German"]


@pytest.mark.parametrize(
    ("old", "new", "part"),
    [
        ("Always answer in English, and keep answers under ten lines", "keep answers under five lines",
         "keep answers under ten lines"),
        ("Use pnpm and write commit messages in English", "write commit messages in German",
         "write commit messages in English"),
    ],
)  # fmt: skip
def test_a_newer_rule_replaces_a_later_clause_with_its_own_verb(old: str, new: str, part: str) -> None:
    assert same_rule(new, old)
    assert replaced_head(new, old) == part


def test_the_block_strikes_a_replaced_later_clause() -> None:
    shown = _block(
        "# Lessons\n\n"
        "- Always answer in English, and keep answers under ten lines [by: user; added: 2026-11-30; kind: rule]\n"
        "- Keep answers under five lines [by: user; added: 2026-12-05; kind: rule; supersedes: Always answer in"
        " English, and]\n"
    )
    assert shown == [
        "L3 Always answer in English, and ~~keep answers under ten lines~~ (replaced in part by L4)",
        "L4 Keep answers under five lines",
    ]
