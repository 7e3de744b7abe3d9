"""The memrepo terminal app: the screen frame, the repo's lifetime, live updates.

:func:`run_app` is what ``memrepo`` with no arguments calls. The app opens the
:class:`~memrepo.engine.repo.repo.MemoryRepo` in a worker, hands it to every pane
(:mod:`memrepo.tui.panes`), watches the work tree with ``repo.changes()`` and closes
the repo on exit. Every engine call is awaited in a worker, so the event loop
never blocks; a failed worker is an error notice, never a crash.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import BindingType
from textual.notifications import Notify
from textual.screen import Screen
from textual.widgets import ContentSwitcher

from .appkeys import APP_BINDINGS, SCREEN_BINDINGS
from .appsync import AppSync
from .commands import FileCommands, KeyCommands
from .footer import KeysFooter
from .handedits import HandEditAsker
from .header import RepoHeader
from .locations import display_path, user_themes_dir
from .messages import (
    FileOpenRequested,
    RepoOpened,
    RepoOpenFailed,
    RepoStatusRead,
    RepoWritten,
    WorkTreeChanged,
    WriteFailed,
)
from .panes import PANES, FolderPane, HealthPane, Pane
from .plain import clean
from .themes import DEFAULT_THEME, SEMANTIC_DEFAULTS, load_themes
from .workers import ReportWorkerErrors, inbox_waiting

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Iterable

    from textual.timer import Timer

    from memrepo.engine.config import Settings
    from memrepo.engine.models import RecallHit
    from memrepo.engine.repo.autosync import AutoSync
    from memrepo.engine.repo.repo import MemoryRepo


class MainScreen(ReportWorkerErrors, Screen[None], inherit_bindings=False):
    """Header, the panes (one shown at a time), footer."""

    ALLOW_IN_MAXIMIZED_VIEW = "RepoHeader, Footer"

    BINDINGS: ClassVar[list[BindingType]] = SCREEN_BINDINGS
    """Keys that move focus between the boxes of a pane."""

    def compose(self) -> ComposeResult:
        """Yield the header, every pane in a switcher, and the footer."""
        yield RepoHeader(id="header")
        with ContentSwitcher(initial=PANES[0].PANE_ID, id="panes"):
            for pane in PANES:
                yield pane()
        yield KeysFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        """Start the app's work once the header and panes exist."""
        app = self.app
        assert isinstance(app, MemrepoApp)
        app.start()


AFTER_START_S = 3.0
"""Seconds after the recall index is warm before the start-up heap is frozen (:func:`freeze_heap`) and the
panes not shown yet read what they show, in the background (:meth:`MemrepoApp.after_start`)."""
FREEZE_AFTER_FIRST_SHOW_S = 3.0
"""Seconds after a pane is first shown (and reads what it shows) before the heap is frozen again."""
NEAREST_NOTICE = "Nearest entry, not an answer to the search"
"""What the app says when a search's Enter opens a nearest entry (``answer`` False): the Folder pane does not mark it."""


def freeze_heap() -> None:
    """Collect once, then move every object alive into the collector's permanent generation.

    What the start built (widgets, styles, the file list) lives as long as the
    app; left in the oldest generation, each full collection walks it again:
    110 ms at 20,000 files with every pane shown, a stall in the middle of a
    key. Frozen, a full collection walks only what came after
    (docs/architecture.md §8). Runs after the start and after a pane's first
    read, on a timer, when nothing else is going on; the app's exit unfreezes.
    """
    import gc

    gc.collect()
    gc.freeze()


