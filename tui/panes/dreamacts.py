"""The Dreams pane's accept, reject and undo: a y/n question, then the repo call (split from :mod:`.dreams`).

:class:`DreamActions` is the pane's base: :class:`~.dreams.DreamsPane` adds the runs, the operations
and the detail box; this part asks and acts on the highlighted run (a refusal or conflict is a notice).
"""

from __future__ import annotations

from typing import Any

from textual import work

from ..messages import RepoWritten, WriteFailed
from ..plain import clean
from ..widgets.dialogs import Confirm
from .base import Pane


class DreamActions(Pane):
    """Accept (all or the chosen operations), reject or undo a dream run, after a y/n question."""

    _chosen: dict[str, set[int]]
    """Per run id, the review operations chosen with space."""

    def load_runs(self) -> Any:
        """Read every run again (the pane's worker)."""
        raise NotImplementedError

    @work(group="dreams-act", exit_on_error=False, description="Changing a dream")
    async def act(self, what: str, record: Any, chosen: list[int] | None = None) -> None:
        """Ask, then accept (all or the ``chosen`` operations), reject or undo; a refusal or conflict is a notice."""
        from memrepo.engine.errors import MemrepoError

        if self.repo is None:
            return
        total = record.counts.get("review", 0)
        accept = f"Accept dream {record.id}: merge its {total} change(s) into main?"
        if chosen:
            left = total - len(chosen)
            accept = (
                f"Accept {len(chosen)} of the {total} review changes of dream {record.id} as one merge?"
                f"\nThe other {left} {'is' if left == 1 else 'are'} rejected with its review branch"
                " (a new dream can propose them again)."
            )
        reject = f"Reject dream {record.id}: delete its review branch?"
        if what == "reject" and record.status == "running":
            if record.id not in await self.repo.killed_dreams():
                self.notify(f"Dream {record.id} is still running", severity="warning", timeout=3, markup=False)
                return
            reject = (
                f"Reject dream {record.id}? It is marked running, but its process is gone: "
                "what it left (a temporary worktree, a half-made branch) is removed."
            )
        questions = {
            "accept": accept,
            "reject": reject,
            "undo": f"Undo dream {record.id}: revert its automatic commit?",
        }
        if not await self.app.push_screen_wait(Confirm(questions[what])):
            return
        try:
            if what == "accept" and chosen:
                done = await self.repo.accept_dream(record.id, expect=record.review_commit, operations=chosen)
                n = len(chosen)
                message, commit = f"Accepted {n} of {total} review changes of dream {done.id}", done.merge_commit
                self._chosen.pop(record.id, None)
            elif what == "accept":
                done = await self.repo.accept_dream(record.id, expect=record.review_commit)  # as shown
                message, commit = f"Accepted dream {done.id}", done.merge_commit
            elif what == "reject":
                done = await self.repo.reject_dream(record.id)
                message, commit = f"Rejected dream {done.id}", None
            else:
                done = await self.repo.undo_dream(record.id, origin="tui")
                said = done.undo_message("undo {commit} in History")
                message, commit = said[:1].upper() + said[1:], done.undo_commit
        except MemrepoError as exc:
            self.notify(
                clean(str(exc), one_line=False), title=f"Cannot {what}", severity="error", timeout=8, markup=False
            )
            self.post_message(WriteFailed(str(exc)))
            self.load_runs()
            return
        self.notify(clean(message), timeout=3, markup=False)
        self.post_message(RepoWritten(commit))
        self.load_runs()
