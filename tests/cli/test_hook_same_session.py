"""What the user says in one session is kept as they meant it (breaker17 B17-5, B17-12, fix11a).

Before: "Remember that the deploy window is Tuesday." then "No wait, the deploy window is Wednesday." in the SAME
session kept Tuesday and dropped Wednesday (the correction was asked only of the lines stored before the batch);
"Don't save that" / "Delete that from memory" / "Never mind the CDN thing" after "Remember that X" kept X. Each case
goes through Claude Code 2.1's SessionEnd payload and transcript lines (as ``tests/cli/test_hook_corrections.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from test_hook_corrections import everywhere
from test_hook_corrections import session_end as turns_end

from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


def session_end(store: MemoryStore, tmp_path: Path, project: Path, said: list[str]) -> None:
    """Write a transcript of the user's messages (each answered "OK.") and run the SessionEnd checkpoint on it."""
    turns_end(store, tmp_path, project, [(text, "OK.") for text in said])


@pytest.fixture
def world(tmp_path: Path) -> tuple[MemoryStore, Path]:
    shop = tmp_path / "shop"
    shop.mkdir()
    return MemoryStore.open(tmp_path / "memory", plain_settings()), shop


@pytest.mark.parametrize(
    ("said", "new", "old"),
    [
        (["Remember that the deploy window is Tuesday.", "No wait, the deploy window is Wednesday."],
         "the deploy window is Wednesday", "Tuesday"),
        (["Remember that the billing service is written in Go.", "The billing service is written in Rust now, not Go."],
         "The billing service is written in Rust now, not Go", "written in Go"),
        (["Remember that the CDN is Cloudflare.", "Actually, the CDN is Fastly."], "the CDN is Fastly", "Cloudflare"),
        (["Remember that the deploy window is Tuesday. No wait, the deploy window is Wednesday."],
         "the deploy window is Wednesday", "Tuesday"),  # in one message (the lead's trial)
    ],
)  # fmt: skip
def test_a_correction_of_a_request_in_the_same_session_keeps_the_new_value_only(
    world, tmp_path: Path, said: list[str], new: str, old: str
) -> None:
    store, shop = world
    session_end(store, tmp_path, shop, said)
    found = everywhere(store)
    assert any(text.casefold() == new.casefold() for text in found), found
    assert not any(old in text and "not Go" not in text for text in found), found
    assert old not in store.context(str(shop)).text.replace("not Go", "")


@pytest.mark.parametrize(
    "said",
    [
        ["Remember that the deploy window is Tuesday.", "Is the deploy window Wednesday now?"],  # a question
        ["Remember that the deploy window is Tuesday.", "Bob says the deploy window is Wednesday now."],  # hearsay
        ["Remember that the deploy window is Tuesday.", "If the deploy window is Wednesday now, what breaks?"],
        ["No wait, the deploy window is Wednesday.", "Remember that the deploy window is Tuesday."],  # the other order
        ["Remember that the deploy window is Tuesday. Bob says the deploy window is Wednesday."],  # one message
    ],
)
def test_a_look_alike_after_a_request_leaves_the_request(world, tmp_path: Path, said: list[str]) -> None:
    store, shop = world
    session_end(store, tmp_path, shop, said)
    found = everywhere(store)
    assert [t for t in found if "deploy window" in t] == ["The deploy window is Tuesday"], found


@pytest.mark.parametrize(
    "second",
    [
        "Don't save that.",
        "Hmm, don't save that one, I'm not sure it's true.",
        "Please don't store that.",
        "Wait, don't remember that, it's wrong.",
        "Delete that from memory.",
        "Never mind the CDN thing.",
        "Ignore what I said about the CDN.",
    ],
)
def test_a_take_back_right_after_a_request_keeps_nothing(world, tmp_path: Path, second: str) -> None:
    store, shop = world
    session_end(store, tmp_path, shop, ["Remember that the CDN is Fastly.", second])
    assert not any("Fastly" in text for text in everywhere(store))
    assert "Fastly" not in store.context(str(shop)).text


@pytest.mark.parametrize(
    "second",
    [
        "Don't save that file yet, I'm still editing it.",  # a file, not the request
        "Don't keep it in the repo.",
        "Never mind the tests, the CDN matters.",
        "Can you make the deploy script not save that log?",
    ],
)
def test_a_look_alike_of_a_take_back_keeps_the_request(world, tmp_path: Path, second: str) -> None:
    store, shop = world
    session_end(store, tmp_path, shop, ["Remember that the CDN is Fastly.", second])
    assert "The CDN is Fastly" in everywhere(store)


def test_a_take_back_reaches_only_the_message_before(world, tmp_path: Path) -> None:
    store, shop = world
    said = ["Remember that the CDN is Fastly.", "Now refactor the deploy script.", "Don't save that."]
    session_end(store, tmp_path, shop, said)
    assert "The CDN is Fastly" in everywhere(store)


