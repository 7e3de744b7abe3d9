"""Everyday requests to forget said in a session (breaker23 B23-16, B23-14), through Claude Code's SessionEnd.

Before: only "Forget that <the line's words>" and "Forget the note about X" worked: "Forget that I prefer tabs."
(two of the line's four content words), "Please drop the note about tabs.", "You can forget my tabs preference.",
"That staging DB note is outdated, forget it.", "I'm not on call anymore, please forget that." and German
"Vergiss, dass ..." forgot nothing and left nothing in the inbox; "the note about migrations" said in the blog
proposed every line with the word, the blog's own among them. Now a request naming one of the user's lines
forgets it, one that names none comes to the inbox for the line it is nearest to, and the session's project's line
is the one named when it alone is there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hook_corrections import lines_of, remember, session_end, world  # noqa: F401  # world: a fixture
from test_hook_forget_request import head

from memrepo.engine.repo.store import MemoryStore

TABS = "I prefer tabs over spaces"
STAGING = "The staging DB is reset every night"
ON_CALL = "I'm on call this week"
PORT = "The shop API listens on port 8080"


def stored(store: MemoryStore, shop: Path) -> None:
    remember(store, TABS, kind="preference")
    remember(store, ON_CALL, kind="preference")
    remember(store, STAGING, shop)
    remember(store, PORT, shop)


def texts(store: MemoryStore) -> set[str]:
    found = {t for rel in ("me.md", "workspaces/shop.md") for t in lines_of(store, rel)}
    return found - {"Workspace shop"}


@pytest.mark.parametrize(
    ("said", "gone"),
    [
        ("Forget that I prefer tabs.", TABS),
        ("Please drop the note about tabs.", TABS),
        ("You can forget my tabs preference.", TABS),
        ("That staging DB note is outdated, forget it.", STAGING),
        ("I'm not on call anymore, please forget that.", ON_CALL),
        ("Delete the staging DB note.", STAGING),
    ],
)
def test_an_everyday_request_naming_one_of_the_users_lines_forgets_it(
    world,  # noqa: F811
    tmp_path: Path,
    said: str,
    gone: str,
) -> None:
    store, shop, _forky = world
    stored(store, shop)
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert texts(store) == {TABS, STAGING, ON_CALL, PORT} - {gone}
    assert head(store) == f"Forget: {gone}"


def test_a_request_that_names_no_line_waits_in_the_inbox_for_the_nearest(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    stored(store, shop)
    session_end(store, tmp_path, shop, [("Vergiss, dass die Staging-DB jede Nacht zurückgesetzt wird.", "OK.")])
    assert texts(store) == {TABS, STAGING, ON_CALL, PORT}  # never forgotten on a near miss
    inbox = lines_of(store, "inbox.md")
    assert set(inbox) == {STAGING} and inbox[STAGING]["forgets"] == "workspaces/shop.md"
    assert inbox[STAGING]["by"] == "user"


@pytest.mark.parametrize(
    "said",
    [
        "Delete the tests.",
        "Remove the old tests, forget it.",
        "Please remove that line from the README.",
        "Drop the staging DB tables and reseed them.",
        "Forget it, the staging DB is fine.",
        "You can forget about the port, I'll set it myself.",
    ],
)
def test_a_task_or_a_dismissal_forgets_nothing(world, tmp_path: Path, said: str) -> None:  # noqa: F811
    store, shop, _forky = world
    stored(store, shop)
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert texts(store) == {TABS, STAGING, ON_CALL, PORT}
    assert not any(meta.get("forgets") for meta in lines_of(store, "inbox.md").values())


def test_the_sessions_projects_line_is_the_one_named_when_it_alone_is_there(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    remember(store, "Shop migrations run nightly at 2am", shop)
    remember(store, "Review migrations before merging them")
    session_end(store, tmp_path, shop, [("Please forget the note about migrations.", "OK.")])
    assert "Shop migrations run nightly at 2am" not in lines_of(store, "workspaces/shop.md")
    assert "Review migrations before merging them" in lines_of(store, "me.md")
    assert head(store) == "Forget: Shop migrations run nightly at 2am"
    assert not lines_of(store, "inbox.md")
