"""The workspace map kept beside the recall index: which workspace each ``workspaces/*.md`` file names.

A workspace file names its workspace in one of its first entries
(``workspace: ws-…``, docs/architecture.md §2). Resolving a workspace by id
or name used to read the head of every workspace file in every new process;
this map keeps, per file, its stamp (mtime and size) and what its first
entries say, in ``.git/memrepo/workspaces.sqlite``. A look-up stats the
folder's files and re-reads only those whose stamp moved, so a new process
resolves a workspace without parsing any file that did not change; when the
stamps of all files, as one string, equal those stored at the last change,
it reads no row either.

It holds only what the files' first entries say (an id, a folder path, the
entry's text), which forgetting or clearing a workspace entry changes on
disk, and so here at the next look-up; compaction scrubs it
(:func:`scrub_workspace_map`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from memrepo.engine.errors import FormatError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.files.sqlitebusy import is_broken, is_busy
from memrepo.engine.files.sqlitefile import make_private
from memrepo.engine.format.entrytext import clean_text

MAP_FILE = "workspaces.sqlite"
"""The map's file name in ``.git/memrepo/``."""

WORKSPACES_DIR = "workspaces"
HEAD_BYTES = 2048
"""How much of a file's start is read for its first entries (as the resolver always read it)."""

_VERSION = "3"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS info(k TEXT PRIMARY KEY, v) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS ws(name TEXT PRIMARY KEY, mtime INTEGER, size INTEGER, link INTEGER,"
    " id TEXT, path TEXT, text TEXT, stem_key TEXT, label_key TEXT, bare_key TEXT, remote TEXT) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS ws_stem ON ws(stem_key);"
    "CREATE INDEX IF NOT EXISTS ws_label ON ws(label_key);"
    "CREATE INDEX IF NOT EXISTS ws_bare ON ws(bare_key);"
    "CREATE INDEX IF NOT EXISTS ws_remote ON ws(remote);"
)


def name_key(text: str) -> str:
    """A workspace name as names are compared (docs/architecture.md §2): NFC, spaces collapsed, case-folded."""
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def _keys(name: str, text: str | None) -> tuple[str, str | None, str | None]:
    """(file stem, first entry's name, that name without "workspace ") as :func:`name_key` folds them."""
    stem = name.removesuffix(".md").casefold()
    if text is None:
        return stem, None, None
    label = name_key(clean_text(text))
    return stem, label, label.removeprefix("workspace ")


BUSY_TIMEOUT_S = 30.0
"""How long a connection waits for another process's lock on the map's file (seconds)."""
_open_maps: dict[str, WorkspaceMap] = {}
_open_lock = threading.Lock()
FULL_CHECK_S = 60.0
"""While :func:`folder_stamp_trusted`, a look-up stats every file at most this often (seconds) when the
``workspaces/`` folder itself did not change (no file added, removed or saved by renaming)."""
_trusted = threading.local()


@contextlib.contextmanager
def folder_stamp_trusted() -> Iterator[None]:
    """Within the block (this thread), look-ups trust an unchanged ``workspaces/`` folder (docs/architecture.md §4).

    Statting every workspace file costs 0.2 s at 50,000 files, for each new ``memrepo context``. A file
    added, removed or replaced by a rename (memrepo's writes, most editors' saves) changes the folder's
    mtime; so when the folder's inode and mtime are those of the last full check, made less than
    :data:`FULL_CHECK_S` ago, no file is statted but the one a look-up answers with (checked against its
    row). What this can miss for up to a minute: an in-place edit of another file's first entries.
    """
    before = getattr(_trusted, "on", False)
    _trusted.on = True
    try:
        yield
    finally:
        _trusted.on = before


def _folder_stamp(folder: Path) -> str | None:
    """The folder's inode and mtime as one string, or None when it cannot be statted."""
    try:
        st = os.stat(folder, follow_symlinks=False)
    except OSError:
        return None
    return f"{st.st_ino}:{st.st_mtime_ns}"


def first_workspace_entry(data: bytes, name: str) -> tuple[str, str | None, str, str | None] | None:
    """(``workspace:`` value, ``path:`` value or None, entry text, ``remote:`` value or None) of the first of
    a file's first three entries that names a workspace, read from the file's first :data:`HEAD_BYTES`
    bytes; None if none does."""
    head = data[:HEAD_BYTES]
    try:
        from memrepo.engine.format import entries as fmt  # here: a look-up with no file changed parses nothing

        parsed = fmt.parse(head.rsplit(b"\n", 1)[0] if len(head) == HEAD_BYTES else head, name)
    except FormatError:
        return None
    for _, entry in parsed.entries()[:3]:
        ws_id = entry.meta.get("workspace")
        if ws_id:
            return ws_id, entry.meta.get("path") or None, entry.text, entry.meta.get("remote") or None
    return None


