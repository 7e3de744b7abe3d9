"""The context block for a new process, without opening the whole store (docs/architecture.md §4).

Hooks run ``memrepo context`` at the start of every agent session, each time in
a new process. :meth:`MemoryStore.context` needs the store, which imports the
writer, pygit2 and every model; printing the block needs none of them. This
module reads exactly what the store's read path reads (the settings, the
workspace's file through the same :class:`~.workspaceindex.WorkspaceIndex`,
HEAD, MEMORY.md, me.md and the workspace file) and renders it with the same
:func:`~.context.render_context`, so the text is byte for byte the store's
(a test compares them). The text is kept for the next process with the same
inputs (:mod:`.contextcache`).

HEAD is read from ``.git/HEAD`` and the branch's ref file or ``packed-refs``.
Whenever something is not the plain case (a config file to validate is still
read; but a ``.git`` that is a file, a repo owned by another user, a bare or
linked work tree, reftable refs, a symbolic ref chain), :func:`context_text`
returns None and the caller opens the store, which handles or refuses it as
before.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.engine.configpath import HasRepo, ReadKeys, config_path, resolve_repo_path
from memrepo.engine.files.regularfile import is_text, read_work_file
from memrepo.engine.format.layout import LESSONS_MD, ME_MD, MEMORY_MD
from memrepo.engine.format.paths import DEFAULT_REPO, check_repo_path

if TYPE_CHECKING:
    from memrepo.engine.config import Settings

DEFAULT_ME_MD = True
"""``[context] me_md`` when no config file exists (the default of :class:`~.config.ContextSettings`)."""

_HEX_RE = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_ODD_CONFIG_RE = re.compile(r"^\s*(?:bare\s*=\s*true|worktree\s*=|refstorage\s*=)", re.IGNORECASE | re.MULTILINE)


class _Defaults:
    """The settings the light path needs when no config file exists."""

    repo = DEFAULT_REPO


def head_id(git_dir: Path) -> str | bool | None:
    """HEAD's commit id read from the ref files; None while HEAD is unborn; False when not the plain case.

    Args:
        git_dir: the repository's ``.git`` folder.

    Returns:
        str | None | bool: the full id (as :meth:`GitStore.head_id` gives it), None for an unborn
        branch, False when this reader cannot tell (the caller asks libgit2).
    """
    try:
        head = (git_dir / "HEAD").read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    if _HEX_RE.fullmatch(head):
        return head  # detached
    if not head.startswith("ref: "):
        return False
    name = head[5:].strip()
    if not name.startswith("refs/heads/") or ".." in name or "\\" in name:
        return False
    try:
        value = (git_dir / name).read_text("ascii").strip()
    except FileNotFoundError:
        value = None
    except (OSError, UnicodeDecodeError):
        return False
    if value is not None:
        return value if _HEX_RE.fullmatch(value) else False
    try:
        packed = (git_dir / "packed-refs").read_text("utf-8")
    except FileNotFoundError:
        return None  # no loose ref, no packed refs: unborn
    except (OSError, UnicodeDecodeError):
        return False
    for line in packed.splitlines():
        if line.startswith(("#", "^")):
            continue
        oid, _, ref = line.partition(" ")
        if ref == name:
            return oid if _HEX_RE.fullmatch(oid) else False
    return None


def _plain_repo(root: Path) -> Path | None:
    """``root``'s ``.git`` folder when it is one libgit2 opens as the store does, owned by us; else None."""
    git_dir = root / ".git"
    try:
        st = os.stat(git_dir, follow_symlinks=False)
        if not os.path.isdir(git_dir) or os.path.islink(git_dir) or st.st_uid != os.geteuid():
            return None
        if os.stat(root).st_uid != os.geteuid():
            return None
    except OSError:
        return None
    if (git_dir / "commondir").exists() or (git_dir / "reftable").exists():
        return None
    try:
        config = (git_dir / "config").read_text("utf-8", "replace")
    except OSError:
        return None
    if _ODD_CONFIG_RE.search(config):
        return None
    return git_dir


def config_missing() -> bool:
    """True when the config file does not exist (then the defaults hold and no settings need validating)."""
    try:
        os.stat(config_path())
    except FileNotFoundError:
        return True
    except OSError:
        return False  # unreadable: the front end's load_settings reports it
    return False


def context_text(
    cli_repo: str | None, workspace: str | None, settings: Settings | ReadKeys | None = None
) -> str | None:
    """The text of :meth:`MemoryStore.context` for the repo the CLI would open, or None to open the store.

    :func:`context_of` with only the text; the arguments, return and errors are its.
    """
    found = context_of(cli_repo, workspace, settings)
    return None if found is None else found[0]


