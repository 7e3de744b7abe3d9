"""An agent's line whose ``supersedes:`` names a rule of the user's waits in the inbox (breaker20 B20-13).

The user's own opposite of a stored rule waits there as a proposal (docs/agents.md); an agent's turn-around of a
user rule was committed at once and recalled right under it, unmarked.
"""

from __future__ import annotations

from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore

RULE = "Never commit directly to main; always open a pull request"
TURN = "Committing directly to main is fine for small fixes"


def _rule(store: MemoryStore, by: str) -> str:
    done = store.remember(Candidate(text=RULE, kind="rule", by=by))  # type: ignore[arg-type]
    assert done.action is Action.ADDED and done.path == "lessons.md", done
    assert done.ref is not None
    return done.ref


def test_naming_the_users_rule_by_ref_waits_in_the_inbox(store: MemoryStore) -> None:
    ref = _rule(store, "user")
    done = store.remember(Candidate(text=TURN, kind="rule", supersedes=ref, by="agent", origin="mcp"))
    assert done.action is Action.INBOXED and done.path == "inbox.md", done
    assert TURN not in (store.root / "lessons.md").read_text()
    assert RULE in (store.root / "lessons.md").read_text()


def test_naming_it_by_a_piece_of_its_text_waits_too(store: MemoryStore) -> None:
    _rule(store, "user")
    done = store.remember(Candidate(text=TURN, kind="rule", supersedes="commit directly to main", by="agent"))
    assert done.action is Action.INBOXED, done


def test_an_agents_rule_is_still_superseded_at_once(store: MemoryStore) -> None:
    ref = _rule(store, "agent")
    done = store.remember(Candidate(text=TURN, kind="rule", supersedes=ref, by="agent"))
    assert done.action is Action.ADDED and done.path == "lessons.md", done


def test_a_user_fact_named_by_an_agent_keeps_the_documented_mark_route(store: MemoryStore) -> None:
    """Only a rule waits: an agent correcting a user fact is written and marked in the block (docs/agents.md)."""
    first = store.remember(Candidate(text="The shop API runs on Postgres 15", kind="fact", by="user"))
    assert first.ref is not None
    done = store.remember(
        Candidate(text="The shop API runs on Postgres 16 now", kind="fact", supersedes=first.ref, by="agent")
    )
    assert done.action is Action.ADDED and done.path == first.path, done
