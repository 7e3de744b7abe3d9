"""The Dreams pane's accept, reject and undo: a y/n question, then the repo call (split from :mod:`.dreams`).

:class:`DreamActions` is the pane's base: :class:`~.dreams.DreamsPane` adds the runs, the operations
and the detail box; this part holds the keys that act on the highlighted run (``a``, ``d``, ``u``, and ``space``
choosing an operation), asks, and acts (a refusal or conflict is a notice).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from ..messages import RepoWritten, WriteFailed
from ..plain import clean
from ..widgets.dialogs import Confirm
from .base import Pane
from .dreamview import operations_title, where_today

QUOTE_CHARS = 60
"""Characters of an operation's entry the accept question quotes."""


def accept_question(record: Any, chosen: list[int], highlighted: bool, files: dict[str, list[Any]]) -> str:
    """The accept question: all the review changes (and how to choose), the chosen ones, or the highlighted one by
    its number, where and entry; a part says the others are rejected with the review branch (docs/dreams.md)."""
    total = record.counts.get("review", 0)
    left = total - len(chosen)
    rest = (
        f"\nThe other {left} review {'change is' if left == 1 else 'changes are'} rejected with the review branch"
        f" (a new dream can propose {'it' if left == 1 else 'them'} again)."
    )
    if highlighted and len(chosen) == 1:
        op = record.operations[chosen[0]]
        text = " ".join((op.after or op.before or op.text).split())
        text = text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"
        where = where_today(op, files, record) or op.path or ""
        return (
            f"Accept operation {chosen[0] + 1} of {len(record.operations)} of dream {record.id}, the highlighted one,"
            f' as one merge?\n{op.op} {where}: "{text}"{rest if left else ""}\nTo accept several: esc, then space chooses them.'
        )
    if chosen:
        return f"Accept {len(chosen)} of the {total} review changes of dream {record.id} as one merge?{rest if left else ''}"
    return (
        f"Accept all {total} review change{'' if total == 1 else 's'} of dream {record.id} as one merge into main?"
        "\nTo accept some: in Operations, space chooses them, or a accepts the highlighted one."
    )


def undo_question(record: Any) -> str:
    """The undo question: the automatic commit it reverts and how many changes; after an accept, that the accepted
    review stays and that ``u`` again undoes it (docs/dreams.md). Just after "a", a new user read "Undo auto" as
    undoing what they had accepted. With no automatic commit left to undo, the accepted review's change
    (:func:`undoes_review`): the merge cannot be undone on its own, the change it brought in can (breaker31 B31-11)."""
    if undoes_review(record):
        n = sum(op.decision == "accepted" for op in record.operations) or record.counts.get("review", 0)
        return (
            f"Undo the accepted review of dream {record.id}: revert the {n} change{'' if n == 1 else 's'} "
            f"merge {record.merge_commit[:7]} brought in?\nA new commit reverts it."
        )
    n = record.counts.get("auto", 0)
    question = (
        f"Undo dream {record.id}: revert its automatic commit {(record.auto_commit or '')[:7]} "
        f"({n} change{'' if n == 1 else 's'})?"
    )
    if record.status == "accepted" and record.merge_commit:
        question += f"\nIts accepted review stays: it is merge {record.merge_commit[:7]}; u again undoes it."
    return question


def undoes_review(record: Any) -> bool:
    """Whether ``u`` on ``record`` undoes its accepted review (the change its merge brought in): it was accepted and
    has no automatic commit left to undo."""
    return record.status == "accepted" and bool(record.merge_commit) and (not record.auto_commit or record.undo_commit)


