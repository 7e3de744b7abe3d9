"""Small checks on the repository around memrepo (docs/architecture.md §3, §5, §9).

Who owns the folder (git's "dubious ownership"), which git hooks exist and are skipped
(memrepo commits through libgit2, which runs none), and whether
``objects/info/alternates`` keeps another object store's old objects reachable.
"""

from __future__ import annotations

import os
import pwd
import shlex
from pathlib import Path

HOOKS_NOTICE = "hooks-notice-shown"
"""The marker under ``.git/memrepo/`` that the one-time hooks notice was shown."""


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def ownership_message(root: Path) -> str:
    """What to say when git refuses ``root`` for its ownership: who owns it, who you are, the exact fix.

    Args:
        root: the work tree git refused.
    """
    root = Path(os.path.abspath(root))
    try:
        owner = _user((root / ".git").stat().st_uid if (root / ".git").exists() else root.stat().st_uid)
    except OSError:
        owner = "another user"
    return (
        f"{root} is owned by {owner}, not by you ({_user(os.geteuid())}), so git refuses it (dubious ownership). "
        f"If you trust it, run: git config --global --add safe.directory {shlex.quote(str(root))}"
    )


def skipped_hooks(git_dir: Path) -> list[str]:
    """The git hooks this repo has (``.git/hooks``, without the ``.sample`` ones), which memrepo never runs."""
    hooks = Path(git_dir) / "hooks"
    try:
        names = sorted(p.name for p in hooks.iterdir() if p.is_file() and not p.name.endswith(".sample"))
    except OSError:
        return []
    return names


def hooks_row_text(git_dir: Path) -> str | None:
    """Health's text for the repo's hooks, or None when there are none."""
    names = skipped_hooks(git_dir)
    if not names:
        return None
    return (
        f"{', '.join(names)} exist{'s' * (len(names) == 1)} and {'is' if len(names) == 1 else 'are'} skipped: "
        "memrepo commits with libgit2, which runs no git hooks (hand edits are redacted by memrepo instead)"
    )


def hooks_notice_once(git_dir: Path, state_dir: Path) -> str | None:
    """The hooks notice the first time it is asked for (recorded under ``.git/memrepo/``), else None."""
    text = hooks_row_text(git_dir)
    marker = Path(state_dir) / HOOKS_NOTICE
    if text is None or marker.exists():
        return None
    try:
        marker.write_text(text + "\n", encoding="utf-8")
    except OSError:
        return None  # a read-only state folder: better no notice than one on every write
    return f"note: {text}"


def alternates_problem(git_dir: Path, root: Path) -> str | None:
    """Why compaction cannot remove the old text while ``objects/info/alternates`` is there, or None.

    A ``git clone --shared`` (or ``--reference``) borrows objects from another
    store through that file: the old history stays reachable there whatever
    compaction deletes here.
    """
    alternates = Path(git_dir) / "objects" / "info" / "alternates"
    try:
        listed = [line.strip() for line in alternates.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError:
        return None
    if not listed:
        return None
    where = shlex.quote(str(root))
    return (
        f"this repo borrows objects from {', '.join(listed)} (.git/objects/info/alternates, a --shared clone): "
        "forgotten text stays reachable there, so compaction would not remove it. "
        f"Run `git -C {where} repack -a -d`, then remove {alternates}, and compact again"
    )
