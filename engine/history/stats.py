"""Is memory paying off? Facts written, sessions that read memory, sizes over time (docs/architecture.md §9).

Everything is computed from two sources the repo already has: the commit
history with its trailers (what was written, by whom, through which way in)
and the read counter under ``.git/memrepo/`` (:mod:`memrepo.engine.read.readcount`,
counts only). Definitions:

* **facts** are entries a commit added, counted once per normalized text and
  commit, by where the commit's trailers say they came from: ``user`` (``By: user``,
  or a commit of lines written by hand), ``agent`` (``By: agent``, or an agent's way in:
  the MCP server, a dream, a checkpoint), ``import`` (``Origin: import``: brought in
  from elsewhere, by nobody here) and ``inbox`` (an entry that landed in ``inbox.md``).
  Commits made before the ``By:`` trailer count by their ``Origin:`` alone (the
  command line and the app as the user). A new workspace file's header line (its
  first entry, naming the workspace) is memrepo's and no fact. A move (the same text
  leaving one file and entering another in one commit), an undo (a
  ``Reverts:`` commit), a compaction and a merge add no facts.
* **promoted** inbox entries left ``inbox.md`` through an accept (``Accept:``
  commits) or a dream's promote; **discarded** ones through ``Discard:``.
* **sessions** are agent sessions counted by the read counter (an MCP server
  process, a SessionStart hook call); **sessions that read memory** asked for
  the context block, recall or a file at least once.
* **repeated corrections** are ``kind: correction`` entries whose words mostly
  (a Jaccard overlap of at least :data:`REPEAT_OVERLAP`) repeat an entry saved
  in an earlier commit: the agent was told something memory already held.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import date
from pathlib import Path

from pydantic import BaseModel, Field

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.entrylines import entry_lines
from memrepo.engine.format.layout import INBOX_MD, WORKSPACES
from memrepo.engine.format.terms import terms
from memrepo.engine.git.stats import HistoryStep, walk_history
from memrepo.engine.read.readcount import load_counts

log = logging.getLogger(__name__)

REPEAT_OVERLAP = 0.6
"""A correction repeats an earlier fact when this share of their combined terms is shared."""


class SizePoint(BaseModel):
    """The repo's size at one commit of the history.

    Attributes:
        date: the commit's day (UTC).
        commit: the commit's short id.
        memory_md_bytes: the size of MEMORY.md (bytes).
        tree_bytes: the total size of every file (bytes).
    """

    date: date
    commit: str
    memory_md_bytes: int
    tree_bytes: int


class MemoryStats(BaseModel):
    """What ``memrepo stats`` reports (see the module docstring for each definition).

    Attributes:
        commits: commits read (first-parent history).
        sessions: agent sessions counted, all channels.
        sessions_read: of those, sessions that read memory.
        read_share: ``sessions_read / sessions`` (0..1), or None with no session.
        sessions_by_channel: channel (``mcp``, ``hook``) -> sessions.
        reads: kind (``context``, ``recall``, ``read``) -> reads.
        facts: origin (``user``, ``agent``, ``import``, ``inbox``) -> facts written.
        facts_per_10_sessions: the same per 10 sessions, or None with no session.
        promoted: inbox entries accepted or promoted.
        discarded: inbox entries discarded.
        repeated_corrections: corrections that repeat an earlier saved fact.
        sizes: MEMORY.md and repo size over time (about weekly, oldest first).
    """

    commits: int = 0
    sessions: int = 0
    sessions_read: int = 0
    read_share: float | None = None
    sessions_by_channel: dict[str, int] = Field(default_factory=dict)
    reads: dict[str, int] = Field(default_factory=dict)
    facts: dict[str, int] = Field(default_factory=lambda: {"user": 0, "agent": 0, "import": 0, "inbox": 0})
    facts_per_10_sessions: dict[str, float] | None = None
    promoted: int = 0
    discarded: int = 0
    repeated_corrections: int = 0
    sizes: list[SizePoint] = Field(default_factory=list)


def _entries(data: bytes | None, path: str) -> list[fmt.Entry]:
    return [line.entry for line in entry_lines(data, path) if line.entry is not None]


USER_ORIGINS = frozenset({"cli", "tui", "hand_edit", "inbox_triage"})
"""``Origin:`` values that are a person at the keyboard (a commit with no ``By:`` trailer counts as theirs)."""


def fact_origin(origin: str | None, by: str | None) -> str:
    """Which count a commit's new facts go to, from its trailers alone.

    Args:
        origin: the ``Origin:`` trailer (None for a commit made with git, a person's).
        by: the ``By:`` trailer (``user`` or ``agent``), or None on commits made before it.

    Returns:
        ``import``, ``user`` or ``agent``.
    """
    if origin == "import":
        return "import"
    if by in ("user", "agent"):
        return by
    return "user" if origin is None or origin in USER_ORIGINS else "agent"


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


MARKED = "Mark as the user's:"
"""The subject of the checkpoint's commit that makes an agent's line the user's (checkpoints/distill.py)."""


class _Tally:
    """The running counts while the history is walked oldest first."""

    def __init__(self) -> None:
        self.stats = MemoryStats()
        self.seen: dict[str, set[str]] = {}  # normalized text -> its terms, for every entry saved so far

    def step(self, step: HistoryStep) -> None:
        self.stats.commits += 1
        if step.tree_bytes is not None:
            self.stats.sizes.append(
                SizePoint(
                    date=step.time.date(),
                    commit=step.id[:7],
                    memory_md_bytes=step.memory_md_bytes,
                    tree_bytes=step.tree_bytes,
                )
            )
        origin = step.trailers.get("Origin")
        counted = not (step.merge or origin == "compact" or "Reverts" in step.trailers)
        before: Counter[str] = Counter()
        after: Counter[str] = Counter()
        inbox_before: Counter[str] = Counter()
        inbox_after: Counter[str] = Counter()
        added_entries: dict[str, tuple[str, fmt.Entry]] = {}
        for path, (old, new) in step.changes.items():
            for entry in _entries(old, path):
                (inbox_before if path == INBOX_MD else before)[fmt.normalize_text(entry.text)] += 1
            header = old is None and path.startswith(WORKSPACES + "/")  # a new workspace file names itself first
            for entry in _entries(new, path):
                if header and "workspace" in entry.meta:
                    header = False
                    continue
                key = fmt.normalize_text(entry.text)
                (inbox_after if path == INBOX_MD else after)[key] += 1
                added_entries.setdefault(key, (path, entry))
        if counted:
            self._count(step, origin, before, after, inbox_before, inbox_after, added_entries)
        if counted and step.summary.startswith(MARKED) and step.trailers.get("By") == "user":
            self._moved_to_user(step)
        for key, (_, entry) in added_entries.items():
            self.seen.setdefault(key, set(terms(entry.text)))

    def _moved_to_user(self, step: HistoryStep) -> None:
        """A "Mark as the user's" commit (a checkpoint found the user's typed words already stored ``by:
        agent``) makes an agent's fact the user's: it moves from the agent's count to the user's, counted
        once (it adds no line, so it was never counted again, but stayed the agent's)."""
        facts = self.stats.facts
        for path, (old, new) in step.changes.items():
            agents = {fmt.normalize_text(e.text) for e in _entries(old, path) if e.meta.get("by") == "agent"}
            for entry in _entries(new, path):
                key = fmt.normalize_text(entry.text)
                if key in agents and entry.meta.get("by") == "user" and facts["agent"] > 0:
                    facts["agent"] -= 1
                    facts["user"] += 1
                    agents.discard(key)

    def _count(
        self,
        step: HistoryStep,
        origin: str | None,
        before: Counter[str],
        after: Counter[str],
        inbox_before: Counter[str],
        inbox_after: Counter[str],
        added_entries: dict[str, tuple[str, fmt.Entry]],
    ) -> None:
        stats = self.stats
        net = after - before
        left_inbox = inbox_before - inbox_after
        promoted = left_inbox & net
        if origin == "inbox_triage" and step.summary.startswith("Accept:"):
            stats.promoted += max(sum(left_inbox.values()), sum(promoted.values()))
        elif origin == "inbox_triage" and step.summary.startswith("Discard:"):
            stats.discarded += sum(left_inbox.values())
        else:
            stats.promoted += sum(promoted.values())
        who = fact_origin(origin, step.trailers.get("By"))
        for key in net - promoted:
            _, entry = added_entries[key]
            stats.facts[who] += 1
            if entry.meta.get("kind", "").casefold() == "correction" and key not in self.seen:
                words = set(terms(entry.text))
                if any(_overlap(words, old) >= REPEAT_OVERLAP for old in self.seen.values()):
                    stats.repeated_corrections += 1
        if origin != "inbox_triage":
            stats.facts["inbox"] += sum((inbox_after - inbox_before).values())


def compute_stats(root: Path, git_dir: Path, max_commits: int = 20_000) -> MemoryStats:
    """Memory stats of one repo.

    Args:
        root: the work tree.
        git_dir: its ``.git`` folder (the read counter lives under it).
        max_commits: at most this many of the newest commits are read.

    Returns:
        MemoryStats: the counts, with ``read_share`` and ``facts_per_10_sessions``
        left None when no session was counted.

    Raises:
        GitError: the history cannot be read.
    """
    tally = _Tally()
    for step in walk_history(root, max_commits):
        tally.step(step)
    stats = tally.stats
    counts = load_counts(git_dir)
    stats.sessions_by_channel = dict(sorted(counts["sessions"].items()))
    stats.reads = dict(sorted(counts["reads"].items()))
    stats.sessions = sum(counts["sessions"].values())
    stats.sessions_read = min(stats.sessions, sum(counts["sessions_read"].values()))
    if stats.sessions:
        stats.read_share = round(stats.sessions_read / stats.sessions, 4)
        stats.facts_per_10_sessions = {k: round(v * 10 / stats.sessions, 2) for k, v in stats.facts.items()}
    return stats
