"""Undoing an accepted dream from the app (breaker6 B6-7), driven by Pilot at 80x24.

Accept merges the dream's review (``--no-ff``). Before: ``u`` on that merge in the History pane said only
"it cannot be undone on its own", and once the merged change was undone the Dreams pane still said
"accepted". Now ``u`` on the merge offers the change it merged, and the dream reads "undone".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.dream_helpers import FILES, make_repo
from helpers.repo_helpers import git, plain_settings
from helpers.tui_helpers import RecordingApp, settle, wait_for

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.panes import PANES, DreamsPane, HistoryPane
from memrepo.tui.widgets.dialogs import Confirm

SIZE = (80, 24)
DREAMS = str(PANES.index(DreamsPane) + 1)
HISTORY = str(PANES.index(HistoryPane) + 1)


def accepted_dream(root: Path, review_only: bool = False) -> tuple[str, str, str]:
    """A dream whose review was accepted: its id, the merge commit and the review commit it merged.

    With ``review_only`` the dream made no automatic commit (no agent duplicate to remove).
    """
    files = dict(FILES)
    if review_only:
        files["lessons.md"] = files["lessons.md"].replace(
            "- Run ruff before committing [by: agent; added: 2025-01-03]\n", ""
        )
    store = make_repo(root, files)
    dreamer = Dreamer(store)
    record = dreamer.accept(dreamer.run().id)
    assert record.status == "accepted" and record.merge_commit and record.review_commit
    return record.id, record.merge_commit, record.review_commit


def question(app: Any) -> str:
    return " ".join(str(label.visual) for label in app.screen.query("Label"))


async def test_undo_on_an_accepted_dreams_merge_offers_the_change_it_merged(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    dream_id, merge, review = accepted_dream(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(HISTORY)
        await settle(pilot)
        history = app.main_screen.query_one(HistoryPane)
        assert history.commits[0].id == merge
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        asked = question(app)
        assert f"{merge[:7]} is a merge: it cannot be undone on its own" in asked
        assert f"Undo {review[:7]} Dream " in asked and "change for review?" in asked
        await pilot.press("y")
        await settle(pilot)
        assert git(root, "log", "-1", "--format=%B").strip().startswith("Undo: ")
        assert f"Reverts: {review}" in git(root, "log", "-1", "--format=%B")
        assert "Always run the full test suite before pushing code" in (root / "lessons.md").read_text()
        await pilot.press(DREAMS)
        await settle(pilot)
        dreams = app.main_screen.query_one(DreamsPane)
        await wait_for(pilot, lambda: dreams.records[0].status == "undone", what="the dream shown as undone")
        assert str(dreams.table.get_cell_at((0, 1))) == "undone"
        assert f"Dream {dream_id} · undone" in dreams.detail_text


async def test_a_merge_whose_change_is_undone_names_that_change(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    _dream_id, merge, review = accepted_dream(root)
    MemoryStore.open(root, plain_settings()).undo(review)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(HISTORY)
        await settle(pilot)
        history = app.main_screen.query_one(HistoryPane)
        await pilot.press("j")  # the merge, under the undo
        assert history.highlighted is not None and history.highlighted.id == merge
        await pilot.press("u")
        await wait_for(pilot, lambda: any("is a merge" in n for n in app.notices), what="the notice")
        assert not isinstance(app.screen, Confirm)
        assert any(f"undo the commit it merged, {review[:7]}, instead" in n for n in app.notices)


def test_undoing_the_undo_makes_the_dream_accepted_again(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    dream_id, _merge, review = accepted_dream(root)
    store = MemoryStore.open(root, plain_settings())
    undo = store.undo(review)
    assert Dreamer(store).show(dream_id).status == "undone"
    store.undo(undo.commit or "")
    assert Dreamer(store).show(dream_id).status == "accepted"


async def test_undo_in_the_dreams_pane_undoes_the_accepted_review_there(isolated_home: Path) -> None:
    """breaker31 B31-11: u on an accepted review sent the user to the Log pane; it undoes the merged change here."""
    root = isolated_home / "memory"
    dream_id, merge, review = accepted_dream(root, review_only=True)
    assert Dreamer(MemoryStore.open(root, plain_settings())).show(dream_id).auto_commit is None
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(DREAMS)
        await settle(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        asked = question(app)
        assert f"Undo the accepted review of dream {dream_id}" in asked and f"merge {merge[:7]}" in asked, asked
        await pilot.press("y")
        await settle(pilot)
        assert f"Reverts: {review}" in git(root, "log", "-1", "--format=%B")
        assert "Always run the full test suite before pushing code" in (root / "lessons.md").read_text()
        dreams = app.main_screen.query_one(DreamsPane)
        await wait_for(pilot, lambda: dreams.records[0].status == "undone", what="the dream shown as undone")
        assert any(f"Undid the accepted review of dream {dream_id}" in n for n in app.notices), app.notices
