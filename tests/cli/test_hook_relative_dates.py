"""A statement of a time that ends, kept from a session, is written with its dates (breaker14 B14-8).

Through Claude Code's real SessionEnd payload and transcript (:mod:`test_hook_corrections`).
"""

from __future__ import annotations

from pathlib import Path

from test_hook_corrections import lines_of, session_end, world  # noqa: F401  # world: a fixture


def test_a_kept_statement_of_a_time_that_ends_is_written_with_its_dates(world, tmp_path: Path) -> None:  # noqa: F811
    """breaker14 B14-8: "Remember that I'm on call this week." was kept undated in me.md, for good."""
    from datetime import timedelta

    store, shop, _forky = world
    before = store.git.now().date()
    session_end(store, tmp_path, shop, [("Remember that I'm on call this week.", "OK.")])
    after = store.git.now().date()
    mine = lines_of(store, "me.md")
    weeks = {day - timedelta(days=day.weekday()) for day in (before, after)}  # the day may turn meanwhile
    found = [(text, meta) for text, meta in mine.items() if "on call" in text]
    assert len(found) == 1, mine
    text, meta = found[0]
    assert text in {f"I'm on call the week of {monday.isoformat()}" for monday in weeks}
    assert meta["by"] == "user" and meta["until"] in {(monday + timedelta(days=6)).isoformat() for monday in weeks}
