"""User data is never markup and never crashes the app; a crash that does happen exits non-zero."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, build_repo, settle
from textual.content import Content

from memrepo.tui import app as app_module
from memrepo.tui.app import MemrepoApp, run_app
from memrepo.tui.header import RepoHeader
from memrepo.tui.panes import FolderPane
from memrepo.tui.plain import clean
from memrepo.tui.widgets.entry_table import EntryTable
from memrepo.tui.widgets.file_tree import FileTree
from memrepo.tui.widgets.preview import FilePreview

SIZE = (80, 24)

ODD_NAMES = ('[a="]notes.md', "[bold]Title.md", "[draft].md", "esc\x1b[31m.md")


def shown(markup: str | None) -> str:
    """What a border title reads on screen (the getter returns it as escaped markup)."""
    return Content.from_markup(markup or "").plain


async def test_markup_in_metadata_is_shown_not_parsed(tmp_path: Path) -> None:
    """``source: [/]`` on the highlighted entry crashed the app with a MarkupError."""
    root = tmp_path / "[red]memory"
    memory = "# Memory\n\n- closes nothing [/] and \x1b[31mred [by: agent; source: %5B/%5D; kind: %5Bb%5D]\n"
    build_repo(root, {**EXAMPLE_FILES, "MEMORY.md": memory})
    app = MemrepoApp(root, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.main_screen.query_one(EntryTable)
        await pilot.press("tab", "j", "k")
        await settle(pilot)
        assert app.is_running
        assert shown(table.border_subtitle) == "L3 · source: [/] · kind: [b]"
        text = table.entries[0].text
        assert text == "closes nothing [/] and \x1b[31mred"
        assert "[/] and ␛[31mred" in table.row_text(0)  # the escape byte never reaches the terminal
        header = app.main_screen.query_one(RepoHeader)
        assert str(header.query_one("#header-path").render()).endswith("[red]memory")


@pytest.mark.parametrize("name", ODD_NAMES)
async def test_file_names_show_as_written(tmp_path: Path, name: str) -> None:
    """The preview's title showed ``[bold]Title.md`` as "Title.md" and could not show ``[a="]``."""
    build_repo(tmp_path / "memory", {**EXAMPLE_FILES, **{n: "- plain [by: user]\n" for n in ODD_NAMES}})
    app = MemrepoApp(tmp_path / "memory", watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one(FolderPane)
        pane.show_file(name)
        await settle(pilot)
        assert pane.open_file == name
        assert shown(app.main_screen.query_one(FilePreview).border_title) == clean(name)
        tree = app.main_screen.query_one(FileTree)
        assert clean(name) in [str(node.label) for node in tree.root.children]


def test_clean_makes_controls_visible_and_drops_vs16() -> None:
    assert clean("a\x1bb\tc\nd") == "a␛b c d"
    assert clean("a\tb\r\nc\x0cd\u2028e", one_line=False) == "a\tb\nc␌d␤e"
    assert clean("⚠️ x") == "⚠ x"


def _headless(monkeypatch: pytest.MonkeyPatch) -> None:
    real_run = MemrepoApp.run
    monkeypatch.setattr(MemrepoApp, "run", lambda self: real_run(self, headless=True, size=SIZE))


def test_a_crash_exits_non_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_repo(tmp_path / "memory")
    _headless(monkeypatch)

    def crash(self: MemrepoApp) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(app_module.MemrepoApp, "start", crash)
    with pytest.raises(SystemExit) as exited:
        run_app(tmp_path / "memory", plain_settings())
    assert exited.value.code == 1


def test_quitting_exits_normally(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_repo(tmp_path / "memory")
    _headless(monkeypatch)
    monkeypatch.setattr(app_module.MemrepoApp, "start", lambda self: self.exit())
    run_app(tmp_path / "memory", plain_settings())  # returns, no SystemExit
