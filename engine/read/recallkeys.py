"""The recall index's keys and its on-disk layout (docs/architecture.md §4).

What an entry is indexed under (its index terms, and the index terms of its
context: the headings above it and its section's link-only bullets,
:mod:`memrepo.engine.read.recallrank`), its rank (recency, then ``by: user``),
the SQLite schema, the walk that finds indexable files, and the posting-list
changes gathered over one sync and written once per key. :mod:`memrepo.engine.read.recall` searches with them.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeVar

from memrepo.engine.errors import FormatError
from memrepo.engine.files.sqlitebusy import is_broken, is_busy
from memrepo.engine.files.sqlitefile import make_private
from memrepo.engine.format.layout import ARCHIVED, WORKSPACES
from memrepo.engine.format.layout import INBOX_MD as INBOX
from memrepo.engine.format.scratch import is_scratch_name

from .recallrank import CONTEXT_KEY, entry_index_terms

if TYPE_CHECKING:  # imported where used: a search that only reads the index needs neither (docs/architecture.md §4)
    from memrepo.engine.models import RecallHit


class Shown(Protocol):
    """What :func:`fit_hits` reads and trims of a hit (a :class:`~memrepo.engine.models.RecallHit` or a cold one)."""

    ref: str
    text: str
    section: str | None


H = TypeVar("H", bound=Shown)

WORKSPACES_DIR = f"{WORKSPACES}/"
ARCHIVED_DIR = f"{ARCHIVED}/"


def in_scope(path: str, ws: str | None, workspace_file: str | None, workspace_id: str | None) -> bool:
    """Whether an entry is in a scoped recall's scope (docs/architecture.md §4).

    Args:
        path: its file (repo-relative).
        ws: its own ``workspace:`` key, if any.
        workspace_file: the one workspace file kept (None keeps none).
        workspace_id: the one workspace a ``workspace:`` key may name.
    """
    if ws is not None and ws != workspace_id:
        return False
    return not path.startswith(WORKSPACES_DIR) or path == workspace_file


INDEX_FILE = "recall.sqlite"
"""The index's file name under ``.git/memrepo/``."""

PROGRESS_FILE = "recall-build.progress"
"""Under ``.git/memrepo/``: the files a first build has read so far, one decimal number (docs/architecture.md §4).

The index shows only committed batches (:data:`~memrepo.engine.read.recall.BUILD_BATCH_FILES` files each);
this count moves as the build reads. Written by :mod:`.recallbuild`, deleted when the build ends; read by
:func:`.recallbuilding.build_state`."""

DATE_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
HEADING_RE = re.compile(r"^(#{1,6})[ \t]")
EMPTY: frozenset[int] = frozenset()
SEQ_BITS = 32
SEQ_MASK = (1 << SEQ_BITS) - 1

