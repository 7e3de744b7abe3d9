"""memrepo's own values are never taken for secrets (engine/redaction/public.py, docs/architecture.md §3).

Before, the session id the MCP server makes (``mcp-`` + 16 hex) was redacted as a
vendor key in ``source: checkpoint mcp-…`` and as an assigned token in ``task: mcp-…``
for about three ids in four: the provenance was lost, ``clear task`` missed those lines,
and a hand move of memrepo's own lines asked a false "secret" question. Redacting a
text that already held ``[REDACTED:…]`` added a stray ``]`` and a new finding.
"""

from __future__ import annotations

import random
from pathlib import Path

from helpers.repo_helpers import git, plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.redaction import find, redact
from memrepo.engine.repo.store import MemoryStore

_RNG = random.Random(20261205)
IDS = [f"mcp-{_RNG.getrandbits(64):016x}" for _ in range(300)]
TOKEN = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12"


def test_no_session_id_memrepo_makes_is_a_secret_where_memrepo_writes_it() -> None:
    flagged = [
        text
        for sid in IDS
        for text in (
            f"source: checkpoint {sid}",
            f"task: {sid}",
            f"- Ships on Tuesdays [by: agent; added: 2026-12-05; source: checkpoint {sid}; task: {sid}]",
            f"memrepo clear task {sid}",
        )
        if find(text)
    ]
    assert flagged == []


def test_a_real_secret_beside_or_in_place_of_our_id_is_still_redacted() -> None:
    assert [slug for _s, _e, slug in find(f"task: {TOKEN}")] == ["github-token"]
    assert find(f"api_key = {IDS[0]}")  # our id shape with no label of ours: the rules decide as before
    text = f"- Bot token {TOKEN} [by: agent; source: checkpoint {IDS[1]}; task: {IDS[1]}]"
    out, types = redact(text)
    assert TOKEN not in out and types == ["github-token"] and out.count(IDS[1]) == 2


def test_redacting_a_redacted_text_changes_nothing() -> None:
    for text in (
        "the db password: Xy7-hunter-22q for the staging box",
        "Staging DB password is hunter2-Xq9!zz, host db.staging",
        f"- The deploy token is {TOKEN} [by: user]",
    ):
        once, types = redact(text)
        assert types, text
        assert redact(once) == (once, []), once
    assert redact("the db password: [REDACTED:labelled-secret] for the staging box")[1] == []
    assert redact("source: checkpoint %5BREDACTED:vendor-key%5D")[1] == []


def test_a_hand_move_of_memrepos_own_lines_asks_no_secret_question(repo_path: Path) -> None:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    for i, sid in enumerate(IDS[:8]):
        store.remember(Candidate(text=f"Agent fact number {i} about the shop", source=f"checkpoint {sid}", task=sid))
    me = git(repo_path, "show", "HEAD:me.md")
    assert all(f"source: checkpoint {sid}; task: {sid}]" in me for sid in IDS[:8])  # written as given
    moved = [line for line in me.splitlines(keepends=True) if "task: mcp-" in line]
    (repo_path / "topics").mkdir(exist_ok=True)
    (repo_path / "topics" / "prefs.md").write_text("# Prefs\n\n" + "".join(moved))  # Health's advice: a topic file
    assert [q.secrets for q in store.status().questions if q.secrets] == []


def test_an_inboxed_write_names_one_kind_and_leaves_no_stray_bracket(repo_path: Path) -> None:
    """The inbox path redacts twice: before, "[REDACTED:generic-password]]" and two kinds for one secret."""
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    done = store.remember(
        Candidate(text="Scraped note: the db password: Xy7-hunter-22q for the staging box", untrusted=True)
    )
    assert done.path == "inbox.md" and done.redacted == ["labelled-secret"]
    inbox = (repo_path / "inbox.md").read_text()
    assert "the db password: [REDACTED:labelled-secret] for the staging box [by: agent" in inbox
    assert "]]" not in inbox and "Xy7-hunter-22q" not in inbox
