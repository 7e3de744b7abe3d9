"""The context block a new process rendered, kept for the next one (docs/architecture.md §4, §5).

Hooks print the block at the start of every agent session, each time in a
new process (:func:`.coldread.context_text`). Rendering it compiles our
redaction rules and runs them over every line: at 20,000 files about a third
of the process after its imports. Between two sessions the block rarely
changes, so the text is kept in ``.git/memrepo/context-cache/``, one file per
key, and the next process with the same key prints it without rendering.

The key (a SHA-256) covers all the block's lines depend on: the workspace's
id and file, ``[context] me_md``, each file's ``lstat`` (size, mtime, ctime,
inode and mode: an in-place edit that puts the old mtime back still moves
ctime; a file turned symlink changes its mode) and the ``workspaces/``
folder's, whether HEAD is born, today's date (a line past its ``until:`` date
leaves the block), the redaction epoch (the allow-list and the
detectors, :func:`.redactionepoch.redaction_epoch`) and the engine's source
files' sizes and times (another memrepo renders another way). HEAD itself is
not in it: the block names HEAD's short id in its two header lines only, so a
block is kept with :data:`HEAD_SLOT` in its place and :func:`get` puts the
current id there. A commit that touched none of the block's files (an agent's
``git commit`` of a project file, another workspace's write) then costs no
render.

The kept text holds entries, so forgetting reaches it: :func:`clear` removes
every kept block, and forgetting and compaction call it
(they walk :mod:`memrepo.engine.state.registry`); a block is dropped by the next :func:`put`
once it cannot be printed again: a block of the same workspace from other
inputs, or any block made before MEMORY.md or me.md changed (so text a commit
removed from them leaves with the next block); a :func:`put` drops its own
block when an input moved while it rendered (a forget may have cleared the
kept blocks meanwhile); at most :data:`MAX_KEPT` blocks are kept, the newest.

Which workspaces blocks were asked for is noted (:func:`note_wanted`: ids
only, no text), so a process that just wrote can render those blocks again at
its new commit (:func:`memrepo.engine.read.coldread.render_wanted`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from memrepo.engine.files.regularfile import stat_key
from memrepo.engine.files.sourcestamp import stamp as source_stamp
from memrepo.engine.format.layout import LESSONS_MD, ME_MD, MEMORY_MD, WORKSPACES

FOLDER = "context-cache"
"""The kept blocks' folder in ``.git/memrepo/``."""
MAX_KEPT = 32
"""Blocks kept at most (the newest by mtime)."""
VERSION = "2"


def _lstat(path: Path) -> str:
    key = stat_key(path, follow=False)
    return "-" if key is None else ":".join(map(str, key))


HEAD_SLOT = "\x00"
"""What stands for HEAD's short id in a kept block. No line of a rendered block can hold it: rendering
removes control characters from every line it takes from a file (``context.sanitize_line``) and a file
name cannot hold NUL, so :func:`get` replacing it gives exactly the bytes a render at HEAD gives."""


