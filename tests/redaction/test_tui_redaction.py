"""The app never redacts silently, and ``A`` in the Inbox allows what an edit had redacted (docs/architecture.md §3)."""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.widgets.dialogs import EditText

VALUE = "Zx81Kq0p" + "Lm3Nw7Rt"


async def test_edit_accept_says_what_it_redacted_and_a_allows_it(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "inbox.md": "# Inbox\n\n"})
    MemoryStore.open(root, plain_settings()).remember(
        Candidate(text="Demo login for the staging box", untrusted=True, source="web")
    )
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditText), what="the edit box")
        await pilot.press("end", *f" uses the key {VALUE}", "enter")
        await settle(pilot)
        await wait_for(pilot, lambda: any("redacted" in n for n in app.notices), what="the notice")
        notice = next(n for n in app.notices if "redacted" in n)
        assert notice.startswith("Edited and accepted, redacted: labelled-secret")
        assert VALUE not in (root / "me.md").read_text()
        await pilot.press("A")
        await wait_for(pilot, lambda: any(n.startswith("Allowed 1 value") for n in app.notices), what="allowed")
    allowed = (root / ".git" / "memrepo" / "secrets-allow.json").read_text()
    assert VALUE not in allowed
    store = MemoryStore.open(root, plain_settings())
    result = store.remember(Candidate(text=f"Demo login for the staging box uses the key {VALUE} too"))
    assert not result.redacted and VALUE in (root / "me.md").read_text()
