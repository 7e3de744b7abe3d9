"""Dream run records: ``.git/memrepo/dreams/<id>.json`` (docs/architecture.md §6) and the dream state file.

One JSON object per run, written atomically. The record contract is shared
with compaction and Health (Health reads it generically): ``id``,
``trigger``, ``started``/``finished`` (ISO-8601 UTC or null), ``status``,
``reason``, ``tokens`` ``{input, output}``, ``branch``, ``base``,
``auto_commit``, ``operations`` (text-bearing fields ``text``, ``quote``,
``reason``, ``before``, ``after`` can be blanked, with ``scrubbed: true``).
Unknown keys are kept, so a reader that adds one never loses it.
"""

from __future__ import annotations

import json
import os
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from memrepo.engine.files.atomic import atomic_write
from memrepo.engine.files.lock import state_dir
from memrepo.engine.format.isotime import parse_time

Status = Literal["running", "pending_review", "applied", "accepted", "rejected", "undone", "stale", "failed", "empty"]
"""A run's status (the record contract)."""

Classification = Literal["auto", "review", "rejected", "unknown"]
"""What validation made of one operation (docs/architecture.md §6); ``unknown`` only in a scrubbed record
whose classification a compaction blanked."""

TEXT_FIELDS = ("text", "quote", "reason", "before", "after", "kept_text")
"""Operation fields that hold memory text (blanked by a compaction's scrub)."""


class Tokens(BaseModel):
    """Model tokens a run used (0 for the offline ``rules`` provider)."""

    model_config = ConfigDict(extra="allow")

    input: int = 0
    output: int = 0


class OpRecord(BaseModel):
    """One proposed operation as recorded.

    Attributes:
        op: add, edit, delete, move, merge or promote (or ``?`` when unreadable).
        lines: the line aliases it named (``L12``).
        refs: those lines as ``repo:<path>#L<n>`` at the time the dream read them.
        path: the target file, for add, move, merge and promote.
        evidence: task aliases (``T3``) for add.
        text: the new entry text (redacted), for add, edit and merge.
        quote: the user's words an add cites.
        reason: the model's reason.
        before: the touched lines' text before the dream, one per line.
        after: what the dream wrote, one per line.
        classification: auto, review or rejected.
        rejection: a short code why it was rejected (``unknown_alias``,
            ``unsafe_path``, ``git_path``, ``inbox_target``, ``secret``,
            ``over_limit``, ``too_many``, ``line_taken``, ...), never user text.
        detail: a sentence explaining the classification, never user text.
        decision: for a review operation of a dream accepted in part, ``accepted``
            (merged) or ``declined`` (dropped with the review branch); None otherwise.
        relation: how the lines relate, when the proposer said: ``duplicate``,
            ``replacement``, ``restatement`` or ``extension`` (docs/architecture.md §6).
        kept_ref: for a delete naming the line it keeps, that line as ``repo:<path>#L<n>``.
        kept_text: that line's text.
    """

    model_config = ConfigDict(extra="allow")

    op: str
    lines: list[str] = Field(default_factory=list)
    refs: list[str] = Field(default_factory=list)
    path: str | None = None
    evidence: list[str] = Field(default_factory=list)
    text: str = ""
    quote: str = ""
    reason: str = ""
    before: str = ""
    after: str = ""
    classification: Classification = "rejected"
    rejection: str | None = None
    detail: str | None = None
    decision: Literal["accepted", "declined"] | None = None
    relation: str | None = None
    kept_ref: str | None = None
    kept_text: str = ""


