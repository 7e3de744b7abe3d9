"""The engine's day pinned to a test's own (docs/architecture.md §4: an ``until:`` date is compared with today).

A test that writes ``until: <today>`` from a date taken at import, then reads the block, fails when the run crosses
midnight between the two (a fresh-clone CI run that started at 23:45 did). Pinning the engine's day to the test's
keeps both on one day, wherever the clock is.
"""

from __future__ import annotations

from datetime import date

import pytest

from memrepo.engine.read import context, modeline, readcache


def pin_today(monkeypatch: pytest.MonkeyPatch, day: date) -> None:
    """Make every reader of the engine's day (:func:`memrepo.engine.read.modeline.today_iso` and the modules that
    imported it by name) see ``day``."""
    for module in (modeline, context, readcache):
        monkeypatch.setattr(module, "today_iso", lambda: day.isoformat())