def key(
    root: Path, state: Path, ws_id: str | None, ws_file: str | None, me_md: bool, files: list[str], born: bool
) -> str:
    """The name the block these inputs render is kept under.

    Args:
        root: the repo's work tree.
        state: its ``.git/memrepo/`` folder.
        ws_id: the workspace's id, or None for MEMORY.md alone.
        ws_file: the workspace's file (repo-relative), or None.
        me_md: ``[context] me_md``.
        files: the repo-relative files the block reads, MEMORY.md first.
        born: whether HEAD has a commit (an unborn HEAD's block has no commit in its header).

    Returns:
        str: ``<shared>-<workspace>-<key>``: 16 hex digits of the inputs every block shares (MEMORY.md,
        me.md, lessons.md, the epochs), the workspace id or ``memory``, and 64 hex digits of all the inputs.
    """
    from .redactionepoch import redaction_epoch

    stamps = [f"{rel}:{_lstat(root / rel)}" for rel in files]
    from .modeline import today_iso

    shared = [VERSION, str(born), str(me_md), redaction_epoch(state), source_stamp(), today_iso()]
    shared.extend(stamp for rel, stamp in zip(files, stamps, strict=True) if rel in (MEMORY_MD, ME_MD, LESSONS_MD))
    parts = [*shared, ws_id or "", ws_file or "", f"{WORKSPACES}/:{_lstat(root / WORKSPACES)}", *stamps]
    shared_key = hashlib.sha256("\n".join(shared).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    block_key = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{shared_key}-{ws_id or 'memory'}-{block_key}"


def get(state: Path, name: str, head: str) -> str | None:
    """The block kept under ``name`` (:func:`key`), with ``head`` (HEAD's short id) in its header, or None."""
    try:
        kept = (state / FOLDER / name).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return kept.replace(HEAD_SLOT, head)


def put(state: Path, name: str, text: str, name_now: Callable[[], str]) -> None:
    """Keep ``text`` (rendered with :data:`HEAD_SLOT` for HEAD) under ``name``, atomically, and drop the blocks
    that cannot be printed again (the module docstring). A failure to write only costs the next process a render.

    Args:
        state: the repo's ``.git/memrepo/`` folder.
        name: :func:`key`, taken before the files were read.
        text: the block.
        name_now: takes the key again once the block is written: when an
            input moved meanwhile, the block goes at once. A forget rewrites
            the file before it clears the kept blocks, so a block rendered
            from the text it removed either sees the file moved here or was
            written before the clear: it never outlives the forget. A commit
            of other files (HEAD alone moving) keeps it.
    """
    folder = state / FOLDER
    temp = folder / f".{name}.{os.getpid()}.tmp"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)  # owner only, as every
        with os.fdopen(fd, "w", encoding="utf-8") as fh:  # derived file (docs/architecture.md §4)
            os.fchmod(fh.fileno(), 0o600)
            fh.write(text)
        os.replace(temp, folder / name)
        if name_now() != name:
            (folder / name).unlink(missing_ok=True)
            return
        kept = [p for p in folder.iterdir() if not p.name.startswith(".") and p.name != name]
    except OSError:
        for path in (temp, folder / name):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        return
    shared, workspace = _shared_and_workspace(name)
    current = []
    for path in kept:
        other_shared, other_workspace = _shared_and_workspace(path.name)
        if other_shared != shared or other_workspace in (workspace, None):
            with contextlib.suppress(OSError):
                path.unlink()
        else:
            current.append(path)
    _leave_room(current, MAX_KEPT)


def _shared_and_workspace(name: str) -> tuple[str, str | None]:
    """The shared inputs' key and the workspace of a kept block's name (:func:`key`); None for a name of
    another form (an older memrepo's)."""
    shared, _, rest = name.partition("-")
    workspace, _, block_key = rest.rpartition("-")
    return shared, (workspace if workspace and len(block_key) == 64 else None)


WANTED = ".wanted"
"""The file (in the kept blocks' folder, dot-named so :func:`put` keeps it) listing the workspaces asked for."""
WANTED_MAX = 4
"""Workspaces :func:`note_wanted` remembers (the most recent)."""


def note_wanted(state: Path, ws_id: str | None) -> None:
    """Remember that a block was asked for with workspace ``ws_id`` (None: MEMORY.md alone); never raises.

    The write server renders these again after each write (:func:`wanted`),
    so the next session's hook finds its block kept at the new commit.
    """
    import json

    path = state / FOLDER / WANTED
    asked = [w for w in wanted(state) if w != ws_id]
    temp = path.with_name(f"{WANTED}.{os.getpid()}.tmp")
    try:
        temp.write_text(json.dumps([ws_id or "", *(w or "" for w in asked)][:WANTED_MAX]), "utf-8")
        os.replace(temp, path)
    except OSError:  # a full disk: no empty temp file left behind for good (breaker14 B14-5)
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)


