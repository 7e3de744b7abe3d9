"""A dream's detail read still waiting for its diff leaves the shown dream's lines alone (tui/panes/dreams.py).

``load_detail`` is an exclusive worker: moving to another dream starts a new read that cancels the old one.
The read used to store the files it had read for the NEW dream before awaiting the review diff, so while
that diff was slow (a big branch, a loaded machine), or when the read was cancelled there, the box's
highlighted operation of the dream still shown was drawn against the other dream's files: a line that had
moved since the dream read it was given at its old place (``lessons.md:3`` where the file now holds it at
line 4). The files are now stored with the record, after the last await.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from helpers.dream_helpers import alias, run_with
from helpers.repo_helpers import git, plain_settings
from helpers.tui_helpers import RecordingApp, build_repo, settle, wait_for
from test_tui_dreams import KEY, SIZE, pane

from memrepo.engine.repo.store import MemoryStore

FILES = {
    "MEMORY.md": "# Memory\n\n## Index\n- [[lessons]]\n- [[tools]]\n",
    "lessons.md": "# Lessons\n\n- Lesson about retries [by: agent; added: 2025-01-02]\n",
    "tools.md": "# Tools\n\n- Tool note about rg [by: agent; added: 2025-01-03]\n",
}


def _delete(text: str):
    return lambda din: {"operations": [{"op": "delete", "line": alias(din, text), "reason": "stale"}]}


async def test_a_detail_read_waiting_for_its_diff_keeps_the_shown_dreams_files(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root, FILES)
    store = MemoryStore.open(root, plain_settings())
    first = run_with(store, _delete("Lesson about retries"))
    second = run_with(store, _delete("Tool note about rg"))
    lessons = root / "lessons.md"  # a line added above: the first dream's line is now line 4
    lessons.write_text(FILES["lessons.md"].replace("\n\n", "\n\n- Lesson added by hand\n", 1), encoding="utf-8")
    git(root, "-c", "user.name=Sam", "-c", "user.email=sam@example.com", "commit", "-qam", "hand edit")
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        dreams = pane(app)
        rows = [r.id for r in dreams.records]
        # Through the cursor, as a user moves: the detail follows the highlighted row, so a reload of the list
        # arriving late (the app's first status poll on a loaded machine) reads the same dream again.
        dreams.table.move_cursor(row=rows.index(first.id))
        await wait_for(pilot, lambda: dreams._shown == first.id, what="the first dream shown")
        await settle(pilot)
        assert "delete lessons.md:4: stale" in dreams.detail_text

        entered, release = asyncio.Event(), asyncio.Event()
        real_diff = dreams.repo.dream_diff

        async def slow_diff(run_id: str) -> str:
            if run_id == second.id:
                entered.set()
                await release.wait()  # the second dream's diff is slow to come
            return await real_diff(run_id)

        dreams.repo.dream_diff = slow_diff  # type: ignore[method-assign]
        dreams.table.move_cursor(row=rows.index(second.id))
        await wait_for(pilot, entered.is_set, what="the second read waiting for its diff")
        dreams._show_op(0)  # the highlighted operation of the dream still shown
        await pilot.pause()  # not settle: the second read is stuck by design
        shown = dreams.detail_text.split("\n\n")[0]  # the highlighted operation, above the whole dream
        release.set()
        assert "Operation 1 of 1" in shown, shown
        assert "delete lessons.md:4: stale" in shown, shown  # where the line is now, not where the dream read it
        await wait_for(pilot, lambda: dreams._shown == second.id, what="the second dream shown")
        assert "delete tools.md:3: stale" in dreams.detail_text
