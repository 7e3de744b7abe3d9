"""The dreamer: one dream run from gate to record, and what a person does with it afterwards.

A run (docs/architecture.md §6) has three steps so the async facade can keep the model
call off the repo's worker thread:

1. :meth:`Dreamer.prepare` (repo thread): the gate, the dream lock, the tasks
   since the cursor, the aliased input, a ``running`` record.
2. :func:`call_model` (any thread): the provider's one call; no repo access.
3. :meth:`Dreamer.finish` (repo thread): strict parsing, validation and
   classification, the automatic commit and the review branch, the record
   and the state (last run, HEAD, task cursor); the dream lock is released.

A failure in step 2 or 3 (timeout, HTTP error, malformed or oversized JSON,
an extra field) changes nothing and is recorded as ``failed`` with the reason.
The three steps are one flow, :meth:`Dreamer.flow`: :meth:`Dreamer.run` runs it
on one thread (CLI, benchmark), ``MemoryRepo.dream`` on the repo's threads.
"""

from __future__ import annotations

import builtins
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

from memrepo.engine.agents.sessionrepos import claimed_elsewhere
from memrepo.engine.agents.transcripts import read_tasks
from memrepo.engine.config import Settings
from memrepo.engine.errors import BusyError, GitError, MemrepoError
from memrepo.engine.files.lock import DreamLock
from memrepo.engine.flow import Flow, on_spare, on_store, run_steps
from memrepo.engine.format.isotime import now_iso
from memrepo.engine.git.dream import DreamGit, clean_interrupted, clean_interrupted_unlocked
from memrepo.engine.models import RepoState

from . import apply as dreamapply
from . import ops as dreamops
from .cover import LEFT_OUT_LISTED
from .gate import DreamSkipped, budget_left, check_due
from .input import FOLDER_CAP, RULES_CAP, DreamInput, build_input
from .partial import partial_review
from .progress import Progress
from .providers import MAX_OUTPUT_TOKENS, Provider, Reply, make_provider
from .record import DreamRecord, DreamRecords, Tokens, new_id
from .remembers import forgotten
from .review import DreamConflict as DreamConflict  # public here, as before
from .review import DreamReview

if TYPE_CHECKING:  # the store is the caller's; importing it at run time would tie dreams to the façade
    from collections.abc import Callable

    from memrepo.engine.repo.store import MemoryStore

log = logging.getLogger("memrepo.dream")


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
        log.warning("dream provider %s failed unexpectedly", prepared.provider.name, exc_info=True)
        return None, f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"


RAW_ANSWER_KEEP = 16_000
"""Characters of an unreadable model answer kept in the dream record."""


