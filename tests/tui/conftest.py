"""Fixtures for the app's tests.

Text inputs blink their cursor every 0.5 s on a timer; on a loaded machine a
snapshot could be taken on either phase (a search screen once failed that way
in CI). Every app test here keeps the cursor visible instead: the blink timer
still runs, it just no longer hides the cursor.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input


@pytest.fixture(autouse=True)
def steady_input_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``Input``'s blink a no-op, so the cursor shows whenever the input has focus."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
