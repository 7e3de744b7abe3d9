"""The Dreams pane's ``a`` with an operation highlighted accepts that operation, not the whole dream (B28-7).

A trial user moved to one operation of 40 in Operations, pressed ``a`` and, after a question that said "40", had
all 40 merged. Now ``a`` in Operations (or in its box, which shows the highlighted operation first) accepts the
highlighted operation when none is chosen with space, and its question names it and says the others are
rejected; on the dream's row ``a`` asks about all of them, saying "all" and how to choose (docs/keys.md).
"""

from __future__ import annotations

from pathlib import Path

from helpers.dream_helpers import FILES, run_with
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import RecordingApp, build_repo, settle, wait_for
from test_tui_dreams import KEY, SIZE, _three_reviews, ask, pane

from memrepo.engine.repo.store import MemoryStore


def question(app: RecordingApp) -> str:
    return str(app.screen.query(".dialog-title").first().visual)


async def test_a_on_a_highlighted_operation_accepts_only_that_one(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root, FILES)
    record = run_with(MemoryStore.open(root, plain_settings()), _three_reviews)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        dreams = pane(app)
        await ask(pilot, "a")  # on the dream's row: all of them, said so, and how to choose
        said = question(app)
        assert f"Accept all 3 review changes of dream {record.id}" in said and "space chooses" in said
        await pilot.press("escape")  # no: nothing merged
        await settle(pilot)
        assert dreams.records[0].status == "pending_review"
        await pilot.press("tab", "j")  # into Operations, down to the second (delete a user's line)
        await settle(pilot)
        await ask(pilot, "a")
        said = question(app)
        assert "Accept operation 2 of 3" in said and "Always run the full test suite before pushing" in said
        assert "The other 2 review changes are rejected" in said
        await pilot.press("y")
        await settle(pilot)
        assert f"Accepted 1 of 3 review changes of dream {record.id}" in app.notices
        lessons = (root / "lessons.md").read_text()
        assert "- Always run the full test suite before pushing [by: user]" not in lessons  # the one accepted
        assert "Never force-push main or release branches" not in lessons  # the others were not
        assert not (root / "people" / "sam.md").exists()
        await wait_for(pilot, lambda: dreams.records[0].status == "accepted", what="the accepted dream")
        await settle(pilot)
        assert [str(dreams.ops_table.get_row_at(i)[0]) for i in range(3)] == ["✗", "✓", "✗"]


async def test_a_on_an_automatic_operation_says_so_and_asks_nothing(isolated_home: Path) -> None:
    from helpers.dream_helpers import make_repo

    from memrepo.engine.dreams.dreamer import Dreamer
    from memrepo.tui.widgets.dialogs import Confirm

    root = isolated_home / "memory"
    make_repo(root)
    Dreamer(MemoryStore.open(root, plain_settings())).run()  # one auto delete, one review merge
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        dreams = pane(app)
        await pilot.press("tab")
        await settle(pilot)
        auto = next(n for n, op in enumerate(dreams.records[0].operations) if op.classification == "auto")
        dreams.ops_table.move_cursor(row=auto)
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert not isinstance(app.screen, Confirm)
        assert any("applied automatically" in n for n in app.notices), app.notices
