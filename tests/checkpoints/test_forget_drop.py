"""A request to drop a note named by its subject, also after a clause that says why (issue 30, sem15).

"Bjorn left the company last week, so drop the QA contact note.": the request starts after "so", and :mod:`.forgetting`
reads a request only at a sentence's start, so the line stayed (heldout6 h6-forget-qa-en). The wordings here are
this file's own. A note word is needed: "drop the table" is a task.
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.forgetforms import named_request
from memrepo.engine.checkpoints.forgetting import forgets


@pytest.mark.parametrize(
    ("said", "what"),
    [
        ("Dana moved to another team, so drop the release manager note.", "release manager"),
        ("Der Server ist weg, also lösch bitte die Staging-Server Notiz.", "Staging-Server"),
        ("Ya no trabaja aquí, así que borra la nota del contacto de QA.", "contacto de QA"),
        ("Il est parti, donc supprime la note sur le contact QA.", "contact QA"),
        ("Carla è andata via, quindi cancella la nota sul contatto QA.", "contatto QA"),
    ],
)
def test_a_drop_request_after_its_reason_names_the_note(said: str, what: str) -> None:
    assert named_request(said, said) == what


@pytest.mark.parametrize(
    "said",
    [
        "Drop the table, we rebuild it.",
        "The migration failed, so drop the tables and rerun it.",
        "We should drop the legacy API note from the docs.",
        "drop the line numbers from the output",
        "It's slow, so remove the cache and try again.",
    ],
)
def test_a_task_names_nothing(said: str) -> None:
    assert named_request(said, said) is None


def test_the_named_line_is_forgotten() -> None:
    lines = [
        ExistingEntry("E1", "workspaces/kiwi.md", 4, "The release manager for kiwi is Dana Reyes", "user", {}),
        ExistingEntry("E2", "workspaces/kiwi.md", 5, "The kiwi deploy window is Tuesday", "user", {}),
    ]
    now, _proposed = forgets(["Dana moved to another team, so drop the release manager note."], lines)
    assert [e.text for e in now] == ["The release manager for kiwi is Dana Reyes"]
