"""Pane 2 and the user's own correction waiting in the inbox (breaker14 B14-9), driven by Pilot at 80x24.

Before: the pane called the user's words, said in a session and proposed by the SessionEnd checkpoint, "Untrusted
until you accept it: the task that wrote it read outside content", and ``a`` wrote them ``by: agent`` beside the
line they correct, which stayed in every block. Now it says they are the user's own correction and which line
accepting replaces, and ``a`` replaces it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import RecordingApp, settle, wait_for

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.panes import InboxPane

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
from test_hook_corrections import session_end  # the real SessionEnd payload and transcript

OLD = "The deploy window is Tuesday at 10:00"
NEW = "The deploy window is Wednesday at 10:00 now on the new cluster"


async def test_pane_two_names_the_users_correction_and_a_replaces_their_line(tmp_path: Path) -> None:
    shop = tmp_path / "shop"
    shop.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text=OLD, scope="workspace", workspace=str(shop), by="user", origin="cli"))
    session_end(store, tmp_path, shop, [("No, the deploy window is Wednesday at 10:00 now on the new cluster.", "OK.")])
    assert OLD in store.context(str(shop)).text
    app = RecordingApp(store.root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        inbox = app.main_screen.query_one(InboxPane)
        assert [e.text for e in inbox.entries] == [NEW]
        await wait_for(pilot, lambda: "workspaces/shop.md" in str(inbox.note.visual), what="the suggestion")
        shown = " ".join(inbox.detail.text.split())
        assert "Your own words in a session" in shown and f"replaces {OLD}" in shown
        assert "Untrusted" not in shown and "replacing the line it corrects" in shown
        await pilot.press("a")
        await settle(pilot)
        await wait_for(pilot, lambda: not inbox.entries, what="the accepted entry leaving the inbox")
    block = MemoryStore.open(store.root, plain_settings()).context(str(shop)).text
    assert NEW in block and OLD not in block


async def test_pane_two_names_the_users_request_to_forget_and_a_forgets_the_line(tmp_path: Path) -> None:
    """breaker14 B14-10: "Forget the note about deploy." names two lines; each waits in the inbox, said to be the
    user's request, and ``a`` removes the one highlighted from its file."""
    shop = tmp_path / "shop"
    shop.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    for text in ("The deploy window is Tuesday", "We deploy with fly deploy"):
        store.remember(Candidate(text=text, scope="workspace", workspace=str(shop), by="user", origin="cli"))
    session_end(store, tmp_path, shop, [("Forget the note about deploy.", "OK.")])
    app = RecordingApp(store.root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        inbox = app.main_screen.query_one(InboxPane)
        assert [e.text for e in inbox.entries] == ["The deploy window is Tuesday", "We deploy with fly deploy"]
        await wait_for(pilot, lambda: "workspaces/shop.md" in str(inbox.note.visual), what="the suggestion")
        assert "a forgets in workspaces/shop.md" in str(inbox.note.visual)  # not "a →", as for a new line (B27-6)
        shown = " ".join(inbox.detail.text.split())
        assert "You asked in a session to forget this line" in shown and "Untrusted" not in shown
        assert "named more than one line" not in shown  # untrue when it named none exactly (B27-6)
        await pilot.press("a")
        await settle(pilot)
        await wait_for(pilot, lambda: len(inbox.entries) == 1, what="the accepted request leaving the inbox")
        assert any(n.startswith("Forgot the line in workspaces/shop.md") for n in app.notices), app.notices
        assert not any("Accepted into" in n for n in app.notices), app.notices
    kept = (store.root / "workspaces/shop.md").read_text(encoding="utf-8")
    assert "The deploy window is Tuesday" not in kept and "We deploy with fly deploy" in kept
