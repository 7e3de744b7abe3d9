"""What the app's parts read of the app: the open repo, the settings, the header, the panes.

:class:`AppState` is a plain mixin at run time; type checkers see it as a
Textual ``App``. The app's helpers (:mod:`.appsync`, :mod:`.handedits`) take
it instead of :class:`~memrepo.tui.app.MemrepoApp`, so neither imports the app
module that imports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

    from memrepo.engine.config import Settings
    from memrepo.engine.repo.autosync import AutoSync
    from memrepo.engine.repo.repo import MemoryRepo

    from .header import RepoHeader
    from .panes import Pane

    _AppBase = App[None]
else:
    _AppBase = object  # at run time a plain mixin: the app class itself is the Textual App


class AppState(_AppBase):
    """The members :class:`~memrepo.tui.app.MemrepoApp` provides to its parts.

    Attributes:
        repo: the open repo, or None until open (or when it failed to open).
        settings: the process's one settings object.
    """

    repo: MemoryRepo | None
    settings: Settings
    _autosync: AutoSync | None

    @property
    def header(self) -> RepoHeader:
        """The header line of the main screen."""
        raise NotImplementedError

    def panes(self) -> list[Pane]:
        """Every pane of the main screen, in number-key order."""
        raise NotImplementedError

    def refresh_status(self) -> object:
        """Read the repo's status again (a worker)."""
        raise NotImplementedError