@pytest.mark.parametrize(
    ("stored", "said", "new"),
    [
        ("I live in Berlin", "I live in Lisbon now.", "I live in Lisbon now"),
        ("My shell is fish", "Actually my shell is zsh now.", "my shell is zsh now"),
        ("The billing service is written in Go", "The billing service is written in Rust now, not Go.",
         "The billing service is written in Rust now, not Go"),
        ("The standup is in the morning", "Actually the standup is in the evening now.",
         "the standup is in the evening now"),
    ],
)  # fmt: skip
def test_an_everyday_correction_of_a_stored_line_replaces_it(
    world, tmp_path: Path, stored: str, said: str, new: str
) -> None:
    store, shop = world
    about_me = stored.startswith(("I ", "My "))
    cand = Candidate(
        text=stored,
        kind="fact",
        scope="global" if about_me else "workspace",
        workspace=None if about_me else str(shop),
        by="user",
        origin="cli",
    )
    assert store.remember(cand).action is Action.ADDED
    session_end(store, tmp_path, shop, [said])
    found = everywhere(store)
    got = next(text for text in found if text.casefold() == new.casefold())
    assert found[got] == ("me.md" if about_me else found[stored])
    block = store.context(str(shop)).text
    assert got in block and stored not in block


@pytest.mark.parametrize(
    "said",
    [
        "Remember this permanently: the staging DB resets nightly.",
        "Remember, always: the staging DB resets nightly.",
        "Remember that for later: the staging DB resets nightly.",
        "Remember for next time: the staging DB resets nightly.",
        "Always remember: the staging DB resets nightly.",
        "Remember forever that the staging DB resets nightly.",
        "Save this for later: the staging DB resets nightly.",
        "Keep this in mind for the future: the staging DB resets nightly.",
        "Pin this: the staging DB resets nightly.",
    ],
)
def test_a_request_with_a_qualifier_keeps_the_statement_alone(world, tmp_path: Path, said: str) -> None:
    """breaker17 B17-13: the qualifier was kept glued on ("This permanently: ...") or nothing was kept."""
    store, shop = world
    session_end(store, tmp_path, shop, [said])
    found = [text for text in everywhere(store) if "staging DB" in text]
    assert found == ["The staging DB resets nightly"]


@pytest.mark.parametrize(
    "said",
    [
        "Save this, the staging DB resets nightly.",  # a file to save, then a remark
        "Pin this tab: the staging DB resets nightly.",
        "I always remember: the staging DB resets nightly.",
        "Save this for later, the staging DB resets nightly.",
        "Remember forever is a long time, the staging DB resets nightly.",
    ],
)
def test_a_look_alike_of_a_qualified_request_keeps_nothing(world, tmp_path: Path, said: str) -> None:
    store, shop = world
    session_end(store, tmp_path, shop, [said])
    assert not any("staging DB" in text for text in everywhere(store))


def test_a_projects_fact_said_with_i_stays_in_its_workspace(world, tmp_path: Path) -> None:
    """breaker17 B17-11: "I ... this repo / this blog / here" went to me.md, so every other project's block said it."""
    store, shop = world
    other = tmp_path / "other"
    other.mkdir()
    said = [
        "Remember that I'm the only maintainer of this repo.",
        "Remember that I deploy this blog by hand every Sunday.",
        "Remember that my build here needs Node 18, not 20.",
        "Remember that I prefer British spelling in all my writing.",
        "Remember that I moved here from Berlin.",
    ]
    session_end(store, tmp_path, shop, said)
    found = everywhere(store)
    for text in ("I'm the only maintainer of this repo", "I deploy this blog by hand every Sunday"):
        assert found[text].startswith("workspaces/"), found
    assert found["My build here needs Node 18, not 20"].startswith("workspaces/"), found
    assert found["I prefer British spelling in all my writing"] == "me.md"
    assert found["I moved here from Berlin"] == "me.md"  # the user's own place
    block = store.context(str(other)).text
    assert "only maintainer" not in block and "Node 18" not in block and "British spelling" in block


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("Always squash merges", "From now on, never squash merges."),
        ("Always run the full test suite before pushing",
         "From now on, never run the full test suite before pushing, just the fast tests."),
    ],
)  # fmt: skip
def test_a_rule_turned_around_waits_in_the_inbox(world, tmp_path: Path, stored: str, said: str) -> None:
    """breaker17 B17-14: docs/agents.md says the opposite of a stored rule waits in the inbox; it was written
    ``by: user`` at once and hid the old rule."""
    store, shop = world
    cand = Candidate(text=stored, kind="rule", scope="global", workspace=None, by="user", origin="cli")
    assert store.remember(cand).action is Action.ADDED
    session_end(store, tmp_path, shop, [said])
    found = everywhere(store)
    new = [text for text in found if text.casefold().startswith("never")]
    assert new and all(found[text] == "inbox.md" for text in new), found
    assert stored in store.context(str(shop)).text


def test_a_rule_with_a_new_value_still_replaces_its_older_one(world, tmp_path: Path) -> None:
    store, shop = world
    cand = Candidate(text="Write all commit messages in English", kind="rule", scope="global", by="user", origin="cli")
    assert store.remember(cand).action is Action.ADDED
    session_end(store, tmp_path, shop, ["Going forward, write all commit messages in German."])
    block = store.context(str(shop)).text
    assert "in German" in block and "in English" not in block
