"""A line a newer line replaces for ONE of its facts is shown struck and marked, not hidden whole (issue 30, ctx14).

"route-planner is a Go 1.22 service that solves routes with OR-Tools through a C++ sidecar", then "route-planner
moved to Go 1.23": the block used to hide the older line, and with it the OR-Tools fact (docs/architecture.md §4,
:mod:`memrepo.engine.read.contextpart`).
"""

from __future__ import annotations

from memrepo.engine.read.context import ContextFile, build_context

ROUTE = "route-planner is a Go 1.22 service that solves routes with OR-Tools through a C++ sidecar"


def block(*lines: str, budget: int = 4000, meta: str = "") -> list[str]:
    body = "# P\n\n" + "".join(f"- {text} [by: user; added: 2026-05-04{meta}]\n" for text in lines)
    text = build_context("", [ContextFile("workspaces/p.md", body.encode(), budget)], today="2026-06-01").text
    return [line for line in text.splitlines() if line.startswith("L")]


def test_a_version_bump_strikes_the_version_and_keeps_the_other_facts():
    shown = block(ROUTE, "The team sync is on Mondays", "route-planner moved to Go 1.23")
    assert shown[0] == (
        "L3 route-planner is a ~~Go 1.22~~ service that solves routes with OR-Tools through a C++ sidecar"
        " (replaced in part by L5)"
    )
    assert "L5 route-planner moved to Go 1.23" in shown


def test_the_mark_names_the_line_shown_at_the_end_of_a_chain():
    shown = block(ROUTE, "route-planner moved to Go 1.23", "route-planner moved to Go 1.24")
    assert shown[0].endswith("(replaced in part by L5)")
    assert not any(line.startswith("L4 ") for line in shown)  # the middle line is replaced whole


def test_a_clause_after_a_semicolon_is_kept_and_the_replaced_one_struck():
    shown = block(
        "Deploy window is Tuesday 10:00 UTC; ask Maria before any schema migration",
        "Deploy window is now Thursday 10:00 UTC",
    )
    assert shown[0] == (
        "L3 ~~Deploy window is Tuesday 10:00 UTC~~; ask Maria before any schema migration (replaced in part by L4)"
    )


def test_the_kept_line_ranks_right_after_its_replacement():
    noise = [f"Service {n} listens on port {8000 + n} behind the gateway" for n in range(30)]
    shown = block(ROUTE, *noise, "route-planner moved to Go 1.23", budget=100)
    numbers = [line.split()[0] for line in shown]
    assert numbers == ["L3", "L32", "L33", "L34"]  # right after L34, before every newer noise line but two


def test_a_newer_line_that_says_every_fact_again_hides_the_older_whole():
    shown = block(ROUTE, "route-planner moved to Go 1.23; it still solves routes with OR-Tools through the C++ sidecar")
    assert [line[:3] for line in shown] == ["L4 "]


def test_a_line_of_one_fact_is_hidden_whole():
    for old, new in [
        ("route-planner is a Go 1.22 service", "route-planner moved to Go 1.23"),
        ("Deploy window is Tuesday", "Deploy window is now Thursday"),
        ("Infra uses Terraform 1.6 with state in S3", "Infra moved to Terraform 1.9, state still in S3"),
    ]:
        shown = block(old, new)
        assert [line[:3] for line in shown] == ["L4 "], (old, shown)


def test_supersedes_replaces_the_named_line_whole():
    body = (
        f"# P\n\n- {ROUTE} [by: user; added: 2026-05-04]\n"
        "- route-planner moved to Go 1.23 [by: user; added: 2026-05-04; supersedes: route-planner is a Go]\n"
    )
    text = build_context("", [ContextFile("workspaces/p.md", body.encode(), 4000)], today="2026-06-01").text
    assert "OR-Tools" not in text


def _file(*lines: str) -> list[str]:
    body = "# api\n\n" + "".join(f"- {line}\n" for line in lines)
    text = build_context("", [ContextFile("workspaces/api.md", body.encode(), 4000)], today="2026-06-01").text
    return [line for line in text.splitlines() if line.startswith("L")]


def test_a_correction_of_one_part_keeps_the_rest_of_the_corrected_clause_in_the_block():
    """breaker27 B27-5: "from the main branch" was in no shown line after a correction of the host alone."""
    shown = _file(
        "The api deploys to Fly.io from the main branch and the staging app is called api-stg"
        " [by: user; added: 2026-05-04]",
        "The api deploys to Render now, not Fly.io [by: user; added: 2026-05-20; supersedes: The api deploys to"
        " Fly.io from the main branch and the staging app is called]",
        "The staging app is called api-stg [by: user; added: 2026-05-20]",
    )
    assert shown[0] == (
        "L3 The api deploys to ~~Fly.io~~ from the main branch and the staging app is called api-stg"
        " (replaced in part by L4)"
    ), shown
    assert any(line.startswith("L4 The api deploys to Render now") for line in shown)


def test_a_reworded_correction_still_replaces_the_named_line_whole():
    shown = _file(
        "I use fish as my shell on the work laptop [by: user; added: 2026-05-04]",
        "I switched to zsh [by: user; added: 2026-05-20; supersedes: I use fish as my shell]",
    )
    assert [line[:3] for line in shown] == ["L4 "], shown


def test_a_same_subject_rewording_still_replaces_the_older_line_whole():
    shown = _file(
        "The infra test database is SQLite in memory [by: user; added: 2026-05-04; subject: test database]",
        "The infra test database is a throwaway Postgres container [by: user; added: 2026-05-20;"
        " subject: test database]",
    )
    assert [line[:3] for line in shown] == ["L4 "], shown


def test_the_old_value_a_correction_names_is_struck_in_the_kept_line():
    """breaker31 B31-4: "Fly.io" unstruck in the kept line read as "deploys to Fly.io" to an agent skimming."""
    shown = _file(
        "The shop deploys to Fly.io from the main branch [by: user; added: 2026-05-04]",
        "The shop deploys to Render now, not Fly.io [by: user; added: 2026-05-20; supersedes: The shop deploys to"
        " Fly.io from the main branch]",
    )
    assert shown[0] == "L3 The shop deploys to ~~Fly.io~~ from the main branch (replaced in part by L4)", shown
    assert shown[1] == "L4 The shop deploys to Render now, not Fly.io", shown


def test_a_named_old_value_of_several_words_or_in_other_case_is_struck_in_the_lines_own_words():
    shown = _file(
        "Billing exports go to Google Sheets every Monday for the finance team [by: user; added: 2026-05-04]",
        "Billing exports go to Airtable instead of google sheets. [by: user; added: 2026-05-20; supersedes:"
        " Billing exports go to Google Sheets]",
    )
    assert shown[0].startswith("L3 Billing exports go to ~~Google Sheets~~ every Monday for the finance team ("), shown
