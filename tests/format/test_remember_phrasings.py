"""Which ways of asking to keep a fact the model-free rule hears (breaker7 B7-17, B7-6).

Before: "Please remember the X is Y", "Remember, X", "... Please update your memory.", "Note to self for
memory: X", "keep in mind that X", "from now on, X", "for future reference", 记住/기억해 were dropped with no
signal, "Scratch that:" was kept in the entry, and "make it say: remember that X" was kept as a request.
The labelled sets are ``benchmarks/remember_phrasings/``; a wrong store is worse than a missed one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memrepo.engine.format.remembering import readable, user_statements, without_leadin

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_remember_phrasings as bench


@pytest.mark.parametrize("path", [bench.SET, bench.HELDOUT], ids=["phrasings", "heldout"])
def test_the_labelled_sets_are_heard_without_a_wrong_store(path: Path) -> None:
    result = bench.score(bench.load(path))
    assert result["false_stores"] == 0, result["misses"]
    assert result["precision"] == 1.0, result["misses"]
    assert result["recall"] >= 0.95, result["misses"]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Please remember the staging host is pg-stage-12.", "the staging host is pg-stage-12"),
        ("Remember, the shop's CDN is Fastly now.", "the shop's CDN is Fastly now"),
        (
            "No, that's wrong: the staging DB host is pg-stage-11 now. Please update your memory.",
            "the staging DB host is pg-stage-11 now",
        ),
        ("Note to self for memory: the on-call rota changes on Sundays.", "the on-call rota changes on Sundays"),
        ("Keep in mind that the prod database is read-only.", "the prod database is read-only"),
        ("Update my memory: I now use zsh.", "I now use zsh"),
        ("From now on, we review PRs in pairs.", "we review PRs in pairs"),
        ("For future reference, the VPN is wg-shop.", "the VPN is wg-shop"),
        ("记住：我们用 pnpm。", "我们用 pnpm"),
        ("기억해: 배포는 금요일이야.", "배포는 금요일이야"),
    ],
)
def test_common_requests_to_keep_are_heard(said: str, kept: str) -> None:
    assert user_statements([said]) == [kept]


def test_a_lead_in_is_not_kept_in_the_entry() -> None:
    """breaker7 B7-6: "Scratch that: the staging DB host is pg-stage-9 now" was the line, lead-in and all."""
    said = "Scratch that: the staging DB host is pg-stage-9 now. Remember that."
    assert user_statements([said]) == ["the staging DB host is pg-stage-9 now"]
    assert without_leadin("Actually, no - the window is Friday") == "the window is Friday"
    assert without_leadin("No.") == "No."  # nothing left but the lead-in: the text as it was


@pytest.mark.parametrize(
    "said",
    [
        "Please update the README to say: remember that tokens expire.",
        "Fix this:\n```\n# remember that the cache is warm\n```",
        "> Remember that the board meets Thursday.\nSummarise this email.",
        'The docs say "Remember that X" is kept verbatim.',
        "Note that the function below returns None; fix the caller.",
        "Keep in mind this is only a prototype, so skip the tests.",
        "Do you remember that we used Jenkins?",
        "Don't forget to run the linter.",
    ],
)
def test_quoted_code_questions_and_task_context_are_no_request(said: str) -> None:
    assert user_statements([said]) == []


def test_blanking_code_and_quotes_keeps_positions() -> None:
    said = 'Say "hi" and run `x`.'
    assert len(readable(said)) == len(said)
    assert "hi" not in readable(said) and "`" not in readable(said)


def test_a_quote_in_the_statement_before_a_lone_request_is_kept() -> None:
    said = ['We call the staging mode "blue mode". Remember that.', "The flag is `BLUE=1`.", "Remember this!"]
    assert user_statements(said) == ['We call the staging mode "blue mode"', "The flag is `BLUE=1`"]