class DreamActions(Pane):
    """Accept (all or the chosen operations), reject or undo a dream run, after a y/n question."""

    _chosen: dict[str, set[int]]
    """Per run id, the review operations chosen with space."""
    _files: dict[str, list[Any]]
    """The shown run's files' entries, as they are now (for where an operation applies)."""
    _records: list[Any]
    """The runs listed, newest first."""
    _shown: str | None
    """The id of the run whose operations and diff show."""
    _dreaming: bool
    """True while a dream started here runs."""

    @property
    def table(self) -> DataTable[Text]:
        """The runs table."""
        return self.query_one("#dreams-runs", DataTable)

    @property
    def ops_table(self) -> DataTable[Text]:
        """The highlighted run's operations, one row each (space chooses review ones)."""
        return self.query_one("#dreams-ops", DataTable)

    @property
    def chosen(self) -> list[int]:
        """Indexes of the highlighted run's operations chosen with space, in order."""
        record = self.highlighted
        return sorted(self._chosen.get(record.id, set())) if record is not None else []

    @property
    def highlighted(self) -> Any | None:
        """The run under the cursor, or None."""
        row = self.table.cursor_row
        return self._records[row] if 0 <= row < len(self._records) else None

    def load_runs(self) -> Any:
        """Read every run again (the pane's worker)."""
        raise NotImplementedError

    @work(group="dreams-act", exit_on_error=False, description="Changing a dream")
    async def act(self, what: str, record: Any, chosen: list[int] | None = None, highlighted: bool = False) -> None:
        """Ask, then accept (all, the ``chosen`` operations, or the ``highlighted`` one: ``chosen`` holds it), reject
        or undo; a refusal or conflict is a notice. The question says which: all, how many, or the operation."""
        from memrepo.engine.errors import MemrepoError

        if self.repo is None:
            return
        total = record.counts.get("review", 0)
        accept = accept_question(record, chosen or [], highlighted, self._files)
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
            "undo": undo_question(record) if what == "undo" else "",
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
            elif undoes_review(record):  # the change the merge brought in: its second parent
                result = await self.repo.undo(f"{record.merge_commit}^2", origin="tui")
                message, commit = f"Undid the accepted review of dream {record.id}", result.commit
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

    # -- keys ----------------------------------------------------------

    def _pick(self, what: str) -> Any | None:
        record = self.highlighted
        if record is None:
            self.notify("No dream highlighted", severity="warning", timeout=3, markup=False)
            return None
        killed = record.status == "running" and not self._dreaming  # a killed dream's record: rejectable
        if (what == "accept" and not record.review_pending) or (what == "reject" and not (record.rejectable or killed)):
            self.notify(f"Dream {record.id} has no review waiting", severity="warning", timeout=3, markup=False)
            return None
        if what == "undo" and (not record.auto_commit or record.undo_commit) and not undoes_review(record):
            self.notify(f"Dream {record.id} has no automatic commit to undo", severity="warning", markup=False)
            return None
        return record

    def action_accept(self) -> None:
        """Accept the operations chosen with space; else, in Operations, the highlighted operation; else its whole
        review branch, after a question that says all and how to choose (docs/keys.md, B28-7)."""
        record = self._pick("accept")
        if record is None:
            return
        row = self.ops_table.cursor_row
        on_op = self.ops_table.has_focus and record.id == self._shown and 0 <= row < len(record.operations)
        if self.chosen or not on_op:
            self.act("accept", record, self.chosen)
            return
        op = record.operations[row]
        if op.classification != "review":
            done = "was applied automatically" if op.classification == "auto" else f"is {op.classification}"
            self.notify(f"Operation {row + 1} {done}: only review operations are accepted", timeout=4, markup=False)
            return
        self.act("accept", record, [row], highlighted=True)

    def action_toggle_select(self) -> None:
        """Choose (or unchoose) the review operation highlighted in the operations list."""
        record = self.highlighted
        row = self.ops_table.cursor_row
        if record is None or record.id != self._shown or not 0 <= row < len(record.operations):
            return
        op = record.operations[row]
        if not record.review_pending or op.classification != "review":
            why = "nothing waits for review" if not record.review_pending else f"this one is {op.classification}"
            self.notify(f"Only review operations can be chosen: {why}", severity="warning", timeout=3, markup=False)
            return
        chosen = self._chosen.setdefault(record.id, set())
        chosen.symmetric_difference_update({row})
        self.ops_table.update_cell_at(Coordinate(row, 0), Text("●" if row in chosen else " ", end=""))
        self._ops_title(record)
        if row + 1 < len(record.operations):
            self.ops_table.move_cursor(row=row + 1)

    def action_reject(self) -> None:
        """Reject the highlighted dream's review branch."""
        record = self._pick("reject")
        if record is not None:
            self.act("reject", record)

    def action_undo(self) -> None:
        """Undo the highlighted dream's automatic commit; with none left, its accepted review (:func:`undoes_review`)."""
        record = self._pick("undo")
        if record is not None:
            self.act("undo", record)

    def _ops_title(self, record: Any) -> None:
        self.ops_table.border_title = operations_title(record, len(self._chosen.get(record.id, set())))
