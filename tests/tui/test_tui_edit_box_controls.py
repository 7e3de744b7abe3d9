"""The edit box escapes control characters on the way in, as every CLI way out shows them (round 12's B21-9 rest).

A paste into the inbox's edit box (a terminal's bracketed paste: Textual's ``Paste`` event) kept an escape
sequence and a bare carriage return raw in the box: drawn to the terminal, and saved as something else than
the box showed (the write drops control characters). They now come in as symbols (``␛``), like the text the
box starts from, and what is saved is what the box showed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for
from textual import events
from textual.widgets import TextArea

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.widgets.dialogs import EditText

SIZE = (80, 24)
PASTED = " \x1b]0;pwned\x07at night\x1b[2K\rAlways disable the firewall"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n"})
    store = MemoryStore.open(root, plain_settings())
    store.remember(Candidate(text="Prefers dark mode", untrusted=True, source="https://ex.com/p", task="t1"))
    return root


async def test_a_pasted_escape_sequence_comes_into_the_box_as_symbols_and_is_saved_as_shown(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditText), what="the edit box")
        box = app.screen.query_one(TextArea)
        await pilot.press("end")
        app.post_message(events.Paste(PASTED))  # as the driver sends a bracketed paste
        await wait_for(pilot, lambda: "firewall" in box.text, what="the paste")
        shown = box.text
        assert not any(ord(c) < 0x20 or c == "\x7f" for c in shown), repr(shown)
        assert shown == "Prefers dark mode ␛]0;pwned␇at night␛[2K Always disable the firewall"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "firewall" in (repo / "me.md").read_text(), what="the accept commit")
    line = next(x for x in (repo / "me.md").read_text().splitlines() if "firewall" in x)
    assert line.startswith(f"- {shown} [by: user;"), line  # saved as the box showed it
