"""The Inbox says why an agent's line waits: a line naming a rule of the user's is not "outside content" (B30-17)."""

from __future__ import annotations

from memrepo.engine.models import EntryView
from memrepo.tui.widgets.entry_detail import provenance


def _inboxed(**meta: str) -> EntryView:
    return EntryView(
        ref="repo:inbox.md#L6",
        path="inbox.md",
        line=6,
        text="User now uses bun instead of pnpm for installs",
        by="agent",
        meta={"by": "agent", "kind": "preference", **meta},
    )


def test_an_agents_change_of_a_users_rule_says_so_and_names_the_rule() -> None:
    said = provenance(_inboxed(supersedes="Run pnpm test before every commit", waits="it would change a rule of yours"))
    assert "would change a rule of yours (Run pnpm test before every commit)" in said[1], said
    assert "outside content" not in " ".join(said)


def test_a_tainted_line_still_says_it_read_outside_content() -> None:
    assert "outside content" in provenance(_inboxed(supersedes="Run pnpm test before every commit"))[1]


def test_the_users_switch_says_why_it_waits_and_no_limit_advice() -> None:
    entry = _inboxed(waits="it names no old value, and without the meaning model (memrepo[semantic]) ...")  # sess20
    said = provenance(EntryView(**{**entry.__dict__, "by": "user", "meta": {**entry.meta, "by": "user"}}))
    assert "without the meaning model" in said[1] and "the limit holds" not in said[1], said
    limit = provenance(
        EntryView(**{**entry.__dict__, "by": "user", "meta": {"by": "user", "waits": "a limit refused"}})
    )
    assert "the limit holds" in limit[1], limit


def test_a_users_proposal_found_by_meaning_says_so_and_names_its_line() -> None:
    meta = {"by": "user", "corrects": "me.md", "supersedes": "I keep my notes in Bear"}
    meta["waits"] = (
        "it names no old value, and the line it replaces was found by meaning only, so it waits for you to confirm it"
    )
    said = provenance(EntryView(ref="repo:inbox.md#L6", path="inbox.md", line=6, text="x", by="user", meta=meta))
    assert "found by meaning only" in said[1] and "says more than the new value" not in said[1], said
    assert "Accepting it replaces I keep my notes in Bear (in me.md)" in said[1], said
