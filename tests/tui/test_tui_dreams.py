"""The Dreams pane: runs newest first, operations with classification, the review diff;
accept, reject, undo and dream now, each after a y/n question; plus an SVG snapshot."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers.dream_helpers import FILES, make_repo, make_stale
from helpers.repo_helpers import git, plain_settings
from helpers.tui_helpers import RecordingApp, build_repo, settle, wait_for
from textual.pilot import Pilot

import memrepo.engine.dreams.dreamer
import memrepo.engine.git.commit
import memrepo.engine.git.dream
import memrepo.engine.git.store
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.panes import PANES, DreamsPane
from memrepo.tui.widgets.dialogs import Confirm

SIZE = (80, 24)
KEY = str(PANES.index(DreamsPane) + 1)
"""The Dreams pane's number key (6 once the Context and Health panes are in)."""
FIXED = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits, ``added:`` dates and dream ids at a fixed time, so ids and the screen never change."""
    real = memrepo.engine.git.store.signature
    monkeypatch.setattr(memrepo.engine.git.store, "signature", lambda when=None: real(when or FIXED))
    monkeypatch.setattr(memrepo.engine.git.commit, "signature", lambda when=None: real(when or FIXED))
    monkeypatch.setattr(memrepo.engine.git.dream, "signature", lambda when=None: real(when or FIXED))
    monkeypatch.setattr(memrepo.engine.git.store.GitStore, "now", lambda self: FIXED)
    monkeypatch.setattr(memrepo.engine.dreams.dreamer, "new_id", lambda now=None: "20250102-030405-abcd")


async def ask(pilot: Pilot, key: str) -> None:
    """Press ``key`` and wait for its y/n question."""
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, Confirm), what="the question")


def pane(app: RecordingApp) -> DreamsPane:
    return app.main_screen.query_one(DreamsPane)


async def test_review_accept_and_undo_with_keys(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    store = make_repo(root)
    record = Dreamer(store).run()
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        dreams = pane(app)
        assert [r.id for r in dreams.records] == [record.id]
        text = dreams.detail_text
        assert "auto     delete" in text and "review   merge" in text and "near-duplicate" in text
        assert f"..dream/{record.id}" in text and "+- Always run the full test suite before pushing code" in text
        # the default dream runs by rules, offline: no token budget shown (breaker8 B8-11)
        assert "Dreams run by rules, offline: no tokens used" in dreams.status_text, app.notices
        assert "Budget left" not in dreams.status_text
        await ask(pilot, "a")
        await pilot.press("y")
        await settle(pilot)
        assert f"Accepted dream {record.id}" in app.notices
        assert git(root, "log", "-1", "--format=%s").startswith(f"Accept dream {record.id}")
        assert dreams.records[0].status == "accepted"
        await ask(pilot, "u")
        await pilot.press("escape")  # the question's "no" (y or esc: n is Dream now): nothing happens
        await settle(pilot)
        assert "(undone by" not in dreams.detail_text
        await ask(pilot, "u")
        await pilot.press("y")
        await settle(pilot)
        done = Dreamer(MemoryStore.open(root, plain_settings())).show(record.id)
        assert (
            f"Undid the automatic commit of dream {record.id} ({(done.auto_commit or '')[:7]}) in "
            f"{(done.undo_commit or '')[:7]}; its accepted review stays: undo {(done.review_commit or '')[:7]} "
            "in History reverts it"
        ) in app.notices
        assert (root / "lessons.md").read_text().count("Run ruff before committing") == 2


async def test_dream_now_runs_in_a_worker_and_reject(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    make_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        dreams = pane(app)
        assert "No dreams yet" in dreams.detail_text
        await ask(pilot, "n")
        await pilot.press("y")
        await wait_for(pilot, lambda: len(dreams.records) == 1 and not dreams.running, what="the dream")
        await settle(pilot)
        assert dreams.records[0].status == "pending_review"
        assert any(n.endswith(": pending review") for n in app.notices)
        await ask(pilot, "d")
        await pilot.press("y")
        await settle(pilot)
        assert dreams.records[0].status == "rejected"
        assert git(root, "branch", "--list", "dream/*").strip() == ""
        await pilot.press("a")  # nothing waits for review now: a notice, no question
        await settle(pilot)
        assert any("has no review waiting" in n for n in app.notices)


def test_dreams_pane_snapshot(isolated_home: Path, fixed_clock: None, snap_compare) -> None:
    """A pending dream: status, budget line, operations coloured by classification, the review diff."""
    root = isolated_home / "memory"
    build_repo(root, FILES)
    Dreamer(MemoryStore.open(root, plain_settings())).run()
    app = RecordingApp(root, watch=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_d_rejects_a_stale_dream_and_deletes_its_branch(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    _store, _dreamer, dream_id = make_stale(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        dreams = pane(app)
        assert dreams.records[0].status == "stale"
        await ask(pilot, "d")
        await pilot.press("y")
        await settle(pilot)
        assert f"Rejected dream {dream_id}" in app.notices
        assert dreams.records[0].status == "rejected"
        assert git(root, "branch", "--list", "dream/*").strip() == ""


async def test_a_wholly_automatic_dream_says_there_is_no_review_diff(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    store = make_repo(root, {"lessons.md": "# Lessons\n\n- Run ruff first [by: agent]\n- Run ruff first [by: agent]\n"})
    record = Dreamer(store).run()
    assert record.status == "applied"
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        text = pane(app).detail_text
        assert f"No review diff: every operation was applied automatically in {(record.auto_commit or '')[:7]}" in text


def _three_reviews(din):
    from helpers.dream_helpers import alias

    return {
        "operations": [
            {
                "op": "edit",
                "line": alias(din, "Never force-push main"),
                "text": "Never force-push main or release branches",
                "reason": "wider",
            },
            {"op": "delete", "line": alias(din, "Always run the full test suite before pushing"), "reason": "dup"},
            {"op": "move", "line": alias(din, "Name is Sam"), "path": "people/sam.md", "reason": "own file"},
        ]
    }


def test_dreams_pane_operations_chosen_one_by_one(isolated_home: Path, fixed_clock: None, snap_compare) -> None:
    """Three review operations at file:line as the files have them now; the first and the third chosen."""
    from helpers.dream_helpers import run_with

    root = isolated_home / "memory"
    build_repo(root, FILES)
    run_with(MemoryStore.open(root, plain_settings()), _three_reviews)
    app = RecordingApp(root, watch=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        await pilot.press("tab", "space", "j", "space")  # into the operations: choose 1, skip 2, choose 3
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_space_then_a_accepts_only_the_chosen_operations(isolated_home: Path) -> None:
    from helpers.dream_helpers import run_with

    root = isolated_home / "memory"
    build_repo(root, FILES)
    record = run_with(MemoryStore.open(root, plain_settings()), _three_reviews)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        dreams = pane(app)
        where = [str(dreams.ops_table.get_row_at(i)[3]) for i in range(3)]
        assert where == ["lessons.md:6", "lessons.md:7", "me.md:3"]  # the files' own line numbers today
        await pilot.press("tab", "space", "j", "j", "space")
        assert dreams.chosen == [0, 2]
        await ask(pilot, "a")
        assert "Accept 2 of the 3 review changes" in str(app.screen.query(".dialog-title").first().visual)
        await pilot.press("y")
        await settle(pilot)
        assert f"Accepted 2 of 3 review changes of dream {record.id}" in app.notices
        lessons = (root / "lessons.md").read_text()
        assert "Never force-push main or release branches" in lessons
        assert "- Always run the full test suite before pushing [by: user]" in lessons  # not chosen
        assert (root / "people" / "sam.md").exists()
        await wait_for(pilot, lambda: dreams.records[0].status == "accepted", what="the accepted dream")
        await settle(pilot)
        marks = [str(dreams.ops_table.get_row_at(i)[0]) for i in range(3)]
        assert marks == ["✓", "✗", "✓"]


async def test_the_operations_entry_column_is_fitted_before_the_pane_is_ever_shown(tmp_path: Path) -> None:
    """A snapshot taken on a loaded CI machine caught the column at its header's width: the fit ran only
    after the refresh that follows the pane's first resize."""
    from textual.widgets.data_table import ColumnKey

    build_repo(tmp_path / "memory")
    app = RecordingApp(tmp_path / "memory", watch=False)
    async with app.run_test(size=SIZE):
        pane = app.main_screen.query_one(DreamsPane)
        column = pane.ops_table.columns[ColumnKey("entry")]
        assert not pane.is_current  # never shown, never resized on screen
        assert column.width > len("entry") + 20 and not column.auto_width  # the room 80 columns leave it
