"""What a project folder's own git metadata says about which project it is (docs/memory-repo.md, Workspaces).

Two facts, read from small files with no git library (the hooks read them on every new process):

- a linked worktree (``git worktree add``) has a ``.git`` *file* naming its git dir, whose ``commondir``
  names the repository's common dir; when that is a ``.git`` folder, the folder holding it is the main
  worktree, and the linked worktree is the same project (:func:`main_worktree`);
- a clone's ``origin`` remote, normalized to ``host/path`` (:func:`origin_of`): a moved or renamed clone
  keeps it, a fork has another one. The root commit was not chosen: a fork shares it (its whole history),
  so it would merge two projects; a repo with no ``origin`` is matched by its folder alone.
"""

from __future__ import annotations

import os
import re

_READ_MAX = 256 * 1024
"""At most this much of a ``.git`` file, ``commondir`` or ``config`` is read (bytes)."""

_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://(.*)$")
_SCP_RE = re.compile(r"^([^/:]+):(?!//)(.+)$")
_SECTION_RE = re.compile(r'^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$')
_KEY_RE = re.compile(r"^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$")


def _read(path: str) -> str | None:
    """The start of a small regular file as text, or None (missing, a folder, a FIFO, unreadable)."""
    try:
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as fh:
            return fh.read(_READ_MAX).decode("utf-8", "replace")
    except OSError:
        return None


def _linked_git_dir(top: str) -> str | None:
    """The git dir a ``.git`` file at ``top`` names (a linked worktree or a submodule), or None."""
    text = _read(os.path.join(top, ".git"))
    if text is None:
        return None
    first = text.splitlines()[0] if text else ""
    if not first.startswith("gitdir:"):
        return None
    value = first[len("gitdir:") :].strip()
    return os.path.normpath(os.path.join(top, value)) if value else None


def _common_dir(git_dir: str) -> str:
    """The common dir of ``git_dir`` (its ``commondir`` file, else itself)."""
    text = _read(os.path.join(git_dir, "commondir"))
    value = text.strip() if text else ""
    return os.path.normpath(os.path.join(git_dir, value)) if value else git_dir


def main_worktree(top: str) -> str | None:
    """The main worktree of the linked worktree whose top level is ``top``, else None.

    Args:
        top: an absolute folder holding a ``.git`` entry.

    Returns:
        str | None: the folder holding the repository's ``.git`` folder, when ``top`` is a linked worktree
        of it; None for a main worktree (``.git`` is a folder), a submodule (its git dir has no
        ``commondir``), a worktree of a bare repository, or anything unreadable.
    """
    git_dir = _linked_git_dir(top)
    if git_dir is None or not os.path.isfile(os.path.join(git_dir, "commondir")):
        return None
    common = _common_dir(git_dir)
    if os.path.basename(common) != ".git" or not os.path.isdir(common):
        return None
    main = os.path.dirname(common)
    return None if main == top else main


def _config_of(top: str) -> str | None:
    """The text of the git config of the repository whose work tree top level is ``top``, or None."""
    dot = os.path.join(top, ".git")
    git_dir = dot if os.path.isdir(dot) else _linked_git_dir(top)
    if git_dir is None:
        return None
    return _read(os.path.join(_common_dir(git_dir), "config"))


def _unquote(value: str) -> str:
    """A git config value without its comment and quotes (``url = "x" # note`` is ``x``)."""
    out, quoted, i = [], False, 0
    while i < len(value):
        ch = value[i]
        if ch == '"':
            quoted = not quoted
        elif ch == "\\" and i + 1 < len(value):
            i += 1
            out.append({"n": "\n", "t": "\t"}.get(value[i], value[i]))
        elif ch in "#;" and not quoted:
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out).strip()


def origin_url(config: str) -> str | None:
    """The ``url`` of ``[remote "origin"]`` in a git config's text (the last one given), or None."""
    in_origin, url = False, None
    for raw in config.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        section = _SECTION_RE.match(line)
        if section is not None:
            in_origin = section.group(1).lower() == "remote" and section.group(2) == "origin"
            line = section.group(3).strip()
            if not line:
                continue
        if in_origin:
            key = _KEY_RE.match(line)
            if key is not None and key.group(1).lower() == "url" and key.group(2) is not None:
                url = _unquote(key.group(2)) or url
    return url


def normalize_remote(url: str, top: str = "") -> str | None:
    """A remote URL as one comparable string: ``host/path``, no user, password, token, port or ``.git``.

    ``git@github.com:jlee/shop.git``, ``ssh://git@github.com:22/jlee/shop`` and
    ``https://user:token@GitHub.com/jlee/shop.git/`` are all ``github.com/jlee/shop``; a local path
    (``/srv/git/shop.git``, ``file://``, or relative to ``top``) is ``file:`` and its absolute path.

    Returns:
        str | None: None for an empty or unreadable URL.
    """
    url = url.strip().split("?", 1)[0].split("#", 1)[0]
    if not url:
        return None
    scheme = _SCHEME_RE.match(url)
    scp = _SCP_RE.match(url) if scheme is None and not re.match(r"^[A-Za-z]:[\\/]", url) else None
    if scheme is not None and scheme.group(1).lower() == "file":
        return "file:" + os.path.normpath(scheme.group(2) or "/")
    if scheme is not None:
        host, _, path = scheme.group(2).partition("/")
        host = host.rpartition("@")[2]
        host = host.split("]")[0] + "]" if host.startswith("[") else host.split(":")[0]
    elif scp is not None and "/" not in scp.group(1).rpartition("@")[2]:
        host, path = scp.group(1).rpartition("@")[2], scp.group(2)
    else:
        return "file:" + os.path.normpath(os.path.join(top, url))
    path = path.strip("/").removesuffix(".git").strip("/")
    if not host or not path:
        return None
    return f"{host.lower()}/{path}"


def origin_of(top: str) -> str | None:
    """The normalized ``origin`` remote (:func:`normalize_remote`) of the git work tree at ``top``, or None.

    Args:
        top: an absolute work tree top level (a linked worktree reads its repository's config).

    Returns:
        str | None: None when ``top`` is no work tree, has no ``origin``, or its config cannot be read.
    """
    config = _config_of(top)
    url = origin_url(config) if config else None
    return normalize_remote(url, top) if url else None