SHOWN = "CREATE TABLE IF NOT EXISTS shown(id INTEGER PRIMARY KEY, epoch TEXT, text TEXT, meta TEXT);"
SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS info(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files(fid INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, mtime INTEGER, size INTEGER, hash BLOB);
CREATE TABLE IF NOT EXISTS items(id INTEGER PRIMARY KEY, fid INTEGER, line INTEGER, ws TEXT);
CREATE TABLE IF NOT EXISTS texts(fid INTEGER PRIMARY KEY, body BLOB);
CREATE TABLE IF NOT EXISTS post(
  key TEXT, part INTEGER, n INTEGER, ids BLOB, big INTEGER, PRIMARY KEY(key, part)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blobs(id INTEGER PRIMARY KEY, data BLOB);
"""
    + SHOWN
)
"""``files`` numbers each indexed file (``fid``); ``items`` holds what a scope check and a sort read of an entry (its
file, line, ``workspace:`` id); ``texts`` holds each file's entries (id, line, text, metadata JSON, context text) in
one packed row (:func:`memrepo.engine.read.recallpost.pack_entries`), and ``post`` each key's sorted ids packed
(:func:`~memrepo.engine.read.recallpost.pack_ids`) with their count ``n`` (a query reads a common term's weight
without its list; a list longer than :data:`~memrepo.engine.read.recallpost.INLINE_MAX` bytes is in ``blobs``,
row ``big``); a first build writes each batch's ids of a key as a ``part`` of its own and joins them at its
end, so a build killed midway keeps its batches (:func:`~memrepo.engine.read.recallpost.merge_all_parts`). ``shown`` keeps an item's text and metadata as a new process shows them (redacted, cleaned)
with the redaction ``epoch`` they were made in (:mod:`memrepo.engine.read.coldrecall`); a row goes with its item.
A sync that removes entries drops rows whose item is gone."""


@lru_cache(maxsize=4096)
def date_ordinal(value: str | None) -> int:
    """Days since year 0 of an ``added:`` value (``YYYY-MM-DD``), or 0 when missing or odd."""
    m = DATE_RE.match(value or "")
    if not m:
        return 0
    y, mo, d = (int(g) for g in m.groups())
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return 0
    return y * 372 + (mo - 1) * 31 + (d - 1)


def entry_rank(meta: dict[str, str]) -> int:
    """Recency and ``by: user`` packed in one int (bigger is better): ``added:`` day * 2 + (1 for user)."""
    by_user = 0 if meta.get("by", "user").strip().lower() == "agent" else 1
    return date_ordinal(meta.get("added")) * 2 + by_user


def entry_keys(text: str, context: str) -> set[str]:
    """The index keys of an entry: its index terms, and its context's prefixed with ``CONTEXT_KEY``.

    Args:
        text: the entry's text.
        context: its context text (headings above it, its section's link targets; may be empty).

    Returns:
        set[str]: every key whose posting list holds the entry (a context term the text holds too is left out).
    """
    keys = set(entry_index_terms(text))
    if context:
        keys.update(CONTEXT_KEY + t for t in _context_terms(context) if t not in keys)
    return keys


@lru_cache(maxsize=1024)
def _context_terms(context: str) -> frozenset[str]:
    """The index terms of a context text, remembered: the entries of one section share it."""
    return frozenset(entry_index_terms(context))


def is_workspace_file(path: str) -> bool:
    """True for a workspace file (``workspaces/…``), which a workspace scope may leave out."""
    return path.startswith(WORKSPACES_DIR)


def redacted(text: str) -> str:
    """``text`` with secrets written by hand replaced by ``[REDACTED:<type>]`` (docs/architecture.md §4).

    Remembered per text (until an allow-list changes), so a hit shown again costs nothing. Invisible
    characters a hand edit left (tag characters, zero-width, a stray U+FEFF) never reach an agent.
    """
    from memrepo.engine.format.cleantext import clean_in
    from memrepo.engine.redaction import redact_text

    return redact_text(clean_in(text))


def has_phrase(text: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` on word boundaries (both folded).

    An ASCII letter or digit at an edge of the phrase must not touch another
    one in the text ("cat dog" is not in "concat dogma"); CJK has no word
    boundaries, so a CJK edge matches anywhere.
    """
    start = text.find(phrase)
    while start >= 0:
        end = start + len(phrase)
        before_ok = start == 0 or not (phrase[0].isascii() and phrase[0].isalnum() and text[start - 1].isalnum())
        after_ok = end == len(text) or not (phrase[-1].isascii() and phrase[-1].isalnum() and text[end].isalnum())
        if before_ok and after_ok:
            return True
        start = text.find(phrase, start + 1)
    return False


class FileStat(NamedTuple):
    """What recall reads of a file's stat, named as :class:`os.stat_result` names it.

    A walk of 20,000 files kept whole ``os.stat_result`` objects (about 840 bytes each in Python, 17 MB); these
    four fields take about 190 bytes (measured with tracemalloc: benchmarks/bench_rss.py).
    """

    st_mtime_ns: int
    st_size: int
    st_ctime_ns: int
    st_ino: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileStat:
        """The fields of ``st``."""
        return cls(st.st_mtime_ns, st.st_size, st.st_ctime_ns, st.st_ino)


def walk(root: Path, folders: list[str] | None = None) -> dict[str, FileStat]:
    """Every indexable markdown file under ``root`` with its stat (dot names, ``archived/`` and symlinks skipped).

    Args:
        root: the work tree.
        folders: when given, each folder walked (``""`` for the root, else ``a/b/``) is appended.
    """
    found: dict[str, FileStat] = {}
    stack = [(str(root), "")]
    while stack:
        folder, prefix = stack.pop()
        if folders is not None:
            folders.append(prefix)
        try:
            it = os.scandir(folder)
        except OSError:
            continue
        with it:
            for de in it:
                name = de.name
                if name.startswith("."):
                    continue  # .git, editors' scratch files, our temp files
                try:
                    # No scratch name ends in ".md" without a leading dot (tests/recall checks it): a file
                    # so named needs no look at the scratch rule, the hot case of a large folder.
                    if name.endswith(".md") and de.is_file(follow_symlinks=False):
                        st = de.stat(follow_symlinks=False)
                        found[prefix + name] = FileStat(st.st_mtime_ns, st.st_size, st.st_ctime_ns, st.st_ino)
                    elif de.is_dir(follow_symlinks=False) and not is_scratch_name(name):
                        rel = prefix + name + "/"
                        if rel != ARCHIVED_DIR:
                            stack.append((de.path, rel))
                except OSError:
                    continue
    return found


def folder_stamps(root: Path, folders: list[str]) -> str:
    """The mtime of each folder of a walk, one string: equal strings, no file was added, removed or renamed.

    A write through the writer replaces its file by a rename, which moves its
    folder's mtime; an edit made in place moves only the file's
    (docs/architecture.md §4, the prompt hook's check).
    """
    out = []
    for rel in folders:
        try:
            out.append(f"{rel}\t{os.stat(os.path.join(root, rel)).st_mtime_ns}")
        except OSError:
            out.append(f"{rel}\t-")
    return "\n".join(out)


def stamps_of(found: dict[str, FileStat]) -> str:
    """One string of every file's path, mtime and size, in walk order: equal strings, no file changed.

    A new process compares it with the one stored at the last sync instead of
    reading every file's row (docs/architecture.md §4); another order of the
    same files only costs that comparison.
    """
    return "\n".join([f"{rel}\t{st.st_mtime_ns}\t{st.st_size}" for rel, st in found.items()])


def changed_since(stored: str, stamps: str, found: dict[str, FileStat]) -> dict[str, FileStat | None] | None:
    """The files whose stamp line differs between two :func:`stamps_of` strings, without reading any row.

    Exact only while the stored string matches the index's rows, which the index
    keeps true: a full sync stores it, and any other re-read removes it
    (docs/architecture.md §4).

    Args:
        stored: the string of the last full sync.
        stamps: ``stamps_of(found)``, now.
        found: the walk ``stamps`` was made of.

    Returns:
        dict | None: each changed or new file with its stat, and each file gone
        with None; None when a path holds a tab or a newline (the lines cannot
        be split: read the rows instead).
    """
    lines = stamps.split("\n")
    if len(lines) != len(found) or stamps.count("\t") != 2 * len(found):
        return None
    old = stored.split("\n")
    if stored.count("\t") != 2 * len(old):
        return None
    before = set(old)
    todo: dict[str, FileStat | None] = {
        rel: st for line, (rel, st) in zip(lines, found.items(), strict=True) if line not in before
    }
    now = set(lines)
    for line in old:
        if line not in now:
            rel = line.rsplit("\t", 2)[0]
            if rel not in found:
                todo[rel] = None
    return todo


MAX_INDEXED_FILE = 1 << 20
"""Files larger than this (bytes) are not indexed (a memory file is at most 64 KB by the format)."""


def index_path(root: Path) -> Path:
    """Where the recall index of the repo at ``root`` is kept: ``.git/memrepo/recall.sqlite``."""
    return Path(root) / ".git" / "memrepo" / INDEX_FILE


BUSY_TIMEOUT_S = 30.0
"""How long (seconds) a connection waits for another process's lock on the index file before SQLITE_BUSY."""


def connect(target: str) -> sqlite3.Connection:
    """The index file's connection; the file (and the journal SQLite gives its mode) readable by its owner only.

    It holds entries' redacted text, but still the whole memory's words (docs/architecture.md §4).
    """
    if target != ":memory:":
        make_private(target)  # by path: a descriptor closed here would drop this process's locks on it
    db = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
    # Deleted rows are overwritten with zeros, so forgotten text leaves no byte in the file; the
    # rollback journal (deleted at commit) is the one other place pages go.
    db.execute("PRAGMA secure_delete=ON")
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA cache_size=-8000")  # 8 MB of page cache at most
    return db


SCHEMA_VERSION = "10"
"""Bumped when the tables or what they hold change (6: packed entries and postings; 7: Hangul cut into
bigrams; 8: a ``[REDACTED:<type>]`` ending a line is text, not metadata; 9: an entry's context keeps its
headings on a line of their own, so a heading alone never answers; 10: an entry also holds its acronym plurals'
singulars and its umlaut words' ae/oe/ue spellings); an index of another version is rebuilt."""


def check_schema(db: sqlite3.Connection, version: str) -> bool | None:
    """Create the tables or check their ``version``: None when usable, False when the file must be rebuilt.

    Raises:
        sqlite3.OperationalError: the file was busy (:func:`is_busy`) or gave a passing error (an I/O error): in use
            or maybe fine, neither usable now nor to be rebuilt (:func:`is_broken` says which errors rebuild).
    """
    try:
        row = None
        try:
            row = db.execute("SELECT v FROM info WHERE k='version'").fetchone()
        except sqlite3.OperationalError as exc:  # no info table yet, unless another process holds the file
            if is_busy(exc):
                raise
        if row is not None:
            if row[0] != version:
                return False
            return None
        db.executescript(
            "BEGIN IMMEDIATE;"
            + SCHEMA
            + f"INSERT OR IGNORE INTO info VALUES('version', '{version}');"
            + "INSERT OR IGNORE INTO info VALUES('seq', 0);"
            + "INSERT OR IGNORE INTO info VALUES('count', 0);"
            + "COMMIT;"
        )
        return None
    except sqlite3.DatabaseError as exc:
        if not is_broken(exc):
            raise  # busy, or a passing error (I/O, a full disk): the file may be fine, and others may hold it
        return False


def hit_score(key: tuple) -> float:
    """The score people see for a sort key ``(score, confidence, rank)`` (bigger is better)."""
    return round(float(key[0]), 4)


def hit_confidence(key: tuple) -> float:
    """The confidence (0..1) of a sort key ``(score, confidence, rank)`` (:mod:`.recallrank`)."""
    return round(float(key[1]), 4)


def hit_by(meta: dict[str, str]) -> str:
    """``agent`` for an entry written ``by: agent``, else ``user``."""
    return "agent" if meta.get("by", "user").strip().lower() == "agent" else "user"


def to_hit(
    root: Path, path: str, line: int, text: str, meta_json: str, key: tuple, detail: str, max_lines: int
) -> RecallHit:
    """One search result as a :class:`~memrepo.engine.models.RecallHit`, redacted on the way out.

    Args:
        root: the work tree (a ``full`` hit reads its section from the file).
        path, line, text, meta_json: the item's row.
        key: its sort key ``(score, confidence, rank)``.
        detail: ``"line"`` for the entry alone, ``"full"`` to add the section around it.
        max_lines: at most this many lines of section.

    Returns:
        RecallHit: the hit; ``section`` is None for ``detail="line"`` or when
        the file can no longer be read.
    """

    from memrepo.engine.models import RecallHit

    meta = json.loads(meta_json)
    score = hit_score(key)
    section = heading = None
    if detail == "full":
        heading, section = section_around(root, path, line, max_lines)
        if section is not None:
            section = redacted(section)  # whole: a private key's body spans lines
    return RecallHit(
        ref=f"repo:{path}#L{line}",
        path=path,
        line=line,
        text=redacted(text),
        by=hit_by(meta),
        meta={k: redacted(v) for k, v in meta.items()},
        score=score,
        confidence=hit_confidence(key),
        unreviewed=path == INBOX,
        heading=heading,
        section=section,
    )


def section_around(root: Path, rel: str, line: int, max_lines: int) -> tuple[str | None, str | None]:
    """The heading above ``line`` and up to ``max_lines`` lines of its section.

    Lines are cut exactly as the entry parser cuts them (``\n`` and
    ``\r\n`` only, a BOM dropped), so line numbers agree with refs.
    """
    from memrepo.engine.files.regularfile import read_work_file
    from memrepo.engine.format import entries as fmt

    try:
        lines = [ln.text for ln in fmt.parse(read_work_file(root / rel), rel).lines]
    except (OSError, FormatError):
        return None, None
    if not 1 <= line <= len(lines):
        return None, None
    idx = line - 1
    start, heading, level = 0, None, 7
    for i in range(idx, -1, -1):
        m = HEADING_RE.match(lines[i])
        if m:
            start, heading, level = i, lines[i].strip(), len(m.group(1))
            break
    end = len(lines)
    for i in range(idx + 1, len(lines)):
        m = HEADING_RE.match(lines[i])
        if m and len(m.group(1)) <= level:
            end = i
            break
    if end - start > max_lines:  # centre the window on the hit, inside the section
        lo = max(start, idx - max_lines // 2)
        hi = min(end, lo + max_lines)
        start, end = max(start, hi - max_lines), hi
    return heading, "\n".join(lines[start:end])


def fit_hits(hits: list[H], max_bytes: int) -> list[H]:
    """The hits that fit in ``max_bytes`` UTF-8 bytes of ref, text and section, best first (docs/architecture.md §4).

    Each hit's section gets its share of the bytes (the lines nearest the hit
    are kept); a hit that does not fit is left out and a shorter one further
    down may still fit.

    Args:
        hits: the hits, best first.
        max_bytes: the budget (bytes; a negative one is 0).

    Returns:
        list: the hits kept, in order, their sections trimmed in place.
    """
    budget = max(int(max_bytes), 0)
    share = budget // max(len(hits), 1)
    out: list[H] = []
    for hit in hits:
        size = len(hit.ref.encode()) + len(hit.text.encode("utf-8", "replace"))
        if hit.section is not None:  # keep the lines nearest the hit that fit
            lines = hit.section.split("\n")
            while lines and size + len("\n".join(lines).encode("utf-8", "replace")) > min(share, budget):
                lines = lines[1:] if len(lines) % 2 else lines[:-1]
            hit.section = "\n".join(lines) if lines else None
            size += len((hit.section or "").encode("utf-8", "replace"))
        if size > budget:
            continue
        budget -= size
        out.append(hit)
    return out
