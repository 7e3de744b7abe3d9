"""A ref given to an MCP tool means the entry the session was shown there, never the one that moved onto its line.

breaker30 B30-11: ``memory_forget`` of the same ref twice (a client's retry) removed the entry below it, which had
moved up onto that line, and answered "forgot" for the one named. B30-14: ``memory_forget`` took no ref without
``repo:`` (the block's ``me.md#L5``), which ``memory_read`` takes. The tools are called in process.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.mcp_helpers import call_in, mcp_in_process
from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

KEYS = "The spare keys are with the neighbour at number 12"
BOILER = "The boiler service is due every October"


@pytest.fixture
def mem(tmp_path: Path) -> Path:
    MemoryStore.open(tmp_path / "memory", plain_settings())
    return tmp_path / "memory"


def _me(mem: Path) -> str:
    return (mem / "me.md").read_text(encoding="utf-8")


def _log(mem: Path) -> str:
    return subprocess.run(["git", "-C", str(mem), "log", "--format=%s"], capture_output=True, text=True).stdout


async def test_a_retried_forget_never_removes_the_entry_that_moved_up(mem: Path, tmp_path: Path) -> None:
    async with mcp_in_process(mem, tmp_path) as server:
        err, keys = await call_in(server, "memory_remember", content=KEYS, kind="fact", scope="global")
        assert not err and keys.startswith("added repo:me.md#L"), keys
        err, boiler = await call_in(server, "memory_remember", content=BOILER, kind="fact", scope="global")
        assert not err, boiler
        ref = keys.split()[1]
        assert await call_in(server, "memory_forget", ref=ref) == (False, f"forgot {ref}")
        err, again = await call_in(server, "memory_forget", ref=ref)  # the client's retry
        assert err and "already forgotten" in again and "recall again" in again, again
        err, read = await call_in(server, "memory_read", ref_or_path=ref)  # says so, then reads what is there now
        assert not err and read.startswith(f"({ref} is already forgotten") and BOILER in read, read
        assert await call_in(server, "memory_forget", ref=ref) == (False, f"forgot {ref}")  # read: now it is meant
    assert BOILER not in _me(mem) and KEYS not in _me(mem)
    forgets = [line for line in _log(mem).splitlines() if line.startswith("Forget")]
    assert len(forgets) == 2 and "boiler" in forgets[0] and "spare keys" in forgets[1], forgets


async def test_a_ref_whose_line_moved_is_refused_and_says_where_the_entry_went(mem: Path, tmp_path: Path) -> None:
    store = MemoryStore.open(mem, plain_settings())
    user = store.remember(Candidate(text="Prefers tea over coffee", kind="preference", by="user", origin="cli"))
    async with mcp_in_process(mem, tmp_path) as server:
        _, keys = await call_in(server, "memory_remember", content=KEYS, kind="fact", scope="global")
        _, boiler = await call_in(server, "memory_remember", content=BOILER, kind="fact", scope="global")
        keys_ref, boiler_ref = keys.split()[1], boiler.split()[1]
        assert user.ref is not None
        store.forget(user.ref)  # the user forgets a line above: both lines move up one
        err, text = await call_in(server, "memory_forget", ref=boiler_ref)  # now past the end
        assert err and f"the entry you saw is now {keys_ref}" in text, text
        err, text = await call_in(server, "memory_forget", ref=keys_ref)  # now holds the boiler line
        assert err and "not the entry you meant" in text and "boiler" in text and boiler_ref not in _me(mem), text
        assert KEYS in _me(mem) and BOILER in _me(mem)
        err, found = await call_in(server, "memory_recall", query="spare keys neighbour")
        assert not err and f"{user.ref} (agent)" in found, found  # recalled: the new ref is bound to the keys line
        assert await call_in(server, "memory_forget", ref=str(user.ref).removeprefix("repo:")) == (
            False,
            f"forgot {user.ref}",
        )  # without repo:, as memory_read takes it (B30-14)
    assert KEYS not in _me(mem) and BOILER in _me(mem)


async def test_a_ref_the_session_was_never_shown_is_taken_as_it_reads(mem: Path, tmp_path: Path) -> None:
    """A ref from the hooks' block (outside this session) still forgets, with the server started to allow it."""
    store = MemoryStore.open(mem, plain_settings())
    done = store.remember(Candidate(text=KEYS, kind="fact", by="agent", origin="cli"))
    async with mcp_in_process(mem, tmp_path, allow_forget_any=True) as server:
        assert await call_in(server, "memory_forget", ref=str(done.ref)) == (False, f"forgot {done.ref}")
    assert KEYS not in _me(mem)


