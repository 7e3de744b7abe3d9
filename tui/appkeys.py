"""The keys of the app frame and the help screen, apart from the classes that use them.

:mod:`.keys` lists every binding for the help screen, the command palette and
the README. It reads these lists here, not from :mod:`.app` or :mod:`.help`:
those modules use :mod:`.keys` themselves, so reading them would make a
circle of imports.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

from .panes import PANES

APP_BINDINGS: list[BindingType] = [
    Binding("question_mark", "help", "Keys", id="app.help"),
    Binding("r", "reload", "Refresh", id="app.refresh"),
    Binding("slash", "search", "Search", id="app.search"),
    Binding("s", "sync_now", "Sync now", id="app.sync", show=False),
    Binding("ctrl+p", "command_palette", "Commands", id="app.command-palette"),
    Binding("q", "quit", "Quit", id="app.quit"),
    Binding("ctrl+q,ctrl+c", "quit", "Quit from anywhere", id="app.quit-now", priority=True, show=False),
    *(
        Binding(
            str(number),
            f"show_pane('{pane.PANE_ID}')",
            f"{pane.PANE_TITLE} pane",
            id=f"app.pane-{pane.PANE_ID}",
            show=False,
        )
        for number, pane in enumerate(PANES, start=1)
    ),
]
"""Keys that work everywhere (a focused box may use a key first): :class:`~memrepo.tui.app.MemrepoApp`'s."""

SCREEN_BINDINGS: list[BindingType] = [
    Binding("tab", "app.focus_next", "Next box", id="screen.focus-next"),
    Binding("shift+tab", "app.focus_previous", "Previous box", id="screen.focus-previous", show=False),
]
"""Keys that move focus between the boxes of a pane: :class:`~memrepo.tui.app.MainScreen`'s."""

HELP_BINDINGS: list[BindingType] = [
    Binding("escape,q", "dismiss", "Close this help", id="help.close"),
    Binding("question_mark", "dismiss", "Close this help", id="help.help"),
    Binding("down,j", "scroll_down", "Scroll down", id="help.down", show=False),
    Binding("up,k", "scroll_up", "Scroll up", id="help.up", show=False),
    Binding("pagedown", "page_down", "Page down", id="help.page-down", show=False),
    Binding("pageup", "page_up", "Page up", id="help.page-up", show=False),
    Binding("home,g", "scroll_home", "Top", id="help.first", show=False),
    Binding("end,G", "scroll_end", "Bottom", id="help.last", show=False),
]
"""Keys of the help screen: :class:`~memrepo.tui.help.HelpScreen`'s."""
