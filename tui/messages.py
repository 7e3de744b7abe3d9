"""The app's own messages, named as events (Harlequin's habit).

Workers post these; handlers update state and pass it down to the panes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from memrepo.engine.models import RepoStatus
    from memrepo.engine.repo.repo import MemoryRepo


class RepoOpened(Message):
    """The memory repo is open and ready for reads.

    Attributes:
        repo: the open repo; the app owns it and closes it on exit.
    """

    def __init__(self, repo: MemoryRepo) -> None:
        super().__init__()
        self.repo = repo


class RepoOpenFailed(Message):
    """The memory repo could not be opened.

    Attributes:
        error: one line for a person.
    """

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class WorkTreeChanged(Message):
    """Files in the work tree changed on disk (another terminal, an editor, an agent).

    Attributes:
        paths: the repo-relative paths added, modified or deleted.
        git: HEAD, a branch or a git operation's state moved (a commit by any process).
    """

    def __init__(self, paths: list[str], git: bool = False) -> None:
        super().__init__()
        self.paths = paths
        self.git = git


class RepoStatusRead(Message):
    """A fresh clean / hand-edited / blocked status was read.

    Attributes:
        status: the status, with HEAD's id.
        inbox: entries waiting in inbox.md for review.
    """

    def __init__(self, status: RepoStatus, inbox: int = 0) -> None:
        super().__init__()
        self.status = status
        self.inbox = inbox


class FileOpenRequested(Message):
    """Someone asked to show a file in the Folder pane (command palette, a link).

    Attributes:
        path: the repo-relative path.
        line: a 1-based line to put the entry cursor on (a search hit), or None.
    """

    def __init__(self, path: str, line: int | None = None) -> None:
        super().__init__()
        self.path = path
        self.line = line


class RepoWritten(Message):
    """A pane committed a change (a triage, an undo): the header and other panes catch up.

    Attributes:
        commit: the new commit's full id, or None when nothing was committed.
    """

    def __init__(self, commit: str | None) -> None:
        super().__init__()
        self.commit = commit


class WriteFailed(Message):
    """A write from the app failed (a triage, an undo, a compaction): Health shows the last one.

    Attributes:
        error: one line for a person.
    """

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error
