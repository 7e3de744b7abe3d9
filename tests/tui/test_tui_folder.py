"""The Folder pane driven by Pilot at 80x24 on small repos made here (no sleeps: workers are awaited)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from helpers.tui_helpers import EXAMPLE_FILES, RecordingApp, build_repo, settle, wait_for
from textual.widgets import Static

from memrepo.tui.app import MemrepoApp
from memrepo.tui.help import HelpScreen
from memrepo.tui.panes import FolderPane
from memrepo.tui.widgets.entry_detail import EntryScreen
from memrepo.tui.widgets.entry_table import EntryTable
from memrepo.tui.widgets.file_tree import FileTree
from memrepo.tui.widgets.preview import FilePreview, PreviewText

SIZE = (80, 24)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    build_repo(root)
    return root


def pane(app: MemrepoApp) -> FolderPane:
    return app.main_screen.query_one(FolderPane)


def palette_hits(app: MemrepoApp) -> int:
    from textual.widgets import OptionList

    lists = app.screen.query(OptionList)
    return lists.first().option_count if lists else 0


def entry_texts(app: MemrepoApp) -> list[str]:
    return [e.text for e in app.main_screen.query_one(EntryTable).entries]


async def test_opens_memory_md_with_its_entries_and_status(repo: Path) -> None:
    app = RecordingApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert pane(app).open_file == "MEMORY.md"
        assert entry_texts(app)[0] == "Answer in English unless asked otherwise"
        table = app.main_screen.query_one(EntryTable)
        assert list(table.column_widths) == ["text", "by", "added", "source", "kind"]
        assert table.render_line(0).text.split() == ["text", "by", "added"]  # 80 columns
        assert app.header.state == "clean"
        assert app.header.head is not None
        assert app.main_screen.query_one(FileTree).has_focus
        assert not app.notices


async def test_every_file_shows_in_the_tree(repo: Path) -> None:
    async with MemrepoApp(repo).run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert pilot.app.main_screen.query_one(FileTree).paths == sorted(EXAMPLE_FILES)


async def test_keys_move_between_files(repo: Path) -> None:
    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # Files first at each level, in list_files() order: MEMORY.md, inbox.md, lessons.md, me.md.
        await pilot.press("j")
        await settle(pilot)
        assert pane(app).open_file == "inbox.md"
        await pilot.press("j", "j")
        await settle(pilot)
        assert pane(app).open_file == "me.md"
        assert entry_texts(app) == ["Name is Sam", "Prefers pytest over unittest"]
        await pilot.press("k")
        await settle(pilot)
        assert pane(app).open_file == "lessons.md"
        assert len(entry_texts(app)) == 3
        preview = app.main_screen.query_one(FilePreview)
        assert preview.border_title == "lessons.md"
        assert "Never force-push main" in preview.text_view.text


async def test_nested_files_open_from_the_keyboard(repo: Path) -> None:
    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # MEMORY.md inbox.md lessons.md me.md ▾notes ▾db active_users.sql schema.md
        await pilot.press(*"jjjjjjj")
        await settle(pilot)
        assert pane(app).open_file == "notes/db/schema.md"
        assert entry_texts(app) == ["users has a soft-delete column deleted_at"]
        await pilot.press("k")
        await settle(pilot)
        assert pane(app).open_file == "notes/db/active_users.sql"
        assert "deleted_at IS NULL" in app.main_screen.query_one(PreviewText).text


async def test_tab_moves_focus_and_enter_opens_the_entry(repo: Path) -> None:
    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "j")  # lessons.md
        await settle(pilot)
        await pilot.press("tab")
        assert isinstance(app.focused, EntryTable)
        await pilot.press("j", "j")
        assert app.main_screen.query_one(PreviewText).cursor_location[0] == 5 - 1  # the preview follows: line 5
        await pilot.press("enter")  # the whole entry, full screen
        assert isinstance(app.screen, EntryScreen)
        assert "Never force-push main" in str(app.screen.query_one("#entry-text", Static).visual)
        await pilot.press("escape")
        assert isinstance(app.focused, EntryTable)
        await pilot.press("tab")
        assert isinstance(app.focused, PreviewText)
        await pilot.press("shift+tab", "shift+tab")
        assert isinstance(app.focused, FileTree)


async def test_change_on_disk_shows_without_a_key(repo: Path) -> None:
    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert entry_texts(app) == ["Answer in English unless asked otherwise"]  # index links are not entries
        with (repo / "MEMORY.md").open("a", encoding="utf-8") as fh:
            fh.write("- Added from another terminal [by: user; added: 2025-05-05]\n")
        await wait_for(pilot, lambda: "Added from another terminal" in entry_texts(app), what="the new entry")
        await wait_for(pilot, lambda: app.header.state == "hand_edited", what="dirty state")
        tree = app.main_screen.query_one(FileTree)
        await wait_for(pilot, lambda: tree.changed == {"MEMORY.md"}, what="the changed mark")
        assert "Added from another terminal" in app.main_screen.query_one(PreviewText).text

        (repo / "notes" / "new.md").write_text("- brand new [by: user]\n", encoding="utf-8")
        await wait_for(pilot, lambda: "notes/new.md" in tree.paths, what="the new file")

        (repo / "MEMORY.md").unlink()
        await wait_for(pilot, lambda: "MEMORY.md" not in tree.paths, what="the file to go")
        await wait_for(pilot, lambda: pane(app).open_file != "MEMORY.md", what="another file")


async def test_binary_file_shows_an_error_not_a_crash(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root, {**EXAMPLE_FILES, "blob.bin": b"\x00\x01\x02binary\xff", "latin1.md": b"caf\xe9\n"})
    app = RecordingApp(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        preview = app.main_screen.query_one(FilePreview)
        for path in ("blob.bin", "latin1.md"):
            pane(app).show_file(path)
            await settle(pilot)
            assert pane(app).open_file == path
            assert preview.has_class("-error")
            note = str(preview.query_one("#preview-note").render())
            assert path in note
            assert entry_texts(app) == []
        await pilot.press("k")  # moving on still works
        await settle(pilot)
        assert not preview.has_class("-error")


async def test_bad_user_theme_falls_back_with_one_notice(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_repo(root)
    themes = tmp_path / "themes"
    themes.mkdir()
    (themes / "broken.toml").write_text('name = "broken"\nprimary = "not-a-colour"\n', encoding="utf-8")
    (themes / "mine.toml").write_text('name = "mine"\nprimary = "#ff0000"\n', encoding="utf-8")
    app = RecordingApp(root, theme="broken", themes_dir=themes)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "memrepo-dark"
        assert "mine" in app.available_themes
        assert "memrepo-light" in app.available_themes
        problems = [n for n in app.notices if "broken.toml" in n]
        assert len(problems) == 1 and "primary" in problems[0]
        assert any("'broken' is not available" in n for n in app.notices)
        assert pane(app).open_file == "MEMORY.md"  # the app runs on


async def test_user_themes_load_from_the_config_folder(repo: Path, isolated_home: Path) -> None:
    from memrepo.tui.locations import user_themes_dir

    folder = user_themes_dir()
    assert folder.is_relative_to(isolated_home)
    folder.mkdir(parents=True)
    (folder / "sunny.toml").write_text(
        'name = "sunny"\ndark = false\nprimary = "#af5f00"\n[semantic]\nby-user = "#005f00"\n',
        encoding="utf-8",
    )
    app = MemrepoApp(repo, theme="sunny")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "sunny"
        assert app.theme_variables["by-user"] == "#005f00"
        assert app.theme_variables["untrusted"]  # filled in from the light defaults


async def test_help_lists_every_binding(repo: Path) -> None:
    from rich.table import Table

    from memrepo.tui.keys import binding_sections

    rows = [row for _, section in binding_sections() for row in section]
    assert all(row.id and row.description for row in rows), "every binding needs an id and a description"
    ids = [row.id for row in rows]
    assert len(ids) == len(set(ids)), "binding ids must be unique"

    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one("#help-table", Static).content
        assert isinstance(table, Table)
        listed = {str(cell) for cell in table.columns[1].cells}
        assert {row.description for row in rows} <= listed
        await pilot.press("j", "pagedown", "escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_command_palette_opens_any_file(repo: Path) -> None:
    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"schema")
        await wait_for(pilot, lambda: palette_hits(app) > 0, what="a palette hit")
        await pilot.press("enter")
        await settle(pilot)
        assert pane(app).open_file == "notes/db/schema.md"


async def test_refresh_key_reloads(repo: Path) -> None:
    app = RecordingApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert "Refreshed" in app.notices
        assert pane(app).open_file == "MEMORY.md"


async def test_a_path_that_is_not_a_repo_is_a_notice(tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("not a folder", encoding="utf-8")
    app = RecordingApp(target)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.repo is None
        assert app.notices and "a-file" in app.notices[-1]
        await pilot.press("r", "j", "tab")  # keys do nothing harmful
        await settle(pilot)


async def test_brackets_in_names_and_text_show_as_written(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    files = {
        **EXAMPLE_FILES,
        "[draft].md": "- uses [bold]markup[/bold] and [[me]] [by: agent; source: a%5Bb%5D]\n",
        "notes/[red]x.md": "- plain [by: user]\n",
    }
    build_repo(root, files)
    app = RecordingApp(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.query_one(FileTree)
        top = [str(node.label) for node in tree.root.children]
        assert top == ["MEMORY.md", "[draft].md", "inbox.md", "lessons.md", "me.md", "notes", "workspaces"]
        pane(app).show_file("[draft].md")
        await settle(pilot)
        entry = app.main_screen.query_one(EntryTable).entries[0]
        assert entry.text == "uses [bold]markup[/bold] and [[me]]"
        assert entry.meta["source"] == "a[b]"
        assert "[bold]markup[/bold]" in app.main_screen.query_one(PreviewText).text
        await pilot.press("ctrl+p", *"red")
        await wait_for(pilot, lambda: palette_hits(app) > 0, what="a palette hit")
        await pilot.press("enter")
        await settle(pilot)
        assert pane(app).open_file == "notes/[red]x.md"

        # Live additions keep the order: files first, then folders, each by name.
        (root / "zeta.md").write_text("- z [by: user]\n", encoding="utf-8")
        (root / "alpha").mkdir()
        (root / "alpha" / "a.md").write_text("- a [by: user]\n", encoding="utf-8")
        await wait_for(pilot, lambda: "alpha/a.md" in tree.paths and "zeta.md" in tree.paths, what="the new files")
        top = [str(node.label) for node in tree.root.children]
        assert top == [
            "MEMORY.md",
            "[draft].md",
            "inbox.md",
            "lessons.md",
            "me.md",
            "zeta.md",
            "alpha",
            "notes",
            "workspaces",
        ]
        assert not [n for n in app.notices if "rror" in n]


async def test_theme_change_recolours_the_entries(repo: Path) -> None:
    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane(app).show_file("lessons.md")  # agent, user, user; the cursor is on the first
        await settle(pilot)
        table = app.main_screen.query_one(EntryTable)

        def by_colour() -> str:
            by = next(s for s in table.row_segments(1) if s.text.strip() == "user")
            assert by.style is not None and by.style.color is not None
            return str(by.style.color.triplet.hex if by.style.color.triplet else by.style.color)

        dark = by_colour()
        app.theme = "memrepo-light"
        await wait_for(pilot, lambda: by_colour() != dark, what="the light theme's colours")
        assert by_colour() == app.theme_variables["by-user"]


async def test_a_failing_engine_call_is_a_notice_not_a_crash(repo: Path) -> None:
    app = RecordingApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.repo is not None

        async def broken(path: str) -> None:
            raise RuntimeError("disk on fire")

        app.repo.read_file = broken  # type: ignore[method-assign]
        await pilot.press("j")
        await settle(pilot)
        assert any("disk on fire" in n for n in app.notices)
        await pilot.press("k", "tab", "shift+tab")  # still answering keys
        await settle(pilot)
        assert app.is_running


async def test_a_commit_from_another_terminal_updates_the_header(repo: Path) -> None:
    """A commit made with git alone moves HEAD: the header follows with no key and no poll."""
    import subprocess

    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = app.header.head
        with (repo / "me.md").open("a", encoding="utf-8") as fh:
            fh.write("- committed from a shell [by: user]\n")
        await wait_for(pilot, lambda: app.header.state == "hand_edited", what="dirty state")
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "by hand"],
            cwd=repo,
            check=True,
        )
        await wait_for(
            pilot, lambda: app.header.head != before and app.header.state == "clean", what="the new HEAD, clean"
        )


async def test_command_palette_lists_keys_once(repo: Path) -> None:
    """Textual's "Keys" and memrepo's "Keys: every binding" were both listed."""
    from memrepo.tui.commands import KeyCommands

    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        system = [c.title for c in app.get_system_commands(app.screen) if c.title.startswith("Keys")]
        ours = [hit.text async for hit in KeyCommands(app.screen).discover() if (hit.text or "").startswith("Keys")]
        assert system + ours == ["Keys"]
        await pilot.press("ctrl+p", *"Keys")
        await wait_for(pilot, lambda: palette_hits(app) > 0, what="a palette hit")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_the_header_counts_writes_kept_while_blocked(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memrepo.engine.errors import BlockedError
    from memrepo.engine.files import lock as gitlocks
    from memrepo.engine.models import Candidate
    from memrepo.engine.repo.store import MemoryStore

    # An unheld lock file 10 s old is a crashed git's and goes: the app's start on a loaded machine may take that.
    monkeypatch.setattr(gitlocks, "STALE_LOCK_S", 3600.0)
    (repo / ".git" / "index.lock").write_text("")
    with pytest.raises(BlockedError):
        MemoryStore.open(repo, plain_settings()).remember(Candidate(text="Kept while the index was locked"))
    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(  # the first status is read by a worker: on a loaded machine after settle() returns
            pilot,
            lambda: app.header.state == "blocked" and app.header.pending == 1,
            what=f"the blocked state with 1 kept write (now {app.header.state}, {app.header.pending})",
        )
        label = str(app.header.query_one("#header-state", Static).render())
        assert "1 kept" in label


async def test_a_change_on_disk_lists_only_its_paths_and_a_new_folder_the_whole_tree(repo: Path) -> None:
    """Issue 16/18: each hand edit used to walk every file (20,000 at the largest size); now the tree
    learns the changed paths from a stat of each, and only a folder that came or went is listed whole."""
    from memrepo.engine.repo.store import MemoryStore

    walks: list[int] = []
    real = MemoryStore.list_files

    def counted(self: MemoryStore) -> list[tuple[str, int]]:
        walks.append(1)
        return real(self)

    app = MemrepoApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.query_one(FileTree)
        MemoryStore.list_files = counted  # type: ignore[method-assign]
        try:
            with (repo / "MEMORY.md").open("a", encoding="utf-8") as fh:
                fh.write("- Added from another terminal [by: user; added: 2025-05-05]\n")
            await wait_for(pilot, lambda: "Added from another terminal" in entry_texts(app), what="the new entry")
            (repo / "notes" / "new.md").write_text("- brand new [by: user]\n", encoding="utf-8")
            await wait_for(pilot, lambda: "notes/new.md" in tree.paths, what="the new file")
            (repo / "notes" / "new.md").unlink()
            await wait_for(pilot, lambda: "notes/new.md" not in tree.paths, what="the file to go")
            await settle(pilot)
            assert walks == []  # three changes, no walk of the tree
            assert pane(app).files == dict(MemoryStore.open(repo, plain_settings(), create=False).list_files())
            outside = repo.parent / "moved-in"
            (outside / "deep").mkdir(parents=True)
            (outside / "deep" / "a.md").write_text("- from a folder moved in [by: user]\n", encoding="utf-8")
            outside.rename(repo / "moved-in")  # one event names the folder, none its files
            await wait_for(pilot, lambda: "moved-in/deep/a.md" in tree.paths, what="the moved-in folder's file")
            assert walks  # only a walk finds what a moved-in folder holds
            (repo / "moved-in").rename(repo.parent / "moved-out")
            await wait_for(pilot, lambda: "moved-in/deep/a.md" not in tree.paths, what="the moved-out folder's file")
        finally:
            MemoryStore.list_files = real  # type: ignore[method-assign]


async def test_a_change_to_the_open_file_is_read_before_the_file_list_and_the_status(repo: Path) -> None:
    """The engine runs one call at a time, in the order asked: the open file's new text (what the
    user looks at) used to wait for the status scan (50-80 ms at 20,000 files) and the file list.

    One burst of changes is posted by the test (no watcher): a real watcher may split one append into two bursts
    on a loaded machine, and the hand-edit commit after the quiet period is a third, each reading the file again.
    """
    from memrepo.engine.repo.store import MemoryStore
    from memrepo.tui.messages import WorkTreeChanged

    calls: list[str] = []
    reals = {name: getattr(MemoryStore, name) for name in ("read_file", "file_sizes", "status")}

    def recorded(name: str):  # type: ignore[no-untyped-def]
        def call(self: MemoryStore, *args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append(f"{name} {args[0]}" if name == "read_file" else name)  # the header reads inbox.md too
            return reals[name](self, *args, **kwargs)

        return call

    app = MemrepoApp(repo, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        try:
            for name in reals:
                setattr(MemoryStore, name, recorded(name))
            with (repo / "MEMORY.md").open("a", encoding="utf-8") as fh:
                fh.write("- Seen before the list [by: user; added: 2025-05-05]\n")
            app.post_message(WorkTreeChanged(["MEMORY.md"]))
            await wait_for(pilot, lambda: "Seen before the list" in entry_texts(app), what="the new entry")
            await settle(pilot)
        finally:
            for name, real in reals.items():
                setattr(MemoryStore, name, real)
        assert calls[:3] == ["read_file MEMORY.md", "file_sizes", "status"], calls
        assert calls.count("read_file MEMORY.md") == 1, calls  # the list reads it no second time


async def test_the_open_file_deleted_on_disk_opens_another_without_an_error(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live read of the open file fails when it was deleted: the file list, not an error, says so."""
    notes: list[tuple[str, bool]] = []
    real = FilePreview.show_note

    def recorded(self: FilePreview, title: str, note: str, error: bool = False, subtitle: str = "") -> None:
        notes.append((note, error))
        real(self, title, note, error, subtitle)

    monkeypatch.setattr(FilePreview, "show_note", recorded)
    app = RecordingApp(repo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        opened = pane(app).open_file
        assert opened is not None and opened != "MEMORY.md"
        (repo / opened).unlink()
        await wait_for(pilot, lambda: opened not in pane(app).files, what="the file to go from the list")
        await settle(pilot)
        assert pane(app).open_file != opened
        assert not [note for note, error in notes if error]
        assert not app.notices
