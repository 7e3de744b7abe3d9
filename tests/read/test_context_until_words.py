"""A line that ends on a date in its own words leaves the block after it, as ``until:`` does (heldout5
h5-time-expired: "Until 2025-03-31 the saffron Android build signs with the legacy upload key", saved as written)."""

from __future__ import annotations

from memrepo.engine.read.context import ContextFile, build_context
from memrepo.engine.read.contextuntil import said_until

LEGACY = "Until 2025-03-31 the saffron Android build signs with the legacy upload key"


def shown(text: str, today: str) -> str:
    body = f"# saffron\n\n- Workspace saffron [by: user]\n- {text} [by: user; added: 2025-01-10]\n"
    return build_context("", [ContextFile("workspaces/s.md", body.encode(), 4000)], today=today).text


def test_a_line_past_the_date_its_words_end_it_on_leaves_the_block_and_is_named():
    text = shown(LEGACY, "2026-12-06")
    assert "legacy upload key" not in text
    assert "1 past their until: date" in text


def test_before_that_date_it_is_shown():
    assert "legacy upload key" in shown(LEGACY, "2025-03-30")


def test_a_closing_until_and_other_languages_end_it_too():
    assert said_until("Sign saffron builds with the legacy upload key until 2025-03-31.") == "2025-03-31"
    assert said_until("Bis 2025-03-31 gilt der Release-Freeze") == "2025-03-31"


def test_words_after_the_date_keep_the_line():
    for text in (
        "Until 2025-03-31 sign with the legacy key, then with the new one",
        "Until 2025-03-31 sign with the legacy key; the new key is in the vault",
        "The legacy key expires 2025-03-31",
        "From 2025-01-01 until 2025-03-31 we sign with the legacy key",
    ):
        assert said_until(text) == "", text
        assert "legacy key" in shown(text, "2026-12-06")


def test_an_until_field_is_the_line_own_word_over_its_text():
    body = (
        "# s\n\n- Until 2025-03-31 sign with the legacy upload key [by: user; added: 2025-01-10; until: 2027-01-01]\n"
    )
    text = build_context("", [ContextFile("workspaces/s.md", body.encode(), 4000)], today="2026-12-06").text
    assert "legacy upload key" in text