def wanted(state: Path) -> list[str | None]:
    """The workspaces blocks were last asked for, most recent first (None: MEMORY.md alone); [] when unknown."""
    import json

    try:
        got = json.loads((state / FOLDER / WANTED).read_text("utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(got, list):
        return []
    return [w or None for w in got if isinstance(w, str) and (not w or w.startswith("ws-"))][:WANTED_MAX]


LOCK = "context-cache.lock"
"""The lock file (in ``.git/memrepo/``, beside the kept blocks' folder, so :func:`clear` keeps it)."""
CLEAR_WAIT_S = 10.0
"""How long :func:`clear` waits for the renders under way (each holds the lock some milliseconds)."""


@contextlib.contextmanager
def rendering(state: Path) -> Iterator[None]:
    """Hold the kept blocks' lock, shared, from a render's first read of a file to its :func:`put`.

    :func:`clear` takes it exclusively, so a render that read a file before a forget rewrote it has
    written or dropped its block (or died, which frees the lock) before the forget's clear runs: no
    block and no temporary file with the forgotten text can outlive it. Found by a helper: a render
    killed between its write and its check left the forgotten text in a kept block. Never raises:
    a lock that cannot be taken (a read-only ``.git``) leaves the render as before.

    Args:
        state: the repo's ``.git/memrepo/`` folder.
    """
    fd = _open_lock(state)
    with contextlib.suppress(OSError):
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)


def _open_lock(state: Path) -> int | None:
    """A descriptor of :data:`LOCK` (made when missing), or None when it cannot be opened."""
    try:
        return os.open(state / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None


def clear(state: Path) -> None:
    """Remove every kept block (forgetting and compaction: the text may hold what was forgotten).

    Waits (at most :data:`CLEAR_WAIT_S`) for the renders under way (:func:`rendering`), then removes
    the folder, temporary files too. A render stopped for longer (``SIGSTOP``) is not waited for: its
    :func:`put` still drops its block when it wakes, since the forget moved its inputs.

    Args:
        state: the repo's ``.git/memrepo/`` folder.
    """
    import shutil
    import time

    fd = _open_lock(state)
    try:
        deadline = time.monotonic() + CLEAR_WAIT_S
        while fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.005)
            except OSError:
                break
        shutil.rmtree(state / FOLDER, ignore_errors=True)
    finally:
        if fd is not None:
            os.close(fd)


PART_PREFIX = ".part-"
"""Kept sections' file names (dot-named, so :func:`put` keeps them; :func:`clear` removes them with the rest)."""
MAX_PARTS = 128
"""Sections kept at most (the newest by mtime)."""


def memo_key(text: str) -> str:
    """The key of ``text`` in a kept section's memo: 32 hex digits of its BLAKE2b hash, so the memo file holds
    only what was shown (redacted), never a line as written.

    Args:
        text: a line as the file holds it.

    Returns:
        str: the key.
    """
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16, person=b"memrepo-memo").hexdigest()


