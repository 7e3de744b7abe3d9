"""The Dreams pane at 80x24: the box shows the operation highlighted in Operations (breaker26 B26-8).

The box under the Operations list is a few lines high at 80x24 and showed the run's header and the FIRST
operation whatever row was highlighted: a new user never saw why a line would be deleted before accepting,
and Enter on an operation did nothing. Now moving in Operations puts that operation (its reason, the deleted
and kept lines) first in the box, and Enter goes into the box.
"""

from __future__ import annotations

from pathlib import Path

from helpers.dream_helpers import alias, run_with
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import RecordingApp, build_repo, settle, wait_for
from test_tui_dreams import KEY, SIZE, pane
from textual.containers import VerticalScroll
from textual.widgets import Static

from memrepo.engine.repo.store import MemoryStore

N = 12
FILES = {
    "MEMORY.md": "# Memory\n\n## Index\n- [[lessons]]\n",
    "lessons.md": "# Lessons\n\n"
    + "".join(f"- Build fact number {n} [by: agent; added: 2025-01-0{1 + n % 9}]\n" for n in range(N)),
}


def _deletes(din):
    ops = [{"op": "delete", "line": alias(din, f"Build fact number {n}"), "reason": f"why-{n}"} for n in range(N)]
    return {"operations": ops}


def visible(app: RecordingApp) -> str:
    """The lines of the detail box a person sees now (it is scrolled to its top)."""
    dreams = pane(app)
    box = dreams.query_one("#dreams-detail", VerticalScroll)
    text = dreams.query_one("#dreams-detail-text", Static)
    first = int(box.scroll_y)
    return "\n".join(text.render_line(y).text for y in range(first, first + box.scrollable_content_region.height))


async def test_the_box_follows_the_highlighted_operation_at_80x24(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root, FILES)
    run_with(MemoryStore.open(root, plain_settings()), _deletes)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(KEY)
        await settle(pilot)
        dreams = pane(app)
        await wait_for(pilot, lambda: dreams.ops_table.row_count == N, what="the operations")
        assert "why-7" not in visible(app)  # the header and the first operations fill the box
        await pilot.press("tab", *["j"] * 7)  # into the operations, down to the eighth
        await settle(pilot)
        shown = visible(app)
        assert f"Operation 8 of {N}" in shown
        assert "review   delete lessons.md:10: why-7" in shown
        assert "deletes lessons.md:10: Build fact number 7" in shown
        await pilot.press("j")
        await settle(pilot)
        assert f"Operation 9 of {N}" in visible(app) and "why-8" in visible(app)
        await pilot.press("enter")  # Enter opens: into the box, the operation first
        await settle(pilot)
        assert dreams.query_one("#dreams-detail", VerticalScroll).has_focus
        assert f"Operation 9 of {N}" in visible(app)
