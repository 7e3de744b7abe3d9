"""A running dream's detail says what runs: a rules dream asks no model (breaker20 B20-11)."""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.dreams.record import DreamRecord
from memrepo.tui.panes.dreamview import operations_content


def _running(provider: str) -> DreamRecord:
    return DreamRecord(
        id="20261206-055910-b46f",
        trigger="manual",
        provider=provider,
        started="2026-12-06T05:59:10Z",
        examined=[f"topics/t{n}.md" for n in range(1999)],
        folder_files=1999,
    )


def test_a_running_rules_dream_names_the_rules_and_the_files() -> None:
    record = _running("rules")
    assert record.status == "running"
    text = str(operations_content(record))
    assert "model" not in text.replace("no model", "")  # there is no model in a rules dream
    assert "Running: the rules check every line of 1,999 files (offline, no model)" in text
    assert "started 05:59 UTC" in text


def test_a_running_model_dream_still_waits_for_its_model() -> None:
    text = str(operations_content(_running("openai")))
    assert "Running: 1,999 files sent, the model (openai) has not answered yet" in text


def test_a_running_rules_dream_shows_its_progress_line() -> None:
    """The step and its count the dreamer keeps in the running record (tests/dreams/test_dream_progress.py)."""
    record = _running("rules")
    record.progress = "lines that say the same or replace one another, among 7,922 lines of 1,999 files, pair: 10 of 44"
    text = str(operations_content(record))
    assert (
        "Running: the rules check lines that say the same or replace one another, among 7,922 lines of 1,999 files,"
        " pair: 10 of 44 (offline, no model)"
    ) in text


async def test_the_dreams_pane_follows_the_progress_of_a_running_dream(isolated_home: Path) -> None:
    """The pane reads a running record again when it changes on disk: each progress line shows as it is kept."""
    from helpers.dream_helpers import make_repo
    from helpers.tui_helpers import RecordingApp, settle, wait_for

    from memrepo.engine.dreams.record import DreamRecords
    from memrepo.tui.panes import PANES, DreamsPane

    root = isolated_home / "memory"
    make_repo(root).close()
    records = DreamRecords(root / ".git")
    record = _running("rules")
    record.progress = "duplicates among 84 lines of 15 files, scope: 3 of 12"
    records.save(record)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(str(PANES.index(DreamsPane) + 1))
        pane = app.query_one(DreamsPane)
        await wait_for(pilot, lambda: "scope: 3 of 12" in pane.detail_text, what="the first progress line")
        record.progress = "facts a newer line of the same file changed, file: 9 of 15"
        records.save(record)
        await wait_for(pilot, lambda: "file: 9 of 15" in pane.detail_text, what="the next progress line")
