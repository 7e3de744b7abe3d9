"""The Health pane: rows from the engine, compaction with a question and progress, the palette command."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for
from textual.pilot import Pilot
from textual.widgets import DataTable

from memrepo.tui.locations import display_path
from memrepo.tui.panes import PANES, HealthPane
from memrepo.tui.widgets.dialogs import Confirm

HEALTH_KEY = str(PANES.index(HealthPane) + 1)


def _history(root: Path) -> None:
    """A few commits, a forget 40 days ago (a removal that old is a WARN) and a dream branch, made with git."""
    user = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    when = (datetime.now(UTC) - timedelta(days=40)).strftime("%Y-%m-%dT%H:%M:%S+0000")
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    with (root / "me.md").open("a") as fh:
        fh.write("- Secret to forget [by: user]\n")
    subprocess.run(["git", *user, "commit", "-qam", "Remember: secret"], cwd=root, check=True, env=env)
    text = (root / "me.md").read_text().replace("- Secret to forget [by: user]\n", "")
    (root / "me.md").write_text(text)
    forget = "Forget: Secret to forget\n\nOrigin: cli"
    subprocess.run(["git", *user, "commit", "-qam", forget], cwd=root, check=True, env=env)
    subprocess.run(["git", "branch", "dream/x1"], cwd=root, check=True)


async def open_health(pilot: Pilot[None]) -> HealthPane:
    """Show the Health pane once the app is ready, with its rows listed."""
    await settle(pilot)
    await pilot.press(HEALTH_KEY)
    await settle(pilot)
    return pilot.app.query_one(HealthPane)


async def test_health_pane_lists_rows_and_compacts_with_a_question(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    _history(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.query_one(HealthPane).rows == []  # checks wait until shown: start-up pays nothing
        await pilot.press(HEALTH_KEY)
        await settle(pilot)
        pane = app.query_one(HealthPane)
        history = next(r for r in pane.rows if r.name == "history")
        assert history.status.value == "WARN" and history.fix_key == "c"
        assert pane.query_one(DataTable).row_count == len(pane.rows) >= 20
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        question = str(app.screen.query(".dialog-title").first().visual)
        assert (
            "undo history will be lost" in question
            and "1 dream review branch will be deleted and its dream marked stale: dream/x1." in question
        )
        await pilot.press("escape")
        await settle(pilot)
        assert (
            len(subprocess.run(["git", "rev-list", "--all"], cwd=root, capture_output=True, text=True).stdout.split())
            == 3
        )
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("y")
        await settle(pilot)
        assert not pane.compacting
        assert pane.step_text.startswith("Compacting: [10/10] Deleting old packs")
        assert any(n.startswith("History compacted: one commit replaces 3") for n in app.notices)
        refs = subprocess.run(["git", "rev-list", "--all"], cwd=root, capture_output=True, text=True).stdout.split()
        assert len(refs) == 1
        await wait_for(
            pilot, lambda: next(r for r in pane.rows if r.name == "history").status.value == "OK", what="fresh rows"
        )


async def test_palette_offers_compaction(isolated_home: Path) -> None:
    from memrepo.tui.commands import KeyCommands

    root = isolated_home / "memory"
    build_repo(root, EXAMPLE_FILES)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        provider = KeyCommands(app.screen)
        hits = [hit async for hit in provider.search("compact")]
        assert [h.text for h in hits] == ["Health: Compact history"]
        hits[0].command()
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        assert app.query_one("#panes").current == HealthPane.PANE_ID
        await pilot.press("y")
        await settle(pilot)
        log = subprocess.run(["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True).stdout
        assert log.strip() == "Compact history"


async def test_a_failed_compaction_is_the_last_write_error(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memrepo.engine.files import lock as gitlocks

    # An unheld lock file 10 s old is a crashed git's and goes: the question may take that on a loaded machine.
    monkeypatch.setattr(gitlocks, "STALE_LOCK_S", 3600.0)
    root = isolated_home / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        pane = await open_health(pilot)
        assert next(r for r in pane.rows if r.name == "last write error").reason == "none"
        (root / ".git" / "index.lock").write_text("")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, Confirm), what="the question")
        await pilot.press("y")
        await settle(pilot)
        row = next(r for r in pane.rows if r.name == "last write error")
        assert row.status.value == "WARN" and "index is locked" in row.reason
        assert any("index is locked" in n for n in app.notices)


async def test_rows_follow_changes_on_disk_once_per_burst(isolated_home: Path) -> None:
    root = isolated_home / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        pane = await open_health(pilot)
        runs = []
        original = pane.run_checks

        def counting() -> object:
            runs.append(1)
            return original()

        pane.run_checks = counting  # type: ignore[method-assign]
        with (root / "me.md").open("a") as fh:
            fh.write("- See [[nowhere]]\n")
        for _ in range(5):  # a burst of watcher events
            pane.work_tree_changed(["me.md"])
        await wait_for(
            pilot, lambda: next(r for r in pane.rows if r.name == "links").status.value == "WARN", what="the links row"
        )
        assert len(runs) == 1


async def test_reasons_keep_their_width_when_the_rows_are_listed_again(isolated_home: Path) -> None:
    """A screen drawn right after the rows are listed again (before the table idles) shows whole reasons."""
    root = isolated_home / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        pane = await open_health(pilot)
        table = pane.query_one(DataTable)
        column = table.columns["reason"]
        column.content_width = len("reason")  # as DataTable leaves a new column until it idles
        pane._show(pane.rows)  # no await: no idle in between, as when a refresh lands just before a paint
        # As shown: the repo's path as ~/memory (the raw path's length depends on the temp folder).
        shown_root = pane.repo.root  # type: ignore[union-attr]
        widest = max(len(r.reason.replace(str(shown_root), display_path(shown_root))) for r in pane.rows)
        assert column.get_render_width(table) >= widest


async def test_health_pane_shows_the_configured_dream_settings_like_memrepo_health(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app hands its one settings object to the repo, so its Health pane and ``memrepo health`` agree."""
    import json

    from click.testing import CliRunner

    from memrepo.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text("[dream]\nenabled = false\ndaily_token_budget = 1234\n")
    monkeypatch.setenv("MEMREPO_CONFIG", str(config))
    root = isolated_home / "memory"
    build_repo(root)
    cli = CliRunner().invoke(main, ["--repo", str(root), "health", "--json"])
    assert cli.exit_code == 0, cli.output
    cli_rows = {r["name"]: r["reason"] for r in json.loads(cli.stdout) if r["name"] in ("last dream", "dream budget")}
    assert cli_rows == {
        "last dream": "never dreamed (dreaming is off in the settings)",
        "dream budget": "0 of 1,234 tokens in the last 24 h",
    }
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        pane = await open_health(pilot)
        assert {r.name: r.reason for r in pane.rows if r.name in cli_rows} == cli_rows


