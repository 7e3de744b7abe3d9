"""A pin in MEMORY.md that a newer line of the user's in me.md corrects is marked, never hidden (breaker13 B13-26).

``memrepo remember`` without ``--pin`` writes to me.md; the replacement rule is asked per file, so a pinned "I live
in Lyon" stayed in every prompt, unmarked, beside "I moved to Montreal" (docs/architecture.md §4).
"""

from __future__ import annotations

from memrepo.engine.read.context import ContextFile, build_context
from memrepo.engine.read.contextrank import pins_since

PINS = (
    "# Memory\n\n"
    "- I live in Lyon [by: user; added: 2026-12-01]\n"
    "- Standup is at 9:30 every weekday [by: user; added: 2026-12-01]\n"
    "- Always run ruff before committing [by: user; added: 2026-12-01]\n"
    "- Prefers tea over coffee [by: user; added: 2026-12-04]\n"
)
ME = (
    "# About me\n\n"
    "- I moved to Montreal [by: user; added: 2026-12-05]\n"
    "- Standup is now at 10:00 every weekday [by: user; added: 2026-12-05]\n"
    "- Always run mypy before committing [by: user; added: 2026-12-05]\n"
    "- Prefers tea over coffee in the afternoon [by: agent; added: 2026-12-05]\n"
)


def block(pins: str, me: str) -> str:
    files = [
        ContextFile("MEMORY.md", pins.encode(), 500, user_first=True),
        ContextFile("me.md", me.encode(), 300, user_first=True),
    ]
    return build_context("abc1234", files).text


def test_a_pin_a_newer_me_md_line_corrects_is_marked_and_still_shown() -> None:
    shown = block(PINS, ME)
    assert "L3 I live in Lyon (a line in me.md since says: L3)" in shown, shown
    assert "L4 Standup is at 9:30 every weekday (a line in me.md since says: L4)" in shown, shown
    assert "L3 I moved to Montreal" in shown and "L4 Standup is now at 10:00 every weekday" in shown


def test_another_subject_an_agent_line_or_an_older_me_md_line_marks_nothing() -> None:
    shown = block(PINS, ME)
    assert "L5 Always run ruff before committing\n" in shown  # mypy is another rule (ctx10 same-fact guard)
    assert "L6 Prefers tea over coffee\n" in shown  # an agent's line never marks the user's pin here
    older = ME.replace("2026-12-05", "2026-11-01")  # the pins are the newer lines
    assert "since says" not in block(PINS, older)


def test_pins_since_reads_only_the_two_files() -> None:
    assert pins_since([("MEMORY.md", PINS.encode()), ("me.md", ME.encode())]) == {3: 3, 4: 4}
    assert pins_since([("MEMORY.md", PINS.encode())]) == {}
    assert pins_since([("MEMORY.md", PINS.encode()), ("me.md", None)]) == {}


def test_a_same_day_pin_is_not_marked_by_a_me_md_line_not_known_to_be_newer() -> None:
    """breaker26 B26-11: two files' line numbers say nothing of which line came last; a pin that says it undoes a
    change ("again") is not pointed at the same day's me.md line it reverses."""
    pins = "# Memory\n\n- Deploy from the release branch again; main is frozen until January [by: user; added: 2026-12-06]\n"
    me = "# About me\n\n- Deploy from main; the release branch is retired [by: user; added: 2026-12-06]\n"
    assert pins_since([("MEMORY.md", pins.encode()), ("me.md", me.encode())]) == {}
    assert "since says" not in block(pins, me)
    plain = "# Memory\n\n- Standup is at 9:30 every weekday [by: user; added: 2026-12-06]\n"
    moved = "# About me\n\n- Standup is now at 10:00 every weekday [by: user; added: 2026-12-06]\n"
    assert pins_since([("MEMORY.md", plain.encode()), ("me.md", moved.encode())]) == {3: 3}  # only "now" says changed
