"""Keep libgit2 away from the host's git config.

libgit2 works out where the system, XDG and global config files live once, when
pygit2 is imported (from HOME at that moment), and it ignores GIT_CONFIG_GLOBAL and
GIT_CONFIG_NOSYSTEM, so pointing HOME at a temp folder later does not stop it from
reading the developer's own ~/.gitconfig. Setting ``pygit2.settings.search_path``
for every level to an empty folder does (tests/conftest.py does it at session start).
"""

from __future__ import annotations

from pathlib import Path

LEVELS = ("SYSTEM", "XDG", "GLOBAL", "PROGRAMDATA")
"""Every config level libgit2 finds through a search path (names of ``pygit2.enums.ConfigLevel``)."""


def isolate_libgit2(empty: Path) -> None:
    """Point libgit2's config search path, at every level, at the folder ``empty``."""
    import pygit2
    from pygit2.enums import ConfigLevel

    for name in LEVELS:
        pygit2.settings.search_path[ConfigLevel[name]] = str(empty)


def search_paths() -> dict[str, str]:
    """The search path libgit2 uses now, per level."""
    import pygit2
    from pygit2.enums import ConfigLevel

    return {name: pygit2.settings.search_path[ConfigLevel[name]] for name in LEVELS}
