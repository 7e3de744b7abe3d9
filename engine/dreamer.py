"""The dreamer: one dream run from gate to record, and what a person does with it afterwards.

A run (DESIGN.md §6) has three steps so the async facade can keep the model
call off the repo's worker thread:

1. :meth:`Dreamer.prepare` (repo thread): the gate, the dream lock, the tasks
   since the cursor, the aliased input, a ``running`` record.
2. :func:`call_model` (any thread): the provider's one call; no repo access.
3. :meth:`Dreamer.finish` (repo thread): strict parsing, validation and
   classification, the automatic commit and the review branch, the record
   and the state (last run, HEAD, task cursor); the dream lock is released.

A failure in step 2 or 3 (timeout, HTTP error, malformed or oversized JSON,
an extra field) changes nothing and is recorded as ``failed`` with the reason.
:meth:`Dreamer.run` does all three in one call (CLI, benchmark).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from . import dreamapply, dreamops
from .config import Settings
from .dreamgate import DreamLock, DreamSkipped, budget_left, check_due
from .dreaminput import DreamInput, build_input
from .dreamrecord import DreamRecord, DreamRecords, Tokens, new_id, now_iso
from .errors import GitError, MemrepoError, RefError
from .gitdream import DreamGit, MergeConflict
from .models import Origin, RepoState
from .providers import MAX_OUTPUT_TOKENS, Provider, Reply, make_provider
from .store import MemoryStore
from .transcripts import read_tasks


class DreamConflict(GitError):
    """Accepting a dream conflicts with later changes on main; main is unchanged and the dream is stale."""


@dataclass(slots=True)
class Prepared:
    """A dream between its input and the model's answer.

    Attributes:
        record: the ``running`` record.
        din: the input.
        provider: who answers.
        cursor: the task cursor to save when the run succeeds.
        lock: the dream lock, held until :meth:`Dreamer.finish`.
    """

    record: DreamRecord
    din: DreamInput
    provider: Provider
    cursor: dict[str, str] = field(default_factory=dict)
    lock: DreamLock | None = None


def call_model(prepared: Prepared) -> tuple[Reply | None, str | None]:
    """Ask the provider; never raises.

    Returns:
        tuple: the reply, or None and one line saying why the call failed.
    """
    try:
        return prepared.provider.propose(prepared.din), None
    except dreamops.ProviderError as exc:
        return None, str(exc)
    except Exception as exc:  # an SDK surprise must still end as a failed record
        return None, f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"


class Dreamer:
    """Dreams of one open store.

    Args:
        store: the memory store (used from its own thread only).
        settings: the settings (``[dream]`` and ``[transcripts]``).
    """

    def __init__(self, store: MemoryStore, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.records = DreamRecords(store.git.git_dir)

    # -- reading --------------------------------------------------------

    def list(self) -> list[DreamRecord]:
        """Every run, newest first."""
        return self.records.all()

    def show(self, dream_id: str) -> DreamRecord:
        """One run (an id or a unique prefix).

        Raises:
            RefError: no such dream.
        """
        return self.records.load(dream_id)

    def budget_left(self) -> int:
        """Tokens left in the rolling 24-hour budget."""
        return budget_left(self.records, self.settings.dream.daily_token_budget)

    def diff(self, dream_id: str) -> str:
        """The review diff ``base..dream/<id>`` (empty when the dream made no review branch).

        Raises:
            RefError: no such dream.
            GitError: the branch and its commit are gone (compacted).
        """
        record = self.show(dream_id)
        if not record.branch or not record.base:
            return ""
        git = DreamGit(self.store.root)
        try:
            return git.diff(record.base, record.branch, record.review_commit)
        except GitError as exc:
            if git.commit_exists(record.base):
                raise
            raise GitError(
                f"dream {record.id} has no review diff any more: its base commit {record.base[:7]} is gone "
                "from the history (compacted)"
            ) from exc

    def gone(self, record: DreamRecord) -> set[str]:
        """Which of the record's git names no longer exist in the repo.

        A review branch is deleted by accept, reject or a compaction; the
        base and the commits leave with a compaction.

        Returns:
            set[str]: field names among ``branch``, ``base``, ``auto_commit``,
            ``review_commit``, ``merge_commit`` and ``undo_commit`` that are set
            in the record but whose branch or commit is gone.
        """
        git = DreamGit(self.store.root)
        out = set()
        if record.branch and not git.branch_exists(record.branch):
            out.add("branch")
        for key in ("base", "auto_commit", "review_commit", "merge_commit", "undo_commit"):
            value = getattr(record, key, None)
            if value and not git.commit_exists(value):
                out.add(key)
        return out

    # -- running --------------------------------------------------------

    def prepare(self, trigger: str = "manual", provider: str | None = None, if_due: bool = False) -> Prepared:
        """The gate and the input; takes the dream lock and records a ``running`` run.

        Args:
            trigger: ``manual`` or ``due``.
            provider: a provider name overriding ``[dream] provider``.
            if_due: also require the interval and something new (timers).

        Raises:
            DreamSkipped: dreaming off, the folder blocked, not due, nothing
                new, or over the token budget.
            BusyError: another dream is running.
            ConfigError: an unknown provider.
        """
        ds = self.settings.dream
        if not ds.enabled:
            raise DreamSkipped("dreaming is off ([dream] enabled = false)")
        status = self.store.status()
        if status.state is RepoState.BLOCKED:
            raise DreamSkipped(f"the memory repo is blocked: {status.reason}")
        chosen = make_provider(provider or ds.provider, ds)
        lock = DreamLock(self.store.git.git_dir)
        lock.acquire()
        try:
            state = self.records.read_state()
            roots = {"claude_code": self.settings.transcripts.claude_code, "codex": self.settings.transcripts.codex}
            tasks, cursor = read_tasks(roots, dict(state.get("cursor") or {}))
            if if_due:
                check_due(self.records, ds.interval_hours, self.store.head(), len(tasks))
            din = build_input(self.store.root, [p for p, _ in self.store.list_files()], tasks)
            if chosen.uses_tokens:
                need = din.estimate_tokens() + MAX_OUTPUT_TOKENS
                left = self.budget_left()
                if need > left:
                    raise DreamSkipped(
                        f"the daily token budget ({ds.daily_token_budget:,}) has {left:,} tokens left; "
                        f"this dream needs about {need:,}"
                    )
            record = DreamRecord(id=new_id(), trigger=trigger, provider=chosen.name, started=now_iso(),
                                 tasks=[t.id for t in tasks])
            self.records.save(record)
        except BaseException:
            lock.release()
            raise
        return Prepared(record, din, chosen, cursor, lock)

    def finish(self, prepared: Prepared, reply: Reply | None, error: str | None) -> DreamRecord:
        """Validate, classify, apply and record; releases the dream lock.

        Args:
            prepared: from :meth:`prepare`.
            reply: the provider's answer, or None when it failed.
            error: why the call failed, or None.

        Returns:
            DreamRecord: the finished record (``failed`` with a reason when
            anything went wrong; then nothing was changed).
        """
        record = prepared.record
        try:
            if reply is not None:
                record.tokens = Tokens(input=reply.input_tokens, output=reply.output_tokens)
            try:
                if reply is None:
                    raise dreamops.ProviderError(error or "the provider gave no answer")
                output = dreamops.parse_output(reply.text)
                existing = {p for p, _ in self.store.list_files()}
                items = dreamops.plan(output, prepared.din, existing, self.store.root)
                try:
                    dreamapply.apply(self.store, record, prepared.din, items)
                finally:
                    record.operations = [i.record for i in items]
                    record.counts, record.rejected_reasons = dreamops.counts(items)
            except MemrepoError as exc:
                record.status = "failed"
                record.reason = str(exc)
            record.finished = now_iso()
            self.records.save(record)
            if record.status != "failed":
                state = self.records.read_state()
                state.update(last_run=record.started, head=self.store.head(), cursor=prepared.cursor)
                self.records.write_state(state)
            return record
        finally:
            if prepared.lock is not None:
                prepared.lock.release()

    def run(self, trigger: str = "manual", provider: str | None = None, if_due: bool = False) -> DreamRecord:
        """One whole dream on this thread (see the module docstring).

        Raises:
            DreamSkipped, BusyError, ConfigError: as :meth:`prepare`.
        """
        prepared = self.prepare(trigger, provider, if_due)
        reply, error = call_model(prepared)
        return self.finish(prepared, reply, error)

    # -- afterwards -----------------------------------------------------

    def _pending(self, dream_id: str) -> DreamRecord:
        record = self.show(dream_id)
        if not record.review_pending:
            raise RefError(f"dream {record.id} has no review waiting (it is {record.status.replace('_', ' ')})")
        return record

    def accept(self, dream_id: str) -> DreamRecord:
        """Merge the review branch (``--no-ff``, under the write lock).

        Raises:
            RefError: no such dream, or nothing to review.
            DreamConflict: it conflicts with main; main is unchanged and the dream is now stale.
        """
        record = self._pending(dream_id)
        try:
            record.merge_commit = dreamapply.accept(self.store, record)
        except MergeConflict as exc:
            record.status = "stale"
            record.reason = f"conflicts with later changes to {', '.join(exc.paths)}; main is unchanged"
            self.records.save(record)
            raise DreamConflict(f"cannot accept dream {record.id}: {record.reason}") from exc
        except GitError as exc:
            if DreamGit(self.store.root).branch_exists(record.branch or ""):
                raise
            record.status = "stale"
            record.reason = "its review branch is gone"
            self.records.save(record)
            raise DreamConflict(f"cannot accept dream {record.id}: {record.reason}") from exc
        record.status = "accepted"
        self.records.save(record)
        return record

    def reject(self, dream_id: str) -> DreamRecord:
        """Delete the review branch; the dream is ``rejected``.

        A stale dream (its accept conflicted) can be rejected too while its
        branch is still there: the branch holds old text and goes.

        Raises:
            RefError: no such dream, nothing to review, or a stale dream
                whose branch is gone already.
        """
        record = self.show(dream_id)
        if not record.rejectable:
            raise RefError(f"dream {record.id} has no review waiting (it is {record.status.replace('_', ' ')})")
        with self.store.lock.hold("reject dream"):
            deleted = DreamGit(self.store.root).delete_branch(record.branch or "")
        if not deleted and record.status == "stale":
            raise RefError(
                f"dream {record.id} is stale and its review branch {record.branch} is gone: nothing to reject"
            )
        record.status = "rejected"
        self.records.save(record)
        return record

    def undo(self, dream_id: str, origin: Origin = "cli") -> DreamRecord:
        """Revert the dream's automatic commit in a new commit.

        Raises:
            RefError: no such dream, or it has no automatic commit left to undo.
            GitError: the revert conflicts with later edits to the same
                lines; it was aborted and nothing changed.
        """
        record = self.show(dream_id)
        if not record.auto_commit:
            raise RefError(f"dream {record.id} made no automatic commit to undo")
        if record.undo_commit:
            raise RefError(f"dream {record.id} was undone already ({record.undo_commit[:7]})")
        result = self.store.undo(record.auto_commit, origin=origin)
        record.undo_commit = result.commit
        if not record.review_pending:
            record.status = "undone"
        self.records.save(record)
        return record

    def now(self) -> datetime:
        """The current UTC time."""
        return datetime.now(UTC)


__all__ = ["DreamConflict", "DreamSkipped", "Dreamer", "Prepared", "call_model", "new_id"]
