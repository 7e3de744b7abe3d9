"""What every git-capability module shares: memrepo's identity, commit messages, libgit2 errors.

Part of the git layer (it imports pygit2); see :mod:`memrepo.engine.git.store`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from pathlib import Path

import pygit2

from memrepo.engine.errors import BusyError
from memrepo.engine.files import lock as gitlocks
from memrepo.engine.files.regularfile import read_work_file

IDENTITY_NAME = "memrepo"
IDENTITY_EMAIL = "memrepo@localhost.invalid"
"""Author and committer of every commit; never the user's identity (docs/architecture.md §3)."""


def signature(when: datetime | None = None) -> pygit2.Signature:
    """The memrepo identity, stamped now (or at ``when``)."""
    if when is None:
        return pygit2.Signature(IDENTITY_NAME, IDENTITY_EMAIL)
    offset = int((when.utcoffset() or timedelta(0)).total_seconds() // 60)
    return pygit2.Signature(IDENTITY_NAME, IDENTITY_EMAIL, int(when.timestamp()), offset)


def format_message(summary: str, trailers: Mapping[str, str | None], body: str = "") -> str:
    """Build a commit message: summary line, optional body, then ``Key: value`` trailers.

    Args:
        summary: the first line; line breaks are folded to spaces.
        trailers: trailer keys to values; None values are left out.
        body: an optional paragraph between the summary and the trailers.

    Returns:
        str: the message, ending with a newline.
    """
    summary = " ".join(summary.split())
    parts = [summary]
    if body.strip():
        parts.append(body.strip())
    lines = [f"{k}: {' '.join(v.split())}" for k, v in trailers.items() if v]
    if lines:
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def looks_binary(path: Path, limit: int = 8000) -> bool:
    """True when the first ``limit`` bytes of the file hold a NUL byte (git's own test)."""
    try:
        return b"\x00" in read_work_file(path, limit)
    except OSError:
        return False


ON_DISK = "the change is saved in the files and is committed by the next write"


def transient(exc: BaseException) -> bool:
    """True for a libgit2 failure another git process causes for a moment (a held lock, a moved branch)."""
    text = str(exc).lower()
    moved = ("current tip is not the first parent", "old reference value does not match", "reference has changed")
    return "lock" in text or any(m in text for m in moved)


def failed_message(what: str, exc: BaseException) -> str:
    """One line for a libgit2 failure; a full disk is named as such."""
    from memrepo.engine.errors import DISK_FULL, is_disk_full

    text = str(exc)
    if is_disk_full(exc):
        return f"{what}: {DISK_FULL}"
    return f"{what}: {text}"


def libgit2_version() -> str:
    """The libgit2 version pygit2 was built with, e.g. ``1.9.1``."""
    return pygit2.LIBGIT2_VERSION


def tree_files(tree: pygit2.Tree, prefix: str = "") -> dict[str, tuple[str, int]]:
    """Every blob under ``tree``: path -> (blob id, file mode)."""
    out: dict[str, tuple[str, int]] = {}
    for obj in tree:
        name = prefix + (obj.name or "")
        if isinstance(obj, pygit2.Tree):
            out.update(tree_files(obj, name + "/"))
        elif isinstance(obj, pygit2.Blob):
            out[name] = (str(obj.id), int(obj.filemode))
    return out


def disk_blob_id(repo: pygit2.Repository, full: Path) -> str | None:
    """The blob id of the file at ``full`` as it is on disk (no filters), or None when it is missing."""
    if full.is_symlink() or not full.is_file():
        return None
    try:
        return str(pygit2.hash(full.read_bytes()))
    except OSError:
        return None


def _url_password(url: str) -> str | None:
    """The password or token part of a URL's user info (``https://user:TOKEN@host/...``), or None."""
    if "://" not in url:
        return None
    netloc = url.split("://", 1)[1].split("/", 1)[0]
    if "@" not in netloc:
        return None
    userinfo = netloc.rsplit("@", 1)[0]
    if ":" not in userinfo:
        return None
    return userinfo.split(":", 1)[1] or None


def has_password(url: str) -> bool:
    """True when ``url`` carries a password or token in its user info (never to be stored or shown)."""
    return _url_password(url) is not None


def mask_url(text: str, url: str | None = None) -> str:
    """``text`` with the password of ``url``'s user info replaced by ``***`` (``url`` defaults to ``text``).

    A token embedded in a remote URL must never reach the screen, an error
    message or a state file; libgit2's own error texts may quote the URL, so
    messages are masked with the URL they came from.
    """
    secret = _url_password(url if url is not None else text)
    return text if secret is None else text.replace(f":{secret}@", ":***@").replace(secret, "***")


def has_conflict(index: pygit2.Index, path: str) -> bool:
    """Whether ``index`` records a merge conflict at ``path``."""
    try:
        _ = index.conflicts[path]  # raises KeyError when absent
    except KeyError:
        return False
    return True


def tree_mode(tree: pygit2.Tree, path: str) -> int | None:
    """The file mode of ``path`` in ``tree``, or None when the tree has no such path."""
    try:
        return tree[path].filemode
    except KeyError:
        return None


def point_unborn_head(git_dir: Path | None, ref: str) -> bool:
    """Point a local-path bare remote's HEAD at ``ref`` when it names a branch the remote lacks; True when done.

    ``git init --bare`` names ``master`` in many installs while memrepo pushes ``main``: a ``git
    clone`` of such a remote then checks out nothing. Only a bare repository on a local path whose
    HEAD names no existing branch is changed (nothing a clone could have read is moved), and only to
    ``ref`` once it exists there (docs/architecture.md §5).
    """
    if git_dir is None:
        return False
    try:
        bare = pygit2.Repository(str(git_dir))
        head = bare.references.get("HEAD")
        if not bare.is_bare or head is None or head.type != pygit2.enums.ReferenceType.SYMBOLIC:
            return False
        if bare.references.get(str(head.target)) is not None or bare.references.get(ref) is None:
            return False
        bare.references.create("HEAD", ref, force=True)
    except (pygit2.GitError, OSError, KeyError):
        return False
    return True


def changed_blobs(repo: pygit2.Repository, old: pygit2.Tree, new: pygit2.Tree) -> list[tuple[str, bytes, bytes | None]]:
    """Each file of tree ``old`` that tree ``new`` changes or lacks: (path, its bytes in ``old``, in ``new`` or None).

    A file ``new`` adds is left out (nothing was removed from it). Shared by compaction's and a sync's
    record of removed lines (:mod:`memrepo.engine.write.forgotlines`).
    """
    out = []
    for delta in old.diff_to_tree(new).deltas:  # an added file's old id, a deleted file's new id: zeros (no object)
        before, after = repo.get(delta.old_file.id), repo.get(delta.new_file.id)
        if isinstance(before, pygit2.Blob):
            out.append((delta.old_file.path, before.data, after.data if isinstance(after, pygit2.Blob) else None))
    return out


def head_file(root: str | Path, rel: str) -> bytes | None:
    """The bytes of ``rel`` in HEAD's tree of the repo at ``root``; None when HEAD lacks it or cannot be read.

    Never raises: a reader that shows a file as committed falls back to the work tree (docs/architecture.md §4).
    """
    try:
        repo = pygit2.Repository(str(root))
        if repo.head_is_unborn:
            return None
        obj = repo.head.peel(pygit2.Commit).tree[rel]
    except (pygit2.GitError, OSError, KeyError, ValueError):
        return None
    return obj.data if isinstance(obj, pygit2.Blob) else None


def staged_blob(repo: pygit2.Repository, path: str, data: bytes) -> pygit2.Oid:
    """A blob of ``data`` as ``git add path`` would store it: through git's filters for ``path``.

    The clean filters a ``.gitattributes`` rule names for the path (``text``, ``eol=crlf``: CRLF stored as
    LF; ``ident``) run on the bytes, as :meth:`pygit2.Repository.create_blob_fromworkdir` runs them on
    the file, so a commit or index entry made from bytes memrepo holds equals one made from the same
    bytes on disk (docs/architecture.md §3). Bytes holding a NUL go in unfiltered: git counts them
    binary (no eol rule applies), and pygit2's buffer filter stops at the first NUL.

    Args:
        repo: the repository whose attributes and config decide the filters.
        path: the repo-relative ``/`` path the bytes are for.
        data: the bytes as they are (or would be) in the work tree.

    Returns:
        pygit2.Oid: the blob's id.

    Raises:
        pygit2.GitError: libgit2 failed (a filter or the object database).
    """
    filters = None if b"\x00" in data else repo.load_filter_list(path)
    return repo.create_blob(data if filters is None else filters.apply_to_buffer(data))


def write_index(repo: pygit2.Repository, change: Callable[[pygit2.Index], None], wait_s: float | None = None) -> None:
    """Read git's index, apply ``change`` to it, write it; a live git command's ``index.lock`` is waited for.

    libgit2 takes ``.git/index.lock`` to write, as git does, and fails at once when it is there. ``git status``
    holds it while it refreshes stat data, so a ``git status`` beside memrepo (an agent's, a shell prompt's)
    often holds it the moment memrepo's index follows a commit it made: given up at once, the index keeps the
    old blobs, ``git status`` shows them staged back ("MM") and a ``git commit`` by hand would undo the commit.
    The live holder is waited for (up to ``wait_s``, :data:`~memrepo.engine.files.lock.GIT_LOCK_WAIT_S` when
    None) and the whole read, change and write tried again.

    Raises:
        pygit2.GitError | OSError: the last failure: a lock held past the wait, a full disk.
    """
    git_dir = Path(repo.path)
    deadline = time.monotonic() + (gitlocks.GIT_LOCK_WAIT_S if wait_s is None else wait_s)
    while True:
        index = repo.index
        try:
            index.read(False)
            change(index)
            index.write()
            return
        except (pygit2.GitError, OSError) as exc:
            locked = "locked" in str(exc) or (git_dir / "index.lock").exists()
            if not locked or time.monotonic() >= deadline:
                raise
        time.sleep(0.01)  # the lock may be gone already (then settling returns at once): no busy loop
        with contextlib.suppress(BusyError):
            gitlocks.settle_git_locks(git_dir, wait_s=max(0.0, deadline - time.monotonic()))