def context_of(
    cli_repo: str | None, workspace: str | None, settings: Settings | ReadKeys | None = None
) -> tuple[str, Path] | None:
    """The text of :meth:`MemoryStore.context` and the repo's ``.git`` folder, or None to open the store.

    Args:
        cli_repo: the ``--repo`` option as given (None when absent).
        workspace: the workspace folder, name or ``ws-`` id, or None for MEMORY.md alone.
        settings: the settings the front end loaded (docs/architecture.md §11: the engine never
            loads them), or the keys of a config file validated before (:class:`ReadKeys`);
            None when :func:`config_missing` says the defaults hold.

    Returns:
        tuple | None: the block's text and the repo's ``.git`` folder, or None
        when the light path cannot tell (see the module docstring); the caller
        then opens the store.

    Raises:
        PathRuleError: the repo path breaks a rule of docs/architecture.md §2.
        RefError: the workspace names no workspace, or more than one (as :meth:`ReadCaches.context`).
    """
    if cli_repo == "":
        return None  # the CLI's own usage error
    repo_key: HasRepo
    if settings is None:
        me_md, repo_key = DEFAULT_ME_MD, _Defaults()
    elif isinstance(settings, ReadKeys):
        me_md, repo_key = settings.me_md, settings
    else:
        me_md, repo_key = settings.context.me_md, settings
    path, _source = resolve_repo_path(cli_repo, repo_key)
    root = check_repo_path(path)
    git_dir = _plain_repo(root)
    if git_dir is None:
        return None
    state = git_dir / "memrepo"
    state.mkdir(parents=True, exist_ok=True)
    from .workspaceindex import WorkspaceIndex
    from .workspacemap import folder_stamp_trusted

    with folder_stamp_trusted():  # no stat of every workspace file per call (docs/architecture.md §4)
        ws_id, ws_file = WorkspaceIndex(root).file_for(workspace)
    head = head_id(git_dir)
    if head is False:
        return None
    head = head if isinstance(head, str) else ""  # None: unborn
    from . import contextcache

    read = [MEMORY_MD, *([ME_MD] if me_md else []), LESSONS_MD, *([ws_file] if ws_id and ws_file else [])]
    name = contextcache.key(root, state, ws_id, ws_file, me_md, read, bool(head))
    # A loss question waits: its file is read from HEAD, never kept (.heldread.HELD; no import until then).
    held = (state / "held.json").exists()
    kept = None if held else contextcache.get(state, name, head[:7])
    if kept is not None:
        return kept, git_dir  # rendered before from these very inputs: no redaction to load, no render
    from .context import READ_MAX, context_files, render_context

    def prepare() -> None:
        """As the store's opening does, before redaction first runs: the allow-list of false alarms, log redaction."""
        from memrepo.engine.redaction import allow, protect_logs

        allow.activate(state)
        protect_logs()

    unreadable: list[str] = []  # saves that are not text: shown as committed (.heldread, breaker14 B14-7)

    def data(rel: str) -> bytes | None:
        if _through_symlink(root, rel):
            return None
        try:
            got = read_work_file(root / rel, READ_MAX)  # the budget fills long before 256 KB
        except OSError:
            return None
        if not held and not is_text(got):
            unreadable.append(rel)
        return got

    with contextcache.rendering(state):  # from the first read to the put: a forget's clear waits for it
        files = None if held else context_files(data, me_md, ws_id, ws_file, workspace or "")
        if files is None or unreadable:
            from .heldread import HeldData

            files = context_files(HeldData(root, data), me_md, ws_id, ws_file, workspace or "")
        # Each file's section kept apart: after one file changed, only its new lines are redacted (§4).
        parts = contextcache.Parts(state, prepare)
        kept_text, _sections, _refs, by_path = render_context(
            contextcache.HEAD_SLOT if head else "", files, ws_id, parts
        )

        def name_now() -> str:
            """The key again; when an input moved meanwhile (a forget may have cleared the kept blocks and
            not waited for a stopped render), the sections this render kept go with its block."""
            now = contextcache.key(root, state, ws_id, ws_file, me_md, read, bool(head_id(git_dir)))
            if now != name:
                parts.drop_written()
            return now

        if not by_path and not held and not unreadable:  # else it depends on folders or HEAD, not the files alone
            contextcache.put(state, name, kept_text, name_now)
        else:
            name_now()
    contextcache.note_wanted(state, ws_id)
    return kept_text.replace(contextcache.HEAD_SLOT, head[:7]), git_dir


def render_wanted(root: Path, settings: Settings) -> int:
    """Render and keep, at the current commit, the blocks last asked for (:func:`memrepo.engine.read.contextcache.wanted`).

    A process that just wrote (the write server) calls it, so the next
    ``memrepo context`` or session hook prints a kept block instead of loading
    redaction and rendering (docs/architecture.md §4).

    Args:
        root: the work tree.
        settings: the settings of the process (``[context] me_md``).

    Returns:
        int: how many blocks were asked for (each rendered unless kept already).

    Raises:
        MemrepoError, OSError: a block could not be made (as :func:`context_of`).
    """
    from . import contextcache

    asked = contextcache.wanted(Path(root) / ".git" / "memrepo")
    for ws_id in asked:
        context_of(str(root), ws_id, settings)
    return len(asked)


def _through_symlink(root: Path, rel: str) -> bool:
    """Whether ``rel`` or a folder on its way down from ``root`` is a symlink (as :meth:`ReadCaches.through_symlink`)."""
    path = root / rel
    while path != root:
        if path.is_symlink():
            return True
        path = path.parent
    return False
