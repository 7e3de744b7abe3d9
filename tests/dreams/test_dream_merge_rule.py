"""The merge rule (docs/architecture.md §6): a dream merges automatically only lines that differ in form.

Contradicting lines (a negation, an antonym, a name, a place, a date, a number,
another word) are never merged automatically, by the offline dreamer or by a
model; when one replaces the other, the user's line, then the newer one, stays,
and the operation goes to review marked as a replacement. Restatements in other
words are found and sent to review. Reasons name files, lines and texts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.dream_helpers import alias, make_repo, run_with

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.dreams.same import Likeness, equal

CONTRADICTIONS = [
    ("Do not use the staging database for load tests", "Use the staging database for load tests"),
    ("The nightly export job is enabled", "The nightly export job is disabled"),
    ("The billing service is owned by Alice Martin", "The billing service is owned by Bruno Martin"),
    ("The staging cluster runs in eu-west-1", "The staging cluster runs in us-west-1"),
    ("The release freeze starts on Thursday each week", "The release freeze starts on Friday each week"),
    ("Indent Makefiles with tabs in this repo", "Indent Makefiles with spaces in this repo"),
    ("The search API listens on port 9200", "The search API listens on port 9300"),
    ("The warehouse is hosted on Snowflake", "The warehouse is hosted on BigQuery"),
]
"""Pairs of agent lines that say different things; the second is the newer."""


def _lessons(*lines: str) -> dict[str, str]:
    return {"lessons.md": "# Lessons\n\n" + "".join(f"- {ln}\n" for ln in lines)}


@pytest.mark.parametrize(("older", "newer"), CONTRADICTIONS)
def test_contradicting_lines_are_never_merged_automatically(repo_path: Path, older: str, newer: str) -> None:
    store = make_repo(
        repo_path, _lessons(f"{older} [by: agent; added: 2025-01-01]", f"{newer} [by: agent; added: 2025-03-01]")
    )
    head = store.head()
    record = Dreamer(store).run()
    text = (repo_path / "lessons.md").read_text()
    assert older in text and newer in text  # main keeps both lines
    assert record.auto_commit is None and store.head() == head
    ops = [op for op in record.operations if op.classification != "rejected"]
    assert len(ops) == 1, [op.model_dump() for op in record.operations]
    op = ops[0]
    assert op.classification == "review" and op.relation == "replacement"
    assert op.before == older and op.kept_text == newer  # the newer line is the one that stays


def test_a_newer_line_wins_by_its_date_not_its_place(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _lessons(
            "The app targets iOS 17 and later [by: agent; added: 2025-05-01]",
            "The app targets iOS 16 and later [by: agent; added: 2025-01-13]",
        ),
    )
    record = Dreamer(store).run()
    (op,) = record.operations
    assert op.classification == "review" and op.before == "The app targets iOS 16 and later"
    assert op.kept_text == "The app targets iOS 17 and later"


def test_the_users_line_wins_over_a_newer_agent_line(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _lessons(
            "Production deploys are allowed on Fridays [by: user; added: 2025-01-04]",
            "Production deploys are never allowed on Fridays [by: agent; added: 2025-04-26]",
        ),
    )
    record = Dreamer(store).run()
    (op,) = record.operations
    assert op.classification == "review" and op.relation == "replacement"
    assert op.before == "Production deploys are never allowed on Fridays"
    assert "allowed on Fridays [by: user" in (repo_path / "lessons.md").read_text()


def test_an_agent_duplicate_of_a_users_line_goes_and_the_users_stays(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _lessons(
            "Terraform state lives in the ops-state bucket [by: agent; added: 2025-03-15; kind: fact]",
            "Terraform state lives in the ops-state bucket [by: user; added: 2025-01-05]",
        ),
    )
    record = Dreamer(store).run()
    (op,) = record.operations
    assert op.classification == "auto" and op.op == "delete"
    text = (repo_path / "lessons.md").read_text()
    assert text.count("Terraform state") == 1 and "[by: user" in text


def test_spelling_and_spacing_variants_of_agent_lines_merge_automatically(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _lessons(
            "Favourite editor colour scheme is Solarized Dark [by: agent]",
            "Favorite editor color scheme is Solarized Dark [by: agent]",
            "The indexer uses vim key bindings [by: agent]",
            "The indexer uses vim keybindings [by: agent]",
        ),
    )
    record = Dreamer(store).run()
    assert [op.classification for op in record.operations] == ["auto", "auto"]
    text = (repo_path / "lessons.md").read_text()
    assert text.count("Solarized Dark") == 1 and text.count("The indexer uses vim") == 1


def test_a_restatement_in_other_words_is_found_and_sent_to_review(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        {
            "me.md": "# About me\n\n- Sam works on the platform team [by: user]\n",
            "lessons.md": "# Lessons\n\n"
            "- Use pnpm, not npm or yarn, in every JavaScript repo [by: user; added: 2025-01-15]\n"
            "- Run the linters locally before asking for review [by: agent; added: 2025-01-20]\n"
            "- Prefers pnpm over npm for JavaScript projects [by: agent; added: 2025-03-10]\n",
        },
    )
    record = Dreamer(store).run()
    (op,) = record.operations
    assert op.classification == "review" and op.relation == "restatement"
    assert op.before == "Prefers pnpm over npm for JavaScript projects"
    assert op.kept_text == "Use pnpm, not npm or yarn, in every JavaScript repo"
    assert "Prefers pnpm over npm" in (repo_path / "lessons.md").read_text()


def test_a_models_automatic_merge_of_contradicting_lines_goes_to_review(repo_path: Path) -> None:
    """The rule holds whoever proposes: a model's merge of lines that are not equal is never automatic."""
    store = make_repo(
        repo_path,
        _lessons(
            "Do not use the staging database for load tests [by: agent; added: 2025-01-01]",
            "Use the staging database for load tests [by: agent; added: 2025-03-01]",
        ),
    )

    def answer(din):
        lines = [alias(din, CONTRADICTIONS[0][0]), alias(din, CONTRADICTIONS[0][1])]
        text = CONTRADICTIONS[0][0]
        return {"operations": [{"op": "merge", "lines": lines, "text": text, "path": "lessons.md", "reason": "dup"}]}

    record = run_with(store, answer)
    (op,) = record.operations
    assert op.classification == "review" and "differ" in (op.detail or "")
    assert "Use the staging database for load tests [by: agent" in (repo_path / "lessons.md").read_text()


