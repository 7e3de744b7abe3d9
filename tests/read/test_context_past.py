"""A line past its ``until:`` date leaves the context block; recall marks it past (issue 30; docs/architecture.md §4).

"I'm on call this week", kept in a session, is written as "... the week of <Monday>" with ``until: <Sunday>``
(engine/format/relativedates.py). The block showed it as current in every later session, and recall listed it
unmarked. The line stays in its file; from the day after its date the block leaves it out (counted in the section's
left-out line), it replaces no older line, and recall shows it with "(past: it held until <date>)".
"""

from __future__ import annotations

import time
from datetime import date, timedelta
from pathlib import Path

import pytest
from helpers.today import pin_today

from memrepo.engine.config import Settings
from memrepo.engine.models import Candidate
from memrepo.engine.read import context, modeline, readcache
from memrepo.engine.read.coldread import context_text
from memrepo.engine.repo.store import MemoryStore

TODAY = date.today()
YESTERDAY = (TODAY - timedelta(days=1)).isoformat()
TOMORROW = (TODAY + timedelta(days=1)).isoformat()


@pytest.fixture(autouse=True)
def _one_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's day is the day the dates above were taken, even when the run crosses midnight."""
    pin_today(monkeypatch, TODAY)


def _store(root: Path) -> MemoryStore:
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": 0}, "semantic": {"provider": "off"}})
    return MemoryStore.open(root, settings)


def _remember(store: MemoryStore, text: str, until: str | None = None) -> None:
    store.remember(Candidate(text=text, scope="global", by="user", until=until))


def test_a_line_past_its_date_leaves_the_block_and_stays_in_the_file(tmp_path: Path) -> None:
    store = _store(tmp_path / "memory")
    _remember(store, "I'm on call the week of 2020-01-06", until=YESTERDAY)
    _remember(store, "The release is frozen until Friday", until=TODAY.isoformat())
    _remember(store, "My editor is Emacs")
    block = store.context().text
    assert "on call" not in block
    assert "The release is frozen until Friday" in block  # its last day: still true
    assert "My editor is Emacs" in block
    assert "1 past their until: date" in block
    assert "on call the week of 2020-01-06" in (store.root / "me.md").read_text("utf-8")
    assert context_text(str(store.root), None, None) == block  # a new process's block says the same


def test_a_past_line_replaces_nothing(tmp_path: Path) -> None:
    """A line "I work from the Paris office now" with an ``until:`` hid the Lyon office while it held; after, it is back."""
    store = _store(tmp_path / "memory")
    _remember(store, "I work from the Lyon office")
    _remember(store, "I work from the Paris office now", until=YESTERDAY)
    assert "I work from the Lyon office" in store.context().text
    hits = {hit.text: hit for hit in store.recall("which office do I work from?")}
    assert hits["I work from the Lyon office"].replaced_by is None


def test_a_line_not_yet_past_still_replaces(tmp_path: Path) -> None:
    """The control of the test above: the same pair with a date to come hides the older line."""
    store = _store(tmp_path / "memory")
    _remember(store, "I work from the Lyon office")
    _remember(store, "I work from the Paris office now", until=TOMORROW)
    block = store.context().text
    assert "I work from the Paris office now" in block
    assert "I work from the Lyon office" not in block


def test_recall_marks_a_past_line(tmp_path: Path) -> None:
    store = _store(tmp_path / "memory")
    _remember(store, "I'm on call the week of 2020-01-06", until=YESTERDAY)
    _remember(store, "I'm on the release rota for the api", until=TOMORROW)
    hits = {hit.text: hit for hit in store.recall("on call")}
    assert modeline.since_mark(hits["I'm on call the week of 2020-01-06"]) == f" (past: it held until {YESTERDAY})"
    hits = {hit.text: hit for hit in store.recall("release rota")}
    assert modeline.since_mark(hits["I'm on the release rota for the api"]) == ""


def test_a_kept_block_is_not_printed_the_day_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept blocks (a new process's and the store's own) are keyed by the day: a line that held yesterday
    leaves the next day's block with no write in between."""
    store = _store(tmp_path / "memory")
    _remember(store, "I'm on call the week of 2020-01-06", until=TODAY.isoformat())
    assert "on call" in context_text(str(store.root), None, None)
    assert "on call" in store.context().text
    tomorrow = lambda: TOMORROW  # noqa: E731
    for module in (modeline, context, readcache):
        monkeypatch.setattr(module, "today_iso", tomorrow)
    assert "on call" not in context_text(str(store.root), None, None)
    assert "on call" not in store.context().text


def test_a_date_that_is_no_date_is_never_past() -> None:
    assert modeline.past({"until": "2020-01-01"}, "2020-01-02") == "2020-01-01"
    assert modeline.past({"until": "2020-01-02"}, "2020-01-02") is None
    assert modeline.past({"until": "next week"}, "2020-01-02") is None
    assert modeline.past({"until": "2020-1-1"}, "2020-01-02") is None
    assert modeline.past({}, "2020-01-02") is None


@pytest.mark.parametrize("value", ["2026-00-00", "1999-01-01 (typo, forever)", "2026-02-30", "2026-W49-7"])
def test_a_hand_written_value_that_is_no_real_date_is_never_past(value: str) -> None:
    """breaker22 B22-4: only the first ten characters were checked for digits and dashes, so these hid the line."""
    assert modeline.past({"until": value}, "2026-12-06") is None


def test_a_timestamp_is_read_as_the_local_day_of_its_instant(monkeypatch: pytest.MonkeyPatch) -> None:
    """breaker22 B22-4: "2026-12-05T23:30:00-08:00" is 07:30 UTC on 2026-12-06, still ahead on that day in UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        assert modeline.past({"until": "2026-12-05T23:30:00-08:00"}, "2026-12-06") is None
        assert modeline.past({"until": "2026-12-05T23:30:00-08:00"}, "2026-12-07") == "2026-12-06"
        assert modeline.past({"until": "2026-12-05T10:00:00"}, "2026-12-06") == "2026-12-05"
    finally:
        monkeypatch.undo()
        time.tzset()
