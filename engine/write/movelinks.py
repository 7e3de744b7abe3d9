"""MEMORY.md's links when files are renamed by hand (docs/architecture.md §3; :mod:`.moves`).

A rename's "Move a.md -> b.md" commit also moves MEMORY.md's index lines (``- [[topics/a]]``) to the new
name, so the context block's index never sends the agent to a file that is gone (breaker7 B7-5). A link in a
sentence, and every link while MEMORY.md is itself edited by hand, are left as written; the commit body
names them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING

from memrepo.engine.format import entries as fmt
from memrepo.engine.format.layout import MEMORY_MD

if TYPE_CHECKING:
    from .moves import Move
    from .writer import Writer


def link_target(link: str) -> str:
    """The repo path a ``[[link]]`` names (``me`` -> ``me.md``; docs/architecture.md §2)."""
    target = link.strip().lstrip("/")
    return target if "." in target.rsplit("/", 1)[-1].lstrip(".") else f"{target}.md"


_LINK = re.compile(r"\[\[([^\[\]|#]+?)([#|][^\[\]]*)?\]\]")


def relink(data: bytes, renamed: Mapping[str, str]) -> tuple[bytes, list[str]]:
    """``data`` (MEMORY.md) with its index lines' ``[[links]]`` to a renamed file leading to its new name.

    Only index lines (a bullet holding links alone, ``- [[topics/a]]``) change, so the context block's index
    never sends the agent to a file that is gone (breaker7 B7-5); a link in a sentence is left as written.

    Args:
        data: MEMORY.md's bytes.
        renamed: old path -> new path (``topics/a.md`` -> ``topics/b.md``).

    Returns:
        tuple: the new bytes, and one ``MEMORY.md L5 now links to topics/b.md`` line per line changed.
    """
    out: list[str] = []
    said: list[str] = []
    for number, line in enumerate(data.decode("utf-8", "surrogateescape").splitlines(keepends=True), 1):
        entry = fmt.parse_entry(line.rstrip("\r\n"))
        to: list[str] = []
        if entry is not None and not entry.meta and fmt.is_link_line(entry.text):
            line = _LINK.sub(partial(_to_new, renamed=renamed, to=to), line)
        if to:
            said.append(f"{MEMORY_MD} L{number} now links to {', '.join(to)}")
        out.append(line)
    return "".join(out).encode("utf-8", "surrogateescape"), said


def linkable(path: str) -> bool:
    """Whether a ``[[link]]`` can name ``path``: no ``#`` (read as an anchor), ``|`` (an alias), bracket or line
    break in it (breaker10 B10-7: ``[[topics/c#1]]`` was read as ``topics/c.md``)."""
    return not any(c in path for c in "#|[]\r\n")


def _to_new(m: re.Match[str], renamed: Mapping[str, str], to: list[str]) -> str:
    """The link ``m`` with its target renamed (``to`` gets the new path), or as it was (also when no link can
    name the new path: :func:`linkable`)."""
    dst = renamed.get(link_target(m.group(1)))
    if dst is None or not linkable(dst):
        return m.group(0)
    to.append(dst)
    name = dst if m.group(1).strip().endswith(".md") else dst.removesuffix(".md")
    return f"[[{name}{m.group(2) or ''}]]"


def relinked_index(writer: Writer, these: list[Move], versions: Mapping[str, object]) -> tuple[bytes | None, list[str]]:
    """MEMORY.md's new bytes for a commit that renames files its index links to (written to disk here, the
    write lock held), and the lines saying so; (None, []) when no index line changes, or when MEMORY.md is
    itself edited by hand (its links are then the user's to change).

    MEMORY.md on disk is compared with HEAD's blob carriage returns aside (a ``* text eol=crlf`` repo keeps
    CRLF on disk and LF in git: breaker10 B10-4), and the disk's bytes are relinked, so their line endings
    stay. The write goes through :meth:`Writer.replace`, which watches the old inode for an editor's save
    into it (B10-10).
    """
    renamed = {m.src: m.dst for m in these if m.rename}
    if not renamed or MEMORY_MD in versions:
        return None, []
    from memrepo.engine.files.regularfile import read_work_file

    head = writer.git.head_blob(MEMORY_MD)
    try:
        work = read_work_file(writer.root / MEMORY_MD)
    except OSError:
        return None, []
    if head is None or work.replace(b"\r", b"") != head.replace(b"\r", b""):
        return None, []
    data, said = relink(work, renamed)
    if not said:
        return None, []
    writer.replace(MEMORY_MD, data, work)
    return data, said


def links_to(writer: Writer, rel: str, data: bytes | None = None) -> list[str]:
    """Where MEMORY.md links to ``rel`` (``MEMORY.md L5``): the links a rename leaves as written.

    Args:
        writer: the writer (its git store).
        rel: the renamed file's old path.
        data: MEMORY.md as the commit holds it (relinked); None: HEAD's.
    """
    data = writer.git.head_blob(MEMORY_MD) if data is None else data
    if not data:
        return []
    out = []
    for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if any(link_target(link) == rel for link in fmt.extract_links(line)):
            out.append(f"{MEMORY_MD} L{n}")
    return out
