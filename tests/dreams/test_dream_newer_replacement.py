"""The rules dream keeps the line a fact changed in, and agrees with the context block (breaker6 B6-4).

docs/dreams.md: lines that replace each other go to review with the newer one kept; an agent's newer line
wins over the user's only when it gives a new value (another number, a change word), never over the
user's rule; the context block's replaced lines are proposed for removal too.
"""

from __future__ import annotations

from pathlib import Path

from helpers.dream_helpers import make_repo

from memrepo.engine.dreams.dreamer import Dreamer


def _shop(*lines: str) -> dict[str, str]:
    return {"workspaces/shop.md": "# shop\n\n" + "".join(f"- {ln}\n" for ln in lines)}


def test_an_agents_newer_number_is_kept_and_the_users_older_line_proposed(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _shop(
            "Shop backend runs on Postgres 14 on RDS instance shop-prod-db-1 [by: user; added: 2026-11-02]",
            "Shop backend runs on Postgres 16 on RDS instance shop-prod-db-1 [by: agent; added: 2026-12-05]",
        ),
    )
    record = Dreamer(store).run()
    (op,) = [op for op in record.operations if op.classification != "rejected"]
    assert op.classification == "review"
    assert op.before == "Shop backend runs on Postgres 14 on RDS instance shop-prod-db-1"
    assert op.kept_text == "Shop backend runs on Postgres 16 on RDS instance shop-prod-db-1"
    assert "newer" in op.reason


def test_an_agents_line_turning_the_users_around_keeps_the_users_and_says_it_is_older(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _shop(
            "Production deploys are allowed on Fridays [by: user; added: 2025-01-04]",
            "Production deploys are never allowed on Fridays [by: agent; added: 2025-04-26]",
        ),
    )
    record = Dreamer(store).run()
    (op,) = record.operations
    assert op.before == "Production deploys are never allowed on Fridays"
    assert "older" in op.reason and "2025-01-04" in op.reason


def test_a_changed_fact_in_other_words_is_proposed_with_the_newer_line_kept(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        {
            "me.md": "# Me\n\n"
            "- Works from Seoul, timezone KST (UTC+9) [by: user; added: 2026-11-02]\n"
            "- Likes pnpm for JS package management [by: user; added: 2026-11-02]\n"
            "- Moved to Berlin in 2026; timezone is now CET (UTC+1) [by: user; added: 2026-12-01]\n",
        },
    )
    record = Dreamer(store).run()
    ops = [op for op in record.operations if op.before.startswith("Works from Seoul")]
    assert len(ops) == 1 and ops[0].classification == "review"
    assert ops[0].kept_text == "Moved to Berlin in 2026; timezone is now CET (UTC+1)"
    assert not any("Berlin" in op.before for op in record.operations)  # the newer line is never proposed


def test_an_agents_line_never_replaces_the_users_rule(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _shop(
            "Deploy windows are Tuesday 10:00 [by: user; added: 2025-01-04; kind: rule]",
            "Deploy windows are Tuesday 14:00 [by: agent; added: 2025-04-26]",
        ),
    )
    record = Dreamer(store).run()
    assert not any(op.before.startswith("Deploy windows are Tuesday 10:00") for op in record.operations)
