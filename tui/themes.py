"""Colour themes as data: ``*.toml`` files validated by pydantic, turned into Textual themes.

Built-in themes ship inside the wheel in the ``themes`` package and are read
with :mod:`importlib.resources`; the user's own themes come from
:func:`memrepo.tui.locations.user_themes_dir`. A bad file never stops the app: it is
left out and reported as one line for a notice (Posting's habit).

A theme file looks like::

    name = "memrepo-dark"
    dark = true
    primary = "#5fafd7"
    background = "#1c1c1c"

    [semantic]              # memrepo's own colours, all optional
    by-user = "#87d787"
    by-agent = "#87afff"
    untrusted = "#ffaf5f"
    diff-added = "#5faf5f"
    diff-removed = "#d75f5f"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from textual.color import Color, ColorParseError
from textual.theme import Theme

DEFAULT_THEME = "memrepo-dark"
"""The theme used when the configured one is missing or broken."""

SEMANTIC_DEFAULTS: dict[bool, dict[str, str]] = {
    True: {
        "by-user": "#87d787",
        "by-agent": "#87afff",
        "untrusted": "#ffaf5f",
        "diff-added": "#5faf5f",
        "diff-removed": "#d75f5f",
    },
    False: {
        "by-user": "#005f00",
        "by-agent": "#005faf",
        "untrusted": "#af5f00",
        "diff-added": "#008700",
        "diff-removed": "#af0000",
    },
}
"""memrepo's semantic colours for dark (True) and light (False) themes.

Every theme gets all of them, so the stylesheet may use ``$by-user`` and the
rest with any theme, Textual's own included. Values are xterm-256 palette
colours, so a 256-colour terminal shows them exactly.
"""


def _check_colour(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        Color.parse(value)
    except ColorParseError as exc:
        raise ValueError(f"{value!r} is not a colour") from exc
    return value


class SemanticColours(BaseModel):
    """The ``[semantic]`` table of a theme file: memrepo's own colours.

    Attributes:
        by_user: entries written ``by: user`` (key ``by-user``).
        by_agent: entries written ``by: agent`` (key ``by-agent``).
        untrusted: the inbox and anything unreviewed (key ``untrusted``).
        diff_added: added lines in diffs (key ``diff-added``).
        diff_removed: removed lines in diffs (key ``diff-removed``).
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    by_user: str | None = Field(None, alias="by-user")
    by_agent: str | None = Field(None, alias="by-agent")
    untrusted: str | None = None
    diff_added: str | None = Field(None, alias="diff-added")
    diff_removed: str | None = Field(None, alias="diff-removed")

    _colour = field_validator("*")(_check_colour)


class ThemeFile(BaseModel):
    """One theme file, validated.

    Attributes:
        name: the theme's name (lower case, digits and ``-``), shown in the palette.
        dark: a dark theme (True) or a light one.
        primary: the main accent colour; the only colour required.
        secondary, accent, foreground, background, surface, panel, boost,
            warning, error, success: Textual's base colours; Textual derives
            any that are left out.
        semantic: memrepo's semantic colours (see :class:`SemanticColours`).
        variables: extra Textual CSS variables (``name = "value"``).
    """

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64)
    dark: bool = True
    primary: str
    secondary: str | None = None
    accent: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    semantic: SemanticColours = Field(default_factory=SemanticColours)
    variables: dict[str, str] = Field(default_factory=dict)

    _colour = field_validator(
        "primary",
        "secondary",
        "accent",
        "foreground",
        "background",
        "surface",
        "panel",
        "boost",
        "warning",
        "error",
        "success",
    )(_check_colour)

    def to_theme(self) -> Theme:
        """Build the Textual theme, filling in missing semantic colours.

        Returns:
            Theme: ready for ``App.register_theme``.
        """
        semantic = dict(SEMANTIC_DEFAULTS[self.dark])
        semantic.update(self.semantic.model_dump(by_alias=True, exclude_none=True))
        return Theme(
            name=self.name,
            primary=self.primary,
            secondary=self.secondary,
            accent=self.accent,
            foreground=self.foreground,
            background=self.background,
            surface=self.surface,
            panel=self.panel,
            boost=self.boost,
            warning=self.warning,
            error=self.error,
            success=self.success,
            dark=self.dark,
            variables={**semantic, **self.variables},
        )


class ThemeFileError(ValueError):
    """A theme file could not be used; the message is one line naming the file."""


def parse_theme(text: str, source: str) -> Theme:
    """Read one theme file's text.

    Args:
        text: the TOML text.
        source: the file's name, for the error message.

    Returns:
        Theme: the validated theme.

    Raises:
        ThemeFileError: not TOML, or a key is unknown or has a bad value.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ThemeFileError(f"theme file {source} is not valid TOML: {exc}") from exc
    try:
        return ThemeFile.model_validate(data).to_theme()
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(part) for part in err["loc"]) or "file"
        raise ThemeFileError(f"theme file {source}: {where}: {err['msg']}") from exc


@dataclass
class LoadedThemes:
    """Themes read from files, and the files that could not be used.

    Attributes:
        themes: theme name to theme, in load order (later files win).
        problems: one line per file left out.
    """

    themes: dict[str, Theme] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def builtin_themes() -> LoadedThemes:
    """The themes shipped in the ``themes`` package.

    Returns:
        LoadedThemes: the built-in themes (problems only if the package is broken).
    """
    loaded = LoadedThemes()
    folder = resources.files("memrepo.themes")
    for item in sorted(folder.iterdir(), key=lambda t: t.name):
        if item.name.endswith(".toml") and item.is_file():
            try:
                theme = parse_theme(item.read_text(encoding="utf-8"), item.name)
            except (ThemeFileError, OSError, UnicodeDecodeError) as exc:
                loaded.problems.append(str(exc))
                continue
            loaded.themes[theme.name] = theme
    return loaded


def user_themes(folder: Path) -> LoadedThemes:
    """The user's ``*.toml`` themes in ``folder``; a missing folder holds none.

    Args:
        folder: usually :func:`memrepo.tui.locations.user_themes_dir`.

    Returns:
        LoadedThemes: the themes that loaded, and one line per file that did not.
    """
    loaded = LoadedThemes()
    try:
        paths = sorted(folder.glob("*.toml"))
    except OSError as exc:
        loaded.problems.append(f"cannot read the themes folder {folder}: {exc.strerror or exc}")
        return loaded
    for path in paths:
        try:
            theme = parse_theme(path.read_text(encoding="utf-8"), path.name)
        except ThemeFileError as exc:
            loaded.problems.append(str(exc))
            continue
        except UnicodeDecodeError:
            loaded.problems.append(f"theme file {path.name} is not UTF-8 text")
            continue
        except OSError as exc:
            loaded.problems.append(f"cannot read theme file {path.name}: {exc.strerror or exc}")
            continue
        loaded.themes[theme.name] = theme
    return loaded


def load_themes(user_folder: Path | None) -> LoadedThemes:
    """Built-in themes, then the user's (a user theme may replace a built-in one).

    Args:
        user_folder: the user's themes folder, or None to skip it.

    Returns:
        LoadedThemes: every usable theme and one line per file left out.
    """
    loaded = builtin_themes()
    if user_folder is not None:
        extra = user_themes(user_folder)
        loaded.themes.update(extra.themes)
        loaded.problems.extend(extra.problems)
    return loaded