def _same_head(path: Path, row: tuple[str, str | None, str | None, str | None], link: int) -> bool:
    """Whether the file's first workspace entry is still the row's (id, ``path:``, text): then the row is
    right but for the file's stat, and only this file was read (an append, an edit below its head).

    Nothing is written: the row keeps its old stat, so the next look-up reads this head again (one small
    read) until a full refresh records the new stat (docs/architecture.md §4: context after its own file
    changed re-reads that file alone, not every workspace file's stat).
    """
    try:
        if int(path.is_symlink()) != link:
            return False  # turned symlink or back: the full check decides
        found = first_workspace_entry(read_work_file(path, HEAD_BYTES), path.name)
    except OSError:
        return False
    return found is not None and found[:3] == row[:3] and (found[3] is None or found[3] == row[3])


class WorkspaceMap:
    """The map of one repo's ``workspaces/`` folder; use :func:`workspace_map` to get the shared one.

    Args:
        root: the memory repo's work tree.
        path: the map's file; ``":memory:"`` keeps it in memory (also used
            when ``.git/memrepo`` cannot be written).
    """

    def __init__(self, root: Path, path: str | None = None) -> None:
        self.root = Path(root)
        self.path = path or str(self.root / ".git" / "memrepo" / MAP_FILE)
        self._lock = threading.Lock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        for target in (self.path, self.path, ":memory:"):
            db = None
            try:
                if target != ":memory:":
                    Path(target).parent.mkdir(parents=True, exist_ok=True)
                    make_private(target)  # owner only (§4); by path, so no lock of this process is dropped
                db = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
                db.execute("PRAGMA secure_delete=ON")
                row = None
                with contextlib.suppress(sqlite3.OperationalError):
                    row = db.execute("SELECT v FROM info WHERE k='version'").fetchone()
                if row is None:
                    db.executescript(
                        f"BEGIN IMMEDIATE;{_SCHEMA}INSERT OR IGNORE INTO info VALUES('version', '{_VERSION}');COMMIT;"
                    )
                    row = (_VERSION,)
                if row[0] == _VERSION:
                    self.path = target
                    return db
            except sqlite3.OperationalError as exc:
                if is_busy(exc) and target != ":memory:":
                    # Another process holds the file (longer than the timeout): it is a map in use, never
                    # ours to delete. Deleting it (and its journal) under that process's transaction
                    # left its writes going to an unlinked file or a torn one; this process uses memory.
                    if db is not None:
                        db.close()
                    return self._open_memory()
                broken = is_broken(exc)  # any other error (I/O, a full disk) may pass: the file is kept
            except sqlite3.Error as exc:
                broken = is_broken(exc)
            except OSError:
                broken = False
            else:
                broken = True  # another version
            if db is not None:
                db.close()
            if target != ":memory:" and broken:  # not a database, or another version: start again
                with contextlib.suppress(OSError):
                    os.unlink(target)
        raise AssertionError("unreachable: an in-memory database always opens")

    def _open_memory(self) -> sqlite3.Connection:
        """A map in memory for this process alone (the file is busy in another one)."""
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}INSERT OR IGNORE INTO info VALUES('version', '{_VERSION}');COMMIT;")
        self.path = ":memory:"
        return db

    def refresh(self, quick: bool = False) -> int:
        """Stat every ``workspaces/*.md`` file; re-read those whose stamp moved, drop those gone.

        Args:
            quick: read nothing while the folder's mtime is the one of the last
                refresh (a file added, removed or replaced by the writer moves it;
                an edit in place is seen by the next full refresh).

        Returns:
            int: how many files were re-read or dropped.
        """
        folder = self.root / WORKSPACES_DIR
        folder_stamp = _folder_stamp(folder)  # before the scan: a change during it makes the next look-up check
        if folder_stamp is not None and (quick or getattr(_trusted, "on", False)):
            with self._lock:
                kept_folder = self._db.execute("SELECT v FROM info WHERE k='folder'").fetchone()
            if kept_folder is not None:
                stamp, _, at = str(kept_folder[0]).partition("@")
                with contextlib.suppress(ValueError):
                    # The prompt hook (quick) trusts an unchanged folder; a trusted reader for FULL_CHECK_S.
                    if stamp == folder_stamp and (quick or 0 <= time.time() - float(at) < FULL_CHECK_S):
                        return 0
        seen: dict[str, tuple[int, int, int]] = {}
        if folder.is_dir() and not folder.is_symlink():  # never through a link out of the repo
            with contextlib.suppress(OSError), os.scandir(folder) as it:
                for de in it:
                    if not de.name.endswith(".md"):
                        continue
                    try:
                        st = de.stat()  # a symlinked file is stamped by its target, as it is read
                        if not de.is_dir():
                            seen[de.name] = (st.st_mtime_ns, st.st_size, int(de.is_symlink()))
                    except OSError:
                        continue
        stamps = "\n".join([f"{name}\t{m}\t{s}\t{link}" for name, (m, s, link) in seen.items()])
        with self._lock:
            db = self._db
            if folder_stamp is not None:
                with contextlib.suppress(sqlite3.Error):  # only a shortcut for the next look-up
                    db.execute("INSERT OR REPLACE INTO info VALUES('folder', ?)", (f"{folder_stamp}@{time.time()}",))
            kept = db.execute("SELECT v FROM info WHERE k='stamps'").fetchone()
            if kept is not None and kept[0] == stamps:
                return 0  # every file as its row was made: no row read (docs/architecture.md §4)
            known = {name: (m, s, link) for name, m, s, link in db.execute("SELECT name, mtime, size, link FROM ws")}
            gone = [name for name in known if name not in seen]
            todo = [name for name, stamp in seen.items() if known.get(name) != stamp]
            if not gone and not todo:
                with contextlib.suppress(sqlite3.Error):  # only a shortcut for the next look-up
                    db.execute("INSERT OR REPLACE INTO info VALUES('stamps', ?)", (stamps,))
                return 0
            rows = []
            for name in todo:
                found = None
                with contextlib.suppress(OSError):  # never blocks on a FIFO (docs/architecture.md §3)
                    found = first_workspace_entry(read_work_file(folder / name, HEAD_BYTES), name)
                ws_id, path, text, remote = found or (None, None, None, None)
                if ws_id is not None and path and remote is None:  # learnt from the folder; kept once it is gone
                    old = db.execute("SELECT remote FROM ws WHERE name=? AND id=? AND path=?", (name, ws_id, path))
                    remote = _folder_remote(path) or next(iter(old.fetchone() or ()), None)
                rows.append((name, *seen[name], ws_id, path, text, *_keys(name, text), remote))
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany("DELETE FROM ws WHERE name=?", [(n,) for n in gone])
                db.executemany("INSERT OR REPLACE INTO ws VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
                db.execute("INSERT OR REPLACE INTO info VALUES('stamps', ?)", (stamps,))
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise
            return len(gone) + len(todo)

    def ids(self) -> dict[str, str]:
        """Workspace id -> its file (``workspaces/x.md``; the first by name when two name one id), fresh."""
        self.refresh()
        out: dict[str, str] = {}
        with self._lock:
            for name, ws_id in self._db.execute("SELECT name, id FROM ws WHERE id IS NOT NULL ORDER BY name"):
                out.setdefault(ws_id, f"{WORKSPACES_DIR}/{name}")
        return out

    def duplicates(self) -> dict[str, list[str]]:
        """Workspace id -> its files, for each id two or more files name (by name), fresh: one workspace
        split in two (breaker7 B7-21), of which only the first reaches context and recall."""
        self.refresh()
        out: dict[str, list[str]] = {}
        with self._lock:
            for name, ws_id in self._db.execute("SELECT name, id FROM ws WHERE id IS NOT NULL ORDER BY name"):
                out.setdefault(ws_id, []).append(f"{WORKSPACES_DIR}/{name}")
        return {ws_id: files for ws_id, files in out.items() if len(files) > 1}

    def file_of(self, ws_id: str, quick: bool = False) -> str | None:
        """The file of workspace ``ws_id`` (the first by name when two name it), fresh; None when none does.

        ``quick``: as for :meth:`refresh`. The file answered with is statted against its row: when it
        changed, its head is read again; only when that no longer names the workspace as its row says is
        every file checked again.
        """
        if quick:
            self.refresh(quick=True)
        else:
            self.refresh()
        for _ in range(2):
            with self._lock:
                row = self._db.execute(
                    "SELECT name, mtime, size, link, path, text, remote FROM ws WHERE id=? ORDER BY name LIMIT 1",
                    (ws_id,),
                ).fetchone()
            if row is None or not (quick or getattr(_trusted, "on", False)):
                break
            try:
                st = os.stat(self.root / WORKSPACES_DIR / row[0])
                same = (st.st_mtime_ns, st.st_size) == (row[1], row[2])
            except OSError:
                same = False
            if same or _same_head(self.root / WORKSPACES_DIR / row[0], (ws_id, row[4], row[5], row[6]), row[3]):
                break
            was = getattr(_trusted, "on", False)
            _trusted.on = False
            try:
                self.refresh()
            finally:
                _trusted.on = was
        return None if row is None else f"{WORKSPACES_DIR}/{row[0]}"

    def entries(self, refresh: bool = True) -> list[tuple[str, str, str | None, str]]:
        """(file, workspace id, ``path:`` or None, first entry's text) of each file naming a workspace,
        sorted by file; symlinked files left out (a listing never follows them). Fresh, unless
        ``refresh`` is False (the caller checked the map against the files a moment ago)."""
        if refresh:
            self.refresh()
        with self._lock:
            rows = self._db.execute(
                "SELECT name, id, path, text FROM ws WHERE id IS NOT NULL AND link=0 ORDER BY name"
            ).fetchall()
        return [(f"{WORKSPACES_DIR}/{name}", ws_id, path, text) for name, ws_id, path, text in rows]

    def named(self, key: str, refresh: bool = True) -> list[tuple[str, str, str | None, str]]:
        """:meth:`entries` of the files whose stem or first entry's name (with or without "workspace ")
        is ``key`` (a :func:`name_key`), from the map's indexes: no row of another workspace is read."""
        if refresh:
            self.refresh()
        with self._lock:
            rows = self._db.execute(
                "SELECT name, id, path, text FROM ws WHERE id IS NOT NULL AND link=0"
                " AND (stem_key=? OR label_key=? OR bare_key=?) ORDER BY name",
                (key, key, key),
            ).fetchall()
        return [(f"{WORKSPACES_DIR}/{name}", ws_id, path, text) for name, ws_id, path, text in rows]

    def same_remote(self, remote: str, refresh: bool = True) -> list[tuple[str, str, str | None]]:
        """(file, workspace id, ``path:`` or None) of each active file whose workspace has the ``origin``
        remote ``remote`` (:func:`memrepo.engine.format.gitfolder.origin_of`), by the map's index; sorted by file.

        A row's remote is its first entry's ``remote:``, else the ``origin`` of its ``path:`` folder when the
        map read the row (kept while that folder is gone: a moved clone's old folder)."""
        if refresh:
            self.refresh()
        with self._lock:
            rows = self._db.execute(
                "SELECT name, id, path FROM ws WHERE id IS NOT NULL AND link=0 AND remote=? ORDER BY name", (remote,)
            ).fetchall()
        return [(f"{WORKSPACES_DIR}/{name}", ws_id, path) for name, ws_id, path in rows]

    def scrub(self) -> None:
        """Drop every row and rewrite the file (compaction): rebuilt from the files at the next look-up."""
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.execute("DELETE FROM ws")
            self._db.execute("DELETE FROM info WHERE k='stamps'")
            self._db.execute("VACUUM")

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()


def _folder_remote(path: str) -> str | None:
    """The ``origin`` of the project folder ``path`` a workspace file names, when it is a git work tree."""
    from memrepo.engine.format.gitfolder import origin_of  # here: only when a file's head is read

    return origin_of(path) if os.path.isabs(path) else None


def workspace_map(root: Path) -> WorkspaceMap:
    """The process's map for the repo at ``root`` (opened once; safe to use from any thread)."""
    key = str(Path(root))
    with _open_lock:
        found = _open_maps.get(key)
        if found is None:
            found = _open_maps[key] = WorkspaceMap(Path(root))
        return found


def scrub_workspace_map(root: Path) -> None:
    """Empty the map of the repo at ``root`` (compaction: no old byte under ``.git``)."""
    if (Path(root) / ".git" / "memrepo" / MAP_FILE).exists() or str(Path(root)) in _open_maps:
        workspace_map(root).scrub()
