"""A stale save never brings back silently what memrepo removed meanwhile (docs/architecture.md §3).

The same stale copy that drops memrepo's newer entries (:mod:`.stalesave`) still
holds the entries memrepo removed meanwhile (a forget, an inbox entry accepted
into another file, a dream's delete or move): saving it brings them back. A
hand edit that adds back an entry line memrepo removed after the save's base
(however long ago), or in the last :data:`.stalesave.WINDOW_S` seconds, is held
the same way (:func:`revived_entries`); "put back" then keeps the save without
them, so an acknowledged forget is never undone silently. The window and the
look's length are read from :mod:`.stalesave` at each call: one home for both.
"""

from __future__ import annotations

from collections.abc import Callable

from memrepo.engine.files.heap import trim_heap

from . import stalesave
from .staleedits import edits_of, removed_outright
from .stalesave import History, _guarded_lines, _key, _lines


def revived_entries(
    history: History,
    rel: str,
    committed: bytes | None,
    now: bytes | None,
    compacted: Callable[[str, list[str]], set[str]] | None = None,
) -> list[str]:
    """The entry lines memrepo removed from ``rel`` after the save's base or in the last :data:`WINDOW_S` that
    ``now`` brings back.

    An editor's copy read before a forget (or an inbox accept, a dream's delete or move) still holds the
    entry; saving it adds the line back. A line HEAD also has is not revived, nor one only a hand edit
    removed (a user's own edits are theirs to undo).

    Args:
        history: the git store.
        rel: repo-relative path.
        committed: ``rel``'s bytes in HEAD (None: absent, such as a workspace file ``clear workspace`` deleted).
        now: its bytes on disk (None: deleted).
        compacted: which of the given lines memrepo removed in the window before a compaction erased the
            history (:func:`.forgotlines.forgotten`); None: the history alone.

    Returns:
        list[str]: the revived lines, in the save's order (empty for most edits: no history is read unless
        the save has an entry line HEAD lacks).
    """
    if now is None or committed == now:
        return []
    committed = committed or b""  # absent from HEAD: a save recreating a file memrepo deleted (B24-13)
    committed_lines = {text for text, _meta in _guarded_lines(committed, rel)}
    new = [text for text, _meta in _guarded_lines(now, rel) if text not in committed_lines]
    if not new:
        return []
    removed = _removed(history, rel, committed, now, new)
    if compacted is not None and any(text not in removed for text in new):
        removed = removed | compacted(rel, [text for text in new if text not in removed])
    return [text for text in new if text in removed]


def _removed(history: History, rel: str, committed: bytes, now: bytes, lines: list[str]) -> set[str]:
    """Which of ``lines`` (entry lines new in the save) memrepo's commits of the last :data:`WINDOW_S` removed, or
    its commits after the save's base, however old (:func:`_removed_after_base`).

    Most hand edits add a line, so this runs far more often than :func:`dropped_entries`' look: it finds the
    lines in each version's bytes instead of parsing every version (15-20 ms against 0.34-0.44 s for 168 commits of a
    110-line file in the hour).
    """
    key = _key(history, rel, committed, now)
    found = _removed_memo.get(key)
    if found is None:
        wanted = [(text, text.encode("utf-8", "surrogateescape")) for text in lines]
        found = set()
        gone: list[str] = []  # entry lines memrepo's commits removed outright (a forget), for the edits below
        for old, new, ours in history.recent_writes(rel, stalesave.WINDOW_S, stalesave.HISTORY_MAX):
            if not ours or not old:  # a `git commit` or merge by hand removes nothing of memrepo's to guard
                continue
            for text, raw in wanted:
                if text not in found and _holds_line(old, raw) and not (new and _holds_line(new, raw)):
                    found.add(text)
            if len(found) < len(wanted):
                gone += removed_outright(old, new)
        if len(found) < len(wanted):
            gone += _removed_after_base(history, rel, now, wanted, found)
        if gone and len(found) < len(wanted):
            found |= edits_of([text for text in lines if text not in found], gone, committed, now)
        trim_heap()
        if len(_removed_memo) >= 64:
            _removed_memo.clear()
        _removed_memo[key] = found
    return found


def _removed_after_base(
    history: History, rel: str, now: bytes, wanted: list[tuple[str, bytes]], found: set[str]
) -> list[str]:
    """Add to ``found`` the ``wanted`` lines memrepo's commits removed after the save's base, however long ago.

    The base is the newest version of ``rel`` whose commit added an entry line the save holds (as
    :func:`_look` finds it): the editor's copy had that text, so a line memrepo removed after it (a forget) was
    in the copy, and the save brings it back without the user's word, whatever the forget's age (breaker27
    B27-3: a vim left open over an hour undid a forget silently). A line memrepo removed before the base was not
    in the copy: a user who typed it again meant it. Looks at :data:`HISTORY_MAX` commits of ``rel`` at most;
    stops at the base (most saves: the newest commit).

    Returns:
        list[str]: the entry lines those commits removed outright, for :func:`.staleedits.edits_of`.
    """
    saved = {text.encode("utf-8", "surrogateescape") for text, _meta in _guarded_lines(now, rel)}
    gone: list[str] = []
    for old, new, kind, _when in history.file_writes(rel, stalesave.HISTORY_MAX):
        if new and kind != "put_back" and (_lines(new) - _lines(old)) & saved:  # a put-back's: the save's (B30-19)
            break  # the base: what this commit added was in the editor's copy
        if kind not in ("memrepo", "relink") or not old:  # a user's own edits are theirs to undo
            continue
        for text, raw in wanted:
            if text not in found and _holds_line(old, raw) and not (new and _holds_line(new, raw)):
                found.add(text)
        gone += removed_outright(old, new)
    return gone


def _holds_line(data: bytes, raw: bytes) -> bool:
    """Whether ``data`` has ``raw`` as one whole line (``\n`` or ``\r\n`` ended, or the last line)."""
    if raw not in data:
        return False
    return any(line.rstrip(b"\r") == raw for line in data.split(b"\n"))


_removed_memo: dict[tuple[str, str, bytes, bytes], set[str]] = {}
"""What :func:`_removed` found, by the same key (this process)."""
