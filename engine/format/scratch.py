"""Editors' scratch files are not memory (docs/architecture.md §3, §4): the one rule, used everywhere.

Editors leave files beside the one being edited: vim and neovim swap files
(``.name.swp``, ``.swo`` … ``.swa``, then ``.svz`` …) and their ``4913``
write probe, nano's ``.name.swp`` lock, ``name~`` backups (vim, emacs,
nano), emacs ``.#name`` lock links (dangling symlinks) and ``#name#``
auto-saves, JetBrains' safe write (``name___jb_tmp___``,
``name___jb_old___``), GNOME's ``.goutputstream-*``, Kate's
``.name.kate-swp``, macOS ``.DS_Store`` and ``._name`` and the engine's own
temp files. The watcher, status, commits, the file list, health and recall
all skip them through :func:`is_scratch`, so none is ever committed, listed
or searched, and none blocks a write. A move from a scratch name onto a real
name is a change to the real name (only the real name is ever looked at).
"""

from __future__ import annotations

import re

__all__ = ["TEMP_PREFIX", "is_scratch", "is_scratch_name", "save_siblings"]

TEMP_PREFIX = ".memrepo-tmp-"
"""Prefix of the engine's temp files (:mod:`.atomic` makes them); the watcher ignores them. Kept here, not in
:mod:`.atomic`, so the read paths that skip scratch files do not import :mod:`tempfile` for one string."""

_SCRATCH_NAME = re.compile(
    r"""^(
        .*\.sw[a-p]             # vim/neovim swap files, nano's lock file
      | \..+\.s[a-v][a-z]       # vim's later swap names (.svz ... .saa) of a hidden swap file
      | .*~                     # backups (vim, emacs, nano)
      | \.\#.*                  # emacs lock links
      | \#.*\#                  # emacs auto-save files
      | .*___jb_(tmp|old)___    # JetBrains safe write
      | \.goutputstream-.*      # GNOME (gedit) safe write
      | .*\.kate-swp            # Kate swap files
      | \.DS_Store | \._.*      # macOS Finder
      | .*\.tmp                 # generic temp files
      | """
    + re.escape(TEMP_PREFIX)
    + r""".*
    )$""",
    re.VERBOSE | re.DOTALL,
)

_VIM_PROBE_FIRST = 4913
_VIM_PROBE_STEP = 123


def is_scratch_name(name: str) -> bool:
    """True when a file name (no folder) is an editor's scratch file or the engine's temp file.

    Vim's write probe is ``4913``, then ``5036``, ``5159`` … (it adds 123
    while the name is taken): a bare number on that sequence.
    """
    if name.isdigit() and name.isascii():
        number = int(name)
        return number >= _VIM_PROBE_FIRST and (number - _VIM_PROBE_FIRST) % _VIM_PROBE_STEP == 0
    return bool(_SCRATCH_NAME.match(name))


def is_scratch(relpath: str) -> bool:
    """True when a repo-relative ``/`` path names a scratch file (only its last part counts)."""
    return is_scratch_name(relpath.rstrip("/").rsplit("/", 1)[-1])


def save_siblings(name: str) -> tuple[str, ...]:
    """The scratch names an editor's safe write of ``name`` puts next to it while the real name is gone.

    vim and emacs rename ``name`` to ``name~`` before writing the new file;
    JetBrains renames it to ``name___jb_old___`` after writing the new text to
    ``name___jb_tmp___``.
    """
    return (f"{name}~", f"{name}___jb_old___", f"{name}___jb_tmp___")