async def test_a_supersedes_ref_whose_line_changed_is_refused(mem: Path, tmp_path: Path) -> None:
    store = MemoryStore.open(mem, plain_settings())
    user = store.remember(Candidate(text="Prefers tea over coffee", kind="preference", by="user", origin="cli"))
    async with mcp_in_process(mem, tmp_path) as server:
        _, fly = await call_in(
            server, "memory_remember", content="The shop deploys to Fly.io", kind="fact", scope="global"
        )
        _, ci = await call_in(server, "memory_remember", content="Our CI runs on Jenkins", kind="fact", scope="global")
        assert user.ref is not None
        store.forget(user.ref)  # Jenkins moves onto the Fly line's number
        err, text = await call_in(
            server,
            "memory_remember",
            content="The shop deploys to Render now",
            kind="fact",
            scope="global",
            supersedes=fly.split()[1],
        )
        assert err and "not the entry you meant" in text and "Jenkins" in text, text
        assert "Render" not in _me(mem)
        err, text = await call_in(
            server,
            "memory_remember",
            content="The shop deploys to Render now",
            kind="fact",
            scope="global",
            supersedes=user.ref.removeprefix("repo:"),  # the Fly line's ref now, as the block shows it
        )
        assert not err and text.startswith("added"), text  # never shown to this session: taken as it reads
    assert "supersedes: The shop deploys to Fly.io;" in _me(mem) and "Jenkins" in _me(mem) and ci


async def test_recall_of_a_forgotten_ref_says_so_never_the_nearest_words(mem: Path, tmp_path: Path) -> None:
    """B30-14: the query "repo:me.md#L17" of a forgotten line got the nearest entries to its words."""
    async with mcp_in_process(mem, tmp_path) as server:
        await call_in(server, "memory_remember", content=BOILER, kind="fact", scope="global")
        _, keys = await call_in(server, "memory_remember", content=KEYS, kind="fact", scope="global")
        ref = keys.split()[1]
        await call_in(server, "memory_forget", ref=ref)
        err, text = await call_in(server, "memory_recall", query=ref.removeprefix("repo:"))
    assert not err and f"No entry is on {ref}" in text and "already forgotten" in text, text
    assert "nearest" not in text and BOILER not in text


async def test_a_line_recall_showed_redacted_is_still_the_one_meant(mem: Path, tmp_path: Path) -> None:
    """Recall shows a hand-saved secret redacted while the file holds it whole: the same entry, not a changed one."""
    me = mem / "me.md"
    me.write_text(me.read_text() + "- The deploy token is ghp_4fQzZx8Kq2Lm9Np4Rt6Vw1Yb3Cd5Fg7Hj0Kl [by: agent]\n")
    git = ["git", "-C", str(mem), "-c", "user.name=Me", "-c", "user.email=me@example.com"]
    subprocess.run([*git, "commit", "-qam", "A line saved by hand, secret and all"], check=True)
    async with mcp_in_process(mem, tmp_path, allow_forget_any=True) as server:
        err, found = await call_in(server, "memory_recall", query="deploy token")
        assert not err and "[REDACTED:github-token]" in found, found
        ref = found.splitlines()[-1].split()[0]
        assert await call_in(server, "memory_forget", ref=ref) == (False, f"forgot {ref}")
    assert "deploy token" not in me.read_text()
