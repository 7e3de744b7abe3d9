"""A kept statement lands where it is true (breaker11 B11-3, B11-4, B11-6).

The user's words go through :func:`~memrepo.engine.format.remembering.user_statements` then
:func:`~memrepo.engine.checkpoints.corrections.where`, the path the checkpoint distillation and the ``rules``
dream share: a statement about the user goes to me.md (``global``), a project's to the session's workspace file.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.corrections import where
from memrepo.engine.format.remembering import user_statements
from memrepo.engine.redaction import redact


def placed(message: str) -> list[tuple[str, str]]:
    """(statement, scope) of each statement kept from ``message`` in a session of the workspace "shop"."""
    return [(fact, where(fact, "shop", [])[0]) for fact in user_statements([redact(message)[0]])]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Hi! Some background before we start: I prefer pnpm over npm, and I use fish as my shell. Remember that.",
            "I prefer pnpm over npm, and I use fish as my shell",
        ),
        ("Quick note: I prefer pnpm over npm. Remember that.", "I prefer pnpm over npm"),
        ("For context, my timezone is CET. Please remember that.", "my timezone is CET"),
        ("FYI, I use fish as my shell. Remember that.", "I use fish as my shell"),
    ],
)
def test_a_user_fact_after_a_preamble_goes_to_me_md_without_it(said: str, kept: str) -> None:
    assert placed(said) == [(kept, "global")]


def test_a_preamble_before_a_project_fact_stays_with_it_in_the_workspace() -> None:
    assert placed("Note: the staging host is pg-stage-12. Remember that.") == [
        ("Note: the staging host is pg-stage-12", "workspace")
    ]


def test_and_remember_that_without_a_comma_keeps_the_request_not_the_secret() -> None:
    said = (
        "Oops, for the staging box use password Zq8!tR2#vLp9wX and remember that the staging host is "
        "stage-07.shop.internal"
    )
    assert placed(said) == [("the staging host is stage-07.shop.internal", "workspace")]


def test_remembering_after_and_is_still_no_request_in_i_remember() -> None:
    assert user_statements(["We met in May and I remember that the host was stage-07"]) == []


@pytest.mark.parametrize(
    "said",
    [
        "Remember that my editor is Helix and the blog deploys with make publish.",
        "Remember that my editor is Helix, and the blog deploys with make publish.",
    ],
)
def test_a_user_fact_and_a_project_fact_are_split_to_their_files(said: str) -> None:
    assert placed(said) == [("my editor is Helix", "global"), ("the blog deploys with make publish", "workspace")]


def test_a_mixed_statement_that_cannot_be_split_stays_whole_in_the_workspace() -> None:
    said = "Remember that my editor is Helix and the blog's make target."
    assert placed(said) == [("my editor is Helix and the blog's make target", "workspace")]


def test_two_user_clauses_stay_one_line_in_me_md() -> None:
    assert placed("Remember that I use fish and zsh.") == [("I use fish and zsh", "global")]
