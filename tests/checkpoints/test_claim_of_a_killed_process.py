"""A batch claimed by a process that was killed is taken over by the next checkpoint at once (breaker31 B31-10).

A SIGKILLed hook checkpoint left its claim, and for 15 minutes (``CLAIM_STALE_S``) every checkpoint of the workspace,
the session's own SessionEnd and the next session's included, wrote nothing. The claim now names its process: a
claim whose process is gone is stale at once; a live claimer's (another process, or another thread of this one) and
one written before claims named their process still wait.
"""

from __future__ import annotations

import os
import subprocess

from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.repo.store import MemoryStore


def _turn(n: int) -> list[dict]:
    return [
        {"id": f"u{n}", "role": "user", "text": f"Remember that orchard row {n} is planted with pears."},
        {"id": f"a{n}", "role": "assistant", "text": "Noted."},
    ]


def _claimed_by(cp: Checkpointer, **claimer: object) -> None:
    """Make the buffer's claim look like another process's (``pid``/``host`` as given, or left out)."""
    with cp._lock:
        data = cp._load("global")
        record = {k: v for k, v in data["claim"].items() if k not in ("pid", "host")}
        data["claim"] = {**record, **claimer}
        cp._save("global", data)


def _dead_pid() -> int:
    """The pid of a process that has ended (and been waited for): what a SIGKILLed checkpoint leaves."""
    proc = subprocess.Popen(["true"])  # ends at once
    proc.wait()
    return proc.pid


def test_a_dead_claimers_batch_is_taken_over_at_once(store: MemoryStore) -> None:
    cp = Checkpointer(store.state_dir, lambda: 1_000_000.0)
    _result, first = cp.submit("s1", None, _turn(1), "force")
    assert first is not None  # claimed by this process, as a hook's detached checkpoint claims
    host = cp._load("global")["claim"]["host"]
    _claimed_by(cp, pid=_dead_pid(), host=host)  # ... and then it was killed before it released the batch
    result, again = cp.submit("s1", None, _turn(2), "session_close")
    assert again is not None and result.status != "distilling"
    assert {m["id"] for m in again.messages} == {"s1/u1", "s1/a1", "s1/u2", "s1/a2"}  # the killed claim's messages too


def test_a_live_or_unknown_claimer_is_waited_for(store: MemoryStore) -> None:
    cp = Checkpointer(store.state_dir, lambda: 1_000_000.0)
    _result, first = cp.submit("s1", None, _turn(1), "force")
    assert first is not None
    host = cp._load("global")["claim"]["host"]
    claimers = ({"pid": os.getppid(), "host": host}, {"pid": _dead_pid(), "host": "another-host"}, {})
    for n, claimer in enumerate(claimers, 2):
        _claimed_by(cp, **claimer)  # alive; of another host (a shared disk); from before claims named a process
        result, claim = cp.submit("s1", None, _turn(n), "session_close")
        assert claim is None and result.status == "distilling", claimer
    _claimed_by(cp, pid=os.getpid(), host=host)  # this process: another thread distils it
    assert cp.submit("s1", None, _turn(9), "session_close")[1] is None


def test_a_dead_claimers_messages_are_said_to_wait_and_retried(store: MemoryStore) -> None:
    """With no later checkpoint of the workspace (the SessionEnd was the one killed), status, Health and the next
    session's retry see the messages: they were invisible, and ``memrepo status`` said "clean"."""
    cp = Checkpointer(store.state_dir, lambda: 1_000_000.0)
    assert cp.submit("s1", None, _turn(1), "force")[1] is not None
    assert cp.waiting() == [] and cp.waiting_line() is None  # a live claim: being distilled
    host = cp._load("global")["claim"]["host"]
    _claimed_by(cp, pid=_dead_pid(), host=host)
    (waiting,) = cp.waiting(passing_only=True)  # what the session-start hook retries
    assert (waiting.messages, waiting.sessions) == (2, ["s1"])
    assert "2 messages of session s1 not written yet (its checkpoint was stopped mid-way" in (cp.waiting_line() or "")
    assert cp.submit("s1", None, [], "force")[1] is not None  # the retry's forced stage takes the batch over
