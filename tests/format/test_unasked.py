"""Facts said for the project and notices bounded in time, kept without "remember" (issue 30, sess15).

Before: "For this project the X is Y", "Voor dit project: X staan in Y" and "heads up: for the next two weeks X is
shared with Y" / "Ojo: hasta el viernes X está congelado" kept nothing (only a team practice or an order after "In
this repo" was read, and a time-bound statement only after "remember"); "hasta el viernes", "bis Freitag" got no
``until:``. The wordings are invented, none from a benchmark set.
"""

from __future__ import annotations

from datetime import date

import pytest

from memrepo.engine.checkpoints.userkept import kept_statements, place
from memrepo.engine.format.relativedates import dated, until_date
from memrepo.engine.format.unasked import unasked_statements


@pytest.mark.parametrize(
    "said",
    [
        "For this project the Node version is pinned to 20 because of the native addons, don't bump it.",
        "Für dieses Projekt: die API-Doku liegt unter docs/api.",
        "Pour ce projet, les migrations sont gérées par Alembic.",
        "En este proyecto el despliegue usa Helm 3.",
        "I det här projektet ligger alla skript i tools/.",
    ],
)
def test_a_fact_said_for_the_project_is_kept_in_its_workspace(said: str) -> None:
    kept = kept_statements([said], [])
    assert [k.text for k in kept] == [said.rstrip(".")]
    assert place(kept[0].text, kept[0].kind, "/work/shop", [], [said]) == ("workspace", None)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "fyi: for the next three days the build farm is shared with the mobile team",
            "For the next three days the build farm is shared with the mobile team",
        ),
        ("Achtung: bis Freitag ist der Staging-Server gesperrt.", "Bis Freitag ist der Staging-Server gesperrt"),
        (
            "Jusqu'à vendredi, la base de recette est en lecture seule.",
            "Jusqu'à vendredi, la base de recette est en lecture seule",
        ),
        ("Let op: tot vrijdag staat de staging-omgeving op slot.", "Tot vrijdag staat de staging-omgeving op slot"),
        ("until Friday I'm on call for the payments team", "Until Friday I'm on call for the payments team"),
    ],
)
def test_a_notice_bounded_in_time_is_kept(said: str, kept: str) -> None:
    assert unasked_statements([said]) == [kept]


@pytest.mark.parametrize(
    "said",
    [
        "In this repo the build failed yesterday.",
        "For this project, fix the login bug.",
        "In this repo the tests are failing.",
        "For this project I need help with the parser.",
        "This week, fix the login bug.",
        "until Friday the build is failing",
        "For the next two days, what do we do?",
        "Here is the README: For this project the API is frozen.\nIt says more.",
    ],
)
def test_a_task_an_event_or_a_question_is_not_kept(said: str) -> None:
    assert unasked_statements([said]) == []


@pytest.mark.parametrize(
    ("said", "text", "until"),
    [
        (
            "Hasta el viernes el staging está congelado",
            "Hasta el viernes 2026-12-11 el staging está congelado",
            "2026-12-11",
        ),
        ("Bis Freitag ist der Server gesperrt", "Bis Freitag 2026-12-11 ist der Server gesperrt", "2026-12-11"),
        ("La recette est figée jusqu'à mardi", "La recette est figée jusqu'à mardi 2026-12-08", "2026-12-08"),
    ],
)
def test_until_a_day_in_another_language_is_dated(said: str, text: str, until: str) -> None:
    assert dated(said, date(2026, 12, 6)) == (text, until)


@pytest.mark.parametrize(
    ("said", "until"),
    [
        ("Until 2025-03-14, every release needs sign-off from Dana", "2025-03-14"),
        ("The build signs with the legacy key until 2025-03-31", "2025-03-31"),
        ("Until 2025-03-31 sign with the old key, then with the new one", None),
        ("Until 2025-03-31 the key is old; after that use the new one", None),
        ("From 2025-01-01 until 2025-03-31 staging is frozen", None),
        ("Hasta 2026-02-01 el staging está congelado, después se abre", None),
    ],
)
def test_an_end_date_is_the_until_only_when_it_bounds_the_whole_line(said: str, until: str | None) -> None:
    assert until_date(said) == until
