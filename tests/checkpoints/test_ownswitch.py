"""A switch the user states about their own stored preference replaces it (breaker30 B30-1)."""

from __future__ import annotations

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections
from memrepo.engine.checkpoints.ownswitch import switched_line

PNPM = ExistingEntry(
    "E1", "me.md", 5, "I prefer pnpm over npm for every JavaScript project", "user", {"kind": "preference"}
)
AGENT = ExistingEntry("E2", "me.md", 6, "User prefers pnpm over npm for JavaScript", "agent", {"kind": "preference"})
BASH = ExistingEntry("E3", "me.md", 7, "I use bash as my shell", "user", {"kind": "preference"})
RULE = ExistingEntry(
    "E4", "workspaces/shop.md", 5, "Run `pnpm test -- --run` before every commit", "user", {"kind": "rule"}
)
LINES = [PNPM, AGENT, BASH, RULE]


def test_the_switch_names_the_users_own_line_not_the_projects_rule_nor_the_agents_paraphrase() -> None:
    for said in ("I use bun instead of pnpm now", "I switched from pnpm to bun now", "I use bun now, not pnpm"):
        assert switched_line(said, LINES) is PNPM, said
    assert switched_line("I switched from pnpm to bun", [AGENT, RULE]) is AGENT
    assert switched_line("I switched from pnpm to bun", [RULE]) is None


def test_no_switch_relates_no_line() -> None:
    for said in (
        "I prefer bun over pnpm",
        "I switched from pnpm to bun for scripts",
        "We almost switched from pnpm to bun",
        "I use bun now",
        "Use bun instead of pnpm",
    ):
        assert switched_line(said, LINES) is None, said


def test_a_switch_before_a_request_is_kept_and_fish_is_a_shell_not_a_state() -> None:
    assert correction_statements(["I switched from pnpm to bun now, use bun for installs."], LINES) == [
        "I switched from pnpm to bun now"
    ]
    assert correction_statements(["I use fish now."], LINES) == ["I use fish now"]  # a shell for the bash line
    assert proposed_corrections(["I use fish now."], LINES) == []
