"""``/`` search from any pane and the Context pane, driven by Pilot at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.tui.app import NEAREST_NOTICE
from memrepo.tui.panes import ContextPane, FolderPane
from memrepo.tui.search import SearchScreen
from memrepo.tui.widgets.entry_table import EntryTable

SIZE = (80, 24)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    files = dict(EXAMPLE_FILES)
    files["notes/deploy.md"] = (
        "# Deploys\n\n"
        + "".join(f"- Filler note {i} [by: user; added: 2025-01-01]\n" for i in range(30))
        + "- Deploys need the staging cluster first [by: user; added: 2025-04-01]\n"
    )
    build_repo(root, files)
    return root


async def search(pilot, query: str) -> SearchScreen:
    await pilot.press("slash")
    screen = pilot.app.screen
    assert isinstance(screen, SearchScreen)
    before = screen.searches
    await pilot.press(*query)
    await wait_for(pilot, lambda: screen.searches > before and screen.hits, what="search hits")
    return screen


@pytest.mark.parametrize("pane_key", ["1", "2", "3", "4"])
async def test_slash_searches_from_any_pane_and_enter_jumps_to_the_entry(repo: Path, pane_key: str) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(pane_key)
        await settle(pilot)
        screen = await search(pilot, "staging cluster")
        hit = screen.hits[0]
        assert (hit.path, hit.line, hit.text) == ("notes/deploy.md", 33, "Deploys need the staging cluster first")
        await pilot.press("enter")
        await settle(pilot)
        folder = app.main_screen.query_one(FolderPane)
        await wait_for(
            pilot,
            lambda: folder.open_file == "notes/deploy.md" and folder.table.row_count == 31,
            what="the file to open",
        )
        await wait_for(
            pilot,
            lambda: folder.table.highlighted_entry is not None and folder.table.highlighted_entry.line == 33,
            what="the entry cursor on line 33",
        )
        assert isinstance(app.focused, EntryTable)
        assert app.main_screen.query_one("#panes").current == "folder"
        assert NEAREST_NOTICE not in app.notices  # an answer
        await settle(pilot)  # breaker29 B29-3: the list is scrolled to the hit, not left at its first rows
        rows, top = folder.table.scrollable_content_region.height - 1, round(folder.table.scroll_y)
        assert rows > 0 and top <= folder.table.cursor_row < top + rows, (top, rows, folder.table.cursor_row)


async def test_enter_on_a_nearest_entry_says_it_is_not_an_answer(repo: Path) -> None:
    # The Folder pane marks no entry as nearest: without the notice a jump reads as an answer (breaker2 N6).
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await search(pilot, "how do we name pytest fixtures in conftest")
        assert not any(hit.answer for hit in screen.hits)
        hit = screen.hits[0]
        await pilot.press("enter")
        await settle(pilot)
        folder = app.main_screen.query_one(FolderPane)
        await wait_for(pilot, lambda: folder.open_file == hit.path, what="the nearest entry's file to open")
        assert NEAREST_NOTICE in app.notices


async def test_search_lists_file_line_and_text_and_escape_closes(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await search(pilot, "invoices")
        labels = [
            str(screen.query_one("#search-results").get_option_at_index(i).prompt) for i in range(len(screen.hits))
        ]
        assert labels == ["workspaces/billing.md:4  Invoices are in cents  (agent)"]
        await pilot.press("escape")
        assert not isinstance(app.screen, SearchScreen)
        assert app.main_screen.query_one(FolderPane).open_file == "MEMORY.md"


async def test_inbox_hits_say_unreviewed_and_no_match_says_so(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await search(pilot, "tabs")
        assert str(screen.query_one("#search-results").get_option_at_index(0).prompt).endswith("unreviewed")
        for _ in "tabs":
            await pilot.press("backspace")
        before = screen.searches
        await pilot.press(*"qqqzzz")
        await wait_for(
            pilot,
            lambda: screen.searches > before and "No memory matches" in str(screen.query_one("#search-status").visual),
            what="no-match status",
        )
        assert screen.hits == []


async def test_context_pane_shows_the_block_an_agent_gets(repo: Path) -> None:
    app = RecordingApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        pane = app.main_screen.query_one(ContextPane)
        store = MemoryStore.open(repo, plain_settings(), create=False)
        assert pane.block is not None and pane.block.text == store.context(None).text
        budget = str(pane.query_one("#context-budget").visual)
        assert "MEMORY.md" in budget and "/500 tokens" in budget
        await pilot.press("j")
        await settle(pilot)
        assert pane.workspace == "ws-1a2b3c4d"
        assert pane.block.text == store.context("ws-1a2b3c4d").text
        assert "Invoices are in cents (agent)" in pane.block.text
        assert "/300 tokens" in str(pane.query_one("#context-budget").visual)


async def test_context_pane_follows_a_hand_edit(repo: Path) -> None:
    app = RecordingApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        pane = app.main_screen.query_one(ContextPane)
        memory = repo / "MEMORY.md"
        memory.write_text(
            memory.read_text().replace("## Index", "- Added by hand while the app watched [by: user]\n\n## Index")
        )
        await wait_for(
            pilot,
            lambda: pane.block is not None and "Added by hand while the app watched" in pane.block.text,
            timeout=60,  # hang guard
            what="the block to follow the edit",
        )


async def test_the_workspace_list_is_filled_in_slices_with_the_event_loop_turning_between(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found timing hand edits at 20,000 files: 10,000 workspaces added one by one held the event loop
    (and a hand edit waiting to be shown) for 0.7 s; now each slice of OPTIONS_AT_ONCE gives the loop a turn."""
    import asyncio

    from textual.widgets import OptionList

    from memrepo.tui.panes import context as context_pane

    files = {"MEMORY.md": "# Memory\n\n- Prefers tea [by: user]\n"}
    for i in range(25):
        files[f"workspaces/p{i:02d}.md"] = f"# p{i:02d}\n\n- Project {i} [workspace: ws-{i:08x}; by: user]\n"
    build_repo(tmp_path / "repo", files)
    monkeypatch.setattr(context_pane, "OPTIONS_AT_ONCE", 10)
    turns = 0
    seen: list[tuple[int, int]] = []  # (options added in the call, loop turns seen before it)
    real = OptionList.add_options

    def counted(self: OptionList, items):  # type: ignore[no-untyped-def]
        items = list(items)
        seen.append((len(items), turns))
        return real(self, items)

    monkeypatch.setattr(OptionList, "add_options", counted)
    app = RecordingApp(tmp_path / "repo", watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        stop = asyncio.Event()

        async def count_turns() -> None:
            nonlocal turns
            while not stop.is_set():
                turns += 1
                await asyncio.sleep(0)

        counter = asyncio.ensure_future(count_turns())
        await pilot.press("4")
        await settle(pilot)
        stop.set()
        await counter
        pane = app.main_screen.query_one(ContextPane)
        assert pane.options.option_count == 26  # "(no workspace)" and the 25
        assert [n for n, _ in seen][-3:] == [10, 10, 5]
        assert seen[-1][1] > seen[-3][1]  # the loop turned between the first slice and the last


async def test_the_block_box_counts_one_line_with_refs_in_the_singular(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Prefers pnpm for JavaScript projects", by="user"))
    app = RecordingApp(store.root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        pane = app.main_screen.query_one(ContextPane)
        assert pane.block is not None and len(pane.block.refs) == 1
        assert pane.query_one("#context-block").border_subtitle == "1 line with refs"


async def test_the_context_pane_starts_on_the_workspace_of_the_folder_the_app_runs_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """breaker30 B30-24: `memrepo` started in a project folder showed "(no workspace)" in the Context pane."""
    from memrepo.engine.format.paths import normalize_workspace

    project = tmp_path / "projects" / "shop"
    project.mkdir(parents=True)
    ws_id, _slug, _path = normalize_workspace(str(project))
    root = tmp_path / "memory"
    files = dict(EXAMPLE_FILES)
    files["workspaces/shop.md"] = (
        f"# shop\n\n- Workspace shop [workspace: {ws_id}; path: {project}; by: user]\n"
        "- The shop deploys from main [by: user]\n"
    )
    build_repo(root, files)
    monkeypatch.chdir(project)
    app = RecordingApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        pane = app.main_screen.query_one(ContextPane)
        assert pane.workspace == ws_id
        assert pane.block is not None and "The shop deploys from main" in pane.block.text
        monkeypatch.chdir(tmp_path)  # a folder no workspace names: the list starts on "(no workspace)" as before
    other = RecordingApp(root, watch=False)
    async with other.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert other.main_screen.query_one(ContextPane).workspace is None