class MemrepoApp(ReportWorkerErrors, AppSync, App[None], inherit_bindings=False):
    """The memrepo terminal app.

    Args:
        root: the memory repo's folder (opened, or created, on mount).
        theme: the theme to start with; an unknown one falls back to
            ``memrepo-dark`` with a notice.
        themes_dir: the folder of the user's themes; None for the
            platformdirs config folder.
        watch: follow changes on disk live (tests of static screens turn it off).
        settings: the settings ``memrepo`` loaded; read from the config file
            once here when None.

    Attributes:
        root: the repo folder given.
        repo: the open repo, or None until open (or when it failed to open).
    """

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "memrepo"
    COMMANDS = App.COMMANDS | {FileCommands, KeyCommands}

    BINDINGS: ClassVar[list[BindingType]] = APP_BINDINGS
    """Keys that work everywhere (a focused box may use a key first)."""

    def __init__(
        self,
        root: Path,
        theme: str = DEFAULT_THEME,
        *,
        themes_dir: Path | None = None,
        watch: bool = True,
        settings: Settings | None = None,
    ) -> None:
        super().__init__()
        from memrepo.engine.config import load_settings

        self.root = Path(root)
        self.settings: Settings = settings if settings is not None else load_settings()
        """The process's one settings object, handed to the repo (docs/architecture.md §11)."""
        self._autosync: AutoSync | None = None
        self.repo: MemoryRepo | None = None
        self._running_loop: asyncio.AbstractEventLoop | None = None
        self._trim_timer: Timer | None = None
        self._watch = watch
        # Smooth scrolling costs frames over SSH and makes a key feel late: jump instead.
        self.animation_level = "none"
        self._state: str | None = None
        self._startup_notices: list[str] = []
        self.last_write_error: str | None = None
        """The last write of this session that failed (the Health pane's "last write error" row)."""
        self.hand_edits = HandEditAsker(self)
        """Asks about hand edits that emptied a file or lost most of its entries (docs/architecture.md §3)."""
        self.main_screen = MainScreen(id="main")
        """The screen under any modal one: header, panes, footer."""
        loaded = load_themes(user_themes_dir() if themes_dir is None else themes_dir)
        for item in loaded.themes.values():
            self.register_theme(item)
        self._startup_notices += loaded.problems
        if theme in self.available_themes:
            self.theme = theme
        else:
            self._startup_notices.append(f"theme {theme!r} is not available; using {DEFAULT_THEME}")
            self.theme = DEFAULT_THEME

    # -- toasts --------------------------------------------------------

    def on_notify(self, event: Notify) -> None:
        """Repaint the screen just after each toast's time is up.

        Textual 8.2.8 removes an expired toast without repainting the cells
        under it when a box beneath was scrolled while the toast showed (any
        scroll key does it), so its picture stayed on screen until something
        else repainted that spot. Textual's own handler still shows the toast;
        this one only schedules the repaint.

        Args:
            event: the notification being shown (its ``time_left``, seconds).
        """
        self.set_timer(event.notification.time_left + 0.1, self._repaint_after_toast)

    def _repaint_after_toast(self) -> None:
        if self.screen_stack:  # not while the app is closing
            self.screen.refresh()

    # -- frame ---------------------------------------------------------

    def get_default_screen(self) -> MainScreen:
        """The main screen with the panes."""
        return self.main_screen

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """memrepo's semantic colours, so any theme (Textual's own too) can be used."""
        return dict(SEMANTIC_DEFAULTS[self.current_theme.dark])

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's commands (theme, screenshot, quit...) without its side help panel.

        memrepo's own keys (``Keys``, ``Refresh``, every pane's actions) come
        from :class:`~tui.commands.KeyCommands`, so the palette lists one ``Keys``.
        """
        textual_help = (self.action_show_help_panel, self.action_hide_help_panel)
        for command in super().get_system_commands(screen):
            if command.callback not in textual_help and command.title != "Quit":
                yield command

    @property
    def header(self) -> RepoHeader:
        """The header line of the main screen."""
        return self.main_screen.query_one(RepoHeader)

    def panes(self) -> list[Pane]:
        """Every pane of the main screen, in number-key order."""
        return list(self.main_screen.query(Pane))

    def exit_soon(self, return_code: int) -> None:
        """Exit with ``return_code`` on the app's loop; safe in a signal handler (``tui.terminal``).

        Raises:
            RuntimeError: the app's loop is not running (the caller then restores the terminal itself).
        """
        loop = self._running_loop
        if loop is None or loop.is_closed():
            raise RuntimeError("the app is not running")
        loop.call_soon_threadsafe(lambda: self.exit(return_code=return_code))

    def start(self) -> None:
        """Show start-up notices, fill the header, open the repo (once the main screen is up)."""
        import asyncio

        self._running_loop = asyncio.get_running_loop()
        for notice in self._startup_notices:
            self.notify(clean(notice, one_line=False), title="Theme", severity="warning", timeout=8, markup=False)
        header = self.header
        header.panes = tuple(p.PANE_TITLE for p in PANES)
        header.repo_path = display_path(self.root)
        self.panes()[0].focus_default()
        self.open_repo()

    async def on_unmount(self) -> None:
        """Close the repo: stops the watcher and the engine's worker thread; unfreeze the heap."""
        import gc

        gc.unfreeze()  # what the app froze can be collected again once it is gone (a test runs many apps)
        if self.repo is not None:
            repo, self.repo = self.repo, None
            await repo.close()

    # -- workers -------------------------------------------------------

    @work(group="repo", exit_on_error=False, description="Opening the memory repo")
    async def open_repo(self) -> None:
        """Open the memory repo (creating it when missing) on the engine's thread."""
        from memrepo.engine.errors import MemrepoError
        from memrepo.engine.repo.repo import MemoryRepo

        try:
            repo = await MemoryRepo.open(self.root, self.settings, create=True, origin="tui", commit_hand_edits=True)
        except MemrepoError as exc:
            self.post_message(RepoOpenFailed(str(exc)))
            return
        self.repo = repo
        self.post_message(RepoOpened(repo))

    @work(group="watch", exit_on_error=False, description="Watching the memory folder")
    async def watch_work_tree(self, repo: MemoryRepo) -> None:
        """Post a :class:`WorkTreeChanged` for every burst of changes on disk."""
        async for event in repo.changes():
            self.post_message(WorkTreeChanged(event.paths, git=event.git))

    @work(group="recall", exit_on_error=False, description="Indexing memory for search")
    async def warm_recall(self, repo: MemoryRepo) -> None:
        """Build the search index on a spare thread, so the first ``/`` search answers at once."""
        try:
            await repo.warm_recall()
        finally:
            self.set_timer(AFTER_START_S, self.after_start)

    def after_start(self) -> None:
        """The first screen is up and the search warm: freeze what the start built, start trimming the
        C heap (:meth:`trim_heap`), then let the panes not shown yet read what they show (a key pressed
        on one later then acts on what it shows), and freeze again once they have (docs/architecture.md §8)."""
        from .heap import TRIM_EVERY_S

        freeze_heap()
        if self._trim_timer is None:
            self._trim_timer = self.set_interval(TRIM_EVERY_S, self.trim_heap)
        late = [pane for pane in self.panes() if not pane.loaded and pane.repo is not None]
        for pane in late:
            pane.load()
        if late:
            self.set_timer(FREEZE_AFTER_FIRST_SHOW_S, freeze_heap)

    def trim_heap(self) -> None:
        """Give the C allocator's free pages back on a spare thread (:mod:`.heap`; every ``TRIM_EVERY_S``)."""
        import asyncio

        from .heap import trim_heap

        asyncio.get_running_loop().run_in_executor(None, trim_heap)

    @work(group="status", exclusive=True, exit_on_error=False, description="Reading the repo status")
    async def refresh_status(self) -> None:
        """Read clean / hand-edited / blocked and HEAD, and how many inbox entries wait."""
        if self.repo is not None:
            status = await self.repo.status()
            self.post_message(RepoStatusRead(status, inbox=await inbox_waiting(self.repo)))

    # -- messages ------------------------------------------------------

    def on_repo_opened(self, message: RepoOpened) -> None:
        """Hand the repo to every pane, then follow it.

        The status is asked for first: the engine runs one call at a time,
        and HEAD and the state are what the header waits for.
        """
        self.refresh_status()
        for pane in self.panes():
            pane.attach(message.repo)
        if self._watch:
            self.watch_work_tree(message.repo)
        self.warm_recall(message.repo)
        self.start_sync()

    def on_repo_open_failed(self, message: RepoOpenFailed) -> None:
        """Say why the repo could not be opened."""
        self.header.state = ""
        self.notify(
            clean(message.error, one_line=False),
            title="Cannot open the memory repo",
            severity="error",
            timeout=30,
            markup=False,
        )

    def on_work_tree_changed(self, message: WorkTreeChanged) -> None:
        """Let each pane refresh what the paths touch, then refresh the status.

        The panes ask first: the engine runs one call at a time, in the order
        asked, and the open file's new text is what the user looks at (the
        status scan of a 20,000-file tree takes 50-80 ms).
        """
        if message.paths:
            for pane in sorted(self.panes(), key=lambda pane: not pane.is_current):
                if pane.loaded:  # one not shown yet reads everything when it is
                    pane.work_tree_changed(message.paths)
        self.refresh_status()
        if message.git:
            self.sync_soon()

    def on_repo_written(self, message: RepoWritten) -> None:
        """A pane committed: read the status (HEAD moved), which the panes follow; a commit made since the last
        failed write ends Health's "last write error" (it stayed after later writes worked, breaker30 B30-18)."""
        if message.commit is not None and self.last_write_error is not None:
            self.last_write_error = None
            for pane in self.main_screen.query(HealthPane):
                pane.reload()
        self.refresh_status()
        self.sync_soon()

    def on_repo_status_read(self, message: RepoStatusRead) -> None:
        """Show the status; say why once when the repo becomes blocked."""
        from textual.css.query import NoMatches

        status = message.status
        try:
            self.header.show_status(status, message.inbox)
        except NoMatches:
            return  # a status read late, while the app is closing: nothing left to show it
        for pane in self.panes():
            if pane.loaded:
                pane.repo_status_changed(status)
        self.hand_edits.status_read(status)
        state = status.state.value
        if state == "blocked" and self._state != "blocked":
            self.notify(
                clean(status.reason or "writes are blocked", one_line=False),
                title="Memory repo blocked",
                severity="warning",
                timeout=10,
                markup=False,
            )
        self._state = state

    def on_write_failed(self, message: WriteFailed) -> None:
        """Keep the last failed write and show it in the Health pane."""
        self.last_write_error = message.error
        for pane in self.main_screen.query(HealthPane):
            pane.reload()

    def on_file_open_requested(self, message: FileOpenRequested) -> None:
        """Show the Folder pane with the file open."""
        self.action_show_pane(FolderPane.PANE_ID)
        self.main_screen.query_one(FolderPane).show_file(message.path, message.line)

    # -- actions -------------------------------------------------------

    def action_help(self) -> None:
        """Show every key."""
        from .help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            pane = self.main_screen.query_one("#panes", ContentSwitcher).visible_content
            first = f"{pane.PANE_TITLE} pane" if isinstance(pane, Pane) else None
            self.push_screen(HelpScreen(first))

    def action_search(self, query: str = "") -> None:
        """Search every memory file; the chosen hit opens in the Folder pane (docs/architecture.md §4)."""
        from .search import SearchScreen

        if self.repo is None:
            self.notify("The memory repo is not open yet", severity="warning", timeout=3, markup=False)
            return
        if isinstance(self.screen, SearchScreen):
            return

        def opened(hit: RecallHit | None) -> None:
            if hit is not None:
                if not hit.answer:  # the Folder pane shows no mark of its own: say it before the jump
                    self.notify(NEAREST_NOTICE, timeout=5, markup=False)
                self.post_message(FileOpenRequested(hit.path, hit.line))

        self.push_screen(SearchScreen(self.repo, query), opened)

    def action_reload(self) -> None:
        """Read the files and the status again."""
        if self.repo is None:
            self.notify("The memory repo is not open yet", severity="warning", timeout=3, markup=False)
            return
        self.refresh_status()
        for pane in self.panes():
            if pane.loaded:
                pane.reload()
        self.notify("Refreshed", timeout=1.5, markup=False)

    def action_show_pane(self, pane_id: str) -> None:
        """Show a pane and focus its first box.

        Args:
            pane_id: a ``PANE_ID`` from :data:`memrepo.tui.panes.PANES`.
        """
        screen = self.main_screen
        screen.query_one("#panes", ContentSwitcher).current = pane_id
        ids = [p.PANE_ID for p in PANES]
        self.header.active = ids.index(pane_id)
        pane = screen.query_one(f"#{pane_id}", Pane)
        if not pane.loaded and pane.repo is not None:
            # Its first read can hold a lot (Context's table of 10,000 workspaces: 127,000 objects).
            self.set_timer(FREEZE_AFTER_FIRST_SHOW_S, freeze_heap)
        pane.shown()
        pane.focus_default()


def run_app(root: Path, settings: Settings) -> None:
    """Run the terminal app on a memory repo until the user quits.

    Args:
        root: the memory repo's folder (``memrepo`` has already opened or
            created it).
        settings: the settings ``memrepo`` loaded: the theme (an unknown or
            broken one falls back to ``memrepo-dark`` with a notice), ``[writes]``,
            ``[dream]`` and ``[sync]``.

    Raises:
        SystemExit: with the app's return code when it ended on an unhandled
            exception (Textual has printed the traceback), so a crash is never
            a success for the shell.
    """
    from .terminal import signals_restore_terminal

    app = MemrepoApp(root, theme=settings.theme, settings=settings)
    with signals_restore_terminal(app.exit_soon):
        app.run()
    if app.return_code:
        sys.exit(app.return_code)
