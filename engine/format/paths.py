"""Path rules for memory repos and safe repo-relative paths (docs/architecture.md §2).

Pure functions over the filesystem; nothing here touches git objects.
"""

from __future__ import annotations

import os
import re
import shlex
import unicodedata
from pathlib import Path, PurePosixPath

from memrepo.engine.errors import PathRuleError, RefError

from .layout import MEMORY_MD

DEFAULT_REPO = "~/agent-memory"
"""Default repo path, shared with the Agent Memory Repo skill (docs/architecture.md §2)."""

_SLUG_RE = re.compile(r"[^a-z0-9]+")
_WS_ID_RE = re.compile(r"^ws-[0-9a-z]{8}$")
_WS_ID_CAPITALS_RE = re.compile(r"^WS-[0-9A-F]{8}$", re.IGNORECASE)
_REF_RE = re.compile(r"repo:(?P<path>[^#\x00-\x1f\x7f]+)#L(?P<line>[1-9][0-9]*)")


def _git_toplevel(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that holds ``.git``, or None."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def check_repo_path(raw: str | os.PathLike[str]) -> Path:
    """Validate a path for opening or creating a memory repo.

    Rules (docs/architecture.md §2): absolute after resolving; not a
    filesystem root; not the home folder itself; not a symlink; not inside
    another git repository's work tree; missing, empty, or already a memory
    repo (its own git top level holding MEMORY.md).

    Args:
        raw: the path as given (``~`` is expanded; relative paths resolve
            against the current folder).

    Returns:
        Path: the absolute, normalized path.

    Raises:
        PathRuleError: naming the rule that failed.
    """
    expanded = Path(os.path.expanduser(os.fspath(raw)))
    if not expanded.is_absolute():
        expanded = Path.cwd() / expanded
    path = Path(os.path.normpath(expanded))
    if path.is_symlink():  # the refusal names the one option that works (`setup --write` names the target too)
        raise PathRuleError(
            "symlink", str(path), f"the repo path is a symlink; give its target: --repo {_quoted(path)}"
        )
    resolved = path.resolve()
    if resolved.parent == resolved:
        raise PathRuleError("root", str(path), "the repo path is a filesystem root")
    home = Path.home().resolve()
    if resolved == home:
        raise PathRuleError("home", str(path), "the repo path is the home folder itself")
    if resolved.exists() and not resolved.is_dir():
        raise PathRuleError("not-a-directory", str(path), "the repo path is not a folder")
    if resolved.exists() and (resolved / ".git").exists():
        git_dir = resolved / ".git"
        # MEMORY.md marks a memory repo; so does memrepo's own state folder,
        # so a repo whose MEMORY.md was deleted by hand can still be opened.
        if git_dir.is_dir() and ((resolved / MEMORY_MD).is_file() or (git_dir / "memrepo").is_dir()):
            return resolved
        raise PathRuleError(
            "not-memory-repo",
            str(path),
            "the folder is a git repository without MEMORY.md at its top, not a memory repo; memory keeps a"
            " repository of its own: give a new or empty folder",
        )
    outer = _git_toplevel(resolved.parent)
    if outer is not None:
        raise PathRuleError(
            "inside-repo",
            str(path),
            f"the repo path is inside the git work tree {outer}; memory never lives in a project",
        )
    if resolved.exists() and any(resolved.iterdir()):
        raise PathRuleError(
            "not-memory-repo",
            str(path),
            "the folder is not empty and is not a memory repo; give a new or empty folder to start one",
        )
    return resolved


def missing_repo(root: Path) -> PathRuleError:
    """The error for a folder with no memory repo yet, naming the command that makes one there.

    ``memrepo init`` alone makes the configured repo, not one named by ``--repo``: the hint names the folder.
    """
    return PathRuleError(
        "missing", str(root), f"no memory repo here; make one with `memrepo init {shlex.quote(str(root))}`"
    )


def safe_relpath(path: str) -> str:
    """Normalize a repo-relative path and refuse escapes.

    Args:
        path: a path inside the repo, ``/`` or ``\\`` separated.

    Returns:
        str: the path with ``/`` separators and no ``.`` parts.

    Raises:
        RefError: the path is empty, absolute, climbs out with ``..``, or
            enters ``.git``.
    """
    cleaned = path.replace("\\", "/").strip()
    pure = PurePosixPath(cleaned)
    if not cleaned or pure.is_absolute() or re.match(r"^[A-Za-z]:", cleaned):
        raise RefError(f"not a path inside the memory repo: {path!r}")
    parts = [p for p in pure.parts if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        named: list[str] = []
        for p in parts:  # where it leads, read as written: "workspaces/../me.md" stays inside (breaker30 B30-7)
            if p != "..":
                named.append(p)
            elif not named:
                raise RefError(f"path climbs out of the memory repo: {path!r}")
            else:
                named.pop()
        plain = "/".join(named) or "."
        raise RefError(f"path has a '..' part, which memrepo never follows: give {plain!r}, not {path!r}")
    if parts[0].casefold() == ".git":  # case-insensitive file systems: .GIT is the same folder
        raise RefError(f"path is inside .git, which holds git's and memrepo's own state, not memory: {path!r}")
    return "/".join(parts)


def parse_ref(ref: str) -> tuple[str, int]:
    """Split an entry ref ``repo:<path>#L<n>`` (docs/architecture.md §2).

    Returns:
        tuple[str, int]: the safe repo-relative path and the 1-based line number.

    Raises:
        RefError: the ref is malformed or its path is unsafe.
    """
    m = _REF_RE.fullmatch(ref.strip())
    if m is None:
        raise RefError(f"not an entry ref (expected repo:<path>#L<n>): {ref!r}")
    return safe_relpath(m.group("path")), int(m.group("line"))


_BARE_REF_RE = re.compile(r"[^#\s@]+#L\d+(?:@\w+)?")
"""An entry ref without its ``repo:`` prefix: ``workspaces/x.md#L11`` (an ``@seen`` may follow)."""


def entry_ref(text: str) -> str:
    """``text`` with ``repo:`` put before a bare ``<path>#L<n>`` (the context block's file header and line,
    ``me.md#L6``), so every command that takes a ref takes it as ``memory_read`` does (breaker8 B8-7, breaker29
    B29-15); anything else is returned as given, for :func:`parse_ref` to check."""
    raw = text.strip()
    return f"repo:{raw}" if not raw.startswith("repo:") and _BARE_REF_RE.fullmatch(raw) else text


def make_ref(path: str, line: int) -> str:
    """Build the ref ``repo:<path>#L<line>`` of an entry."""
    return f"repo:{path}#L{line}"


def slugify(name: str, fallback: str = "workspace") -> str:
    """Turn a workspace name into a file slug: lower-case ASCII, digits and dashes.

    Args:
        name: the workspace's name.
        fallback: the slug when nothing ASCII is left (a CJK or emoji name);
            callers pass the workspace id so such names get distinct files.

    Returns:
        str: at most 60 characters.
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = _SLUG_RE.sub("-", ascii_name.lower()).strip("-")[:60].strip("-")
    return slug or fallback


def workspace_id(key: str) -> str:
    """Stable workspace id ``ws-<8 hex>`` from a normalized path or name (docs/architecture.md §7)."""
    import hashlib  # here: a read path that resolves no workspace does not load OpenSSL

    return "ws-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]


GIT_TOPLEVEL = True
"""A folder inside a git work tree is the workspace of that work tree's top level (``[workspaces] git_toplevel``,
set by :func:`memrepo.engine.config.load_settings`), so an agent that changes into ``src/`` keeps one memory."""


def project_root(path: str) -> str:
    """The top level of the git work tree holding the absolute folder ``path``, else ``path`` itself.

    A ``.git`` folder or file (a worktree, a submodule) marks a top level. A linked
    worktree (``git worktree add``) is its main worktree's folder: the same project,
    so parallel sessions in worktrees share one memory
    (:func:`memrepo.engine.format.gitfolder.main_worktree`). The home folder and the
    filesystem root never count as one (a dotfiles repo in ``~`` must not make every
    project one workspace); with :data:`GIT_TOPLEVEL` off the folder is kept as it is.
    """
    if not GIT_TOPLEVEL:
        return path
    home = os.path.normpath(os.path.expanduser("~"))
    current = path
    while True:
        parent = os.path.dirname(current)
        if parent == current or current == home:
            return path
        if os.path.lexists(os.path.join(current, ".git")):
            from .gitfolder import main_worktree  # here: a folder in no git work tree reads nothing more

            main = main_worktree(current)
            return main if main is not None and main not in (home, os.path.dirname(main)) else current
        current = parent


def no_project_folder(path: str) -> bool:
    """Whether a session's folder is no project's: the home folder, the filesystem root or a temporary folder
    itself (``/tmp``, ``/var/tmp``, ``$TMPDIR``; docs/architecture.md §7, "A session's workspace").

    They are where a terminal opens and where throw-away commands run, never one project; :func:`project_root`
    already never takes the home folder or the root for a project's top level. A folder under them (``~/notes``,
    ``/tmp/scratch``) is its own workspace as before: a project may hold no ``.git`` yet.

    Args:
        path: a folder (``~`` expanded here; a relative one against the current folder).
    """
    folder = os.path.normpath(os.path.abspath(os.path.expanduser(path)))
    if os.path.dirname(folder) == folder:
        return True  # "/" (or a drive's root)
    plain = {os.path.expanduser("~"), os.environ.get("TMPDIR") or "/tmp", "/tmp", "/var/tmp"}
    plain = {os.path.normpath(p) for p in plain if p}
    return folder in plain or os.path.realpath(folder) in {os.path.realpath(p) for p in plain}


def session_workspace(cwd: str | None) -> str | None:
    """The workspace a session's folder names (a hook's or an agent's ``cwd``), or None for the global scope.

    None for no folder and for a folder that is no project's (:func:`no_project_folder`): what is said there belongs
    in the global files (me.md, lessons.md), which every session reads, not in a workspace file named after the home
    folder that no project's session reads (breaker30 B30-26).

    A folder is resolved (``~`` expanded, symlinks followed: :func:`os.path.realpath`) first, so a project reached
    through a symlinked folder is the one workspace its real folder is, never a second empty one (breaker31 B31-18;
    docs/architecture.md §7, "A session's workspace").

    Args:
        cwd: the folder as the agent gave it (absolute; ``~`` expanded), or None.

    Returns:
        str | None: the resolved folder (a name that is no path: stripped), or None.
    """
    if cwd is None or not cwd.strip():
        return None
    folder = cwd.strip()
    if not is_workspace_path(folder):
        return folder
    if no_project_folder(folder):
        return None
    return os.path.realpath(os.path.expanduser(folder))


def is_workspace_path(value: str) -> bool:
    """Whether :func:`normalize_workspace` reads ``value`` (stripped, not an id) as a folder path, which it
    resolves against the current folder, ``~`` and the git work trees above it; else a name, read alone.

    A NUL byte is in no path (the OS refuses it): such a value is a name, never a folder.
    """
    return "\x00" not in value and (value.startswith(("/", "~", ".")) or os.sep in value)


def normalize_workspace(value: str) -> tuple[str, str, str | None]:
    """Read a workspace given as a path or a name.

    Args:
        value: a workspace id (``ws-`` and 8 characters, any case), a folder path
            (absolute, ``~`` or ``.``-relative, or holding a separator) or a
            plain name such as ``billing-service`` (a name never depends on
            the current folder; NFC and NFD spellings are one name). A folder
            inside a git work tree is its top level (:func:`project_root`).

    Returns:
        tuple[str, str, str | None]: ``(id, slug, absolute path or None)``.
    """
    value = value.strip()
    if _WS_ID_CAPITALS_RE.match(value):
        value = value.lower()  # WS-1A2B3C4D is the id ws-1a2b3c4d
    if _WS_ID_RE.match(value):
        return value, slugify(value), None
    if is_workspace_path(value):
        absolute = project_root(os.path.normpath(os.path.abspath(os.path.expanduser(value))))
        ws_id = workspace_id(absolute)
        return ws_id, slugify(os.path.basename(absolute) or "root", fallback=ws_id), absolute
    # A name in one Unicode form (macOS types and names files in NFD), so
    # "Café" keys one workspace however it was typed.
    value = unicodedata.normalize("NFC", value)
    ws_id = workspace_id(" ".join(value.split()))
    return ws_id, slugify(value, fallback=ws_id), None


def _quoted(link: Path) -> str:
    """``link``'s target, quoted for a shell (breaker11 B11-12: a symlinked ~/agent-memory refused with no way on)."""
    import shlex

    try:
        return shlex.quote(str(link.resolve()))
    except (OSError, RuntimeError):  # a loop or a broken link: the shell's own answer
        return f'"$(realpath {shlex.quote(str(link))})"'
