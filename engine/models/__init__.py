"""Plain engine models that cross the engine's boundary (pydantic, docs/architecture.md §1).

No pygit2 object ever leaves the engine: the git store turns commits and
status into these.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from memrepo.engine.format.provenance import claims_user as claims_user  # re-exported: the MCP server uses it

from .base import _Model

Origin = Literal["agent_tool", "cli", "tui", "mcp", "hand_edit", "inbox_triage", "dream", "import", "compact"]
"""Where a commit came from: the ``Origin:`` trailer values of docs/architecture.md §3."""


KIND_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
"""A :attr:`Candidate.kind`: one short word (it is written into entry metadata and commit subjects)."""


class Action(StrEnum):
    """What :meth:`MemoryRepo.remember` did (docs/architecture.md §3)."""

    ADDED = "added"
    REINFORCED = "reinforced"
    REPLACED = "replaced"
    OUTRANKED = "outranked"
    INBOXED = "inboxed"
    REFUSED = "refused"
    FORGOTTEN = "forgotten"
    UNDONE = "undone"
    CLEARED = "cleared"
    DISCARDED = "discarded"
    ARCHIVED = "archived"
    RESTORED = "restored"
    PURGED = "purged"
    PINNED = "pinned"
    UNPINNED = "unpinned"


class Candidate(_Model):
    """A memory someone wants saved.

    Attributes:
        text: the entry text, one line, at most 500 characters.
        kind: fact, identity, preference, correction, insight, rule, lesson,
            decision, ... (routing reads it): one short word, a letter then
            letters, digits, ``_`` or ``-``, at most 32 characters
            (:data:`KIND_RE`; it goes into entry metadata and commit subjects).
        scope: ``global`` or ``workspace``; ``private``, ``contact`` and
            ``task`` are accepted here and always refused by the write policy
            (they never go to the repo, docs/architecture.md §3).
        workspace: the workspace path or name; needed for scope ``workspace``.
        subject: a short topic; a new entry with the same subject in the same
            file replaces the old one.
        supersedes: the subject, or a piece of the text (8 characters or more), of an older entry
            of the same file that this one makes out of date: written as ``supersedes:``, it keeps
            that entry out of the context block while it stays in the file and history
            (docs/architecture.md §4). An entry ref (``repo:me.md#L5``, ``me.md#L5``) is resolved by
            the writer to that entry's subject or text (:mod:`memrepo.engine.write.supersedesref`).
        by: ``user`` or ``agent``.
        pin: keep in MEMORY.md (only for ``by: user``).
        source: where the memory came from (a URL, a session id).
        task: the id of the task that wrote it.
        origin: the ``Origin:`` trailer of the commit.
        origin_text: the user message the memory came from, when known; a
            ``<no-memory>`` marker in it refuses the write.
        untrusted: the task that wrote it read untrusted content (a web
            page, an email, a tool result): the write goes to inbox.md as
            ``by: agent`` whatever its kind (docs/architecture.md §3 taint).
        via: how an entry that a person approved reached its file (``inbox``:
            accepted from the inbox; ``dream``: an accepted dream review),
            written as ``via:`` so the entry keeps where it came from instead of
            passing for the user's own words (docs/architecture.md §6).
        corrects: the file of the user's line this statement of theirs corrects, when it waits in the
            inbox for them to confirm (a correction said in a session that says more than the new value):
            written ``by: user`` to inbox.md with ``corrects:``, ``supersedes:``/``subject:`` naming that
            line, so accepting it replaces the line (corr11, breaker14 B14-9).
        forgets: the file of a line the user asked, in a session, to forget, when it waits in the inbox for
            them to confirm (the request named several lines, or an agent's): written ``by: user`` to inbox.md
            with that line's text and ``forgets:``; accepting it removes the line (breaker14 B14-10).

    An agent's candidate cannot claim the user as its source (``source: user``
    and the like are refused): only what a person typed is theirs.
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    text: str
    kind: str = "fact"
    scope: Literal["global", "workspace", "private", "contact", "task"] = "global"
    workspace: str | None = None
    subject: str | None = None
    supersedes: str | None = Field(default=None, max_length=200)
    by: Literal["user", "agent"] = "agent"
    pin: bool = False
    source: str | None = None
    task: str | None = None
    origin: Origin = "agent_tool"
    origin_text: str | None = None
    untrusted: bool = False
    via: Literal["inbox", "dream"] | None = None
    corrects: str | None = Field(default=None, max_length=200)
    forgets: str | None = Field(default=None, max_length=200)
    waits: str | None = Field(default=None, max_length=200)
    """Why the user's own statement waits in the inbox instead of its file (a limit refused it: the repo's file
    count refused a new workspace file): written ``by: user`` to inbox.md with ``waits:`` (breaker17 B17-9)."""
    until: str | None = None
    """The last day the entry holds (YYYY-MM-DD), for a statement of a time that ends ("I'm on call the week of
    2026-11-30"), written as ``until:`` (breaker14 B14-8); None: it holds until replaced."""
    added: str | None = None
    """The entry's ``added:`` date (YYYY-MM-DD) when it is older than the write (an import keeps it); else today."""

    @field_validator("added", "until")
    @classmethod
    def _iso_date(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            return None
        from datetime import date

        try:
            return date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            raise ValueError(f"{info.field_name} must be a date YYYY-MM-DD, not {value[:20]!r}") from None

    @field_validator("workspace")
    @classmethod
    def _absolute_workspace(cls, value: str | None) -> str | None:
        """A folder given relative (``.``, ``../api``) is made absolute here, once: a write kept while the repo
        is blocked and applied later from another folder still names the same project (docs/architecture.md §3)."""
        if value is None:
            return None
        from memrepo.engine.format.paths import normalize_workspace

        path = normalize_workspace(value)[2]
        return path if path is not None else value

    @field_validator("kind")
    @classmethod
    def _short_word_kind(cls, value: str) -> str:
        if not KIND_RE.fullmatch(value):
            raise ValueError(f"kind must be one short word (letters, digits, _ or -; at most 32), not {value[:40]!r}")
        return value

    @model_validator(mode="after")
    def _agents_never_speak_as_the_user(self) -> Candidate:
        if self.by == "agent" and self.source is not None and claims_user(self.source):
            raise ValueError(
                f"source {self.source!r} claims the user's own words: an agent's write names where it "
                "came from (a URL, a file, a session), never the user"
            )
        return self


class WriteResult(_Model):
    """The outcome of a write.

    Attributes:
        action: what happened.
        ref: ``repo:<path>#L<n>`` of the entry written or matched, when there is one.
        path: the repo-relative file written or matched.
        commit: the new commit's full id, or None when nothing was committed.
        reason: why nothing was written (refused, outranked, reinforced).
        redacted: the types of secrets redacted before the write (``aws-access-key``,
            ``jwt``, ...), never their values.
        warning: set when, after the write, the user's lines of the file written (MEMORY.md, lessons.md)
            no longer all fit the context block's budget: which are left out and the fixes
            (docs/architecture.md §4); else None.
        limit: refused by a size or count limit (a full file, the repo's file count; docs/architecture.md §2),
            not by the text: the same text may be written elsewhere.
    """

    action: Action
    ref: str | None = None
    path: str | None = None
    commit: str | None = None
    reason: str | None = None
    redacted: list[str] = Field(default_factory=list)
    warning: str | None = None
    limit: bool = False


class CommitInfo(_Model):
    """One commit of the log with its parsed trailers.

    Attributes:
        id: full hex id.
        short_id: 7-character id.
        summary: the first line of the message.
        message: the whole message.
        time: commit time, timezone-aware.
        author: ``name <email>``.
        origin: the ``Origin:`` trailer, or None (a commit made outside memrepo).
        task: the ``Task:`` trailer, or None.
        dream: the ``Dream:`` trailer, or None.
        trailers: every trailer, in order.
        parents: the parents' full ids.
    """

    id: str
    short_id: str
    summary: str
    message: str
    time: datetime
    author: str
    origin: str | None = None
    task: str | None = None
    dream: str | None = None
    trailers: dict[str, str] = Field(default_factory=dict)
    parents: list[str] = Field(default_factory=list)


class RepoState(StrEnum):
    """The work tree's state for writes (docs/architecture.md §3)."""

    CLEAN = "clean"
    HAND_EDITED = "hand_edited"
    BLOCKED = "blocked"


class HandEditQuestion(_Model):
    """A hand edit that emptied a file, dropped most entries or added a secret: committed only when the user says so.

    Attributes:
        path: repo-relative file.
        entries_before: entries in the committed file.
        entries_now: entries on disk.
        empty: the file on disk is empty (or only whitespace).
        message: one line saying what the edit did and how to answer.
        seen: a short hash of the file's bytes the question was asked about;
            an answer (``answer_hand_edit``) acts only while the file still hashes the same.
        dropped: see below.
    """

    path: str
    entries_before: int
    entries_now: int
    empty: bool = False
    message: str = ""
    seen: str = ""
    deleted: bool = False
    not_text: str = ""
    """Where a save stopped being UTF-8 text (``byte 2993, line 54``); empty for the other questions."""
    """The file is gone from the work tree (``rm``, a sync tool, an editor's move): a question like an emptied file."""
    dropped: list[str] = Field(default_factory=list)
    """Entry lines memrepo wrote after the version the save was read from that it drops (an editor's stale copy,
    docs/architecture.md §3); empty for an emptied file or most entries gone."""
    revived: list[str] = Field(default_factory=list)
    """Entry lines memrepo removed after the save was read (a forget, a move) that the save brings back (the same
    stale copy, docs/architecture.md §3); "put back" leaves them out."""
    torn: list[str] = Field(default_factory=list)
    """Lines of the save a write cut short (a save caught half-way, docs/architecture.md §3); "put back" keeps the
    save's whole lines without them and puts back the committed entries it lacks. Empty for the other questions."""
    secrets: list[str] = Field(default_factory=list)
    """Lines the edit added that hold a secret, as ``L<n>: <type>`` (never the values; docs/architecture.md §3);
    empty for the other questions."""


class RepoStatus(_Model):
    """Where the work tree stands.

    Attributes:
        state: clean, hand-edited (text files changed outside memrepo, to be
            committed as "Hand edits"), or blocked.
        changed: repo-relative paths changed by hand (tracked or new text files).
        reason: for blocked, one line saying why.
        head: HEAD's full id, or None for an unborn HEAD.
        pending: writes kept while the work tree was blocked, not yet applied.
        staged: paths among ``changed`` whose index entry differs from HEAD (someone ran ``git add``).
        questions: hand edits waiting for the user's answer (see ``commit-hand-edits``).
    """

    state: RepoState
    changed: list[str] = Field(default_factory=list)
    reason: str | None = None
    head: str | None = None
    pending: int = 0
    staged: list[str] = Field(default_factory=list)
    questions: list[HandEditQuestion] = Field(default_factory=list)


class EntryView(_Model):
    """An entry as shown to people and agents.

    Attributes:
        ref: ``repo:<path>#L<n>``.
        path: repo-relative file.
        line: 1-based line number.
        text: the entry text without metadata.
        by: ``user`` or ``agent``.
        meta: all metadata, decoded.
        seen: a short hash of the whole line as shown; pass ``<ref>@<seen>`` to a
            triage call so it acts only on exactly this text (docs/architecture.md §3).
    """

    ref: str
    path: str
    line: int
    text: str
    by: str
    meta: dict[str, str] = Field(default_factory=dict)
    seen: str = ""


class FileView(_Model):
    """A file read through the engine.

    Attributes:
        path: repo-relative path.
        size: bytes on disk.
        text: the file's text (BOM removed); None when the file is binary or
            not UTF-8, with ``error`` saying so.
        entries: the file's entries.
        links: ``[[links]]`` found in the file.
        error: why the file could not be read as text, or None.
    """

    path: str
    size: int
    text: str | None
    entries: list[EntryView] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    error: str | None = None


class ChangeEvent(_Model):
    """A batch of changes seen by the watcher.

    Attributes:
        paths: work-tree paths (repo-relative) that were added, modified or deleted.
        git: True when HEAD, a branch, or a git operation's state moved (a
            commit by any process, a merge started or ended, an index lock
            taken or dropped), so status and history may have changed.
    """

    paths: list[str]
    git: bool = False


class RecallHit(EntryView):
    """One result of :meth:`MemoryRepo.recall` (docs/architecture.md §4): an entry with its rank.

    Attributes:
        score: the rank score (BM25 over index terms plus small bonuses; bigger is
            better, comparable within one query only).
        confidence: the share (0..1) of the query's term weight the entry holds;
            recall leaves out answers under its minimum (docs/architecture.md §4).
        unreviewed: True for an inbox entry (not yet reviewed by a person).
        heading: with ``detail="full"``, the heading of the section the hit is in.
        section: with ``detail="full"``, up to 80 lines of that section around the hit.
        mode: ``"hybrid"`` when lexical and semantic rankings were fused, else ``"lexical"``
            (docs/architecture.md §4).
        scan: None when the recall index answered; while its first build runs, a scan of
            the files answers and this says how far the build got
            (``"index building: 1,000 of 20,000 files"``, docs/architecture.md §4).
        answer: False when nothing answered the query confidently and this is one of the nearest
            entries, given only when asked for (``related``; they may not answer it, docs/architecture.md §4).
        since: the line of its file where a newer agent line corrects this user's line (the context block's mark
            "(an agent line since says: L<n>)", docs/recall.md), else None.
        replaced_by: the line of its file that replaces this one by the context block's rule (the block hides it;
            recall shows it marked "(replaced by L<n>)", docs/recall.md), else None.
    """

    score: float = 0.0
    confidence: float = 0.0
    unreviewed: bool = False
    heading: str | None = None
    section: str | None = None
    mode: str = "lexical"
    scan: str | None = None
    answer: bool = True
    since: int | None = None
    replaced_by: int | None = None


class RecallMode(_Model):
    """How the last recall was answered (docs/architecture.md §4, hybrid recall).

    Attributes:
        mode: ``"hybrid"`` (lexical and semantic fused) or ``"lexical"``.
        covered: the share of indexed entries that have a vector (0.0-1.0).
        note: one line for people when semantic recall was wanted and could not be used, else None.
    """

    mode: str = "lexical"
    covered: float = 0.0
    note: str | None = None


class ContextSection(_Model):
    """One file's part of a context block.

    Attributes:
        path: repo-relative file.
        budget: its token budget (tokens, docs/architecture.md §4).
        tokens: estimated tokens used (tokens).
        shown: entries shown.
        omitted: entries left out for the budget.
    """

    path: str
    budget: int
    tokens: int
    shown: int
    omitted: int


class ContextBlock(_Model):
    """The fenced memory block an agent puts in its prompt (docs/architecture.md §4).

    Attributes:
        text: the block, ready to paste into a prompt.
        head: the short id of the HEAD commit it was built from ("" in an empty repo).
        workspace: the workspace id, or None for no workspace.
        sections: one per file, with token counts against the budgets.
        refs: the refs of every entry line shown, in order.
        tokens: estimated tokens of the whole block (tokens).
    """

    text: str
    head: str
    workspace: str | None = None
    sections: list[ContextSection] = Field(default_factory=list)
    refs: list[str] = Field(default_factory=list)
    tokens: int = 0


class WorkspaceInfo(_Model):
    """A workspace file and the workspace its first entry names (docs/architecture.md §2).

    Attributes:
        id: the workspace id (``ws-`` and 8 hex characters).
        file: the workspace file, repo-relative.
        path: the project folder named by the ``path:`` key, or None.
        label: the first entry's text (the workspace's name for people).
        exists: whether ``path`` is a folder on this machine (None when no path is named).
        archived: the file is under ``archived/`` (left out of context and recall).
    """

    id: str
    file: str
    path: str | None = None
    label: str = ""
    exists: bool | None = None
    archived: bool = False


class ConflictView(_Model):
    """An entry both machines changed differently, kept in both versions by a sync merge.

    Attributes:
        id: the ``conflict:`` value the versions share.
        path: the repo-relative file.
        versions: the versions in file order (the first is the version of the
            machine that made the merge).
    """

    id: str
    path: str
    versions: list[EntryView] = Field(default_factory=list)


from .history import CompactPreview as CompactPreview  # noqa: E402  (re-exported: one import path for every model)
from .history import CompactProgress as CompactProgress  # noqa: E402
from .history import CompactResult as CompactResult  # noqa: E402
from .history import SyncResult as SyncResult  # noqa: E402
from .history import SyncState as SyncState  # noqa: E402
