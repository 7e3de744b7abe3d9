"""Git plumbing for compaction's new pack (docs/architecture.md §5): its writer's settings, writing it, syncing it.

:func:`write_pack` writes one pack of the compact commit beside the old ones and moves
it in, pack first, index last (git ignores a pack without its index);
:class:`memrepo.engine.git.compact.GitCompactor` runs it as one step.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pygit2
from pygit2.enums import ObjectType

from memrepo.engine.errors import GitError
from memrepo.engine.format.limits import FILE_MAX_BYTES

from .pack import PackFormatError, reachable, write_reusing_pack


def fsync_dir(path: Path) -> None:
    """Flush ``path``'s folder entry to disk (a rename or a new file in it survives a crash); errors ignored."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def fsync_file(path: Path) -> None:
    """Flush ``path``'s bytes to disk."""
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


PACK_WINDOW_MEMORY = 16 * 1024
"""Bytes of objects the pack builder compares each object with when looking for deltas.

``git gc`` reuses the deltas already in the old packs; libgit2's pack builder
computes them all again, comparing each object with the 10 before it. Memory
files are small and mostly unlike each other, so a narrow window finds
nearly the same deltas (a pack ~1% larger on a 10,000-commit corpus) in a
third of the time (``benchmarks/bench_compact.py``)."""


BLOB_CACHE_LIMIT = 2 * FILE_MAX_BYTES
"""Blobs up to this size (bytes) stay in libgit2's object cache while the pack is written."""


def open_with_pack_settings(root: Path, config_dir: Path) -> pygit2.Repository:
    """Open the repository with ``pack.windowMemory`` set, without touching any config file of the user's.

    libgit2's pack builder takes its settings from the repository's config
    only. The repository's config is read once, on first use, from the
    global search path among others: for that one read the search path points
    at ``config_dir``, whose ``.gitconfig`` includes the user's own global
    config and then sets ``pack.windowMemory``. The search path is restored
    right after; the folder must stay until the repository is closed.
    """
    from pygit2.enums import ConfigLevel

    paths = pygit2.settings.search_path
    before = paths[ConfigLevel.GLOBAL]

    def quoted(path: Path) -> str:
        return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'

    includes = "".join(f"\tpath = {quoted(Path(p) / '.gitconfig')}\n" for p in (before or "").split(os.pathsep) if p)
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / ".gitconfig").write_text(f"[include]\n{includes}[pack]\n\twindowMemory = {PACK_WINDOW_MEMORY}\n")
    paths[ConfigLevel.GLOBAL] = str(config_dir)
    try:
        repo = pygit2.Repository(str(root))
        repo.config  # noqa: B018 - read the config now, while the search path points at the settings
    finally:
        paths[ConfigLevel.GLOBAL] = before
    return repo


def write_pack(repo: pygit2.Repository, pack_dir: Path, commit_id: str, staging: Path, history: bool = False) -> str:
    """Write one pack holding exactly ``commit_id``, its tree and blobs, reusing the old packs' entries.

    The old packs' entries of the kept objects are copied as they are
    (:func:`memrepo.engine.git.pack.write_reusing_pack`, what ``git gc``
    does); the rest (loose objects, deltas whose base is dropped) is
    packed by libgit2's pack builder; if an old pack cannot be read that
    way, libgit2 packs everything. The pack is built in ``staging``
    (inside ``.git``, same file system), synced, then moved into
    ``objects/pack``: the ``.pack`` first and the ``.idx`` last, so git
    never sees an index without its pack.

    Args:
        repo: the repository.
        pack_dir: its ``objects/pack`` folder.
        commit_id: the compact commit.
        staging: an empty scratch folder under ``.git``.
        history: also every ancestor of ``commit_id`` with its tree (for
            :func:`memrepo.engine.history.compact.drop_old_history`, which keeps ``main``'s
            short history adopted from a compacted remote).

    Returns:
        str: the pack's base name (``pack-<hash>``).

    Raises:
        GitError: libgit2 failed to build or write the pack.
    """
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        start = pygit2.Oid(hex=commit_id)
        commits = [c.id for c in repo.walk(start)] if history else [start]
        wanted = reachable(repo, commits)
        try:
            name = write_reusing_pack(
                wanted, pack_dir, staging, lambda oids, folder: pack_with_libgit2(repo, oids, folder)
            )
        except PackFormatError:
            shutil.rmtree(staging, ignore_errors=True)
            staging.mkdir(parents=True)
            idx = pack_with_libgit2(repo, wanted, staging)
            if idx is None:
                raise GitError("nothing to pack") from None
            name = idx.stem
            for suffix in (".pack", ".idx"):
                fsync_file(staging / f"{name}{suffix}")
    except (pygit2.GitError, KeyError, OSError) as exc:
        raise GitError(f"cannot write the new pack: {exc}") from exc
    pack_dir.mkdir(parents=True, exist_ok=True)
    for suffix in (".pack", ".idx"):
        os.replace(staging / f"{name}{suffix}", pack_dir / f"{name}{suffix}")
        fsync_dir(pack_dir)
    shutil.rmtree(staging, ignore_errors=True)
    repo.odb  # noqa: B018 - the odb notices the new pack on its next miss
    return name


def pack_with_libgit2(repo: pygit2.Repository, oids: list[bytes], folder: Path) -> Path | None:
    """Pack these objects (raw ids) into ``folder`` with libgit2's pack builder (deltas searched anew).

    Returns:
        Path | None: the pack's ``.idx``; None when ``oids`` is empty.

    Raises:
        pygit2.GitError: libgit2 failed; GitError: it wrote more or fewer than one pack.
    """
    if not oids:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    builder = pygit2.PackBuilder(repo)
    builder.set_threads(0)  # one per CPU
    for oid in oids:
        builder.add(pygit2.Oid(raw=oid))
    # The builder reads each blob twice (delta search, then writing):
    # let libgit2 keep blobs of memory-file size in its object cache
    # meanwhile (it caches none by default).
    pygit2.settings.cache_object_limit(ObjectType.BLOB, BLOB_CACHE_LIMIT)
    try:
        builder.write(path=str(folder))
    finally:
        pygit2.settings.cache_object_limit(ObjectType.BLOB, 0)  # libgit2's default
    packs = sorted(folder.glob("pack-*.idx"))
    if len(packs) != 1:
        raise GitError(f"the pack builder wrote {len(packs)} packs, expected one")
    return packs[0]
