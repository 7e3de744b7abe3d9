"""A ``supersedes`` given as an entry ref is stored as what the block matches, or refused (breaker30 B30-12).

Before, ``supersedes: repo:me.md#L5`` was stored as given: the block reads no ref, so the old fact stayed in it
beside the new one, and once a line above went, the stored ref named another line.
"""

from __future__ import annotations

import pytest

from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore

FLY = "The shop deploys to Fly.io from main"
RENDER = "The shop deploys to Render from main"


def _agent(text: str, supersedes: str | None = None, scope: str = "global", workspace: str | None = None) -> Candidate:
    return Candidate(
        text=text, kind="fact", by="agent", origin="mcp", supersedes=supersedes, scope=scope, workspace=workspace
    )  # type: ignore[arg-type]


@pytest.mark.parametrize("bare", [False, True])
def test_a_ref_is_stored_as_the_entrys_text_and_hides_it(store: MemoryStore, bare: bool) -> None:
    old = store.remember(_agent(FLY))
    assert old.ref is not None
    named = old.ref.removeprefix("repo:") if bare else old.ref  # the block's me.md#L5 too
    new = store.remember(_agent(RENDER, supersedes=named))
    assert new.action is Action.ADDED, new
    me = (store.root / "me.md").read_text()
    assert f"supersedes: {FLY}]" in me and "#L" not in me, me
    block = store.context(None).text
    assert RENDER in block and FLY not in block, block


def test_a_ref_to_a_line_with_a_subject_is_stored_as_that_subject(store: MemoryStore) -> None:
    old = store.remember(Candidate(text="CI runs on Jenkins", kind="fact", by="agent", subject="ci server"))
    new = store.remember(_agent("CI runs on GitHub Actions since Monday", supersedes=str(old.ref)))
    assert new.action is Action.ADDED and "supersedes: ci server" in (store.root / "me.md").read_text()
    assert "Jenkins" not in store.context(None).text


def test_a_ref_that_names_no_entry_is_refused_and_nothing_is_written(store: MemoryStore) -> None:
    before = (store.root / "me.md").read_text()
    done = store.remember(_agent(RENDER, supersedes="repo:me.md#L99"))
    assert done.action is Action.REFUSED and "no entry is on that line" in str(done.reason), done
    assert (store.root / "me.md").read_text() == before


def test_a_ref_to_another_file_is_refused_with_the_way_out(store: MemoryStore, tmp_path) -> None:  # type: ignore[no-untyped-def]
    shop = tmp_path / "shop"
    shop.mkdir()
    rule = store.remember(_agent("Run pnpm test before every commit", scope="workspace", workspace=str(shop)))
    assert rule.path == "workspaces/shop.md" and rule.ref is not None
    done = store.remember(_agent("User now uses bun instead of pnpm for installs", supersedes=rule.ref))
    assert done.action is Action.REFUSED, done
    assert "names a line of workspaces/shop.md" in str(done.reason) and "goes to me.md" in str(done.reason)
    assert "bun" not in (store.root / "me.md").read_text()


def test_an_agent_line_naming_a_users_rule_by_ref_waits_saying_why(store: MemoryStore) -> None:
    """The inbox line says why it waits (B30-17): not "it read outside content", which was not so."""
    rule = store.remember(Candidate(text="Never push straight to main", kind="rule", by="user"))
    done = store.remember(
        Candidate(text="Pushing straight to main is fine for typos", kind="rule", by="agent", supersedes=str(rule.ref))
    )
    assert done.action is Action.INBOXED, done
    line = next(x for x in (store.root / "inbox.md").read_text().splitlines() if "typos" in x)
    assert "waits: it would change a rule of yours" in line and "supersedes: Never push straight to main" in line
    tainted = store.remember(
        Candidate(text="Pushing straight to main is fine on Fridays", kind="rule", by="agent", untrusted=True)
    )
    assert tainted.action is Action.INBOXED
    line = next(x for x in (store.root / "inbox.md").read_text().splitlines() if "Fridays" in x)
    assert "waits:" not in line  # taint is its reason, as the Inbox says
