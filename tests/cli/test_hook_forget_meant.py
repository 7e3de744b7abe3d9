"""Forgetting said in other words, through Claude Code's SessionEnd and a real git repo (issue 30, forget16).

Before: "What I told you about the staging DB is outdated. Delete it from memory.", "Forget what I told you about
the nightly reset of staging, that DB got wiped." and "Forget what I mentioned about the staging DB reset, it's no
longer true." forgot nothing: no request was heard, or the topic (in other words) named no line. A topic in other
words said without a reason, or another project's line, is never forgotten.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hook_corrections import lines_of, remember, session_end, world  # noqa: F401  # world: a fixture
from test_hook_forget_request import head

STAGING = "The staging DB is reset every night"
PORT = "The shop API listens on port 8080"
FORKY = "Forky's staging DB is reset every night too"


@pytest.mark.parametrize(
    "said",
    [
        "What I told you about the staging DB is outdated. Delete it from memory.",
        "Forget what I told you about the nightly reset of staging, that DB got wiped.",
        "Forget what I mentioned about the staging DB reset, it's no longer true.",
    ],
)
def test_a_request_in_other_words_forgets_the_line_meant(world, tmp_path: Path, said: str) -> None:  # noqa: F811
    store, shop, forky = world
    remember(store, STAGING, shop)
    remember(store, PORT, shop)
    remember(store, FORKY, forky)
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert set(lines_of(store, "workspaces/shop.md")) - {"Workspace shop"} == {PORT}
    assert head(store) == f"Forget: {STAGING}"
    assert FORKY in lines_of(store, "workspaces/forky.md")  # another project's line stays


@pytest.mark.parametrize(
    "said",
    [
        "Forget what I told you about the staging DB password.",  # no reason it is over: proposed at most
        "Don't forget what I told you about the staging DB, it's outdated.",
        "Should I delete what I told you about the staging DB?",
    ],
)
def test_a_look_alike_forgets_nothing(world, tmp_path: Path, said: str) -> None:  # noqa: F811
    store, shop, forky = world
    remember(store, STAGING, shop)
    remember(store, PORT, shop)
    remember(store, FORKY, forky)
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert set(lines_of(store, "workspaces/shop.md")) - {"Workspace shop"} == {STAGING, PORT}
    assert FORKY in lines_of(store, "workspaces/forky.md")
