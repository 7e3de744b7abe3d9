"""The Inbox pane's merge-conflict reads: what is asked for and not read yet, and how a read of some
files replaces what the conflicts box shows (docs/architecture.md §8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import work

from ..widgets.conflict_table import ConflictTable

if TYPE_CHECKING:
    from textual.widget import Widget

    from memrepo.engine.models import ConflictView
    from memrepo.engine.repo.repo import MemoryRepo


class ConflictReads:
    """The conflict reads asked for and not made yet (every file, or the paths events named), and whether
    one is under way.

    A read under way is never started again: what is asked for meanwhile is read after it (an event
    during the first read of every file at 20,000 files started another read of every file, each a few
    seconds). At first every file is to be read.
    """

    def __init__(self) -> None:
        """Nothing read yet: every file is asked for, no read under way."""
        self.everything = True
        self.paths: set[str] = set()
        self.reading = False

    def ask(self, paths: list[str] | None) -> bool:
        """Note a read of ``paths`` (None: every file).

        Returns:
            bool: True when no read was under way (now one is: the caller starts it and calls
            :meth:`done` when it ends); False when the read under way takes it after its own.
        """
        if paths is None:
            self.everything = True
        else:
            self.paths.update(paths)
        if self.reading:
            return False
        self.reading = True
        return True

    def pending(self) -> bool:
        """Whether something is asked for and not taken yet."""
        return self.everything or bool(self.paths)

    def take(self) -> list[str] | None:
        """What the next read looks at, sorted (None: every file); it is no longer pending."""
        paths = None if self.everything else sorted(self.paths)
        self.everything, self.paths = False, set()
        return paths

    def done(self) -> None:
        """The read under way ended (or failed): the next :meth:`ask` starts one."""
        self.reading = False


def merged(shown: list[ConflictView], paths: list[str] | None, found: list[ConflictView]) -> list[ConflictView]:
    """What the conflicts box shows once a read of ``paths`` (None: every file) found ``found``.

    The files looked at (all of them, for a folder among the paths) are replaced; the others' conflicts
    stay as shown. Sorted by path, stable, so the file order within a path stays.
    """
    if paths is None:
        return found
    looked = set(paths) | {c.path for c in found}
    kept = [c for c in shown if c.path not in looked]
    return sorted([*kept, *found], key=lambda c: c.path)


class InboxConflicts:
    """The Inbox pane's box of entries a sync kept in two versions: reading them (its resolve stays in the pane)."""

    _conflict_reads: ConflictReads
    repo: MemoryRepo | None

    @property
    def conflict_table(self) -> ConflictTable:
        """The box of entries a sync kept in two versions (hidden when there are none)."""
        return cast("Widget", self).query_one("#inbox-conflicts", ConflictTable)

    def load_conflicts(self, paths: list[str] | None = None) -> None:
        """Find the entries a sync merge kept in two versions and show them (after a read under way, if any:
        :class:`.inbox_conflicts.ConflictReads`).

        Args:
            paths: only look at these files again (a watcher's event; the
                other files' conflicts stay as shown); None reads every file.
        """
        if self._conflict_reads.ask(paths):
            self._read_conflicts()

    @work(group="inbox-conflicts", exit_on_error=False, description="Reading merge conflicts")
    async def _read_conflicts(self) -> None:
        """Read what :meth:`load_conflicts` asked for, then what was asked for meanwhile, until nothing is left."""
        reads = self._conflict_reads
        try:
            while self.repo is not None and reads.pending():
                paths = reads.take()
                found = await self.repo.conflicts(paths)
                self.conflict_table.show(merged(self.conflict_table.conflicts, paths, found))
        finally:
            reads.done()
