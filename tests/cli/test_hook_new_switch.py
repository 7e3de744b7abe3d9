"""A switch naming only its new value, through the real SessionEnd checkpoint (breaker30 B30-1's rest, B30-21; sess20).

"I'm on Zellij these days"-style statements name no old value. A value of a known family replaces the user's line of
that family in me.md (the block hides the old one); a name of no known family waits in inbox.md ``by: user``, saying
why (here without the meaning model: ``MEMREPO_SEMANTIC=off``). Our own phrasings; the transcripts as
``tests/cli/test_hook_corrections.py`` writes them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hook_corrections import everywhere, lines_of, remember, session_end, world  # noqa: F401  (the fixture)

from memrepo.engine.checkpoints import meaningmatch
from memrepo.engine.checkpoints.newswitch import NO_MODEL_WAITS, SEVERAL_WAITS


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_SEMANTIC", "off")
    meaningmatch.reset()


def test_a_known_kind_replaces_the_users_line_everywhere(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, forky = world
    remember(store, "I edit code in Sublime", kind="preference")
    session_end(store, tmp_path, shop, [("Quick update: I'm using Helix these days.", "Noted.")])
    meta = lines_of(store, "me.md")["I'm using Helix these days"]
    assert meta["by"] == "user" and meta["supersedes"] == "I edit code in Sublime"
    block = store.context(str(forky)).text
    assert "Helix" in block and "I edit code in Sublime" not in block.replace("~~", "")


def test_a_name_of_no_known_kind_waits_in_the_inbox_saying_why(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    remember(store, "I keep my notes in Bear", kind="preference")
    session_end(store, tmp_path, shop, [("I switched to Capacities.", "OK.")])
    meta = lines_of(store, "inbox.md")["I switched to Capacities"]
    assert meta["by"] == "user" and meta["waits"] == NO_MODEL_WAITS.replace(";", "%3B")
    assert everywhere(store)["I keep my notes in Bear"] == "me.md"  # nothing hidden until accepted


def test_two_lines_of_its_kind_make_a_proposal_naming_the_newest(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    remember(store, "I run Chrome at work", kind="preference")
    remember(store, "I browse with Safari at home", kind="preference")
    session_end(store, tmp_path, shop, [("Now I use Firefox.", "OK.")])
    meta = lines_of(store, "inbox.md")["Now I use Firefox"]
    assert meta["by"] == "user" and meta["corrects"] == "me.md" and meta["waits"] == SEVERAL_WAITS
    assert meta["supersedes"] == "I browse with Safari at home"
