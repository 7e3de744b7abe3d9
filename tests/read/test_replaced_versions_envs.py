"""Go's version is a value like any other, and a bump in one environment leaves the general line (docs/architecture.md
§4; engine/read/changewords.py named_versions, engine/read/samefact.py _new_environment).

"Language: Go 1.21" stayed beside "We upgraded to Go 1.22": "go" is a function word, so the newer line named no
value of the older one (ctx12's held pair L, left open). A file as ``memrepo remember`` writes it (one ``added:``
day, the older line first, a line between them).
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.entries import Entry
from memrepo.engine.read.contextselect import candidates, replaced

DAY = {"by": "user", "added": "2026-12-05"}


def hidden(old: str, new: str) -> bool:
    rows = [(n, Entry("", "-", text, dict(DAY))) for n, text in enumerate((old, "Prefers tea over coffee", new), 1)]
    return 1 in replaced(candidates(rows))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Language: Go 1.21", "We upgraded to Go 1.22"),
        ("The api is written in Go 1.21", "The api is now on Go 1.22"),
    ],
)
def test_a_go_bump_replaces_the_older_version(old: str, new: str) -> None:
    assert hidden(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Language: Go 1.21", "The ML team upgraded to Go 1.22"),  # another subject
        ("Language: Go 1.21", "We go 2 times a week to the office now"),  # the verb, no version
    ],
)
def test_another_subject_or_the_verb_keeps_it(old: str, new: str) -> None:
    assert not hidden(old, new)


@pytest.mark.parametrize(
    "new",
    [
        "The database is now Postgres 16 in staging",
        "We upgraded the database to Postgres 16 on staging",
        "The database is now Postgres 16 in the staging environment",
    ],
)
def test_a_bump_in_one_environment_keeps_the_general_line(new: str) -> None:
    """breaker22 B22-10's rest (engine/read/samefact.py _new_environment): the newer line is about staging only."""
    assert not hidden("The database is Postgres 14", new)
    assert hidden("The database is Postgres 14", "The database is now Postgres 16")  # no environment: replaced
