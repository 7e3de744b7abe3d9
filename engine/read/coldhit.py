"""A recall hit made without pydantic: what :mod:`.coldrecall` and the recall door answer (docs/architecture.md §4).

A new process that recalls once imports no pydantic model (:mod:`.coldrecall`). Its hits carry the fields of
:class:`~memrepo.engine.models.RecallHit` in the same order, so ``memrepo recall --json`` prints what
``RecallHit.model_dump()`` would.
"""

from __future__ import annotations

from typing import Any

from memrepo.engine.format.layout import INBOX_MD


class ColdHit:
    """One recall hit as :class:`~memrepo.engine.models.RecallHit` has it, without pydantic.

    Attributes: those of ``RecallHit`` (``ref``, ``path``, ``line``, ``text``,
    ``by``, ``meta``, ``seen``, ``score``, ``confidence``, ``unreviewed``, ``heading``, ``section``, ``mode``,
    ``scan``, ``answer``, ``since``, ``replaced_by``); and, not printed, ``covered`` (the share of entries with a vector when hybrid recall
    answered), ``note`` (why semantic recall was wanted and not used) and ``via`` (the warm process that answered
    through the recall door, :mod:`.recalldoor`, else None).
    """

    __slots__ = (
        "answer",
        "by",
        "confidence",
        "covered",
        "heading",
        "line",
        "meta",
        "mode",
        "note",
        "path",
        "ref",
        "replaced_by",
        "scan",
        "score",
        "section",
        "seen",
        "since",
        "text",
        "unreviewed",
        "via",
    )

    def __init__(
        self, path: str, line: int, text: str, by: str, meta: dict[str, str], score: float, confidence: float = 0.0
    ) -> None:
        self.ref = f"repo:{path}#L{line}"
        self.path = path
        self.line = line
        self.text = text
        self.by = by
        self.meta = meta
        self.seen = ""
        self.score = score
        self.confidence = confidence
        self.unreviewed = path == INBOX_MD
        self.heading: str | None = None
        self.section: str | None = None
        self.mode = "lexical"  # a one-shot recall loads no model (docs/architecture.md §4)
        self.scan: str | None = None  # set when a scan of the files answered: the index build's progress
        self.answer = True  # False for a nearest entry given with ``related`` (:mod:`.recallnear`)
        self.since: int | None = None  # the agent line since that corrects a user's line (.recallnewer.since_lines)
        self.replaced_by: int | None = None  # the newer line of its file that replaces it (.recallnewer.since_lines)
        self.covered: float | None = None  # hybrid recall's share of entries with a vector (not printed)
        self.note: str | None = None  # why semantic recall was wanted and not used (not printed)
        self.via: str | None = None  # the warm process that answered through the recall door (not printed)

    def as_dict(self) -> dict[str, Any]:
        """The fields in ``RecallHit.model_dump()``'s order (``memrepo recall --json`` prints it)."""
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = (
    "ref",
    "path",
    "line",
    "text",
    "by",
    "meta",
    "seen",
    "score",
    "confidence",
    "unreviewed",
    "heading",
    "section",
    "mode",
    "scan",
    "answer",
    "since",
    "replaced_by",
)


class ScanHits(list[ColdHit]):
    """The hits a scan of the files gave while the index builds, and what that scan left unread for size.

    Attributes:
        skipped: ``(path, bytes)`` of each file over :data:`.recallkeys.MAX_INDEXED_FILE`, by path, from the
            scan's own walk: what :func:`skipped_files` would walk the files again to find.
    """

    skipped: list[tuple[str, int]]
