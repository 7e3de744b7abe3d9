"""A "Remember that ..." a limit refuses is never dropped silently (breaker14 B14-2).

At the repo's file-count limit (or with the workspace file full) the SessionEnd checkpoint's write for a new
workspace file was refused, the messages marked seen, nothing kept: the next sessions never had the line. Now the
line goes to the inbox with its ``workspace:`` key (docs/architecture.md §6); when even the inbox is refused, the
batch stays buffered for the next checkpoint.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from test_hook_user_remember import entries, session_end

from memrepo.engine.format import limits
from memrepo.engine.repo.store import MemoryStore

SAID = "Remember that the shop API runs on Postgres 15."


def _files(store: MemoryStore) -> int:
    return sum(1 for p in store.root.rglob("*") if p.is_file() and ".git" not in p.parts)


def test_at_the_file_limit_the_line_waits_in_the_inbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    assert (store.root / "inbox.md").exists()
    monkeypatch.setattr(limits, "MAX_FILES", _files(store))  # no new workspace file
    session_end(store, tmp_path, project, [(SAID, "Noted.")])
    inbox = (store.root / "inbox.md").read_text()
    assert "The shop API runs on Postgres 15" in inbox, inbox
    assert "workspace:" in inbox
    elsewhere = [p for p in store.root.rglob("*.md") if ".git" not in p.parts and p.name != "inbox.md"]
    assert not any("Postgres" in p.read_text() for p in elsewhere)


def test_when_the_inbox_is_refused_too_the_batch_stays_buffered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    monkeypatch.setattr(limits, "MAX_FILES", _files(store))
    monkeypatch.setattr(limits, "FILE_MAX_BYTES", (store.root / "inbox.md").stat().st_size)  # the inbox is full
    session_end(store, tmp_path, project, [(SAID, "Noted.")])
    assert not any("Postgres" in text for text in entries(store))
    monkeypatch.undo()  # room again: the next checkpoint of the folder writes it
    session_end(store, tmp_path, project, [(SAID, "Noted."), ("Thanks.", "Bye.")])
    assert entries(store).get("The shop API runs on Postgres 15") == "user"


def test_the_users_line_waits_as_theirs_and_says_how_to_keep_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the limit the user's own line waits ``by: user`` with why (breaker17 B17-9: it waited ``by: agent``, so
    the agent was told to distrust the user's words), and accepting it says the one step that works."""
    project = tmp_path / "shop"
    project.mkdir()
    store = MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)
    monkeypatch.setattr(limits, "MAX_FILES", _files(store))
    session_end(store, tmp_path, project, [(SAID, "Noted.")])
    waiting = [e for e in store.read_file("inbox.md").entries if "Postgres 15" in e.text]
    assert len(waiting) == 1, waiting
    entry = waiting[0]
    assert entry.by == "user" and "limit refused" in entry.meta.get("waits", "")
    assert entry.meta.get("workspace")  # where it belongs, once there is room
    from memrepo.tui.widgets.entry_detail import provenance

    said = " ".join(provenance(entry))  # the app's Inbox: the user's words, not "Untrusted"
    assert "Your own words in a session; it waits here because a limit refused" in said and "Untrusted" not in said
    refused = store.accept(f"{entry.ref}@{entry.seen}")
    assert refused.action.value == "refused"
    assert f"memrepo inbox accept {entry.ref}@{entry.seen} --to me.md" in (refused.reason or "")
    kept = store.accept(f"{entry.ref}@{entry.seen}", target="me.md")
    assert kept.action.value == "added", kept
    assert entries(store).get("The shop API runs on Postgres 15") == "user"  # still the user's words
