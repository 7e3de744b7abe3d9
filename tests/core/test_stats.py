"""``memrepo stats``: a repo built with known writes by origin and known reads reports exactly those numbers."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers.mcp_helpers import call, mcp_session
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine import compute_stats
from memrepo.engine.models import Candidate
from memrepo.engine.read.readcount import SessionReads, load_counts, note_read
from memrepo.engine.repo.store import MemoryStore


def _user(text: str, kind: str = "fact") -> Candidate:
    return Candidate(text=text, kind=kind, by="user", origin="cli")


def _agent(text: str, untrusted: bool = False) -> Candidate:
    return Candidate(text=text, kind="fact", by="agent", origin="mcp", untrusted=untrusted)


def _build(root: Path) -> MemoryStore:
    store = MemoryStore.open(root, plain_settings())
    store.remember(_user("Sam prefers dark mode", "preference"))
    store.remember(_user("Sam's laptop runs Debian 12"))
    for text in ("The billing service uses Postgres 16", "CI runs on two cores", "Deploys happen on Tuesdays"):
        store.remember(_agent(text))
    kept = store.remember(_agent("The vendor page says the API is rate limited", untrusted=True))
    dropped = store.remember(_agent("The vendor page says to rotate keys hourly", untrusted=True))
    assert kept.ref and dropped.ref and kept.ref.startswith("repo:inbox.md")
    store.accept(kept.ref)
    inbox = store.read_file("inbox.md")
    store.discard(next(e.ref for e in inbox.entries if "rotate keys" in e.text))
    store.remember(_user("Sam prefers the dark mode theme", "correction"))  # repeats a saved fact
    with (root / "me.md").open("a", encoding="utf-8") as fh:
        fh.write("- Sam's cat is called Miso\n")
    store.commit_hand_edits()
    forgot = store.forget(store.remember(_agent("A line to forget again")).ref or "")
    store.undo(forgot.commit or "")
    return store


async def test_stats_report_exactly_the_known_writes_and_reads(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    store = _build(root)
    project = tmp_path / "project"
    project.mkdir()
    async with mcp_session(root, project) as session:  # a session that reads memory
        assert not (await call(session, "memory_context"))[0]
        assert not (await call(session, "memory_recall", query="billing"))[0]
    async with mcp_session(root, project) as session:  # a session that only writes
        error, text = await call(
            session, "memory_remember", content="Staging lives in eu-west-1", kind="fact", scope="global"
        )
        assert not error, text
    hook = SessionReads(store.git.git_dir, "hook")  # what the SessionStart hook does in its own process
    hook.note("context")
    note_read(store.git.git_dir, "recall")  # a UserPromptSubmit hook's recall in the same session

    result = CliRunner().invoke(main, ["--repo", str(root), "stats", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["facts"] == {"user": 4, "agent": 5, "import": 0, "inbox": 2}
    # 4 user: two CLI writes, the correction, the hand edit; 5 agent: three MCP writes, the forgotten line
    # (its undo adds nothing), the MCP session's write; 2 inbox (one later promoted, one discarded)
    assert (data["promoted"], data["discarded"]) == (1, 1)
    assert data["repeated_corrections"] == 1
    assert data["sessions_by_channel"] == {"hook": 1, "mcp": 2}
    assert (data["sessions"], data["sessions_read"]) == (3, 2)
    assert data["read_share"] == round(2 / 3, 4)
    assert data["reads"] == {"context": 2, "recall": 2}
    assert data["facts_per_10_sessions"] == {
        "user": round(40 / 3, 2),
        "agent": round(50 / 3, 2),
        "import": 0.0,
        "inbox": round(20 / 3, 2),
    }
    assert data["sizes"] and data["sizes"][-1]["memory_md_bytes"] == len((root / "MEMORY.md").read_bytes())
    assert data["commits"] == len(store.git.log(limit=10_000))

    text = CliRunner().invoke(main, ["--repo", str(root), "stats"]).output
    assert "sessions reading      2 of 3 (67%)" in text
    assert "1 promoted, 1 discarded" in text


def test_the_read_counter_holds_counts_only_and_survives_a_bad_file(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    reads = SessionReads(store.git.git_dir, "mcp")
    reads.note("recall")
    reads.note("recall")
    path = store.git.git_dir / "memrepo" / "reads.json"
    assert json.loads(path.read_text()) == {"reads": {"recall": 2}, "sessions": {"mcp": 1}, "sessions_read": {"mcp": 1}}
    path.write_text("{not json")
    assert load_counts(store.git.git_dir) == {"sessions": {}, "sessions_read": {}, "reads": {}}
    reads.note("context")  # a bad file is replaced, never an error for the agent
    assert load_counts(store.git.git_dir)["reads"] == {"context": 1}


def test_stats_of_a_new_repo_count_nothing(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    stats = compute_stats(store.root, store.git.git_dir)
    assert stats.facts == {"user": 0, "agent": 0, "import": 0, "inbox": 0}
    assert stats.sessions == 0 and stats.read_share is None and stats.facts_per_10_sessions is None
    assert stats.commits == 1 and len(stats.sizes) == 1
