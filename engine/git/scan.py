"""Find text anywhere under ``.git``: a git capability the evals use (docs/architecture.md §10, §5).

"Forget + compact leaves no trace" is only true if no byte under ``.git``
holds the text: not a loose object, not a pack (where objects are zlib
streams and deltas), not a reflog, not engine state under ``.git/memrepo``.
:func:`git_traces` looks in all of those. It is the one job of this module,
which is why it may import pygit2 (the brief's rule: only git-plumbing
modules do).
"""

from __future__ import annotations

import zlib
from pathlib import Path

import pygit2


def _inflated(data: bytes) -> list[bytes]:
    """Every zlib stream starting at any offset of ``data``, inflated (packs, loose objects, index)."""
    out = []
    for start in range(len(data) - 1):
        if data[start] & 0x0F != 8 or ((data[start] << 8) | data[start + 1]) % 31:
            continue  # not a zlib header
        inflater = zlib.decompressobj()
        try:
            chunk = inflater.decompress(data[start:], 1 << 24)
        except zlib.error:
            continue
        if chunk:
            out.append(chunk)
    return out


def git_traces(root: Path, needles: list[str]) -> dict[str, list[str]]:
    """Where each needle appears under ``root/.git``.

    Looks at the raw bytes of every file, every zlib stream inside every
    file, and every object of the object database (loose and packed, deltas
    resolved by libgit2). Symlinks are not followed.

    Args:
        root: the repo's work tree (``root/.git`` is scanned).
        needles: texts to look for (UTF-8).

    Returns:
        dict[str, list[str]]: needle -> places (``raw <file>``, ``inflated
        <file>``, ``object <id>``), empty lists for needles found nowhere.

    Raises:
        OSError: a file under ``.git`` could not be read.
    """
    wanted = {n: n.encode("utf-8") for n in needles if n}
    found: dict[str, list[str]] = {n: [] for n in needles}
    git_dir = root / ".git"
    for path in sorted(git_dir.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        rel = path.relative_to(git_dir).as_posix()
        chunks = _inflated(data)
        for needle, raw in wanted.items():
            if raw in data:
                found[needle].append(f"raw {rel}")
            if any(raw in chunk for chunk in chunks):
                found[needle].append(f"inflated {rel}")
    repo = pygit2.Repository(str(root))
    for oid in repo.odb:
        _kind, data = repo.odb.read(oid)
        for needle, raw in wanted.items():
            if raw in data:
                found[needle].append(f"object {oid}")
    return found
