"""Themes as data: built-ins ship in the package, bad files become one line, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.tui.themes import (
    DEFAULT_THEME,
    SEMANTIC_DEFAULTS,
    ThemeFileError,
    builtin_themes,
    load_themes,
    parse_theme,
)

SEMANTIC = {"by-user", "by-agent", "untrusted", "diff-added", "diff-removed"}


def test_builtin_themes_load_from_the_package() -> None:
    loaded = builtin_themes()
    assert not loaded.problems
    assert {DEFAULT_THEME, "memrepo-light"} <= set(loaded.themes)
    assert loaded.themes["memrepo-dark"].dark and not loaded.themes["memrepo-light"].dark
    for theme in loaded.themes.values():
        assert set(theme.variables) >= SEMANTIC


def test_missing_semantic_colours_get_defaults() -> None:
    theme = parse_theme('name = "x"\ndark = false\nprimary = "#123456"\n[semantic]\nby-agent = "red"\n', "x.toml")
    assert theme.variables["by-agent"] == "red"
    assert theme.variables["by-user"] == SEMANTIC_DEFAULTS[False]["by-user"]
    assert set(SEMANTIC_DEFAULTS[True]) == set(SEMANTIC_DEFAULTS[False]) == SEMANTIC


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("name = ", "not valid TOML"),
        ('name = "x"\n', "primary"),
        ('name = "x"\nprimary = "nope"\n', "'nope' is not a colour"),
        ('name = "Bad Name"\nprimary = "red"\n', "name"),
        ('name = "x"\nprimary = "red"\ncolour = "blue"\n', "colour"),
        ('name = "x"\nprimary = "red"\n[semantic]\nby-robot = "red"\n', "by-robot"),
        ('name = "x"\nprimary = "red"\n[semantic]\nuntrusted = "#zz0000"\n', "semantic.untrusted"),
    ],
)
def test_bad_theme_files_are_one_line_naming_the_file(text: str, says: str) -> None:
    with pytest.raises(ThemeFileError) as info:
        parse_theme(text, "mine.toml")
    message = str(info.value)
    assert "mine.toml" in message and says in message and "\n" not in message


def test_user_folder_good_bad_and_unreadable(tmp_path: Path) -> None:
    (tmp_path / "good.toml").write_text('name = "good"\nprimary = "#00ff00"\n', encoding="utf-8")
    (tmp_path / "bad.toml").write_text('name = "bad"\n', encoding="utf-8")
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "dark-again.toml").write_text('name = "memrepo-dark"\nprimary = "#ff0000"\n', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a theme", encoding="utf-8")
    loaded = load_themes(tmp_path)
    assert "good" in loaded.themes and "bad" not in loaded.themes
    assert loaded.themes["memrepo-dark"].primary == "#ff0000"  # a user theme may replace a built-in
    assert len(loaded.problems) == 2
    assert any("bad.toml" in p for p in loaded.problems)
    assert any("binary.toml" in p for p in loaded.problems)


def test_missing_user_folder_is_fine(tmp_path: Path) -> None:
    loaded = load_themes(tmp_path / "nope")
    assert not loaded.problems and DEFAULT_THEME in loaded.themes


def test_keybinding_table_is_generated_from_the_code() -> None:
    from memrepo.tui.keys import binding_sections, key_display, keybinding_markdown

    assert key_display("down,j") == "↓ j"
    assert key_display("ctrl+p") == "Ctrl+p"
    assert key_display("question_mark") == "?"
    assert key_display("slash") == "/"
    markdown = keybinding_markdown()
    for title, rows in binding_sections():
        assert f"### {title}" in markdown
        for row in rows:
            assert f"`{row.id}`" in markdown


def test_docs_key_table_matches_the_code() -> None:
    """The key table of docs/keys.md (linked from the README) is generated and never drifts."""
    from memrepo.tui.keys import README_END, README_START, keybinding_markdown

    keys = (Path(__file__).resolve().parents[2] / "docs" / "keys.md").read_text(encoding="utf-8")
    table = keys[keys.index(README_START) + len(README_START) : keys.index(README_END)]
    assert table.strip() == keybinding_markdown().strip(), (
        "docs/keys.md key table is stale: run `python -m memrepo.tui.keys --readme docs/keys.md`"
    )
