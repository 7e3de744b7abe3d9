"""Inbox triage, on the store: accept, edit and discard inbox entries (docs/architecture.md §6); pin and unpin.

A mixin of :class:`~memrepo.engine.repo.store.MemoryStore`, kept apart so the store module stays one
screenful per concern. Each method runs the change in :mod:`memrepo.engine.write.triage` through the
store's entry writer, so every change goes through the one write transaction.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.models import EntryView, Origin, WriteResult

if TYPE_CHECKING:
    from memrepo.engine.write.remember import EntryWriter


class StoreTriage:
    """Inbox triage of one open memory repo (mixed into the store).

    Attributes:
        entries: the entry writer (routing, the pending queue).
    """

    entries: EntryWriter
    root: Path

    @property
    def state_dir(self) -> Path:
        raise NotImplementedError

    def _scrub(self, paths: list[str]) -> object:
        """The derived-state walk of a forget (:mod:`memrepo.engine.state.scrub`): an accepted request to forget
        a line takes its text out of every derived file, as ``forget`` does."""
        from memrepo.engine.state.registry import Event
        from memrepo.engine.state.scrub import Scope, walk

        return walk(Event.FORGET, Scope(self.root, paths=paths, state_dir=self.state_dir))

    def suggest(self, entry: EntryView) -> str:
        """The file an inbox entry goes to when accepted: its workspace's file, lessons.md or me.md."""
        from memrepo.engine.write import triage

        return triage.suggest(self.entries, entry)

    def accept(
        self, ref: str, target: str | None = None, text: str | None = None, origin: Origin = "inbox_triage"
    ) -> WriteResult:
        """Move an inbox entry to the file its metadata suggests (or ``target``), one commit, marked ``via: inbox``.

        The line keeps its writer's ``by`` (an agent's stays ``by: agent``); with ``text`` the person typed it, so it
        is ``by: user`` (:func:`memrepo.engine.write.triage.accepted`, docs/architecture.md §6). The user's own
        proposals from a session: a correction replaces the line it names (``corrects:``), a request to forget a
        line removes it (``forgets:``), in the same commit.
        With ``text`` the entry is edited first; the write policy still applies.
        Returns ``added``/``replaced`` with the new ref, ``reinforced`` when the
        destination already holds it (the inbox line goes all the same), or
        ``refused`` by the policy or a limit.

        Raises:
            RefError: the ref is not an inbox entry, or ``target`` is unsafe, not markdown, or the inbox.
            BlockedError, BusyError: as for writes.
        """
        from memrepo.engine.write import triage

        return triage.accept(self.entries, ref, target, text, origin, self._scrub)

    def accept_many(self, refs: list[str], target: str | None = None, origin: Origin = "inbox_triage") -> WriteResult:
        """Accept several inbox entries in one commit; ``reason`` counts what the policy or a limit refused."""
        from memrepo.engine.write import triage

        return triage.accept_many(self.entries, refs, target, origin, self._scrub)

    def edit_accept(self, ref: str, text: str, target: str | None = None) -> WriteResult:
        """Accept an inbox entry with new text (see :meth:`accept`)."""
        return self.accept(ref, target=target, text=text)

    def discard(self, ref: str, origin: Origin = "inbox_triage") -> WriteResult:
        """Remove an inbox entry in its own commit ("Discard: ...")."""
        return self.discard_many([ref], origin)

    def discard_many(self, refs: list[str], origin: Origin = "inbox_triage") -> WriteResult:
        """Remove several inbox entries in one commit (a ref that is no inbox entry: RefError, nothing removed)."""
        from memrepo.engine.write import triage

        return triage.discard_many(self.entries, refs, origin)

    def pin(self, ref: str, pinned: bool = True, origin: Origin = "tui", expect: str | None = None) -> WriteResult:
        """Pin the user entry at ``ref`` (move it into MEMORY.md, in every session's block), or unpin it.

        Unpinned, a MEMORY.md line goes where ``remember`` without ``--pin`` puts it (lessons.md for a
        lesson, me.md for the rest). One commit ("Pin: ..." / "Unpin: ..."), undone from History like any
        (:mod:`memrepo.engine.write.pinning`). Returns ``pinned`` / ``unpinned`` with the line's new ref,
        or ``refused`` by the write policy or MEMORY.md's 4 KB limit (nothing moved).

        Args:
            ref: ``repo:<path>#L<n>``: a ``by: user`` entry of me.md, lessons.md or a workspace file to pin,
                of MEMORY.md to unpin.
            pinned: pin (True) or unpin (False).
            origin: the ``Origin:`` trailer.
            expect: the entry text the caller means; a line that now holds other text is refused.

        Raises:
            RefError: no entry at ``ref``, not the user's, already pinned (or not pinned), an inbox line,
                or the line changed (``expect``).
            BlockedError, BusyError: as for writes.
        """
        from memrepo.engine.write import pinning

        return pinning.pin(self.entries, ref, pinned, origin, expect)