class DreamRecord(BaseModel):
    """One dream run (the record contract; unknown keys are kept).

    Attributes:
        id: ``YYYYMMDD-HHMMSS-<4 hex>``; the review branch is ``dream/<id>``.
        trigger: ``manual`` or ``due``.
        provider: the provider that proposed the operations.
        started, finished: ISO-8601 UTC times (finished None while running).
        status: see :data:`Status`.
        reason: why it failed or became stale, else None.
        tokens: model tokens used.
        branch: ``dream/<id>`` when it made a review branch.
        base: the commit the review branch starts from (the post-auto HEAD).
        auto_commit: the automatic commit on main, or None.
        review_commit: the commit on the review branch, or None.
        merge_commit: the ``--no-ff`` merge made by accept, or None.
        undo_commit: the commit that reverted ``auto_commit``, or None.
        counts: ``auto``, ``review``, ``rejected`` and ``proposed`` numbers.
        rejected_reasons: rejection code -> how many operations had it.
        tasks: the task ids read (source:id).
        operations: every proposed operation with its classification.
        scrubbed: text fields were blanked by compaction.
        examined: the files whose lines the dream read (docs/architecture.md §6, coverage).
        left_out: files it did not read (the first 500 names).
        left_out_count: how many files it did not read.
        too_large: files larger than the whole input (never read).
        next_file: where the next dream's rotation starts (None: from the first path).
        covered: folder files examined since they last changed, by this run or an earlier one
            (:func:`memrepo.engine.dreams.cover.covered`).
        folder_files: the folder's files when the run read it (inbox.md aside).
        progress: while it runs, what it does now with a count (:mod:`.progress`); None once finished.
    """

    model_config = ConfigDict(extra="allow")

    id: str
    trigger: str = "manual"
    provider: str = "rules"
    started: str | None = None
    finished: str | None = None
    status: Status = "running"
    reason: str | None = None
    tokens: Tokens = Field(default_factory=Tokens)
    branch: str | None = None
    base: str | None = None
    auto_commit: str | None = None
    review_commit: str | None = None
    merge_commit: str | None = None
    undo_commit: str | None = None
    counts: dict[str, int] = Field(default_factory=dict)
    rejected_reasons: dict[str, int] = Field(default_factory=dict)
    tasks: list[str] = Field(default_factory=list)
    operations: list[OpRecord] = Field(default_factory=list)
    scrubbed: bool = False
    examined: list[str] = Field(default_factory=list)
    left_out: list[str] = Field(default_factory=list)
    left_out_count: int = 0
    too_large: list[str] = Field(default_factory=list)
    next_file: str | None = None
    covered: int = 0
    folder_files: int = 0
    progress: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _tolerate_scrub(cls, data: object) -> object:
        """A scrubbed record loads with its texts empty, whatever the scrub blanked.

        Compaction treats records generically (engine/dreams/files.py) and may
        have blanked structural fields too (an older scrub set
        ``classification`` and ``lines`` to ""): in a record marked
        ``scrubbed: true`` such values are repaired (texts "", lists [],
        classification ``unknown``) instead of failing validation.
        """
        if not isinstance(data, dict) or data.get("scrubbed") is not True:
            return data
        ops = data.get("operations")
        if not isinstance(ops, list):
            return {**data, "operations": []}
        fixed = []
        for op in ops:
            if not isinstance(op, dict):
                continue
            op = dict(op)
            for key in TEXT_FIELDS:
                if not isinstance(op.get(key, ""), str):
                    op[key] = ""
            for key in ("lines", "refs", "evidence"):
                value = op.get(key)
                op[key] = [v for v in value if isinstance(v, str) and v] if isinstance(value, list) else []
            for key in ("path", "rejection", "detail"):
                if not isinstance(op.get(key), str) or not op.get(key):
                    op[key] = None
            if op.get("classification") not in ("auto", "review", "rejected"):
                op["classification"] = "unknown"
            if not isinstance(op.get("op"), str) or not op.get("op"):
                op["op"] = "?"
            fixed.append(op)
        return {**data, "operations": fixed}

    @property
    def started_at(self) -> datetime | None:
        """``started`` as a timezone-aware datetime, or None."""
        return parse_time(self.started)

    @property
    def used_tokens(self) -> int:
        """Input plus output tokens."""
        return self.tokens.input + self.tokens.output

    @property
    def review_pending(self) -> bool:
        """True while the review branch waits for accept or reject."""
        return self.branch is not None and self.status == "pending_review"

    def undo_message(self, how: str = "memrepo undo {commit}") -> str:
        """Say in one line what undoing this dream did (after :meth:`Dreamer.undo`).

        Undo reverts only the automatic commit. When the dream's review was
        accepted, its changes stay on main, and the message says how to
        revert them (the review commit, not the merge, which undo refuses);
        when the review still waits, the message says so.

        Args:
            how: the hint to undo a commit, with ``{commit}`` for its short id.

        Returns:
            str: e.g. "undid the automatic commit of dream X (abc1234) in
            def5678; its accepted review stays: memrepo undo 0123abc reverts it".
        """
        undo = (self.undo_commit or "")[:7]
        if not self.merge_commit and not self.review_pending:
            return f"undid dream {self.id} ({undo})"
        done = f"undid the automatic commit of dream {self.id} ({(self.auto_commit or '')[:7]}) in {undo}"
        if self.merge_commit:
            target = (self.review_commit or self.merge_commit)[:7]
            return f"{done}; its accepted review stays: {how.format(commit=target)} reverts it"
        return f"{done}; its review still waits for accept or reject"

    @property
    def rejectable(self) -> bool:
        """True when reject may delete a review branch: one waits for review, or a stale dream may still hold it."""
        return (self.branch is not None and self.status in ("pending_review", "stale")) or self.interrupted

    @property
    def interrupted(self) -> bool:
        """True for a run whose process was killed (marked failed by the next dream or reject)."""
        return self.status == "failed" and (self.reason or "").startswith("interrupted:")


