"""The contract between the app and its panes.

State flows down: the app opens the repo and hands it to every pane with
:meth:`Pane.attach`, then passes on work-tree changes with
:meth:`Pane.work_tree_changed`. Panes post intent up as messages
(:mod:`memrepo.tui.messages`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.widget import Widget

from ..workers import ReportWorkerErrors

if TYPE_CHECKING:
    from memrepo.engine.models import RepoStatus
    from memrepo.engine.repo.repo import MemoryRepo


class Pane(ReportWorkerErrors, Widget):
    """A full-size pane of the app.

    Attributes:
        PANE_ID: the widget id, also used in binding ids (``app.pane-<id>``).
        PANE_TITLE: the pane's one name: the header's tab, the help screen, docs/keys.md (breaker3 F3: the
            tab said "Log" where the help said "History pane").
        BOX_ACTIONS: ``(box id, box class)`` of boxes in the pane whose own
            action keys (not moving keys) the command palette offers too; the
            palette focuses the box and runs the action there.
        repo: the open memory repo, or None until the app has opened it.
        loaded: True once the pane has read what it shows; a pane hidden
            when the repo opens reads it when first shown (see :meth:`attach`).
    """

    PANE_ID: ClassVar[str]
    PANE_TITLE: ClassVar[str]
    BOX_ACTIONS: ClassVar[tuple[tuple[str, type[Widget]], ...]] = ()

    def __init__(self) -> None:
        """Create the pane with its registry id."""
        super().__init__(id=self.PANE_ID)
        self.repo: MemoryRepo | None = None
        self.loaded = False

    def attach(self, repo: MemoryRepo) -> None:
        """Take the open repo; load what the pane shows now if it is on screen, else when first shown.

        The hidden panes' first reads (every file for merge conflicts, the
        log, the workspaces, the dreams) would queue on the engine's one
        thread ahead of the status and the search the first screen waits
        for (docs/architecture.md §8).

        Args:
            repo: the open repo (owned and closed by the app).
        """
        self.repo = repo
        self.loaded = False
        if self.is_current:
            self.load()

    @property
    def is_current(self) -> bool:
        """True when this pane is the one the pane switcher shows."""
        return getattr(self.parent, "current", None) == self.PANE_ID

    def shown(self) -> None:
        """The app switched to this pane: read what it shows the first time."""
        if self.repo is not None and not self.loaded:
            self.load()

    def load(self) -> None:
        """Read what the pane shows and follow changes from now on."""
        self.loaded = True
        self.reload()

    def reload(self) -> None:
        """Read everything the pane shows again (the ``r`` key)."""
        raise NotImplementedError

    def work_tree_changed(self, paths: list[str]) -> None:
        """Refresh what these changed paths affect, and nothing else.

        Args:
            paths: repo-relative paths added, modified or deleted on disk.
        """
        raise NotImplementedError

    def repo_status_changed(self, status: RepoStatus) -> None:
        """Show a fresh status where the pane uses it (nothing by default).

        Args:
            status: clean / hand-edited / blocked, with the changed paths.
        """

    def focus_default(self) -> None:
        """Focus the widget a user starts from when the pane is shown."""
        self.focus()
