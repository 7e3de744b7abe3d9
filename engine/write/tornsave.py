"""A save cut mid-write is never committed as a hand edit without the user's word (docs/architecture.md §3).

An editor that writes a file in place (truncate, then write) in two steps leaves the first half on disk for a
moment; when it pauses longer than the settle time (a loaded machine, a network file system), the half save
looks settled. Text an editor wrote half-way into a replaced file's old inode, merged by ``Writer.salvage``,
holds the same torn lines next to ``[conflict: ...]`` markers; an editor that reads it back saves it whole.
Such a save keeps most words of the entries it tears, so neither the count of entries nor the stale-save
look (:mod:`.stalesave`) sees a loss (breaker10 B10-6, B10-9). :func:`torn_lines` finds the lines no person
writes: an entry line new in the save that is

* cut inside its metadata (a ``[`` never closed: ``- Fact [by: user; added:``), or
* a proper prefix of an entry line of HEAD that carries metadata (``- Agent fact number 1 `` for
  ``- Agent fact number 1 about the build cache [by: user; ...]``), or
* either of these with a ``[conflict: <id>]`` marker memrepo's merge put after it,

and a last line without its newline in a save shorter than HEAD (which ended with one). Such a save is a
question; "put back" keeps the save's whole lines, leaves the torn ones out and puts back HEAD's entry lines
the save lacks (:func:`mend`).
"""

from __future__ import annotations

import re

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.entrylines import entry_lines
from memrepo.engine.format.merge import merge_entries, strip_conflict
from memrepo.engine.models import HandEditQuestion

_CONFLICT_MARK = re.compile(r"(?<!\s)\s*\[conflict: [0-9a-f]{8}\]\s*$")
_CONFLICT_ID = re.compile(r"conflict: ([0-9a-f]{8})\]\s*$")
_LINKS = re.compile(r"\[\[[^\[\]]*\]\]")
NAMED_MAX = 3
"""Torn lines a question names at most; the rest are counted."""


def _unclosed(text: str) -> bool:
    """Whether ``text`` (an entry line without its marker) has a ``[`` that no ``]`` closes after it."""
    bare = _LINKS.sub("", text)
    return bare.rfind("[") > bare.rfind("]")


def _lines(data: bytes) -> list[str]:
    """``data``'s lines without their endings (bytes that are not UTF-8 kept as surrogates)."""
    return [line.rstrip("\r") for line in data.decode("utf-8", "surrogateescape").split("\n")]


def torn_lines(rel: str, committed: bytes | None, now: bytes | None) -> list[str]:
    """The lines of ``now`` (``rel``'s save) that a write cut short, in file order; empty for a whole save.

    Args:
        rel: repo-relative path.
        committed: ``rel``'s bytes in HEAD (None: a new file: nothing to tear).
        now: its bytes on disk (None: deleted).

    Returns:
        list[str]: the torn lines (empty for most saves: only lines new against HEAD are looked at).
    """
    if committed is None or now is None or committed == now or not entry_lines(committed, rel):
        return []
    had = set(_lines(committed))
    cut_at_end = (
        committed.endswith(b"\n") and not now.endswith(b"\n") and len(now) < len(committed) and now.strip() != b""
    )
    last = len(_lines(now)) - 1
    with_meta: list[str] | None = None
    torn: list[str] = []
    for n, line in enumerate(_lines(now)):
        if line in had or not line.strip():
            continue
        if n == last and cut_at_end:
            torn.append(line)
            continue
        if fmt.parse_entry(line) is None:
            continue
        core = _CONFLICT_MARK.sub("", line).rstrip()
        if _unclosed(core):
            torn.append(line)
            continue
        if with_meta is None:
            with_meta = [x.text.rstrip("\r\n") for x in entry_lines(committed, rel) if x.entry and x.entry.meta]
        if any(full != core and full.startswith(core) for full in with_meta):
            torn.append(line)
    return torn


def torn_question(rel: str, committed: bytes, now: bytes, torn: list[str]) -> HandEditQuestion:
    """The question a save holding ``torn`` lines raises (docs/architecture.md §3)."""
    from .settle import bytes_seen, entry_count

    shown = ", ".join(f'"{line.strip()[:60]}"' for line in torn[:NAMED_MAX])
    more = f" and {len(torn) - NAMED_MAX} more" if len(torn) > NAMED_MAX else ""
    q = HandEditQuestion(
        path=rel,
        entries_before=entry_count(committed, rel) or 0,
        entries_now=entry_count(now, rel) or 0,
        seen=bytes_seen(now),
        torn=torn,
    )
    q.message = (
        f"{rel}: a save holds {len(torn)} line{'s' if len(torn) != 1 else ''} cut mid-write (a save caught "
        f"half-way?): {shown}{more}; memrepo keeps the committed text until you decide: "
        f"`memrepo commit-hand-edits --yes {rel}` commits the save as it is, "
        f"`memrepo commit-hand-edits --put-back {rel}` keeps the save's whole lines without the cut ones "
        "and puts back the committed entries it lacks"
    )
    return q


def mend(rel: str, committed: bytes, now: bytes) -> bytes:
    """``now`` without its torn lines (:func:`torn_lines`), with HEAD's entry lines it lacks put back where
    HEAD has them: what "put back" writes for a torn save.

    Raises:
        FormatError: a version is not text.
    """
    torn = set(torn_lines(rel, committed, now))
    # A whole line whose conflict partner (salvage's merge: the same ``conflict:`` id) was torn is no conflict.
    gone = {m.group(1) for line in torn for m in [_CONFLICT_ID.search(line)] if m}
    kept = []
    for raw in now.splitlines(keepends=True):
        line = raw.decode("utf-8", "surrogateescape")
        text = line.rstrip("\r\n")
        if text in torn:
            continue
        m = _CONFLICT_ID.search(text)
        if m and m.group(1) in gone:
            raw = (strip_conflict(text) + line[len(text) :]).encode("utf-8", "surrogateescape")
        kept.append(raw)
    whole = b"".join(kept)
    if whole and not whole.endswith(b"\n"):
        whole += b"\n"
    lacking = {x.text.rstrip("\r\n") for x in entry_lines(committed, rel)} - set(_lines(whole))
    # The base is HEAD without the lines the save lacks: the merge then keeps the save's own edits and
    # takes those lines back from HEAD.
    base = b"".join(
        line
        for line in committed.splitlines(keepends=True)
        if line.decode("utf-8", "surrogateescape").rstrip("\r\n") not in lacking
    )
    return merge_entries(base, committed, whole).data