class Parts:
    """Each file's section of the block, kept apart, so a block after one file changed renders that file alone.

    A hook's ``memrepo context`` right after the agent's last session wrote to
    the workspace's file finds the block's key moved (:func:`key`): before, it
    rendered all four files again, loading and running redaction over every
    line. A section (:func:`memrepo.engine.read.context.render_context`) is a
    pure function of its file's bytes, its budget and flags, the block's
    workspace and names, and the redaction and source epochs, so it is kept
    under a key of all but the bytes, with the bytes' SHA-256 beside it: an
    unchanged file's section is taken as it was, and a changed file's is
    rendered with the cleaned text of each line it held before (its ``memo``),
    so only its new lines go through redaction (docs/architecture.md §4).

    A section whose entries name a workspace by a folder path is not kept
    (it depends on folders, as :func:`memrepo.engine.read.coldread.context_of`
    says of the block). Writing a file's section drops its sections of other
    bytes (so text a commit removed leaves with the next render, as blocks
    do); :func:`clear` removes them all. Every failure to read or write only
    costs a render.

    Args:
        state: the repo's ``.git/memrepo/`` folder.
        prepare: what to run once before redaction first runs (see the attribute).
    """

    def __init__(self, state: Path, prepare: Callable[[], None] | None = None) -> None:
        from .redactionepoch import redaction_epoch

        self._prepare = prepare
        """Called once before the first text is cleaned (the store's redaction set-up), so a render that
        takes every text from memos never loads redaction."""
        self.folder = state / FOLDER
        self.epoch = f"{VERSION}\n{redaction_epoch(state)}\n{source_stamp()}"
        self.rendered: list[str] = []
        """The paths whose section was rendered in this process, not taken as kept (tests count them)."""
        self.cleaned = 0
        """Texts this process cleaned (redaction ran on them), not taken from a memo (tests count them)."""
        self._written: list[Path] = []

    def _name(self, path: str, parts: list[str]) -> str:
        head = hashlib.sha256(f"{self.epoch}\n{path}".encode("utf-8", "surrogatepass")).hexdigest()[:12]
        rest = hashlib.sha256("\n".join([self.epoch, path, *parts]).encode("utf-8", "surrogatepass")).hexdigest()
        return f"{PART_PREFIX}{head}-{rest[:40]}"

    def _load(self, name: str) -> dict | None:
        import json

        try:
            got = json.loads((self.folder / name).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return got if isinstance(got, dict) else None

    def clean(self, text: str, memo: dict[str, str], fresh: dict[str, str]) -> str:
        """``text`` made safe for the block (:func:`memrepo.engine.read.context.sanitize_line`): from ``memo``
        when cleaned before, else cleaned now; either way noted in ``fresh`` (the memo kept next). A memo is keyed
        by a hash of the text (:func:`memo_key`), never the text: a line with a secret a hand edit added (not yet
        committed, redacted only on the way out) sat in clear in the kept memo (breaker31 B31-8)."""
        key = memo_key(text)
        got = memo.get(key)
        if got is None:
            if self._prepare is not None:
                self._prepare()
                self._prepare = None
            from .context import sanitize_line

            got = sanitize_line(text)
            self.cleaned += 1
        fresh[key] = got
        return got

    def section(self, path: str, data: bytes | None, inputs: list[str], render: Callable) -> tuple:
        """The section of ``path`` for these bytes: kept, or rendered by ``render(clean)`` and kept.

        Args:
            path: the file's repo-relative path.
            data: its bytes (None when missing).
            inputs: everything else the section depends on, as text (budget, flags, workspace, names).
            render: renders the section given a ``clean(text) -> str`` to use for every text it shows;
                returns the section's tuple, whose sixth item says whether it depends on folders.

        Returns:
            tuple: the section, as ``render`` returns it (lists where it had lists).
        """
        import json

        name = self._name(path, inputs)
        digest = "-" if data is None else hashlib.sha256(data).hexdigest()
        kept = self._load(name)
        if kept is not None and kept.get("digest") == digest and isinstance(kept.get("section"), list):
            return tuple(kept["section"])
        memo = kept.get("memo") if kept is not None else None
        memo = memo if isinstance(memo, dict) else {}
        fresh: dict[str, str] = {}
        section = render(lambda text: self.clean(text, memo, fresh))
        self.rendered.append(path)
        if section[5]:
            return section  # depends on folders: not kept
        self._write(name, json.dumps({"digest": digest, "section": list(section), "memo": fresh}))
        return section

    def text(self, text: str) -> str:
        """``text`` cleaned as :meth:`clean` does, kept on its own (the block's ``workspace=`` attribute)."""
        import json

        name = self._name("", ["text", text])
        kept = self._load(name)
        if kept is not None and isinstance(kept.get("text"), str):
            return kept["text"]
        got = self.clean(text, {}, {})
        self._write(name, json.dumps({"digest": "", "text": got}))
        return got

    def _write(self, name: str, body: str) -> None:
        """Write one kept section atomically; drop this file's sections of other bytes and the oldest past
        :data:`MAX_PARTS`."""
        temp = self.folder / f"{name}.{os.getpid()}.tmp"
        try:
            self.folder.mkdir(mode=0o700, exist_ok=True)
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)  # owner only (§4)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                os.fchmod(fh.fileno(), 0o600)
                fh.write(body)
            os.replace(temp, self.folder / name)
            self._written.append(self.folder / name)
            same_file = name[: len(PART_PREFIX) + 12]
            digest = body[: body.find(",")]  # '{"digest": "…"'
            others = [p for p in self.folder.iterdir() if p.name.startswith(PART_PREFIX) and p.name != name]
        except OSError:
            with contextlib.suppress(OSError):
                temp.unlink(missing_ok=True)
            return
        kept = []
        for path in others:
            if path.name.endswith(".tmp"):
                continue
            if path.name.startswith(same_file):
                with contextlib.suppress(OSError):
                    if not path.read_text("utf-8").startswith(digest + ","):
                        path.unlink()
                        continue
            kept.append(path)
        _leave_room(kept, MAX_PARTS)

    def drop_written(self) -> None:
        """Remove the sections this render kept (its inputs moved while it rendered: as :func:`put` drops
        its block)."""
        for path in self._written:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        self._written.clear()


def _leave_room(paths: list[Path], most: int) -> None:
    """Delete the oldest of ``paths`` (by mtime) so one more file makes at most ``most``; a file gone meanwhile is fine."""
    if len(paths) < most:
        return
    with contextlib.suppress(OSError):
        paths.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for path in paths[most - 1 :]:
            path.unlink(missing_ok=True)
