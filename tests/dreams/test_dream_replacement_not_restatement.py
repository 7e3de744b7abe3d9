"""A line the context block's rule finds replacing another is never the dream's "restatement" of it (breaker7 B7-22).

User "Forky deploys to Heroku", agent "Forky now deploys to Fly.io instead of Heroku": the block marks the
user's line "(an agent line since says: ...)", but the rules dream proposed deleting the agent's correction
as restating the user's line and keeping Heroku. A pair the block's rule relates (replaced, or an agent's
line correcting the user's) is a replacement: the newer line wins as :func:`newer_first` says.
"""

from __future__ import annotations

from pathlib import Path

from helpers.dream_helpers import make_repo

from memrepo.engine.dreams.dreamer import Dreamer

HEROKU = "Forky deploys to Heroku"
FLY = "Forky now deploys to Fly.io instead of Heroku"


def _forky(*lines: str) -> dict[str, str]:
    return {"workspaces/forky-notes.md": "# forky\n\n" + "".join(f"- {ln}\n" for ln in lines)}


def test_an_agents_correction_is_no_restatement_of_the_users_line(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        _forky(f"{HEROKU} [by: user; added: 2026-12-05]", f"{FLY} [by: agent; added: 2026-12-05]"),
    )
    record = Dreamer(store).run()
    live = [op for op in record.operations if op.classification != "rejected"]
    assert all(op.before != FLY for op in live), [(op.before, op.reason) for op in live]
    assert all("restates" not in op.reason for op in live), [op.reason for op in live]
    (op,) = live
    assert op.classification == "review"
    assert op.before == HEROKU and op.kept_text == FLY, op.reason


def test_a_users_x_not_y_correction_is_kept_over_the_line_it_corrects(repo_path: Path) -> None:
    store = make_repo(
        repo_path,
        {
            "me.md": "# Me\n\n"
            "- Deploy window is Tuesday [by: user; added: 2026-12-05]\n"
            "- Actually, the deploy window is Thursday, not Tuesday [by: user; added: 2026-12-05]\n",
        },
    )
    record = Dreamer(store).run()
    live = [op for op in record.operations if op.classification != "rejected"]
    assert [op.before for op in live] == ["Deploy window is Tuesday"], [(op.before, op.reason) for op in live]


def test_a_line_the_block_keeps_replaced_in_part_is_not_proposed_for_deletion(repo_path: Path) -> None:
    """breaker31 B31-11: the block keeps the line for "from the main branch"; deleting it would lose that fact."""
    old = "The shop deploys to Fly.io from the main branch"
    new = "The shop deploys to Render now, not Fly.io"
    store = make_repo(
        repo_path,
        {
            "workspaces/shop.md": "# shop\n\n"
            f"- {old} [by: user; added: 2026-12-01]\n"
            f"- {new} [by: user; added: 2026-12-05; supersedes: {old}]\n",
        },
    )
    record = Dreamer(store).run()
    live = [op for op in record.operations if op.classification != "rejected"]
    assert all(op.before != old for op in live), [(op.before, op.reason) for op in live]
    assert all(op.before != new for op in live), [(op.before, op.reason) for op in live]
