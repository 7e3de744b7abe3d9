"""The user's "Please forget that ..." said in a session reaches memory (breaker14 B14-10).

Before: "Please forget that I am on call this week, that is over." did nothing (the hooks honoured "Remember that
...", never its reverse), and the next block still said "I'm on call this week". Now, through Claude Code's real
SessionEnd payload and transcript: the user's own line the request names alone is forgotten; a request that names
several lines (or an agent's line) forgets nothing and waits in the inbox, one request per line, which ``memrepo
inbox accept`` carries out in one commit; look-alikes change nothing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_hook_corrections import lines_of, remember, session_end, world  # noqa: F401  # world: a fixture

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

ON_CALL = "I'm on call this week"
PAGER = "The pager rotation is in PagerDuty"
WINDOW = "The deploy window is Tuesday"
FLY = "We deploy with fly deploy"


def stored(store: MemoryStore, shop: Path) -> dict[str, str]:
    lines = {ON_CALL: remember(store, ON_CALL, kind="preference"), PAGER: remember(store, PAGER, shop)}
    lines[WINDOW] = remember(store, WINDOW, shop)
    lines[FLY] = remember(store, FLY, shop)
    return lines


def texts(store: MemoryStore) -> set[str]:
    found = {t for rel in ("me.md", "workspaces/shop.md") for t in lines_of(store, rel)}
    return found - {"Workspace shop"}  # the workspace file's header line


def head(store: MemoryStore) -> str:
    return subprocess.run(
        ["git", "log", "-1", "--format=%s"], cwd=store.root, capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.mark.parametrize(
    ("said", "gone"),
    [
        ("Please forget that I am on call this week, that is over.", ON_CALL),
        ("Forget the note about the pager rotation.", PAGER),
        ("Can you forget what I said about the deploy window.", WINDOW),
        ("Please forget my note about the pager rotation from memory.", PAGER),
    ],
)
def test_a_request_naming_one_of_the_users_lines_forgets_it(world, tmp_path: Path, said: str, gone: str) -> None:  # noqa: F811
    store, shop, _forky = world
    stored(store, shop)
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert texts(store) == {ON_CALL, PAGER, WINDOW, FLY} - {gone}
    assert head(store).startswith("Forget: ")
    assert gone not in store.context(str(shop)).text
    assert not lines_of(store, "inbox.md")


@pytest.mark.parametrize(
    "said",
    [
        "Don't forget that I'm on call this week.",
        "Forget it.",
        "Forget about it, let's move on.",
        "Forget that, the deploy window is Tuesday.",
        'My manager said "please forget that I\'m on call this week".',
        "Did you forget that I'm on call this week?",
        "I always forget that I'm on call this week.",
        "If you forget that the deploy window is Tuesday, the release breaks.",
        "Forget about the deadline for now, focus on the tests.",
        "Forget that the tests are flaky and just ship it.",
        "Never forget that the deploy window is Tuesday.",
        "Please forget that I am on call this week. Just kidding.",
        "Here is the runbook:\nForget the note about the pager rotation.\nStep two: page the lead.\nSummarize it.",
    ],
)
def test_a_look_alike_forgets_nothing(world, tmp_path: Path, said: str) -> None:  # noqa: F811
    store, shop, _forky = world
    stored(store, shop)
    session_end(store, tmp_path, shop, [(said, "OK.")])
    assert {ON_CALL, PAGER, WINDOW, FLY} <= texts(store)
    assert not any(meta.get("forgets") for meta in lines_of(store, "inbox.md").values())


def test_a_request_naming_several_lines_waits_in_the_inbox_and_accept_forgets_one(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    stored(store, shop)
    session_end(store, tmp_path, shop, [("Forget the note about deploy.", "OK.")])
    assert {WINDOW, FLY} <= texts(store)  # never forgotten on an ambiguous match
    inbox = lines_of(store, "inbox.md")
    assert set(inbox) == {WINDOW, FLY}
    assert all(meta["by"] == "user" and meta["forgets"] == "workspaces/shop.md" for meta in inbox.values())
    listing = CliRunner().invoke(main, ["--repo", str(store.root), "inbox"]).output
    row = next(line for line in listing.splitlines() if FLY in line)
    assert "-> workspaces/shop.md" in row and "you asked to forget this line" in row
    done = CliRunner().invoke(main, ["--repo", str(store.root), "inbox", "accept", row.split()[0]])
    assert done.exit_code == 0 and "forgot the line of workspaces/shop.md" in done.output, done.output
    assert FLY not in texts(store) and WINDOW in texts(store)
    assert set(lines_of(store, "inbox.md")) == {WINDOW}
    assert head(store) == f"Forget: {FLY}"
    changed = subprocess.run(
        ["git", "show", "--name-only", "--format=", "HEAD"], cwd=store.root, capture_output=True, text=True, check=True
    ).stdout.split()
    assert sorted(changed) == ["inbox.md", "workspaces/shop.md"]  # one commit


def test_an_agents_line_is_only_proposed(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    store.remember(Candidate(text=PAGER, scope="workspace", workspace=str(shop), origin="cli"))
    session_end(store, tmp_path, shop, [("Forget the note about the pager rotation.", "OK.")])
    assert PAGER in lines_of(store, "workspaces/shop.md")
    assert lines_of(store, "inbox.md")[PAGER]["forgets"] == "workspaces/shop.md"


def _second_session(store: MemoryStore, tmp_path: Path, shop: Path, said: str) -> None:
    """A second Claude Code session in ``shop`` whose user says ``said``, checkpointed by its SessionEnd hook."""
    import json

    from test_hook_corrections import transcript_line

    later = tmp_path / "s2.jsonl"
    lines = [
        transcript_line("s2", shop, 1, "user", said, None),
        transcript_line("s2", shop, 1, "assistant", "OK.", "u1"),
    ]
    later.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    payload = {"session_id": "s2", "transcript_path": str(later), "cwd": str(shop), "hook_event_name": "SessionEnd"}
    done = CliRunner().invoke(
        main,
        ["--repo", str(store.root), "checkpoint", "--from-claude-hook"],
        input=json.dumps({**payload, "reason": "x"}),
    )
    assert done.exit_code == 0, done.output


def test_a_line_kept_with_its_dates_is_forgotten_in_the_words_it_was_said_in(world, tmp_path: Path) -> None:  # noqa: F811
    """ "I'm on call this week" is kept as "I'm on call the week of <Monday>" (B14-8); the next session's "Please
    forget that I am on call this week" still names it (the dates are a time's words, not what the line says)."""
    store, shop, _forky = world
    session_end(store, tmp_path, shop, [("Remember that I'm on call this week.", "OK.")])
    assert [t for t in lines_of(store, "me.md") if "on call the week of" in t]
    _second_session(store, tmp_path, shop, "Please forget that I am on call this week, that is over.")
    assert not [t for t in lines_of(store, "me.md") if "on call" in t]
    assert head(store).startswith("Forget: I'm on call the week of")


def test_a_dated_line_with_more_words_is_named_by_its_time(world, tmp_path: Path) -> None:  # noqa: F811
    """breaker29 B29-4: "I'm on call the week of <Monday> for the payments team" shares one content word ("call")
    with "forget that I'm on call this week": the request's "this week", dated as the writer dated the line, is the
    second word in common, so the line is forgotten (before: nothing, not even an inbox request)."""
    store, shop, _forky = world
    session_end(store, tmp_path, shop, [("Remember that I'm on call this week for the payments team.", "OK.")])
    assert [t for t in lines_of(store, "me.md") if "payments team" in t]
    _second_session(store, tmp_path, shop, "Please forget that I'm on call this week.")
    assert not [t for t in lines_of(store, "me.md") if "on call" in t]
    assert head(store).startswith("Forget: I'm on call the week of")
