"""An editor's stale save never drops entries memrepo wrote meanwhile without the user's word
(docs/architecture.md §3).

An editor that read a file before memrepo wrote an entry into it, then
saved its copy (a temp file renamed over the file), removes that entry. A
hand edit that drops an entry memrepo committed in the last
:data:`WINDOW_S` seconds is therefore held like an emptied file: a
question in ``status()``, Health and the app, never a silent commit. The
answer "put back" keeps the save and puts the dropped entries back in it
(:func:`put_back`); "commit" commits the save as it is. An entry the save
rewrote (a line with the same metadata is new in it) counts as edited,
not dropped.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

from memrepo.engine.errors import FormatError
from memrepo.engine.files.heap import trim_heap
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.merge import merge_entries
from memrepo.engine.models import HandEditQuestion

WINDOW_S = 3600.0
"""Entries memrepo committed this recently (seconds) are guarded against a stale save."""
HISTORY_MAX = 200
"""memrepo's commits of the file looked through at most, newest first (commits of other files do not count)."""


class History(Protocol):
    """What this needs of the git store (:meth:`memrepo.engine.git.history.GitHistory.recent_writes`)."""

    def recent_writes(self, path: str, within_s: float, limit: int) -> list[tuple[bytes | None, bytes | None]]: ...


def _entry_lines(data: bytes | None, rel: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Each entry line of ``data`` with its metadata; empty when ``data`` is None or not a memory file."""
    if not data:
        return []
    try:
        parsed = fmt.parse(data, rel)
    except FormatError:
        return []
    return [(line.text, tuple(line.entry.meta.items())) for line in parsed.lines if line.entry is not None]


def dropped_entries(history: History, rel: str, committed: bytes | None, now: bytes | None) -> list[str]:
    """The entry lines memrepo committed to ``rel`` in the last :data:`WINDOW_S` that ``now`` drops.

    Args:
        history: the git store.
        rel: repo-relative path.
        committed: ``rel``'s bytes in HEAD.
        now: its bytes on disk (None: deleted, a deliberate act: nothing is dropped).

    Returns:
        list[str]: the dropped lines, in the committed file's order (empty for most edits: no history is read
        unless an entry line of HEAD is missing from the save).
    """
    if committed is None or now is None or committed == now:
        return []
    before = _entry_lines(committed, rel)
    kept = _entry_lines(now, rel)
    kept_lines = {text for text, _meta in kept}
    missing = [(text, meta) for text, meta in before if text not in kept_lines]
    if not missing:
        return []
    committed_lines = {text for text, _meta in before}
    rewritten = {meta for text, meta in kept if text not in committed_lines and meta}
    # The same save against the same commit gives the same answer: while a question is held, writes to the
    # file are refused, so every transaction of a long-lived process (the write server, the app) would walk
    # the history again (0.4 s at 2,400 commits in the hour, under the write lock).
    repo = str(getattr(history, "root", id(history)))  # another repo's history gives another answer
    key = (repo, rel, hashlib.sha256(committed).digest(), hashlib.sha256(now).digest())
    written = _written_memo.get(key)
    if written is None:
        written = set()
        for old, new in history.recent_writes(rel, WINDOW_S, HISTORY_MAX):
            written |= {text for text, _m in _entry_lines(new, rel)} - {text for text, _m in _entry_lines(old, rel)}
        trim_heap()  # the versions read are freed: give their pages back (16 MB at 200 versions, .heap)
        if len(_written_memo) >= 64:
            _written_memo.clear()
        _written_memo[key] = written
    return [text for text, meta in missing if text in written and meta not in rewritten]


_written_memo: dict[tuple[str, str, bytes, bytes], set[str]] = {}
"""What :func:`dropped_entries` found written, by repo, file and both versions' digests (this process)."""


def stale_question(rel: str, committed: bytes, now: bytes, dropped: list[str]) -> HandEditQuestion:
    """The question a save that drops ``dropped`` raises (held like an emptied file, docs/architecture.md §3)."""
    from memrepo.engine.write.settle import bytes_seen

    count = len(_entry_lines(committed, rel))
    q = HandEditQuestion(
        path=rel, entries_before=count, entries_now=len(_entry_lines(now, rel)), seen=bytes_seen(now), dropped=dropped
    )
    n = len(dropped)
    q.message = (
        f"{rel}: a save drops {n} {'entry' if n == 1 else 'entries'} memrepo wrote in the last hour "
        "(an editor's copy from before?); memrepo keeps the committed text until you decide: "
        f"`memrepo commit-hand-edits --yes {rel}` commits the save as it is, "
        f"`memrepo commit-hand-edits --put-back {rel}` keeps the save with {'it' if n == 1 else 'them'} back"
    )
    return q


def put_back(rel: str, committed: bytes, now: bytes, dropped: list[str]) -> bytes:
    """``now`` with the ``dropped`` lines put back where HEAD has them (a merge of the save and HEAD).

    The base is HEAD without the dropped lines (the file as the editor had it): the save's own edits and
    memrepo's entries both stand.

    Raises:
        FormatError: a version is not text.
    """
    gone = set(dropped)
    lines = committed.splitlines(keepends=True)
    base = b"".join(line for line in lines if line.rstrip(b"\r\n").decode("utf-8", "replace") not in gone)
    return merge_entries(base, committed, now).data
