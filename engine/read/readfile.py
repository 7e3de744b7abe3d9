"""One work-tree file read for a person: its text, entries and links (the app's folder pane, ``memrepo show``).

Never follows a symlink, never blocks on a FIFO, and names a file too large or not UTF-8 instead of
parsing it (docs/architecture.md §4).
"""

from __future__ import annotations

from pathlib import Path

from memrepo.engine.errors import FormatError, RefError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.entries import seen_hash
from memrepo.engine.format.paths import make_ref, safe_relpath
from memrepo.engine.models import EntryView, FileView

READ_FILE_MAX = 4 << 20
"""Largest file :func:`read_file` parses (bytes): 4x recall's 1 MB bound, so a person can still open and split a file recall skips."""


def read_file(root: Path, path: str) -> FileView:
    """Read one work-tree file with its entries and links.

    Args:
        root: the work tree.
        path: repo-relative path.

    Returns:
        FileView: for a binary or non-UTF-8 file, a symlink (or a file in a symlinked folder, never followed)
        or a file over :data:`READ_FILE_MAX`, ``text`` is None and ``error`` says why (nothing raised for bad content).

    Raises:
        RefError: the path is unsafe, a folder, or missing.
    """
    rel = safe_relpath(path)
    full = root / rel
    linked, folder = full.is_symlink(), full.parent
    while not linked and folder != root:  # a symlinked folder leads out, too
        linked, folder = folder.is_symlink(), folder.parent
    if linked:
        return FileView(path=rel, size=0, text=None, error="a symlink: memrepo does not follow it")
    try:
        if full.is_file() and (size := full.stat().st_size) > READ_FILE_MAX:  # 50 MB parsed: 10 s, 1.3 GB in the app
            return FileView(path=rel, size=size, text=None, error="over 4 MB, so not read: split it")
        data = read_work_file(full)  # never blocks on a FIFO or device
    except FileNotFoundError as exc:
        raise RefError(f"no file {rel} in the memory repo") from exc
    except IsADirectoryError as exc:
        raise RefError(f"{rel} is a folder, not a file") from exc
    try:
        parsed = fmt.parse(data, rel)
    except FormatError as exc:
        return FileView(path=rel, size=len(data), text=None, error=str(exc))
    text = parsed.text()
    entries = [
        EntryView(
            ref=make_ref(rel, n),
            path=rel,
            line=n,
            text=e.text,
            by=e.by,
            meta=e.meta,
            seen=seen_hash(parsed.lines[n - 1].text),
        )
        for n, e in parsed.entries()
    ]
    return FileView(path=rel, size=len(data), text=text, entries=entries, links=fmt.extract_links(text))
