"""A user's line an agent has since corrected shows the correction beside it (breaker5 B5-9).

Codex runs no hooks, so what the user tells it reaches memory through ``memory_remember``, as
``by: agent``; an agent's line never hides the user's (docs/architecture.md §3). When a newer agent
line is about the same thing as an older user line by the rule that finds replaced lines, the
block keeps the user's line, marks it "an agent line since says: L<n>" and ranks that agent line
right after it, so the budget never shows the outdated fact alone.
"""

from __future__ import annotations

from memrepo.engine.format.entries import parse
from memrepo.engine.read.context import ContextFile, build_context
from memrepo.engine.read.contextselect import candidates, replaced

FACTS = "".join(f"- Likes hobby number {i} called h{i}x [by: user; added: 2026-02-{i:02d}]\n" for i in range(1, 28))


def me_block(text: str, budget: int = 60) -> str:
    return build_context("abc1234", [ContextFile("me.md", text.encode(), budget, user_first=True)]).text


def test_an_agent_correction_of_a_users_line_is_shown_beside_it_past_the_budget() -> None:
    text = "# Me\n\n- Uses zsh shell [by: user; added: 2026-02-28]\n" + FACTS
    text += "- User now uses fish shell instead of zsh [by: agent; added: 2026-03-01]\n"
    number = text.count("\n")  # the agent's line is the last
    shown = me_block(text)
    assert f"L3 Uses zsh shell (an agent line since says: L{number})" in shown, shown
    assert f"L{number} User now uses fish shell instead of zsh (agent)" in shown, shown
    rows = shown.splitlines()
    assert rows.index(f"L{number} User now uses fish shell instead of zsh (agent)") > rows.index(
        f"L3 Uses zsh shell (an agent line since says: L{number})"
    )
    # Still, the agent's line replaces nothing of the user's: both stay
    parsed = parse(text.encode())
    disputed: dict[int, int] = {}
    assert replaced(candidates(parsed.entries()), disputed) == {} and disputed == {3: number}


def test_an_agent_line_on_another_subject_or_saying_the_same_marks_nothing() -> None:
    text = "# Me\n\n- Uses zsh shell [by: user; added: 2026-02-28]\n" + FACTS
    text += "- Uses zsh shell [by: agent; added: 2026-03-01]\n"  # the same said again: no correction
    text += "- Now prefers dark terminal themes [by: agent; added: 2026-03-02]\n"
    shown = me_block(text)
    assert "an agent line since says" not in shown
    assert "L3 Uses zsh shell\n" in shown + "\n"


def test_an_agent_line_naming_the_users_value_after_from_marks_it() -> None:
    """breaker7 B7-18: "switched from vim to Helix" shares one topic word with "My editor is vim", but names it."""
    text = "# Me\n\n- My editor is vim [by: user; added: 2026-02-28]\n" + FACTS
    text += "- The user switched from vim to Helix [by: agent; added: 2026-03-01]\n"
    number = text.count("\n")
    disputed: dict[int, int] = {}
    assert replaced(candidates(parse(text.encode()).entries()), disputed) == {} and disputed == {3: number}
    assert f"L3 My editor is vim (an agent line since says: L{number})" in me_block(text)


def test_an_agent_line_naming_the_users_value_marks_it_beside_the_agents_copy() -> None:
    """breaker30 B30-16: the agent's line replaced its own copy of the user's line and left the user's unmarked."""
    text = "# Me\n\n- User prefers pnpm over npm for every JavaScript project [by: agent; added: 2026-12-07]\n"
    text += "- I prefer pnpm over npm for every JavaScript project [by: user; added: 2026-12-07]\n"
    text += "- User switched from pnpm to bun [by: agent; added: 2026-12-07; via: inbox]\n"
    disputed: dict[int, int] = {}
    assert replaced(candidates(parse(text.encode()).entries()), disputed) == {3: 5} and disputed == {4: 5}
    assert "L4 I prefer pnpm over npm for every JavaScript project (an agent line since says: L5)" in me_block(text)
