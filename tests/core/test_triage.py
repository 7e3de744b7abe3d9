"""Inbox triage: accept, edit then accept, discard; Origin inbox_triage."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import porcelain

from memrepo.engine.errors import RefError
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


def inbox_refs(store: MemoryStore) -> list[str]:
    return [e.ref for e in store.read_file("inbox.md").entries]


def test_accept_moves_to_the_suggested_file_via_the_inbox_in_one_commit(store: MemoryStore) -> None:
    store.remember(
        Candidate(text="Billing deploys on Fridays", scope="workspace", workspace="billing", untrusted=True, task="t9")
    )
    entry = store.read_file("inbox.md").entries[0]
    assert store.suggest(entry) == "workspaces/billing.md"
    head = store.head()
    result = store.accept(entry.ref)
    assert result.action is Action.ADDED and result.path == "workspaces/billing.md"
    moved = store.read_file("workspaces/billing.md").entries[-1]
    assert moved.text == "Billing deploys on Fridays" and moved.meta["task"] == "t9"
    assert moved.by == "agent" and moved.meta["via"] == "inbox"  # approved, not the user's own words
    assert "workspace" not in moved.meta
    assert inbox_refs(store) == []
    last = store.log(1)[0]
    assert last.parents == [head] and last.origin == "inbox_triage"
    assert last.summary == "Accept: Billing deploys on Fridays"
    assert "[[workspaces/billing]]" in (store.root / "MEMORY.md").read_text()
    assert porcelain(store.root) == ""


def test_accept_into_a_chosen_file_and_edit_then_accept(store: MemoryStore) -> None:
    store.remember(Candidate(text="Use pnpm", untrusted=True))
    store.remember(Candidate(text="Prefers dark mode mostly", untrusted=True, kind="preference"))
    first, second = inbox_refs(store)
    moved = store.accept(first, target="topics/tooling.md")
    assert moved.path == "topics/tooling.md" and "Use pnpm" in (store.root / "topics" / "tooling.md").read_text()
    second = inbox_refs(store)[0]  # refs shift after the first move
    edited = store.edit_accept(second, "Prefers dark mode in every editor")
    assert edited.path == "me.md"
    assert "Prefers dark mode in every editor" in (store.root / "me.md").read_text()
    assert "mostly" not in (store.root / "me.md").read_text() and inbox_refs(store) == []


def test_accepting_what_is_already_there_only_empties_the_inbox_line(store: MemoryStore) -> None:
    store.remember(Candidate(text="Likes tea", kind="preference", by="user"))
    store.remember(Candidate(text="likes tea.", kind="preference", untrusted=True))
    result = store.accept(inbox_refs(store)[0])
    assert result.action is Action.REINFORCED and result.commit is not None
    assert (store.root / "me.md").read_text().count("ikes tea") == 1 and inbox_refs(store) == []


def test_discard_one_and_many(store: MemoryStore) -> None:
    for text in ("Planted one here", "Planted two here", "Planted three here"):
        store.remember(Candidate(text=text, untrusted=True))
    one = store.discard(inbox_refs(store)[0])
    assert one.action is Action.DISCARDED and store.log(1)[0].summary == "Discard: Planted one here"
    head = store.head()
    store.discard_many(inbox_refs(store))
    assert inbox_refs(store) == [] and store.log(1)[0].parents == [head]
    assert store.log(1)[0].summary == "Discard: 2 inbox entries"
    assert porcelain(store.root) == ""


def test_triage_refuses_refs_outside_the_inbox_and_bad_targets(store: MemoryStore) -> None:
    mine = store.remember(Candidate(text="Not in the inbox", kind="preference"))
    with pytest.raises(RefError, match="only inbox entries"):
        store.accept(mine.ref or "")
    store.remember(Candidate(text="From a web page", untrusted=True))
    ref = inbox_refs(store)[0]
    for bad in ("inbox.md", "notes.txt", "../outside.md", ".git/config.md"):
        with pytest.raises(RefError):
            store.accept(ref, target=bad)
    with pytest.raises(RefError):
        store.discard("repo:inbox.md#L1")  # the heading, not an entry
    assert inbox_refs(store) == [ref]


def test_cli_inbox_list_accept_discard(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from memrepo.cli.main import main

    repo = tmp_path / "mem"
    runner = CliRunner()
    for text in ("Tool said use tabs", "Tool said use spaces"):
        runner.invoke(main, ["--repo", str(repo), "remember", text, "--by", "agent", "--untrusted"])
    listing = runner.invoke(main, ["--repo", str(repo), "inbox"]).output.splitlines()
    assert len(listing) == 2 and all("-> me.md" in line for line in listing)
    first = listing[0].split()[0]
    accepted = runner.invoke(main, ["--repo", str(repo), "inbox", "accept", first, "--to", "lessons.md"])
    assert accepted.exit_code == 0 and accepted.output.startswith("added repo:lessons.md#L"), accepted.output
    second = runner.invoke(main, ["--repo", str(repo), "inbox"]).output.split()[0]
    discarded = runner.invoke(main, ["--repo", str(repo), "inbox", "discard", second])
    emptied = runner.invoke(main, ["--repo", str(repo), "inbox"])
    assert discarded.exit_code == 0 and emptied.stdout == "" and "inbox is empty" in emptied.stderr
    bad = runner.invoke(main, ["--repo", str(repo), "inbox", "discard", "repo:me.md#L1"])
    assert bad.exit_code == 1 and "only inbox entries" in bad.output


def test_accept_many_makes_one_commit_across_files(store: MemoryStore) -> None:
    store.remember(Candidate(text="Search runs on Postgres", scope="workspace", workspace="search", untrusted=True))
    store.remember(Candidate(text="Always rebase before merging", kind="lesson", untrusted=True))
    store.remember(Candidate(text="Lives in Lisbon these days", kind="identity", untrusted=True))
    head = store.head()
    result = store.accept_many(inbox_refs(store))
    assert result.commit is not None and result.reason is None
    last = store.log(1)[0]
    assert last.parents == [head] and last.summary == "Accept: 3 inbox entries" and last.origin == "inbox_triage"
    assert "Search runs on Postgres" in (store.root / "workspaces" / "search.md").read_text()
    assert "Always rebase before merging" in (store.root / "lessons.md").read_text()
    assert "Lives in Lisbon these days" in (store.root / "me.md").read_text()
    assert "[[workspaces/search]]" in (store.root / "MEMORY.md").read_text()
    assert inbox_refs(store) == [] and porcelain(store.root) == ""
