"""Workspaces, on the store: list, archive, restore and purge workspace files (docs/architecture.md §2, §5).

A mixin of :class:`~memrepo.engine.repo.store.MemoryStore`, kept apart so the store module stays one
screenful per concern. The lists come from :mod:`memrepo.engine.read.workspaceindex`; the changes run
in :mod:`memrepo.engine.history.workspaces` through the one write transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memrepo.engine.format.layout import WORKSPACES
from memrepo.engine.models import CompactProgress, CompactResult, Origin, WorkspaceInfo, WriteResult
from memrepo.engine.read.workspaceindex import list_workspaces

if TYPE_CHECKING:
    from pathlib import Path

    from memrepo.engine.read.workspaceindex import WorkspaceIndex
    from memrepo.engine.write.writer import Writer


class StoreWorkspaces:
    """The workspace files of one open memory repo (mixed into the store).

    Attributes:
        root: the work tree's absolute path.
        writer: the one write transaction.
        workspace_index: which file holds which workspace.
    """

    root: Path
    writer: Writer
    workspace_index: WorkspaceIndex

    def compact(
        self, progress: Callable[[CompactProgress], None] | None = None, replace_remote: bool = False
    ) -> CompactResult:
        raise NotImplementedError

    def workspaces(self) -> list[WorkspaceInfo]:
        """Every active workspace file with the workspace its first entries name, sorted by file."""
        return self.workspace_index.scan()

    def workspace_files(self) -> list[tuple[str, str]]:
        """(workspace id, file) of every active workspace file, sorted by file, as :meth:`workspaces` lists them.

        What a list of workspaces shows, without a model each: the app's Context pane at 10,000
        workspaces held 16 MB of :class:`WorkspaceInfo` models for two strings each.
        """
        from memrepo.engine.read.workspaceindex import scan_rows

        return [(row.id, row.file) for row in scan_rows(self.root, WORKSPACES)]

    def all_workspaces(self) -> list[WorkspaceInfo]:
        """Active then archived workspace files (:func:`.workspaceindex.list_workspaces`)."""
        return list_workspaces(self.root)

    def archive_workspace(self, workspace: str, force: bool = False, origin: Origin = "cli") -> WriteResult:
        """Move a vanished workspace's file to ``archived/`` in one commit (:func:`.workspaces.archive`)."""
        from memrepo.engine.history import workspaces as retiring

        return retiring.archive(self.writer, self.workspace_index, workspace, force, origin)

    def restore_workspace(self, workspace: str, origin: Origin = "cli") -> WriteResult:
        """Bring an archived workspace's file back in one commit (:func:`.workspaces.restore`)."""
        from memrepo.engine.history import workspaces as retiring

        return retiring.restore(self.writer, self.workspace_index, workspace, origin)

    def purge_workspace(
        self,
        workspace: str,
        origin: Origin = "cli",
        replace_remote: bool = False,
        progress: Callable[[CompactProgress], None] | None = None,
    ) -> WriteResult:
        """Delete a workspace's file and compact (:func:`.workspaces.purge`)."""
        from memrepo.engine.history import workspaces as retiring

        return retiring.purge(
            self.writer, self.workspace_index, self.compact, workspace, origin, replace_remote, progress
        )
