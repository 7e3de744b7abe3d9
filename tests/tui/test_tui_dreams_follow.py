"""The Dreams pane follows dreams run elsewhere (the CLI, cron, another app) without ``r``,
and shows operations as file lines and texts: an automatic delete shows the line deleted and the line kept."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers.dream_helpers import make_repo
from helpers.tui_helpers import RecordingApp, settle, wait_for

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.tui.panes import PANES, DreamsPane
from memrepo.tui.widgets.dialogs import Confirm

SIZE = (100, 30)
KEY = str(PANES.index(DreamsPane) + 1)

ELSEWHERE = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from memrepo.engine.config import Settings
    from memrepo.engine.dreams.dreamer import Dreamer
    from memrepo.engine.repo.store import MemoryStore

    root, gate, status = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    model = (
        "import pathlib, sys, time\\n"
        f"while not pathlib.Path({gate!r}).exists(): time.sleep(0.05)\\n"
        "sys.stdin.read()\\n"
        f"print('{{\\"operations\\": []}}')\\n"
        f"sys.exit({status})\\n"
    )
    data = Settings().model_dump()
    data["dream"]["provider"] = "command"
    data["dream"]["command"]["argv"] = [sys.executable, "-c", model]
    Dreamer(MemoryStore.open(root, Settings.model_validate(data), create=False)).run()
    """
)
"""A dream in another process whose model answers once the gate file exists (exit status as given)."""


def _pane(app: RecordingApp) -> DreamsPane:
    return app.main_screen.query_one(DreamsPane)


async def _open_dreams(pilot) -> DreamsPane:
    await settle(pilot)
    await pilot.press(KEY)
    await settle(pilot)
    return _pane(pilot.app)


async def test_a_dream_run_from_the_command_line_appears_without_r(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    make_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        dreams = await _open_dreams(pilot)
        assert dreams.records == []
        argv = [sys.executable, "-c", "from memrepo.cli.main import main; main()", "--repo", str(root), "dream"]
        done = await asyncio.to_thread(subprocess.run, argv, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        # The pane may have shown the run while it was running: wait for the state it ended in.
        await wait_for(
            pilot,
            lambda: len(dreams.records) == 1 and dreams.records[0].status == "pending_review",
            timeout=60,
            what="the CLI's finished dream in the pane",
        )
        await pilot.press("a")  # the review waits: a asks, no "no review waiting"
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the accept question")
        assert not any("has no review waiting" in n for n in app.notices)
        await pilot.press("escape")


async def test_a_dream_of_another_process_shows_running_then_finished(isolated_home: Path, tmp_path: Path) -> None:
    root = isolated_home / "memory"
    make_repo(root)
    gate = tmp_path / "answer-now"
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        dreams = await _open_dreams(pilot)
        proc = subprocess.Popen([sys.executable, "-c", ELSEWHERE, str(root), str(gate), "0"])
        try:
            await wait_for(
                pilot,
                lambda: bool(dreams.records) and dreams.records[0].status == "running",
                timeout=60,
                what="the running dream",
            )
            assert "running" in dreams.status_text.casefold()
            gate.touch()
            await wait_for(pilot, lambda: dreams.records[0].status == "empty", timeout=60, what="the finished dream")
        finally:
            assert await asyncio.to_thread(proc.wait, 30) == 0


async def test_a_failed_dream_of_another_process_shows_failed(isolated_home: Path, tmp_path: Path) -> None:
    root = isolated_home / "memory"
    make_repo(root)
    gate = tmp_path / "answer-now"
    gate.touch()
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        dreams = await _open_dreams(pilot)
        proc = subprocess.Popen([sys.executable, "-c", ELSEWHERE, str(root), str(gate), "3"])
        try:
            await wait_for(
                pilot,
                lambda: bool(dreams.records) and dreams.records[0].status == "failed",
                timeout=60,
                what="the failed dream",
            )
        finally:
            await asyncio.to_thread(proc.wait, 30)
        await settle(pilot)
        assert "exited with status 3" in dreams.detail_text


async def test_an_automatic_delete_shows_the_line_deleted_and_the_line_kept(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    store = make_repo(root)
    Dreamer(store).run()
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        dreams = await _open_dreams(pilot)
        text = dreams.detail_text
        assert "deleted lessons.md:4: Run ruff before committing" in text
        assert "kept lessons.md:3: Run ruff before committing" in text
        where = str(dreams.ops_table.get_row_at(0)[3])
        assert where == "lessons.md:4 (deleted)"
        assert not re.search(r"\bL\d+\b", text), text
