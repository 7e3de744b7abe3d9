"""Health's history row: removed text still in the history is a WARN only past a count or an age (breaker3 F26).

Before: a 10-minute-old repo whose user deleted two test lines got "WARN history: ... 2 removed text that is
still in the history: compact to forget it for real", a new user's first WARN asking for a history rewrite.
Now the row says the same as OK, with when it becomes a WARN: more than REMOVALS_WARN removals, or one older
than 30 days (REMOVAL_AGE_WARN_S). The commit times are git's own; "now" is handed to the check.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memrepo.engine.models import Candidate
from memrepo.engine.repo.health import REMOVAL_AGE_WARN_S, REMOVALS_WARN, HealthRow, HealthStatus, check
from memrepo.engine.repo.store import MemoryStore


def history(store: MemoryStore, now: datetime) -> HealthRow:
    return next(r for r in check(store, now=now) if r.name == "history")


def forget_new_lines(store: MemoryStore, n: int) -> None:
    for i in range(n):
        ref = store.remember(Candidate(text=f"Test line number {i} to delete", by="user")).ref
        assert ref is not None
        store.forget(ref)


def test_a_new_users_two_deleted_test_lines_are_no_warning(store: MemoryStore) -> None:
    forget_new_lines(store, 2)
    r = history(store, datetime.now(UTC))
    assert r.status is HealthStatus.OK
    assert "2 removed text that is still in the history: compact to forget it for real" in r.reason
    assert f"a WARN past {REMOVALS_WARN} removals or after 30 days" in r.reason and r.fix_key == "c"
    assert all(x.status is HealthStatus.OK for x in check(store, now=datetime.now(UTC)))  # no first WARN at all


def test_a_removal_older_than_a_month_is_a_warning(store: MemoryStore) -> None:
    forget_new_lines(store, 1)
    later = datetime.now(UTC) + timedelta(seconds=REMOVAL_AGE_WARN_S + 2 * 86_400)
    r = history(store, later)
    assert r.status is HealthStatus.WARN and "(the oldest 32 days ago)" in r.reason and r.fix_key == "c"


def test_many_removals_are_a_warning(store: MemoryStore) -> None:
    forget_new_lines(store, REMOVALS_WARN + 1)
    r = history(store, datetime.now(UTC))
    assert r.status is HealthStatus.WARN
    assert r.reason.endswith(
        f"{REMOVALS_WARN + 1} removed text that is still in the history: compact to forget it for real"
    )
    store.compact()
    assert history(store, datetime.now(UTC)).status is HealthStatus.OK
