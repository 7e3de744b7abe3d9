"""Fixtures for the app's tests.

Text inputs blink their cursor every 0.5 s on a timer; on a loaded machine a
snapshot could be taken on either phase (a search screen once failed that way
in CI). Every app test here keeps the cursor visible instead: the blink timer
still runs, it just no longer hides the cursor.

A notice (toast) goes away after its timeout, 3-8 s of wall time: on a CI
machine loaded enough, it was gone before the snapshot of the screen that
shows it was taken (the pin's notice, once). In a snapshot test every notice
stays until the snapshot.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input


@pytest.fixture(autouse=True)
def steady_input_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``Input``'s blink a no-op, so the cursor shows whenever the input has focus."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture(autouse=True)
def notices_stay_for_snapshots(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a test that compares snapshots, give every notice an hour's timeout instead of seconds."""
    if "snap_compare" not in request.fixturenames:
        return
    real = App.notify

    def notify(self: App[Any], message: str, **kwargs: Any) -> None:
        kwargs["timeout"] = 3600.0
        real(self, message, **kwargs)

    monkeypatch.setattr(App, "notify", notify)
