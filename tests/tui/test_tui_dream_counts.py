"""A dream's row after a review in part says what the review decided (breaker27 B27-6).

"Accept 1 of the 40 ... The other 39 are rejected", then the row still said "0 auto · 40 review · 0 rejected":
its count is of proposals the checks refused, not of the user's answer.
"""

from __future__ import annotations

from types import SimpleNamespace

from memrepo.engine.dreams.record import OpRecord
from memrepo.tui.panes.dreams import changes_words


def _op(decision: str | None) -> OpRecord:
    return OpRecord(op="delete", classification="review", decision=decision)  # type: ignore[arg-type]


def test_a_dream_accepted_in_part_counts_the_declined() -> None:
    counts = {"proposed": 40, "auto": 0, "review": 40, "rejected": 0}
    record = SimpleNamespace(counts=counts, operations=[_op("accepted"), *[_op("declined") for _ in range(39)]])
    assert changes_words(record) == "0 auto · 1 accepted · 39 declined"


def test_a_dream_waiting_for_review_keeps_its_counts() -> None:
    counts = {"proposed": 3, "auto": 1, "review": 1, "rejected": 1}
    record = SimpleNamespace(counts=counts, operations=[_op(None), _op(None)])
    assert changes_words(record) == "1 auto · 1 review · 1 rejected"


def test_a_rejected_dream_counts_its_review_changes_declined() -> None:
    """After d, the row said "rejected · 0 auto · 3 review · 0 rejected": the 3 read as still waiting."""
    counts = {"proposed": 4, "auto": 1, "review": 3, "rejected": 0}
    record = SimpleNamespace(counts=counts, status="rejected", operations=[_op(None) for _ in range(4)])
    assert changes_words(record) == "1 auto · 0 accepted · 3 declined"


def test_undo_after_an_accept_says_the_accepted_review_stays() -> None:
    """Just after a, u asked "revert its automatic commit?": a new user read it as undoing the accept."""
    from memrepo.tui.panes.dreamacts import undo_question

    counts = {"proposed": 4, "auto": 1, "review": 3, "rejected": 0}
    record = SimpleNamespace(
        id="d1",
        counts=counts,
        status="accepted",
        auto_commit="b5f2e1c0",
        merge_commit="8f19b77a",
        undo_commit=None,
        operations=[],
    )
    assert undo_question(record) == (
        "Undo dream d1: revert its automatic commit b5f2e1c (1 change)?"
        "\nIts accepted review stays: it is merge 8f19b77; u again undoes it."
    )
    undone = SimpleNamespace(**{**vars(record), "undo_commit": "c0ffee00"})  # u again: the accepted review
    assert undo_question(undone) == (
        "Undo the accepted review of dream d1: revert the 3 changes merge 8f19b77 brought in?\nA new commit reverts it."
    )
    pending = SimpleNamespace(**{**vars(record), "status": "pending_review", "merge_commit": None})
    assert undo_question(pending) == "Undo dream d1: revert its automatic commit b5f2e1c (1 change)?"


def test_where_an_operation_applies_drops_its_folders_when_too_long() -> None:
    """At 80 columns every row of a workspace file's operations read "workspaces/projec…"."""
    from memrepo.tui.panes.dreamview import fit_where

    assert fit_where("workspaces/project-0000.md:45") == "project-0000.md:45"
    assert fit_where("people/sam.md:3") == "people/sam.md:3"  # it fits: whole
    assert fit_where("topics/a/b.md:3, topics/a/b.md:9") == "b.md:3, b.md:9"


def test_the_log_names_who_wrote_in_plain_words() -> None:
    """The Log's origin column said ``agent_tool`` for lines the user said in a session, ``inbox_triage``, ``cli``."""
    from memrepo.tui.panes.history import origin_word

    assert [origin_word(o) for o in ("agent_tool", "inbox_triage", "cli", "dream", None)] == [
        "agent",
        "inbox",
        "command",
        "dream",
        "—",
    ]