def test_a_models_delete_naming_a_kept_line_that_differs_goes_to_review(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _lessons(
            "The nightly export job is enabled [by: agent]",
            "The nightly export job is disabled [by: agent]",
            "The nightly export job is disabled [by: agent]",
        ),
    )

    def answer(din):
        enabled = alias(din, "The nightly export job is enabled")
        keep = alias(din, "The nightly export job is disabled")
        dup = alias(din, "The nightly export job is disabled", 1)
        return {
            "operations": [
                {"op": "delete", "line": enabled, "keep": keep, "reason": "same as the disabled one"},
                {"op": "delete", "line": dup, "keep": keep, "reason": "duplicate"},
            ]
        }

    record = run_with(store, answer)
    assert [op.classification for op in record.operations] == ["review", "auto"]
    assert record.operations[1].kept_ref == "repo:lessons.md#L4"


def test_reasons_name_file_lines_and_texts_never_aliases(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _lessons(
            "Run ruff before committing [by: agent]",
            "Run ruff before committing [by: agent]",
            "The nightly export job is enabled [by: agent; added: 2025-01-01]",
            "The nightly export job is disabled [by: agent; added: 2025-02-01]",
        ),
    )
    record = Dreamer(store).run()
    assert len(record.operations) == 2
    for op in record.operations:
        assert not re.search(r"\bL\d+\b", op.reason), op.reason
        assert "lessons.md:" in op.reason


def test_a_models_alias_in_a_reason_is_recorded_as_the_file_line(repo_path: Path) -> None:
    store = make_repo(repo_path, _lessons("Run ruff first [by: agent]", "Run ruff first [by: agent]"))

    def answer(din):
        first, second = alias(din, "Run ruff first"), alias(din, "Run ruff first", 1)
        return {"operations": [{"op": "delete", "line": second, "reason": f"same as {first}; {first} stays"}]}

    record = run_with(store, answer)
    assert record.operations[0].reason == "same as lessons.md:3; lessons.md:3 stays"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Uses C++ for the engine", "Uses C for the engine"),
        ("Timeout is 1.5 s", "Timeout is 15 s"),
        ("Tabs in Makefiles, spaces in Python", "Spaces in Makefiles, tabs in Python"),
        ("Never deploy on Fridays", "Deploy on Fridays"),
        ("Sam likes tea", "Sam dislikes tea"),
        ("🚀", "✅"),
    ],
)
def test_equal_holds_only_for_form(a: str, b: str) -> None:
    assert not equal(a, b)
    assert Likeness([a, b]).relate(a, b).kind != "equal"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Run ruff before committing", "run ruff before committing."),
        ("My favourite colour is blue", "My favorite color is blue"),
        ("Prefers vim key bindings", "Prefers vim keybindings"),
        ("Analyse the logs first", "Analyze the logs first"),
        ("Use the cancelled flag", "Use the canceled flag"),
        ("Don't push to main", "Dont push to main!"),
    ],
)
def test_equal_holds_for_form_only_differences(a: str, b: str) -> None:
    assert equal(a, b)