async def test_problems_are_listed_first_in_check_order(isolated_home: Path) -> None:
    """FAIL, then WARN, then OK rows, each in the engine's check order: at 80x24 the counted problems show first."""
    root = isolated_home / "memory"
    build_repo(root)
    _history(root)  # a forget 40 days ago: the history row is a WARN
    (root / "topics").mkdir(exist_ok=True)
    (root / "topics" / "lonely.md").write_text("# Lonely\n\n- Nobody links here [by: user]\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "Hand edits"],
        cwd=root,
        check=True,
    )
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await open_health(pilot)
        await wait_for(pilot, lambda: bool(pane.rows), what="the health rows")
        engine_rows = await app.repo.health()  # type: ignore[union-attr]
        shown = [(r.status.value, r.name) for r in pane.rows]
        statuses = [s for s, _ in shown]
        assert "WARN" in statuses and "OK" in statuses
        assert statuses == sorted(statuses, key=["FAIL", "WARN", "OK"].index)
        assert engine_rows[0].status.value == "OK"  # the engine's own order starts with an OK row
        for status in ("FAIL", "WARN", "OK"):  # within a status, the engine's order is kept
            assert [n for s, n in shown if s == status] == [r.name for r in engine_rows if r.status.value == status]
        first = pane.rows[0]
        assert first.status.value != "OK" and pane.detail_text.startswith(f"{first.status.value} {first.name}:")


async def test_a_write_that_works_ends_the_last_write_error(isolated_home: Path) -> None:
    """breaker30 B30-18: a refused pin stayed Health's "last write error" after later pins, accepts and undos worked."""
    from memrepo.tui.messages import RepoWritten, WriteFailed

    root = isolated_home / "memory"
    build_repo(root)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        pane = await open_health(pilot)
        app.post_message(WriteFailed("Cannot pin repo:me.md#L11: not the user's own line"))
        await settle(pilot)
        await wait_for(pilot, lambda: next(r for r in pane.rows if r.name == "last write error").reason != "none")
        app.post_message(RepoWritten(None))  # nothing committed: the error stands
        await settle(pilot)
        assert app.last_write_error is not None
        app.post_message(RepoWritten("0" * 40))  # a later write committed
        await settle(pilot)
        await wait_for(pilot, lambda: next(r for r in pane.rows if r.name == "last write error").reason == "none")
        assert app.last_write_error is None
