"""The write server's reply checked against the repo before it is printed (docs/architecture.md §4).

A reply says a write was made: the client believes it only when the repo
agrees. The commit it names must exist in the repo's object store, be
made after the request was sent (an old commit proves nothing about this
write), and hold, at the file and line the reply names, an entry with the
text asked for. Anything else, a same-user process that answers in the
server's place or a server whose commit did not reach the disk, and the
client writes itself (the governed writer's dedupe keeps one entry).

Read without pygit2 (the client stays light): loose objects with
:mod:`zlib`; a packed one through ``git cat-file``.
"""

from __future__ import annotations

import os
import re
import zlib

CLOCK_SLACK_S = 2.0
"""Seconds a commit's time (whole seconds) may be before the request was sent."""
WRITTEN = ("added", "replaced", "inboxed")
"""Actions that made a commit holding the entry: a reply saying one is checked."""
_OID = re.compile(r"[0-9a-f]{40}")


def read_object(git_dir: str, oid: str) -> tuple[bytes, bytes] | None:
    """An object's type and body (``b"commit"``, ``b"tree"``, ``b"blob"``), or None when the repo lacks it."""
    path = os.path.join(git_dir, "objects", oid[:2], oid[2:])
    try:
        with open(path, "rb") as fh:
            raw = zlib.decompress(fh.read())
    except FileNotFoundError:
        return _packed(git_dir, oid)
    except (OSError, zlib.error):
        return None
    header, _, body = raw.partition(b"\0")
    kind, _, size = header.partition(b" ")
    return (kind, body) if size.isdigit() and int(size) == len(body) else None


def _packed(git_dir: str, oid: str) -> tuple[bytes, bytes] | None:
    import subprocess

    try:
        done = subprocess.run(
            ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
            input=oid.encode() + b"\n",
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    header, _, rest = done.stdout.partition(b"\n")
    parts = header.split()
    if done.returncode or len(parts) != 3 or parts[1] == b"missing" or not parts[2].isdigit():
        return None
    return parts[1], rest[: int(parts[2])]


def _tree_entry(body: bytes, name: bytes) -> str | None:
    """The id of ``name`` in a tree object's body, or None."""
    at = 0
    while at < len(body):
        space = body.index(b" ", at)
        nul = body.index(b"\0", space)
        if body[space + 1 : nul] == name:
            return body[nul + 1 : nul + 21].hex()
        at = nul + 21
    return None


def _plain(text: str) -> str:
    """Letters and digits only, lowercased, ``%XX`` escapes undone: the text as an entry line keeps it."""
    text = re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)
    return "".join(ch for ch in text.lower() if ch.isalnum())


def committed_entry(root: str, commit: str, path: str, line: int, since: float) -> str | None:
    """Line ``line`` of ``path`` in ``commit`` when the commit exists and was made at ``since`` or later.

    Args:
        root: the repo's work tree (holding ``.git``).
        commit: the commit's full id.
        path: the repo-relative file.
        line: the 1-based line number.
        since: the request's time (seconds since the epoch).

    Returns:
        str | None: the line, or None when the repo does not agree.
    """
    git_dir = os.path.join(root, ".git")
    if not _OID.fullmatch(commit):
        return None
    got = read_object(git_dir, commit)
    if got is None or got[0] != b"commit":
        return None
    tree = None
    for text in got[1].split(b"\n"):
        if text.startswith(b"tree "):
            tree = text[5:].decode("ascii", "replace")
        elif text.startswith(b"committer "):
            stamp = text.rsplit(b" ", 2)
            if len(stamp) != 3 or not stamp[1].isdigit() or int(stamp[1]) < since - CLOCK_SLACK_S:
                return None
        elif not text:
            break
    oid = tree
    for name in path.split("/"):
        obj = read_object(git_dir, oid) if oid else None
        if obj is None or obj[0] != b"tree":
            return None
        oid = _tree_entry(obj[1], name.encode("utf-8", "surrogateescape"))
    blob = read_object(git_dir, oid) if oid else None
    if blob is None or blob[0] != b"blob":
        return None
    lines = blob[1].split(b"\n")
    return lines[line - 1].decode("utf-8", "replace") if 1 <= line <= len(lines) else None


def reply_holds(root: str, reply: dict[str, object], text: str, since: float) -> bool:
    """True when a reply that says a write was made names a commit in ``root`` holding ``text``'s entry.

    A reply saying no write (reinforced, refused, an error) is not checked: it claims nothing written.

    Args:
        root: the repo's work tree.
        reply: the server's reply (``action``, ``commit``, ``path``, ``line``, ``redacted``).
        text: the entry text the client asked to save.
        since: when the request was sent (seconds since the epoch).
    """
    if reply.get("code") != 0 or reply.get("action") not in WRITTEN:
        out = str(reply.get("out", "")).lstrip()
        return not out.startswith(WRITTEN) and not out.startswith('{"action":"added')
    commit, path, line = reply.get("commit"), reply.get("path"), reply.get("line")
    if not (isinstance(commit, str) and isinstance(path, str) and isinstance(line, int)):
        return False
    entry = committed_entry(root, commit, path, line, since)
    if entry is None or not entry.startswith("- "):
        return False
    return bool(reply.get("redacted")) or _plain(text) in _plain(entry)
