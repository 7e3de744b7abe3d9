"""The header says HEAD, the state and the panes in full, however its labels were laid out before."""

from __future__ import annotations

from pathlib import Path

from helpers.tui_helpers import EXAMPLE_FILES, build_repo, settle
from rich.cells import cell_len
from textual.widgets import Label

from memrepo.tui.app import MemrepoApp
from memrepo.tui.header import RepoHeader

SIZE = (80, 24)
WIDE = (100, 24)
"""Wide enough for HEAD's id beside every pane title and state: at 80 columns the id gives way to the titles."""
LABELS = ("#header-panes", "#header-head", "#header-state")


def shown_width(label: Label) -> int:
    """Cells the label's text takes on screen (its content region, without padding)."""
    return label.content_region.width


async def test_every_header_label_is_as_wide_as_its_text_after_each_change(tmp_path: Path) -> None:
    """HEAD's id was missing in about 1 start in 4 at 2,000 files: its label kept the 0-cell width of its first,
    empty layout (Textual reuses a cached box model across a second update). Each label now takes its text's
    width, so after every change of HEAD and state the text fits exactly."""
    build_repo(tmp_path / "memory", EXAMPLE_FILES)
    app = MemrepoApp(tmp_path / "memory", watch=False)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        header = app.main_screen.query_one(RepoHeader)
        for head, state, changed in (
            ("0123456789abcdef", "clean", 0),
            (None, "clean", 0),
            ("fedcba9876543210", "hand_edited", 12),
            ("fedcba9876543210", "blocked", 0),
        ):
            header.head = head
            header.state = state
            header.changed = changed
            await settle(pilot)
            expected = {"#header-head": head[:7] if head else "unborn"}
            for selector in LABELS:
                label = header.query_one(selector, Label)
                text = str(label.render())
                assert shown_width(label) == cell_len(text), (selector, text)
                if selector in expected:
                    assert text == expected[selector]


async def test_a_label_laid_out_empty_and_given_text_before_its_idle_turn_shows_all_of_it(tmp_path: Path) -> None:
    """The race itself, forced with Textual's own layout calls: HEAD's label is redrawn empty (a layout request
    now pending), the header is laid out by another label's request before the label's idle turn, then HEAD
    arrives. Textual 8.2 then reuses the box model cached for the empty text: the id stayed 0 cells wide."""
    build_repo(tmp_path / "memory", EXAMPLE_FILES)
    app = MemrepoApp(tmp_path / "memory", watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = app.main_screen.query_one(RepoHeader)
        head = header.query_one("#header-head", Label)
        header.inbox = 0  # at 80 columns HEAD's id gives way to "2 Inbox (1)", the example inbox's count
        header.state = ""  # HEAD's label is empty before the first status read
        await settle(pilot)
        header._draw()  # HEAD's label is updated to "" again: a layout request is pending
        header._clear_arrangement_cache()  # what another label's idle turn does first
        app.main_screen._refresh_layout(app.main_screen.size)  # then the layout it asks for
        header.head = "89abcdef01234567"
        header.state = "clean"
        await settle(pilot)
        assert str(head.render()) == "89abcde"
        assert shown_width(head) == len("89abcde")


async def test_the_repo_folder_stays_readable_at_80_columns_with_hand_edits(tmp_path: Path) -> None:
    """breaker4: at 80 columns the path shrank to "…" once "● hand-edited N" took its room. The pane titles
    give way (numbers, the one on screen named) so the path's last component shows whole."""
    build_repo(tmp_path / "memory", EXAMPLE_FILES)
    app = MemrepoApp(tmp_path / "memory", watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = app.main_screen.query_one(RepoHeader)
        path = header.query_one("#header-path", Label)
        for repo_path, state, changed in (
            ("~/agent-memory", "hand_edited", 12),
            ("~/agent-memory", "clean", 0),
            ("~/work/clients/acme/agent-memory", "hand_edited", 3),
        ):
            header.repo_path, header.state, header.changed = repo_path, state, changed
            await settle(pilot)
            shown = str(path.render())
            assert shown in (repo_path, "…/agent-memory"), shown
            assert path.content_region.width >= cell_len(shown)  # the whole of it on screen, no "…" cut
            if state == "clean":
                # A clean repo at 80 columns keeps every pane's title: HEAD's id gives way first.
                panes = str(header.query_one("#header-panes", Label).render())
                assert all(name in panes for name in ("Files", "Inbox", "Log", "Context", "Health", "Dreams")), panes


def test_short_path_keeps_the_last_component() -> None:
    from memrepo.tui.header import short_path

    assert short_path("~/agent-memory", 40) == "~/agent-memory"
    assert short_path("~/work/clients/agent-memory", 20) == "…/agent-memory"
    assert short_path("~/agent-memory", 0) == "~/agent-memory"  # no width known yet: all of it
    assert short_path("memory", 3) == "memory"  # one component: the label's own ellipsis cuts it


async def test_the_inbox_tab_says_how_many_entries_wait_and_follows_triage(tmp_path: Path) -> None:
    """breaker30 B30-18: the header said "● clean" with 2 (or 20) inbox entries waiting and the Inbox tab no count, so
    a new user read "nothing to do". The tab says the count, at 80 columns with every pane's title, and drops it
    when the inbox is emptied."""
    files = dict(EXAMPLE_FILES)
    files["inbox.md"] += "- Another page says to use spaces [by: agent; added: 2025-01-08; kind: fact]\n"
    build_repo(tmp_path / "memory", files)
    app = MemrepoApp(tmp_path / "memory", watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = app.main_screen.query_one(RepoHeader)
        panes = header.query_one("#header-panes", Label)
        assert "2 Inbox (2)" in str(panes.render()) and "6 Dreams" in str(panes.render())
        assert str(header.query_one("#header-state", Label).render()) == "● clean"
        (tmp_path / "memory" / "inbox.md").write_text("# Inbox\n", encoding="utf-8")
        app.refresh_status()
        await settle(pilot)
        assert "2 Inbox 3 Log" in str(panes.render()), str(panes.render())