class Dreamer(DreamReview):
    """Dreams of one open store.

    Args:
        store: the memory store (used from its own thread only).
        settings: the settings (``[dream]`` and ``[transcripts]``); ``store.settings`` when None.
    """

    def __init__(self, store: MemoryStore, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings if settings is not None else store.settings
        self.records = DreamRecords(store.git.git_dir)
        self.on_progress: Callable[[str], None] | None = None
        """Told each progress line of a running dream (:mod:`.progress`; ``memrepo dream`` prints them)."""

    # -- reading --------------------------------------------------------

    def list(self) -> list[DreamRecord]:
        """Every run, newest first."""
        return self.records.all()

    def records_stamp(self) -> tuple[tuple[str, int, int], ...]:
        """Changes whenever a run starts, ends or changes, from any process (:meth:`DreamRecords.stamp`)."""
        return self.records.stamp()

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

    def leftovers(self) -> builtins.list[str]:
        """What killed dreams left: worktrees, half-made branches, ``running`` records of dead processes.

        Reads only (docs/architecture.md §6); empty while a dream runs (its
        worktree and branch are its own, not leftovers).

        Returns:
            list[str]: one line per thing found.
        """
        return clean_interrupted_unlocked(self.store.root, self.records, dry_run=True)

    def killed(self) -> builtins.set[str]:
        """The ids of the records marked ``running`` whose process is gone (Health's check, :meth:`leftovers`).

        Reads only; empty while a dream runs (docs/architecture.md §6; breaker11 B11-10: a killed dream was
        listed ``running`` for good).

        Returns:
            set[str]: the killed dreams' ids.
        """
        running = [r.id for r in self.list() if r.status == "running"]
        if not running:
            return set()
        found = self.leftovers()
        return {i for i in running if any(f"dream {i} " in line for line in found)}

    def clean_leftovers(self) -> builtins.list[str]:
        """Remove what :meth:`leftovers` lists; each ``running`` record is marked failed and can be rejected.

        Nothing a dream record waits on goes (docs/architecture.md §6: the
        next dream does the same); does nothing while a dream runs.

        Returns:
            list[str]: one line per thing cleaned; empty when nothing was left or a dream is running.
        """
        try:
            return self.clean_up()
        except BusyError:
            return []  # a running dream's worktree and branch are its own

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
            clean_interrupted(self.store.root, self.records)  # a killed dream's worktree, branch and record
            state = self.records.read_state()
            roots = {"claude_code": self.settings.transcripts.claude_code, "codex": self.settings.transcripts.codex}
            tasks, cursor = read_tasks(
                roots, dict(state.get("cursor") or {}), idle_s=self.settings.transcripts.idle_hours * 3600
            )
            gone = forgotten(tasks, self.store.state_dir)  # the cursor passes them: never read again
            others = claimed_elsewhere([t.id.split(":", 1)[-1] for t in tasks], self.store.root)
            tasks = [t for t in tasks if t not in gone and t.id.split(":", 1)[-1] not in others]
            if if_due:
                check_due(self.records, ds.interval_hours, self.store.head(), len(tasks))
            files = [p for p, _ in self.store.list_files()]
            model = chosen.uses_tokens  # the rules provider sends nothing: it reads the whole folder
            cap = FOLDER_CAP if model else RULES_CAP
            seen = state.get("seen")
            seen = seen if isinstance(seen, dict) else None
            din = build_input(self.store.root, files, tasks, cap, state.get("next_file") or None, model, seen)
            if chosen.uses_tokens:
                need = din.estimate_tokens() + MAX_OUTPUT_TOKENS
                left = self.budget_left()
                if need > left:
                    raise DreamSkipped(
                        f"the daily token budget ({ds.daily_token_budget:,}) has {left:,} tokens left; "
                        f"this dream needs about {need:,}"
                    )
            record = DreamRecord(
                id=new_id(),
                trigger=trigger,
                provider=chosen.name,
                started=now_iso(),
                tasks=[t.id for t in tasks],
                examined=din.examined,
                left_out=din.left_out_files[:LEFT_OUT_LISTED],
                left_out_count=len(din.left_out_files),
                too_large=din.too_large[:LEFT_OUT_LISTED],
                next_file=din.next_file,
                covered=din.covered,
                folder_files=din.folder_files,
            )
            self.records.save(record)
            din.progress = Progress(partial(self._progress, record))
        except BaseException:
            lock.release()
            raise
        return Prepared(record, din, chosen, cursor, lock)

    def _progress(self, record: DreamRecord, line: str) -> None:
        """Keep a running dream's progress line in its record (the app follows it), and tell :attr:`on_progress`."""
        record.progress = line
        self.records.save(record)
        if self.on_progress is not None:
            self.on_progress(line)

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
                try:
                    output = dreamops.parse_output(reply.text)
                except dreamops.ProviderError:
                    # Kept (redacted, cut) so the person can see what the model said (docs/architecture.md §6).
                    record.raw_answer = reply.text[:RAW_ANSWER_KEEP]  # type: ignore[attr-defined]
                    raise
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
            record.progress = None  # said while it ran
            self.records.save(record)
            if record.status != "failed":
                state = self.records.read_state()
                state.update(last_run=record.started, head=self.store.head(), cursor=prepared.cursor)
                state["next_file"] = prepared.din.next_file  # coverage: the next dream starts there
                state["seen"] = prepared.din.seen  # and reads what changed since first
                self.records.write_state(state)
            return record
        finally:
            if prepared.lock is not None:
                prepared.lock.release()

    def flow(self, trigger: str = "manual", provider: str | None = None, if_due: bool = False) -> Flow[DreamRecord]:
        """One dream as a flow (:mod:`memrepo.engine.flow`): gate and input, the model call, then apply.

        The one dream flow: :meth:`run` runs it on this thread, the async
        repo with the model call on a spare thread. A cancelled or
        interrupted model call still ends the run, as ``failed: cancelled``,
        releasing the dream lock.

        Raises:
            DreamSkipped, BusyError, ConfigError: as :meth:`prepare`.
        """
        prepared: Prepared = yield on_store(partial(self.prepare, trigger, provider, if_due))
        try:
            reply, error = yield on_spare(partial(call_model, prepared))
        except BaseException:
            yield on_store(partial(self.finish, prepared, None, "cancelled"))
            raise
        record: DreamRecord = yield on_store(partial(self.finish, prepared, reply, error))
        return record

    def run(self, trigger: str = "manual", provider: str | None = None, if_due: bool = False) -> DreamRecord:
        """One whole dream on this thread (:meth:`flow`).

        Raises:
            DreamSkipped, BusyError, ConfigError: as :meth:`prepare`.
        """
        return run_steps(self.flow(trigger, provider, if_due))

    def now(self) -> datetime:
        """The current UTC time."""
        return datetime.now(UTC)


__all__ = ["DreamConflict", "DreamSkipped", "Dreamer", "Prepared", "call_model", "new_id", "partial_review"]
