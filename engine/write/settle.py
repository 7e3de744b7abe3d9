"""Hand edits are committed only when settled and plausible (docs/architecture.md §3).

A file is *settled* when its size and mtime have stayed the same for
:data:`SETTLE_QUIET` seconds: a save in progress (an editor writing over a
slow link, ``slow_command > MEMORY.md``) is waited for, never committed or
built on half-way. A settled edit is *plausible* unless it emptied the file
or removed most of its entries at once; such an edit is a question for the
user (:class:`.models.HandEditQuestion`), never an automatic commit.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from memrepo.engine.errors import FormatError
from memrepo.engine.files.oldinode import wait_still
from memrepo.engine.files.regularfile import utf8_error_at
from memrepo.engine.format import entries as fmt
from memrepo.engine.models import HandEditQuestion

SETTLE_QUIET = 0.3
"""Seconds a file's size and mtime must stay the same before its edit counts as saved."""
SETTLE_LIMIT = 3.0
"""Seconds to wait at most for a file that keeps changing; then it counts as mid-save."""
MIN_ENTRIES = 3
"""A file with fewer committed entries than this may lose them all without a question (except becoming empty)."""
LOST_SHARE = 0.5
"""Losing more than this share of the committed entries in one save is a question."""


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def wait_settled(path: Path, quiet: float = SETTLE_QUIET, limit: float = SETTLE_LIMIT) -> bool:
    """Wait until ``path``'s size and mtime have not changed for ``quiet`` seconds; False after ``limit``.

    A file last changed longer than ``quiet`` ago (the usual case) returns at
    once. A missing file is settled.
    """
    return wait_still(lambda: _stamp(path), quiet, limit)


def appended(committed: bytes | None, now: bytes | None) -> bool:
    """True when ``now`` is ``committed`` plus whole lines: an append that is complete, nothing to wait for."""
    return (
        committed is not None
        and now is not None
        and len(now) > len(committed)
        and now.startswith(committed)
        and now.endswith(b"\n")
    )


def entry_count(data: bytes, path: str) -> int | None:
    """How many entries ``data`` (``path``'s bytes) holds; None when it is not a memory file's text."""
    try:
        return len(fmt.parse(data, path).entries())
    except FormatError:
        return None


def question(path: str, committed: bytes | None, now: bytes | None) -> HandEditQuestion | None:
    """The question a hand edit of ``path`` raises, or None when it may be committed without asking.

    Args:
        path: repo-relative path.
        committed: its bytes in HEAD (None: a new file).
        now: its bytes on disk (None: deleted, a question like an emptied file when it held entries,
            and always for MEMORY.md, the entry point).
    """
    if committed is None or committed == now:
        return None
    if now is None:
        return deleted(path, committed)
    bad = not_text(now)
    if bad is not None and entry_count(committed, path) is not None:
        return unreadable(path, committed, now, bad)
    before = entry_count(committed, path)
    emptied = now.strip() == b"" and committed.strip() != b""
    if not before and not emptied:
        # An emptied file is a question even with no entries (a header only): most often an editor
        # caught between creating the file and writing it (vim renames the old one aside, creates
        # the new one, writes it), and committing that made a second "Hand edits" commit.
        return None
    after = entry_count(now, path)
    if after is None:
        return None
    before = before or 0  # None: HEAD's text did not parse, but it was not empty
    if emptied or (before >= MIN_ENTRIES and before - after > before * LOST_SHARE):
        q = HandEditQuestion(
            path=path, entries_before=before, entries_now=after, empty=now.strip() == b"", seen=bytes_seen(now)
        )
        q.message = describe(q)
        return q
    return None


DELETED_SEEN = b"\0deleted\0"
"""What a deleted file's question hashes as its version (:func:`bytes_seen`): no file's bytes share it."""


def deleted(path: str, committed: bytes) -> HandEditQuestion | None:
    """The question a deleted ``path`` raises: it held entries (or is MEMORY.md); None for an empty file.

    Deleting a file is the largest edit that removes entries: like emptying
    it, a question, never an automatic commit (docs/architecture.md §3).
    """
    before = entry_count(committed, path)
    if path != "MEMORY.md" and (before == 0 or committed.strip() == b""):
        return None  # a header only: no entry is lost (None: not text, but not empty: asked)
    q = HandEditQuestion(
        path=path, entries_before=before or 0, entries_now=0, empty=True, deleted=True, seen=bytes_seen(DELETED_SEEN)
    )
    q.message = describe(q)
    return q


NL = b"\n"


def not_text(data: bytes) -> str | None:
    """Why ``data`` is no memory file's text (``byte 2993, line 54``), or None when it is UTF-8 text."""
    if b"\x00" in data:
        at = data.index(b"\x00")
        return f"a NUL byte at byte {at}, line {data.count(NL, 0, at) + 1}"
    return utf8_error_at(data)


def unreadable(path: str, committed: bytes, now: bytes, where: str) -> HandEditQuestion:
    """The question a save that is not UTF-8 text raises (an editor set to Latin-1, a binary paste).

    Nothing was dropped, the file stopped being text: the question says so, not "drops N entries"
    (docs/architecture.md §3). Recall still reads it with the bad bytes replaced.
    """
    before = entry_count(committed, path) or 0
    q = HandEditQuestion(path=path, entries_before=before, entries_now=before, not_text=where, seen=bytes_seen(now))
    q.message = (
        f"{path} is not UTF-8 text ({where}): save it as UTF-8 (e.g. `iconv -f latin1 -t utf-8`); "
        f"memrepo keeps the committed text until then: `memrepo commit-hand-edits --yes {path}` commits it as "
        f"it is, `memrepo commit-hand-edits --put-back {path}` puts the committed text back"
    )
    return q


def bytes_seen(data: bytes) -> str:
    """A hash of a file's bytes (32 hex digits, 128 bits): which version of a file a question was about.

    As long as an inbox line's seen token (docs/architecture.md §3): no other version can be made to share it.
    """
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def describe(q: HandEditQuestion) -> str:
    """One line saying what the edit did and how to answer."""
    if q.deleted:
        return (
            f"{q.path} was deleted ({q.entries_before} {'entry' if q.entries_before == 1 else 'entries'}); memrepo keeps the committed text until you decide: "
            f"`memrepo commit-hand-edits --yes {q.path}` commits the deletion, "
            f"`memrepo commit-hand-edits --put-back {q.path}` puts the file back"
        )
    what = "is empty" if q.empty else f"lost {q.entries_before - q.entries_now} of its {q.entries_before} entries"
    return (
        f"{q.path} {what} in one save; memrepo keeps the committed text until you decide: "
        f"`memrepo commit-hand-edits --yes {q.path}` commits the edit, "
        f"`memrepo commit-hand-edits --put-back {q.path}` puts the committed text back"
    )
