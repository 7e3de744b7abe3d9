"""An editor's stale save never drops entries memrepo wrote meanwhile without the user's word
(docs/architecture.md §3).

An editor that read a file before memrepo wrote an entry into it, then
saved its copy (a temp file renamed over the file), removes that entry. The
guard goes by the save's base, not by the clock: the newest version of the
file whose new entry lines the save holds is the version the editor read
(:func:`_look`). A hand edit that drops an entry memrepo committed after
that version is held like an emptied file, however long the editor kept
the file open (and one that drops an entry committed in the last
:data:`WINDOW_S` seconds when no base is found, or when the save is text
written into a replaced file's old inode): a question in ``status()``,
Health and the app, never a silent commit; the question names the entries.
A line the base already held is the user's to delete, however recent. The look goes back :data:`HISTORY_MAX` commits of the file
at most. The answer "put back" keeps the save and puts the dropped entries
back in it (:func:`.staleanswer.put_back`); "commit" commits the save as it is. An entry
the save rewrote (a line with the same metadata is new in it) counts as
edited, not dropped. A hand edit that removes entries memrepo wrote and is
committed names them in its commit body (:func:`removed_written`).

The same stale copy still holds the entries memrepo removed meanwhile (a
forget, an inbox entry accepted into another file, a dream's delete or
move): saving it brings them back. A hand edit that adds back an entry line
memrepo removed after the save's base (however long ago), or in the last :data:`WINDOW_S` seconds, is held the
same way (:func:`.stalerevived.revived_entries`); "put back" then keeps the save without them, so
an acknowledged forget is never undone silently.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import Protocol

from memrepo.engine.files.heap import trim_heap
from memrepo.engine.format.entries import is_link_line, parse_entry
from memrepo.engine.format.entrylines import entry_lines
from memrepo.engine.format.layout import MEMORY_MD

from .staleedits import edits_older, rewritten_lines

WINDOW_S = 3600.0
"""Entries memrepo removed this recently (seconds) are guarded against a stale save bringing them back, and
entries written this recently against any save dropping them, whatever version it looks read from."""
HISTORY_MAX = 200
"""Commits of the file looked through at most, newest first, however old (commits of other files do not
count): a save read from a version older than this is not found to drop what memrepo wrote before the look's
end (the "Hand edits" commit still names the lines it removed, when the look saw them added)."""


class History(Protocol):
    """What this needs of the git store (:meth:`memrepo.engine.git.history.GitHistory.recent_writes`)."""

    def recent_writes(
        self, path: str, within_s: float, limit: int
    ) -> list[tuple[bytes | None, bytes | None, bool]]: ...

    def file_writes(self, path: str, limit: int) -> Iterator[tuple[bytes | None, bytes | None, str, int]]: ...


def _entry_lines(data: bytes | None, rel: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Each entry line of ``data`` with its metadata; empty when ``data`` is None or not a memory file."""
    return [(line.text, tuple(line.entry.meta.items())) for line in entry_lines(data, rel) if line.entry is not None]


