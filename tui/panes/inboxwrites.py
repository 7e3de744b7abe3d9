"""The Inbox pane's writes: one triage key's engine call, and undoing the last one (docs/architecture.md §8).

A mixin of :class:`~memrepo.tui.panes.inbox.InboxPane`, kept apart so the pane
module stays one screenful per concern. Every write goes through the engine's
write transaction; ``u`` reverts the last key's commit.
"""

from __future__ import annotations

import bisect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from textual import work

from ..messages import RepoWritten, WriteFailed
from ..plain import clean

if TYPE_CHECKING:
    from memrepo.engine.models import EntryView, WriteResult
    from memrepo.engine.repo.repo import MemoryRepo

    from .base import Pane

    _PaneBase = Pane
else:
    _PaneBase = object  # at run time a plain mixin: the pane class itself is the Textual widget

NOTHING_TO_UNDO = "No triage to undo in this session"
"""What ``u`` says when this session made no triage write (or undid them all)."""


class InboxWrites(_PaneBase):
    """Triage writes and their undo (mixed into :class:`~memrepo.tui.panes.inbox.InboxPane`)."""

    _saving: list[tuple[str, ...]]
    _presses: int
    _selected: set[tuple[str, str]]
    _undo: list[tuple[int, str]]
    _undoing: bool
    _typed: str | None

    def load_inbox(self) -> object:
        """Read the inbox again (a worker)."""
        raise NotImplementedError

    @property
    def highlighted(self) -> EntryView | None:
        """The entry under the cursor."""
        raise NotImplementedError

    def _triage(
        self, done: str, call: Callable[[MemoryRepo], Awaitable[WriteResult]], texts: tuple[str, ...] = ()
    ) -> None:
        # The entries are "being saved" from the key press on, so a second press on one of them cannot
        # start a second write; the next entry can be triaged at once (the write lock queues the writes).
        self._saving.append(texts)
        self._presses += 1
        self.run_triage(done, call, texts, self._presses)

    def _saved(self, texts: tuple[str, ...]) -> None:
        self._saving.remove(texts)

    @work(group="inbox-write", exit_on_error=False, description="Inbox triage")
    async def run_triage(
        self,
        done: str,
        call: Callable[[MemoryRepo], Awaitable[WriteResult]],
        texts: tuple[str, ...] = (),
        press: int = 0,
    ) -> None:
        """Run one triage call, remember its commit for ``u``, read the inbox again.

        Args:
            done: the notice on success (plain text).
            call: the engine call, given the repo.
            texts: the texts of the entries it triages (marked as being saved until it returns).
            press: the key press's number, so ``u`` undoes the last key's write even if an earlier one
                returned after it.
        """
        from memrepo.engine.errors import MemrepoError

        if self.repo is None:
            self._saved(texts)
            return
        try:
            result = await call(self.repo)
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="Inbox", severity="error", timeout=8, markup=False)
            self.post_message(WriteFailed(str(exc)))
            return
        finally:
            self._saved(texts)
            self._selected.clear()
            self.load_inbox()
        if result.action == "refused":  # nothing was written: say why, never "Accepted"
            reason = result.reason or "the write was refused"
            self.notify(
                clean(f"Not accepted: {reason}", one_line=False),
                title="Inbox",
                severity="warning",
                timeout=8,
                markup=False,
            )
            return
        if result.commit is not None:
            bisect.insort(self._undo, (press, result.commit))
            self.post_message(RepoWritten(result.commit))
        if result.redacted:  # never silent (docs/architecture.md §3)
            hint = "; A if it is not a secret" if self._typed is not None else ""
            done = f"{done}, redacted: {', '.join(result.redacted)}{hint}"
            self.notify(clean(done), timeout=8, severity="warning", markup=False)
            return
        self._typed = None
        self.notify(clean(done), timeout=3, markup=False)

    @work(group="inbox-write", exit_on_error=False, description="Undoing the last triage")
    async def run_undo(self) -> None:
        """Revert the last triage commit made in this session, once the triage writes in flight returned."""
        import asyncio

        from memrepo.engine.errors import GitError, MemrepoError

        while self._saving:  # `d` then `u` at once: undo what `d` wrote, not the write before it
            await asyncio.sleep(0.02)
        if self.repo is None or not self._undo:
            self._undoing = False
            if self.repo is not None:
                self.notify(NOTHING_TO_UNDO, timeout=2, markup=False)
            return
        commit = self._undo[-1][1]
        try:
            result = await self.repo.undo(commit, origin="tui")
        except GitError as exc:
            self._forget_undo(commit)  # it will never apply: do not offer it again
            self.notify(clean(str(exc), one_line=False), title="Cannot undo", severity="error", timeout=8, markup=False)
            return
        except MemrepoError as exc:
            self.notify(clean(str(exc), one_line=False), title="Cannot undo", severity="error", timeout=8, markup=False)
            return
        finally:
            self._undoing = False
            self.load_inbox()
        self._forget_undo(commit)
        self.post_message(RepoWritten(result.commit))
        self.notify("Undid the last triage", timeout=3, markup=False)

    def _forget_undo(self, commit: str) -> None:
        self._undo = [(press, c) for press, c in self._undo if c != commit]