def new_id(now: datetime | None = None) -> str:
    """A fresh dream id ``YYYYMMDD-HHMMSS-<4 hex>`` (sortable by time, safe in a branch name)."""
    now = now or datetime.now(UTC)
    return now.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


_KEEP_AS_IS = frozenset({"id", "op", "path", "refs", "classification", "rejection", "status", "trigger", "provider"})
"""Record fields that are names, codes or refs, never free text: not redacted."""


def _redacted_json(record: DreamRecord) -> str:
    """The record as JSON, secrets redacted in its free text (docs/architecture.md §3).

    A ``command`` provider's stderr reaches ``reason``; operation texts and quotes come from the model.
    """
    import json

    from memrepo.engine.redaction import redact_text

    def walk(value: object) -> object:
        if isinstance(value, dict):
            return {k: v if k in _KEEP_AS_IS else walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return redact_text(value) if isinstance(value, str) else value

    return json.dumps(walk(record.model_dump(mode="json")), indent=2, ensure_ascii=False)


class DreamRecords:
    """The run records of one repo, in ``.git/memrepo/dreams/``.

    Args:
        git_dir: the repository's ``.git`` folder.
    """

    def __init__(self, git_dir: Path) -> None:
        self.folder = state_dir(git_dir) / "dreams"
        self.state_path = state_dir(git_dir) / "dream-state.json"

    def path(self, dream_id: str) -> Path:
        """The record file of ``dream_id``."""
        return self.folder / f"{dream_id}.json"

    def save(self, record: DreamRecord) -> None:
        """Write the record atomically."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = _redacted_json(record).encode("utf-8")
        atomic_write(self.path(record.id), data, private=True)  # it quotes memory lines (B31-13)

    def load(self, dream_id: str) -> DreamRecord:
        """Read one record.

        Raises:
            RefError: no such dream, or its record is unreadable.
        """
        from memrepo.engine.errors import RefError

        if not dream_id or "/" in dream_id or dream_id.startswith("."):
            raise RefError(f"not a dream id: {dream_id!r}")
        path = self.path(dream_id)
        if not path.is_file():
            matches = sorted(self.folder.glob(f"{dream_id}*.json")) if self.folder.is_dir() else []
            if len(matches) != 1:
                raise RefError(f"no dream {dream_id!r} (see memrepo dreams)")
            path = matches[0]
        try:
            return DreamRecord.model_validate_json(path.read_bytes())
        except OSError as exc:
            raise RefError(f"the record of dream {dream_id} is unreadable: {exc.strerror or exc}") from exc
        except ValidationError as exc:
            errors = exc.errors()
            first = errors[0] if errors else {"loc": (), "msg": "invalid"}
            where = ".".join(str(p) for p in first["loc"]) or "(top level)"
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            raise RefError(
                f"the record of dream {dream_id} is unreadable: {where}: {first['msg']}{more} ({path})"
            ) from exc

    def all(self) -> list[DreamRecord]:
        """Every readable record, newest first (unreadable ones are skipped)."""
        out: list[DreamRecord] = []
        if not self.folder.is_dir():
            return out
        for path in self.folder.glob("*.json"):
            try:
                out.append(DreamRecord.model_validate_json(path.read_bytes()))
            except (OSError, ValidationError):
                continue
        out.sort(key=lambda r: (r.started or "", r.id), reverse=True)
        return out

    def stamp(self) -> tuple[tuple[str, int, int], ...]:
        """What changes whenever a run starts, ends or changes: each record's name, size and change time.

        A ``stat`` of each record, no read: the Dreams pane calls it once a
        second to follow dreams run elsewhere (docs/architecture.md §6).
        """
        out = []
        try:
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    if entry.name.endswith(".json"):
                        st = entry.stat()
                        out.append((entry.name, st.st_size, st.st_mtime_ns))
        except OSError:
            return ()
        return tuple(sorted(out))

    def tokens_since(self, hours: float = 24.0, now: datetime | None = None) -> int:
        """Tokens used by runs started in the last ``hours`` hours (the rolling budget window).

        Records are read as plain JSON (engine/dreams/files.py), so a record
        that does not validate as a :class:`DreamRecord` still counts: an
        unreadable record must never give the budget back.
        """
        from .files import load_records, tokens_of
        from .files import parse_time as parse_any_time

        now = now or datetime.now(UTC)
        since = now - timedelta(hours=hours)
        return sum(
            tokens_of(r) for r in load_records(self.folder.parent) if (parse_any_time(r.get("started")) or now) >= since
        )

    def read_state(self) -> dict:
        """The dream state: ``last_run`` (ISO), ``head`` (HEAD after the last run), ``cursor`` per source."""
        try:
            data = json.loads(self.state_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def write_state(self, state: dict) -> None:
        """Replace the dream state atomically."""
        atomic_write(self.state_path, json.dumps(state, indent=2, sort_keys=True).encode("utf-8"), private=True)