def _guarded_lines(data: bytes | None, rel: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """:func:`_entry_lines`, and for MEMORY.md its index lines too (``- [[topics/b]]``, no entry to the parser):
    a rename's relink is memrepo's change of them, which a stale copy must not undo silently (breaker10 B10-3)."""
    lines = _entry_lines(data, rel)
    if rel != MEMORY_MD or not data:
        return lines
    entries = {text for text, _meta in lines}
    out = []
    for raw in data.decode("utf-8", "surrogateescape").splitlines():
        line = raw.rstrip("\r")
        entry = parse_entry(line)
        if entry is not None and (line in entries or is_link_line(entry.text)):
            out.append((line, tuple(entry.meta.items())))
    return out


def dropped_entries(
    history: History, rel: str, committed: bytes | None, now: bytes | None, salvaged: bool = False
) -> list[str]:
    """The entry lines memrepo committed to ``rel`` after the version the save was read from that ``now`` drops.

    The save's base is the newest version of ``rel`` whose new entry lines the save holds (:func:`_look`): a
    line memrepo added after it was never in the editor's copy, so the save drops it without the user's
    word, however long the editor kept the file open. A line the base had is the user's to delete.

    Args:
        history: the git store.
        rel: repo-relative path.
        committed: ``rel``'s bytes in HEAD.
        now: its bytes on disk (None: deleted, a deliberate act: nothing is dropped).
        salvaged: ``now`` is text saved into a replaced file's old inode, merged in (``Writer.salvage``):
            entries committed in the last :data:`WINDOW_S` stay guarded whatever base it looks read from.

    Returns:
        list[str]: the dropped lines, in the committed file's order (empty for most edits: no history is read
        unless an entry line of HEAD is missing from the save).
    """
    look = _look(history, rel, committed, now, whole=False, salvaged=salvaged)
    return [] if look is None else look.dropped


def all_dropped(history: History, rel: str, committed: bytes | None, now: bytes | None) -> list[str]:
    """:func:`dropped_entries` when the save adds an entry line and every entry line of HEAD it lacks is dropped.

    A stale copy saved with a new line after memrepo wrote more entries than the file held when it was read loses
    most of the file's entries, all memrepo's newer lines: a stale save (put back merges them with the user's
    line), not a mass deletion whose put-back threw the user's line away (breaker17 B17-6; docs/architecture.md
    §3). A save that adds nothing stays a mass deletion: put back restores the same text either way.
    """
    before = {text for text, _meta in _guarded_lines(committed, rel)}
    after = {text for text, _meta in _guarded_lines(now, rel)}
    if not after - before:
        return []
    dropped = dropped_entries(history, rel, committed, now)
    return dropped if dropped and before - after <= set(dropped) else []


def dropped_with_own_deletion(history: History, rel: str, committed: bytes, now: bytes) -> list[str]:
    """:func:`dropped_entries` of a stale copy whose own edit deleted lines of the copy too, or empty.

    Judged as the user's edit of their copy (HEAD without memrepo's lines after the base): when the save keeps
    some of the copy and deletes some, and that edit is no mass deletion of the copy (:func:`.settle.question`),
    the save is a stale one that drops memrepo's newer lines: asked as such, and "put back" keeps the user's
    deletion (breaker28 B28-5: "lost 2 of its 3 entries", and put back brought the deleted line back). Only
    memrepo's newer lines lost is :func:`all_dropped`'s, or a cut of the newest lines, which reads the same
    (put back restores the same text either way): left a mass deletion.
    """
    from .settle import question

    dropped = dropped_entries(history, rel, committed, now)
    if not dropped:
        return []
    gone = set(dropped)
    copy = b"".join(
        line
        for line in committed.splitlines(keepends=True)
        if line.decode("utf-8", "surrogateescape").rstrip("\r\n") not in gone
    )
    kept, mine = {t for t, _m in _entry_lines(now, rel)}, {t for t, _m in _entry_lines(copy, rel)}
    if not (mine - kept and mine & kept) or question(rel, copy, now) is not None:
        return []
    return dropped


def removed_written(history: History, rel: str, committed: bytes | None, now: bytes | None) -> list[str]:
    """The entry lines memrepo wrote (in the last :data:`HISTORY_MAX` commits of ``rel``) that ``now`` removes.

    What a "Hand edits" commit names in its body, so that a deliberate removal of the agent's memory, or one
    the guard could not tell from it, shows in the log (docs/architecture.md §3).

    Returns:
        list[str]: the lines in the committed file's order; empty when ``now`` removes none (no history read).
    """
    look = _look(history, rel, committed, now)
    return [] if look is None else look.written


NOTE_LINES_MAX = 20
"""Removed lines a "Hand edits" commit body names at most (:func:`removed_note`); the rest are counted."""


def removed_note(history: History, changes: list[tuple[str, bytes | None, bytes | None]]) -> str:
    """The "Hand edits" commit body's paragraph naming the entry lines memrepo wrote that the edits remove.

    Args:
        history: the git store.
        changes: (repo-relative path, its bytes in HEAD, its bytes committed now) for each file.

    Returns:
        str: ``Removed entries memrepo wrote:`` and one indented ``path: line`` each (at most
        :data:`NOTE_LINES_MAX`, then ``and N more``); empty when the edits remove none.
    """
    named = [
        f"  {rel}: {line}" for rel, committed, now in changes for line in removed_written(history, rel, committed, now)
    ]
    if not named:
        return ""
    more = len(named) - NOTE_LINES_MAX
    shown = named[:NOTE_LINES_MAX] + ([f"  and {more} more"] if more > 0 else [])
    return "Removed entries memrepo wrote:\n" + "\n".join(shown)


class _Look:
    """What one look back found for one save against one commit (:func:`_look`)."""

    __slots__ = ("dropped", "whole", "written")

    def __init__(self, dropped: list[str], written: list[str], whole: bool = True) -> None:
        self.dropped = dropped
        self.written = written
        self.whole = whole  # written is complete (else only dropped is)


def _lines(data: bytes | None) -> set[bytes]:
    """``data``'s lines without their ``\n`` or ``\r\n`` (empty for None)."""
    return {line.rstrip(b"\r") for line in data.split(b"\n")} if data else set()


def _look(
    history: History,
    rel: str,
    committed: bytes | None,
    now: bytes | None,
    whole: bool = True,
    salvaged: bool = False,
) -> _Look | None:
    """Walk ``rel``'s versions back from HEAD to find the save's base and who added each entry line it lacks.

    Newest first, over at most :data:`HISTORY_MAX` commits of ``rel`` (commits of other files do not count,
    nor does their age). The base is the first version (newest) whose commit added an entry line the save
    holds: the editor's copy had that version's text. A "put back" answer's commit (``put_back``) is never the
    base: the lines it added are the stale save's own, so the same buffer saved again still drops what memrepo
    wrote after its copy (breaker30 B30-19). An entry line of HEAD the save lacks is dropped when
    a memrepo commit newer than the base added it, or any commit but a hand edit's in the last
    :data:`WINDOW_S` before the base is found (past the base only when ``salvaged``: text an editor wrote
    half-way into an old inode, merged with memrepo's newest line, holds that line and so looks read after
    it, though a write into an old inode comes from a copy older than memrepo's rename), and the save did
    not rewrite it (a new line with the same metadata that memrepo did not remove); with no base in the
    look, every such line memrepo added in it is. A line the base already held is the user's to delete,
    however recent (breaker8 B8-5). Lines are found in each version's bytes, not parsed (the save and HEAD
    are parsed once).

    Only ``whole`` looks go on past the base and the last :data:`WINDOW_S` to find which missing lines memrepo
    wrote (:attr:`_Look.written`, the commit body's note); what the save drops is known there. A save
    dropping an entry line of a file's first version walked every commit since, however many (at 20,000
    commits of a 2,000-file repo: 7.5 s under load, for no question).

    Returns:
        _Look | None: None when the save drops no entry line of HEAD (no history is read).
    """
    if committed is None or now is None or committed == now:
        return None
    before = _guarded_lines(committed, rel)
    kept = _guarded_lines(now, rel)
    kept_lines = {text for text, _meta in kept}
    missing = [(text, meta) for text, meta in before if text not in kept_lines]
    links_only = {text for text, _meta in before} - {text for text, _meta in _entry_lines(committed, rel)}
    if not missing:
        return None
    key = (*_key(history, rel, committed, now), salvaged)
    found = _look_memo.get(key)
    if found is not None and (found.whole or not whole):
        return found
    committed_lines = {text for text, _meta in before}
    raw = {text.encode("utf-8", "surrogateescape"): text for text, _meta in missing}
    saved = {text.encode("utf-8", "surrogateescape") for text in kept_lines}
    new_in_save = {text.encode("utf-8", "surrogateescape"): text for text in kept_lines - committed_lines}
    unresolved = set(raw)
    after_base: dict[str, int] = {}  # each line memrepo added after the base, with its age (larger: older)
    written: set[str] = set()
    removed: set[str] = set()
    relinked: set[str] = set()
    replaced: list[str] = []  # lines memrepo's commits after the base removed or rewrote (a --subject replace)
    based = False
    since = time.time() - WINDOW_S
    for old, new, kind, when in history.file_writes(rel, HISTORY_MAX):
        old_lines, new_lines = _lines(old), _lines(new)
        added = new_lines - old_lines
        # Past the base, only a salvaged save keeps the last hour guarded: its copy is stale by definition.
        recent = when >= since and kind not in ("hand_edit", "put_back") and (salvaged or not based)
        if kind == "relink":  # a rename's Move commit relinked MEMORY.md's index: memrepo's change of it
            relinked |= {raw[line] for line in added & unresolved}
            kind = "memrepo"
        if not based and added & saved and kind != "put_back":  # a put-back adds the save's own lines (B30-19)
            based = True  # the editor's copy had this version: what this commit added was in it
        for line in added & unresolved:
            unresolved.discard(line)
            if kind == "memrepo":
                written.add(raw[line])
            if (kind == "memrepo" and not based) or recent:
                after_base[raw[line]] = len(after_base)
        if kind == "memrepo" and (not based or recent):
            # A line memrepo removed is no rewrite of the line that replaced it (remember --subject, a
            # revise): the stale copy holds the old line, and the new one is dropped.
            removed |= {new_in_save[line] for line in (old_lines - new_lines) & new_in_save.keys()}
            replaced += [line.decode("utf-8", "surrogateescape") for line in old_lines - new_lines]
        if based and when < since and (not unresolved or not whole):
            break
    trim_heap()  # the versions read are freed: give their pages back (16 MB at 200 versions, .heap)
    # A new line is a rewrite of the line of HEAD with its metadata, unless it reads more as an edit of a line
    # memrepo replaced after the base: the stale copy's edit of the old value (B10-2), which drops the new one.
    dropped_like = [text for text, _meta in missing if text in after_base]
    # Each new line rewrites at most one line of HEAD with its metadata, the one it reads most like (B7-10).
    rewritten = rewritten_lines(
        [
            (text, meta)
            for text, meta in kept
            if text not in committed_lines
            and text not in removed
            and meta
            and not edits_older(text, replaced, dropped_like)
        ],
        list(missing),
        after_base,
    )
    found = _Look(
        # MEMORY.md's index lines are guarded only as a relink wrote them (B10-3), not as `init` did.
        dropped=[
            text
            for text, meta in missing
            if text in after_base and text not in rewritten and (text in relinked or text not in links_only)
        ],
        written=[text for text, _meta in missing if text in written],
        whole=whole,
    )
    if len(_look_memo) >= 64:
        _look_memo.clear()
    _look_memo[key] = found
    return found


def _key(history: History, rel: str, committed: bytes, now: bytes) -> tuple[str, str, bytes, bytes]:
    """The memo key of one save against one commit: the repo, the file and both versions' digests."""
    repo = str(getattr(history, "root", id(history)))  # another repo's history gives another answer
    return (repo, rel, hashlib.sha256(committed).digest(), hashlib.sha256(now).digest())


_look_memo: dict[tuple[str, str, bytes, bytes, bool], _Look] = {}
"""What :func:`_look` found, by repo, file and both versions' digests (this process): while a question is
held, writes to the file are refused, so every transaction of a long-lived process (the write server, the app)
would walk the history again (0.4 s at 2,400 commits, under the write lock)."""
