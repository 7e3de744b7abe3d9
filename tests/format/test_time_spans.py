"""A span from today or an end said as a date is a kept statement's ``until:`` (issue 30, corr14).

Before: "the payments sandbox is down for the next two weeks", "Jusqu'à la fin du mois prochain, chaque mise en prod
doit être validée par Inès" and "Until 2025-03-31 the build signs with the legacy upload key" were kept with no
``until:``, so every later block showed them as true for good (heldout5 of bench_session_memory: time-bound 0/3).
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from memrepo.engine.config import Settings
from memrepo.engine.format.relativedates import dated, until_date
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

SUNDAY = date(2026, 12, 6)  # a Sunday, as the other relative-date tests use


@pytest.mark.parametrize(
    ("said", "text", "until"),
    [
        ("The sandbox is down for the next two weeks", "The sandbox is down until 2026-12-20", "2026-12-20"),
        ("I'm away for the next 3 days", "I'm away until 2026-12-09", "2026-12-09"),
        ("Staging is frozen over the next a couple of weeks", "Staging is frozen until 2026-12-20", "2026-12-20"),
        ("Jusqu'à la fin du mois prochain, Inès valide les mises en prod",
         "Jusqu'au 2027-01-31, Inès valide les mises en prod", "2027-01-31"),
        ("Until the end of next month, prod deploys need two approvals",
         "Until 2027-01-31, prod deploys need two approvals", "2027-01-31"),
        ("On gèle les déploiements jusqu'à la fin de la semaine prochaine",
         "On gèle les déploiements jusqu'au 2026-12-13", "2026-12-13"),
        ("Until 2025-03-31 the build signs with the legacy key", "Until 2025-03-31 the build signs with the legacy key",
         "2025-03-31"),
        ("Der Freeze gilt bis 2027-02-15", "Der Freeze gilt bis 2027-02-15", "2027-02-15"),
    ],
)  # fmt: skip
def test_a_span_or_a_date_said_to_end_is_the_until(said: str, text: str, until: str) -> None:
    assert dated(said, SUNDAY) == (text, until)


@pytest.mark.parametrize(
    "said",
    ["We moved to Postgres 16 in the next release", "Release 2025-03-31 shipped the new key", "until 2025-02-30 maybe"],
)
def test_no_span_and_no_real_end_date_keeps_no_until(said: str) -> None:
    assert dated(said, SUNDAY).until is None
    assert until_date(said) is None


def test_a_remembered_line_with_an_end_date_past_leaves_the_block(tmp_path: Path) -> None:
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": 0}, "semantic": {"provider": "off"}})
    store = MemoryStore.open(tmp_path / "memory", settings)
    gone = (date.today() - timedelta(days=30)).isoformat()
    ahead = (date.today() + timedelta(days=30)).isoformat()
    store.remember(
        Candidate(text=f"Until {gone} the Android build signs with the legacy key", scope="global", by="user")
    )
    store.remember(Candidate(text=f"Until {ahead} the iOS build signs with the old profile", scope="global", by="user"))
    block = store.context().text
    assert "legacy key" not in block
    assert "old profile" in block
    assert f"until: {gone}" in (store.root / "me.md").read_text("utf-8")
