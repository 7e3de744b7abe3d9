"""The Folder pane's writes: edit the open file in an editor, add a line, forget, pin or unpin an entry
(docs/architecture.md §8).

A mixin of :class:`~memrepo.tui.panes.folder.FolderPane`, kept apart so the
pane module stays one screenful per concern. All go through the engine's
write transaction: the editor's save is committed as a hand edit (not when the
editor exits non-zero), an added line, a forget and a pin are each their own commit, and any can be undone from
History.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work

from ..plain import clean

if TYPE_CHECKING:
    from memrepo.engine.models import EntryView

    from ..widgets.entry_table import EntryTable
    from .base import Pane

    _PaneBase = Pane
else:
    _PaneBase = object  # at run time a plain mixin: the pane class itself is the Textual widget


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def failed_edit_line(editor: str, code: int, path: str, changed: bool) -> str:
    """The one line after ``e``'s editor exited with ``code`` (not 0): the app commits nothing (docs/architecture.md §8).

    Args:
        editor: the editor's program.
        code: its exit code.
        path: the file it had open (relative to the repo).
        changed: whether the file differs from before the editor ran (it saved, then failed: vim's ``:w``, ``:cq``).
    """
    said = f"{clean(editor)} exited with {code}: the app committed nothing"
    if not changed:
        return f"{said}; {clean(path)} is unchanged"
    return (
        f"{said}; what it saved stays in {clean(path)} and is committed as a hand edit like any edit made "
        "outside the app (undo it in History)"
    )


def _history_note(entry: EntryView) -> str:
    """The forget question's last line: a forget is a commit, so git history (and a sync remote) keeps the text.

    Compaction is what removes it (docs/memory-repo.md "Forgetting for real"); a line that looks like it holds
    a secret (one the redaction rules would change) says so first (breaker20 B20-15). A line already marked
    ``[REDACTED:...]`` gets the plain wording: its value was never written.
    """
    from memrepo.engine.redaction import redact_text

    ref = clean(entry.ref)
    if redact_text(entry.text) != entry.text:
        return (
            "It looks like a secret: a forget leaves it in git history and a sync remote. To remove it for good: "
            f"esc, then memrepo forget --compact {ref}; or y, then c in Health."
        )
    return (
        "It leaves the file in a commit you can undo; git history keeps the text until you compact "
        f"(y, then c in Health; or memrepo forget --compact {ref})."
    )


class FolderWrites(_PaneBase):
    """Edit and forget in the Folder pane (mixed into :class:`~memrepo.tui.panes.folder.FolderPane`)."""

    _open_file: str | None

    @property
    def table(self) -> EntryTable:
        """The open file's entries."""
        raise NotImplementedError

    def _reread(self, path: str) -> None:
        raise NotImplementedError

    def load_files(self) -> object:
        """Read the file list again (a worker)."""
        raise NotImplementedError

    def action_edit(self) -> None:
        """Open the file in ``$VISUAL``/``$EDITOR`` at the highlighted entry's line; commit the edit as a hand edit.

        An editor that exits non-zero gets no commit from the app (the edit box's ``ctrl+o`` rule):
        what it saved before failing stays in the file, where the hand-edit watcher finds it and commits
        it as it commits any edit made outside the app (:func:`failed_edit_line` says so).
        """
        import subprocess

        from textual.app import SuspendNotSupported

        from ..editor import at_line, editor_command

        path = self._open_file
        if self.repo is None or path is None:
            self.notify("Open a file first", severity="warning", timeout=3, markup=False)
            return
        entry = self.table.highlighted_entry
        line = entry.line if entry is not None else 1
        editor = editor_command()
        before = _read_bytes(self.repo.root / path)
        try:
            with self.app.suspend():
                done = subprocess.run(
                    at_line(editor, str(self.repo.root / path), line), cwd=self.repo.root, check=False
                )
        except SuspendNotSupported:
            self.notify("This terminal cannot hand the screen to an editor", severity="warning", markup=False)
            return
        except OSError as exc:
            self.notify(clean(f"Cannot start {editor[0]}: {exc}"), title="Edit", severity="error", markup=False)
            return
        if done.returncode != 0:  # as ctrl+o in the edit box: a failed editor, and the app writes nothing
            self.notify(
                failed_edit_line(editor[0], done.returncode, path, _read_bytes(self.repo.root / path) != before),
                title="Edit",
                severity="warning",
                timeout=10,
                markup=False,
            )
            self._reread(path)
            return
        self.commit_edit(path)

    @work(group="folder-write", exit_on_error=False, description="Committing the hand edit")
    async def commit_edit(self, path: str) -> None:
        """Commit what the editor changed as a hand edit, then show the file again."""
        from memrepo.engine.errors import MemrepoError

        from ..messages import RepoWritten, WriteFailed

        if self.repo is None:
            return
        try:
            commit = await self.repo.commit_hand_edits()
        except MemrepoError as exc:
            self.notify(
                clean(str(exc), one_line=False), title="Hand edit not committed", severity="error", markup=False
            )
            self.post_message(WriteFailed(str(exc)))
            return
        self._reread(path)
        self.load_files()
        if commit is None:
            self.notify(f"No change to {clean(path)}", timeout=3, markup=False)
            return
        self.notify(f"Committed the hand edit of {clean(path)} ({commit[:7]})", timeout=3, markup=False)
        self.post_message(RepoWritten(commit))

    def action_forget(self) -> None:
        """Forget the highlighted entry after a y/n question."""
        entry = self.table.highlighted_entry
        if self.repo is None or entry is None:
            self.notify("No entry highlighted", severity="warning", timeout=3, markup=False)
            return
        self.forget_entry(entry)

    @work(group="folder-write", exit_on_error=False, description="Forgetting an entry")
    async def forget_entry(self, entry: EntryView) -> None:
        """Ask, then remove the entry in its own commit (refused when its line now holds another entry)."""
        from memrepo.engine.errors import MemrepoError

        from ..messages import RepoWritten, WriteFailed
        from ..widgets.dialogs import Confirm

        if self.repo is None:
            return
        question = f"Forget {entry.path}:{entry.line}?\n{clean(entry.text)}\n{_history_note(entry)}"
        if not await self.app.push_screen_wait(Confirm(question)):
            return
        try:
            result = await self.repo.forget(entry.ref, origin="tui", expect=entry.text)
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="Cannot forget", severity="error", markup=False)
            self.post_message(WriteFailed(str(exc)))
            return
        self.notify(
            f"Forgot {clean(entry.text)}; git history keeps it until you compact (Health c)", timeout=5, markup=False
        )
        self._reread(entry.path)
        self.load_files()
        self.post_message(RepoWritten(result.commit))

    def action_pin(self) -> None:
        """Pin the highlighted entry (move it into MEMORY.md), or unpin it when MEMORY.md is open (breaker14 B14-14)."""
        entry = self.table.highlighted_entry
        if self.repo is None or entry is None:
            self.notify("No entry highlighted", severity="warning", timeout=3, markup=False)
            return
        self.pin_entry(entry)

    @work(group="folder-write", exit_on_error=False, description="Pinning an entry")
    async def pin_entry(self, entry: EntryView) -> None:
        """Move the entry into MEMORY.md or out of it in one commit (refused when its line now holds another)."""
        from memrepo.engine.errors import MemrepoError
        from memrepo.engine.format.layout import MEMORY_MD
        from memrepo.engine.models import Action

        from ..messages import RepoWritten, WriteFailed

        if self.repo is None:
            return
        pinned = entry.path != MEMORY_MD
        try:
            result = await self.repo.pin(entry.ref, pinned=pinned, origin="tui", expect=entry.text)
        except MemrepoError as exc:
            title = "Cannot pin" if pinned else "Cannot unpin"
            self.notify(clean(str(exc), one_line=False), title=title, severity="error", markup=False)
            self.post_message(WriteFailed(str(exc)))
            return
        if result.action == Action.REFUSED or result.commit is None:
            reason = clean(result.reason or "refused", one_line=False)
            self.notify(reason, title="Not pinned" if pinned else "Not unpinned", severity="warning", markup=False)
            return
        if pinned:
            said = f"Pinned {clean(entry.text)}: MEMORY.md, in every session's context (P there to unpin)"
        else:
            said = f"Unpinned {clean(entry.text)}: now in {clean(result.path or '')}"
        self.notify(said, timeout=5, markup=False)
        self._reread(entry.path)
        if result.path:
            self._reread(result.path)  # the file it went to: its size in the tree
        self.load_files()
        self.post_message(RepoWritten(result.commit))

    def action_add(self) -> None:
        """Write a line of your own, in a box: into the open file's place (:func:`placed`), one commit."""
        if self.repo is None:
            return
        self.add_entry(self._open_file)

    @work(group="folder-write", exit_on_error=False, description="Remembering a line")
    async def add_entry(self, path: str | None) -> None:
        """Ask for the text (the edit box), then remember it ``by: user`` through the write transaction."""
        from memrepo.engine.errors import MemrepoError
        from memrepo.engine.models import Action, Candidate

        from ..messages import RepoWritten, WriteFailed
        from ..widgets.dialogs import EditText

        if self.repo is None:
            return
        fields, where = placed(path, self.table.entries if path else [])
        text = await self.app.push_screen_wait(EditText(f"Remember a line of your own ({where})", ""))
        if not text:
            return
        try:
            result = await self.repo.remember(Candidate(text=text, by="user", origin="tui", **fields))
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="Not remembered", severity="error", markup=False)
            self.post_message(WriteFailed(str(exc)))
            return
        if result.action == Action.REFUSED or result.commit is None:
            reason = clean(result.reason or result.action.value, one_line=False)
            self.notify(reason, title="Not remembered", severity="warning", markup=False)
            return
        said = {Action.REINFORCED: "Already remembered", Action.REPLACED: "Remembered (it replaces an older line)"}
        self.notify(
            f"{said.get(result.action, 'Remembered')}: {clean(result.ref or result.path or '')}",
            timeout=5,
            markup=False,
        )
        if path:
            self._reread(path)
        if result.path and result.path != path:
            self._reread(result.path)
        self.load_files()
        self.post_message(RepoWritten(result.commit))


def placed(path: str | None, entries: list[EntryView]) -> tuple[dict[str, object], str]:
    """Where ``a`` in Files puts a new line of the user's, from the open file (docs/architecture.md §8): MEMORY.md
    pins it, lessons.md makes it a lesson, a workspace file files it in that workspace (its header line's
    ``workspace:`` id, else the file's name), any other file or none: global (me.md, as ``memrepo remember``).

    Args:
        path: the open file, or None.
        entries: its entries (the workspace file's header line names its id).

    Returns:
        tuple: the :class:`~memrepo.engine.models.Candidate` fields, and where it goes in words.
    """
    from memrepo.engine.format.layout import LESSONS_MD, MEMORY_MD, is_workspace_file

    if path == MEMORY_MD:
        return {"pin": True}, "pinned: in every session's context"
    if path == LESSONS_MD:
        return {"kind": "lesson"}, "a lesson, in lessons.md"
    if path and is_workspace_file(path):
        ids = [e.meta["workspace"] for e in entries if e.meta.get("workspace")]
        name = ids[0] if ids else Path(path).stem
        return {"scope": "workspace", "workspace": name}, f"for the workspace of {path}"
    return {}, "global: in every session's context, me.md"
