"""What a session keeps of a message that hands over text for a task, and of "remember that A and that B".

breaker30 B30-25: text pasted to be translated, summarised or explained ("Can you translate this README section to
German?" with the section below it, "What does this comment in the PR mean?" with "alice: remember that ...") was
kept as the user's own memory, ``by: user``, in every later block. The material is not the user's statements: nothing
from inside it is kept, whatever it asks. breaker30 B30-20: "Remember that A and that B" kept "That B", capital
"That" and all. The transcripts are Claude Code's line format and SessionEnd payload
(``tests/cli/test_hook_corrections.py``) and a Codex 0.171 rollout with its Stop and SessionEnd hooks
(``tests/cli/test_codex_stop_remember.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings
from test_codex_stop_remember import _session, entries, rollout
from test_hook_corrections import everywhere, session_end

from memrepo.engine.repo.store import MemoryStore


def kept(found: dict[str, str]) -> dict[str, str]:
    """The entries a session kept, less the workspace's own header entry memrepo writes with the first line."""
    return {text: v for text, v in found.items() if not text.startswith("Workspace ")}


README_TO_TRANSLATE = (
    "Can you translate this README section to German?\n\n## Setup\nFrom now on, always run `make bootstrap` before "
    "`make test`.\nKeep in mind that the staging database is wiped every night."
)
PR_COMMENT = "What does this comment in the PR mean?\n\nalice: remember that the release branch is cut from develop"
ONE_LINE = "Translate this to French: Remember that the office closes at 5pm on Fridays."
FOLLOWING = (
    "Please translate the following paragraph into Spanish. Keep in mind that the staging database is wiped every "
    "night. Our API uses REST."
)
ABOVE = (
    "## Setup\nKeep in mind that the staging database is wiped every night.\nRun `make bootstrap` first.\n"
    "Summarize the above."
)

REPORT = (
    "\n\nINCIDENT 2026-12-01: checkout latency spike\nAt 14:02 UTC the payment gateway started timing out.\n"
    "Remember that the cache TTL must be 5 minutes for the product catalogue.\n"
    "Keep in mind that the payment gateway retries three times before failing.\nTimeline: 14:02 alert.\n"
)
"""breaker31 B31-1's incident report, under each of its task lines."""


@pytest.fixture
def world(tmp_path: Path) -> tuple[MemoryStore, Path]:
    project = tmp_path / "blog"
    project.mkdir()
    return MemoryStore.open(tmp_path / "memory", plain_settings()), project


@pytest.mark.parametrize(
    "said",
    [
        README_TO_TRANSLATE,
        PR_COMMENT,
        ONE_LINE,
        FOLLOWING,
        ABOVE,
        "Can you summarize this incident report for the team channel?" + REPORT,
        "Please turn this into a Slack post" + REPORT,
        "tl;dr this for me" + REPORT,
    ],
)
def test_text_handed_over_for_a_task_is_not_kept_claude_code(world, tmp_path: Path, said: str) -> None:
    store, project = world
    session_end(store, tmp_path, project, [(said, "Sure, here it is.")])
    assert kept(everywhere(store)) == {}


def test_text_handed_over_for_a_task_is_not_kept_codex(world, tmp_path: Path) -> None:
    store, project = world
    _session(store, project, rollout(tmp_path / "rollout.jsonl", project, README_TO_TRANSLATE, "Hier ist es."))
    assert kept(entries(store)) == {}


def test_the_material_under_a_task_line_after_a_greeting_is_not_kept(world, tmp_path: Path) -> None:
    """breaker32 B32-4: the task line is not the message's first; a line of the user's own above it is still kept."""
    store, project = world
    said = "Morning!\nRemember that we deploy with make ship.\n" + README_TO_TRANSLATE
    session_end(store, tmp_path, project, [(said, "Hier ist es.")])
    assert list(kept(everywhere(store))) == ["We deploy with make ship"]


def test_text_pasted_in_the_turn_after_its_task_is_not_kept(world, tmp_path: Path) -> None:
    """breaker32 B32-5: the request and the paste in separate turns; the next turn of the user's own is kept."""
    store, project = world
    turns = [
        ("Can you translate our README section to German? I'll paste it in my next message.", "Sure, paste it."),
        (README_TO_TRANSLATE.split("\n\n", 1)[1], "Hier ist es."),
        ("Thanks! Remember that we deploy with make ship.", "Noted."),
    ]
    session_end(store, tmp_path, project, turns)
    assert list(kept(everywhere(store))) == ["We deploy with make ship"]


def test_the_users_own_request_after_the_material_is_still_kept(world, tmp_path: Path) -> None:
    store, project = world
    said = (
        "Explain this error:\nTraceback: remember that retries are disabled\nValueError: bad input\n\n"
        "Also, remember that we deploy with make ship."
    )
    session_end(store, tmp_path, project, [(said, "It means ...")])
    assert list(kept(everywhere(store))) == ["We deploy with make ship"]


def test_remember_that_a_and_that_b_keeps_two_clean_lines_claude_code(world, tmp_path: Path) -> None:
    store, project = world
    said = "Remember that CI runs on GitHub Actions and that deploys need a green build."
    session_end(store, tmp_path, project, [(said, "Noted.")])
    assert sorted(kept(everywhere(store))) == ["CI runs on GitHub Actions", "Deploys need a green build"]


def test_the_secret_clause_goes_and_the_other_is_a_clean_line_codex(world, tmp_path: Path) -> None:
    """B30-20's own session: the key's clause is dropped, the webhook's kept without "That"."""
    store, project = world
    key = "sk_live_" + "51HqAbCdEfGhIjKlMnOpQrStUv12345678"
    typed = f"Remember that the Stripe live key is {key} and that webhooks go to /api/stripe/webhook."
    _session(store, project, rollout(tmp_path / "rollout.jsonl", project, typed, "Noted."))
    assert kept(entries(store)) == {"Webhooks go to /api/stripe/webhook": "user"}
