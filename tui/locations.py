"""Every folder the app reads from, in one place (Posting's ``locations`` habit).

Only paths live here: nothing is created or read on import.
"""

from __future__ import annotations

from pathlib import Path

APP_NAME = "memrepo"


def user_config_dir() -> Path:
    """The user's config folder for memrepo (platformdirs; may not exist).

    Returns:
        Path: e.g. ``~/.config/memrepo`` on Linux.
    """
    from platformdirs import user_config_path

    return user_config_path(APP_NAME, appauthor=False)


def user_themes_dir() -> Path:
    """The folder of the user's own ``*.toml`` themes (may not exist).

    Returns:
        Path: ``<user config folder>/themes``.
    """
    return user_config_dir() / "themes"


def display_path(path: Path) -> str:
    """A path as people read it: the home folder shortened to ``~``.

    Args:
        path: an absolute path.

    Returns:
        str: ``~/agent-memory`` for a path under the home folder, else the path.
    """
    home = Path.home()
    try:
        rel = path.relative_to(home)
    except ValueError:
        return str(path)
    return "~" if rel == Path() else f"~/{rel.as_posix()}"
