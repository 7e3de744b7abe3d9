"""The app says a `git stash pop` conflict blocks memory, and asks no stale-save question (breaker8 B8-6).

Before, the app asked "a save drops 1 entry memrepo wrote after its copy was read" while `memrepo status`
said "clean" and `commit-hand-edits --put-back` said no question waited; its `y` committed the markers.
"""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import plain_settings
from helpers.stash_conflict import MARKERS, head_me, stash_pop_conflict
from helpers.tui_helpers import RecordingApp, settle, wait_for

from memrepo.tui.handedits import HandEditQuestionScreen


async def test_the_app_shows_the_conflict_as_a_block_with_the_way_out(tmp_path: Path) -> None:
    root = stash_pop_conflict(tmp_path)
    app = RecordingApp(root, watch=False, settings=plain_settings())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: any("a conflict is in progress" in n for n in app.notices), what="the block")
        await settle(pilot)
        assert not isinstance(app.screen, HandEditQuestionScreen)
        notice = next(n for n in app.notices if "a conflict is in progress" in n)
        assert "git add me.md" in notice
    assert not any(m in head_me(root) for m in MARKERS)
