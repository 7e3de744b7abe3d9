"""Checkpoints (docs/architecture.md §7, DSH seed): buffering, triggers under an injectable clock, distillation
through real providers (a ``command`` script, a fake OpenAI-compatible server on 127.0.0.1), conflicts,
malformed output, and forgetting a session while its distillation is queued."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from helpers.dream_helpers import settings
from helpers.fake_endpoint import FakeEndpoint

from memrepo.engine.checkpoints.checkpoint import CHARS, IDLE_S, MAX_CALL_BYTES, Checkpointer
from memrepo.engine.checkpoints.flow import finish_claim, run_checkpoint
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.sync.conflicts import conflicts_in


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def cp(store: MemoryStore, clock: Clock) -> Checkpointer:
    return Checkpointer(store.state_dir, clock)


def turn(n: int, text: str | None = None) -> list[dict]:
    return [
        {"id": f"u{n}", "role": "user", "text": text or f"question number {n} about the build"},
        {"id": f"a{n}", "role": "assistant", "text": f"answer {n}"},
    ]


def command_settings(home: Path, tmp_path: Path, answer: str) -> object:
    """Settings whose ``command`` provider is a real script printing ``answer``."""
    reply = tmp_path / "reply.json"
    reply.write_text(answer)
    script = tmp_path / "provider.py"
    script.write_text(f"import sys\nsys.stdin.read()\nsys.stdout.write(open({str(reply)!r}).read())\n")
    return settings(home, provider="command", command={"argv": [sys.executable, str(script)]})


def test_triggers_turns_chars_idle_task_end_and_close(
    store: MemoryStore, cp: Checkpointer, clock: Clock, tmp_path: Path
) -> None:
    cfg = settings(tmp_path)
    ws = str(tmp_path / "proj")
    for n in range(9):
        result = run_checkpoint(store, cp, cfg, "s1", ws, turn(n))
        assert result.status == "buffered" and result.trigger is None
    result = run_checkpoint(store, cp, cfg, "s1", ws, turn(9, "Remember that the build needs Node 22."))
    assert result.trigger == "turns" and result.status == "distilled" and result.pending == 0
    assert any("The build needs Node 22" in h.text for h in store.recall("Node 22", workspace=ws))

    big = [{"id": "big", "role": "user", "text": "word " * (CHARS // 5 + 1)}]
    result = run_checkpoint(store, cp, cfg, "s2", ws, big)
    assert result.trigger == "chars" and result.status == "empty"

    result = run_checkpoint(store, cp, cfg, "s3", ws, turn(1))
    assert result.status == "buffered"
    clock.now += IDLE_S - 1
    assert run_checkpoint(store, cp, cfg, "s3", ws, []).trigger is None
    assert cp.due_scopes() == []
    clock.now += 2
    assert cp.due_scopes() == [Checkpointer.scope_of(ws)[0]]  # a watcher tick sees it
    result = run_checkpoint(store, cp, cfg, "s3", ws, [])
    assert result.trigger == "idle" and result.pending == 0

    assert run_checkpoint(store, cp, cfg, "s4", ws, turn(1), "task_end").trigger == "task_end"
    assert run_checkpoint(store, cp, cfg, "s5", ws, turn(1), "session_close").trigger == "session_close"
    assert run_checkpoint(store, cp, cfg, "s6", None, [], "force").trigger is None  # nothing buffered


def test_a_closing_checkpoint_with_nothing_to_keep_writes_no_buffer(store: MemoryStore, cp: Checkpointer) -> None:
    """Every MCP session closes with an empty checkpoint; an empty buffer file made compaction read every old blob."""
    result, claim = cp.submit("s-empty", "/tmp/project", [], "session_close")
    assert (result.status, result.pending, claim) == ("buffered", 0, None)
    assert not (store.state_dir / "checkpoints").exists() or not list((store.state_dir / "checkpoints").iterdir())
    cp.submit("s-empty", "/tmp/project", [], "session_close", untrusted=True)  # an MCP session that read the web
    assert not (store.state_dir / "checkpoints").exists() or not list((store.state_dir / "checkpoints").iterdir())
    result, _claim = cp.submit("s-empty", "/tmp/project", turn(1), "turn", untrusted=True)
    assert result.accepted == 2
    buffers = list((store.state_dir / "checkpoints").iterdir())
    assert [json.loads(p.read_text())["untrusted"] for p in buffers] == [["s-empty"]]  # marked with its messages


def test_idle_stage_is_claimed_by_a_tick(store: MemoryStore, cp: Checkpointer, clock: Clock, tmp_path: Path) -> None:
    run_checkpoint(store, cp, settings(tmp_path), "s1", None, turn(1, "Remember that my editor is Helix."))
    assert cp.claim_idle("global") is None
    clock.now += IDLE_S
    claim = cp.claim_idle("global")
    assert claim is not None and claim.trigger == "idle"
    result = finish_claim(store, cp, settings(tmp_path), claim)
    assert result.status == "distilled"
    assert "My editor is Helix" in (store.root / "me.md").read_text()


def test_a_models_line_about_a_redacted_secret_keeps_only_the_rest(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    """The model sees the batch redacted; an add that repeats the marker is cut as the user's statements are."""
    ops = [
        {"op": "add", "text": "Releases ship on Tuesdays; the staging DB password is [REDACTED:labelled-secret]"},
        {"op": "add", "text": "The vault password is [REDACTED:password]", "scope": "global"},
    ]
    cfg = command_settings(tmp_path, tmp_path, json.dumps({"operations": ops}))
    result = run_checkpoint(store, cp, cfg, "s1", None, turn(1), "force")
    assert result.status == "distilled"
    text = "".join(p.read_text() for p in store.root.rglob("*.md") if ".git" not in p.parts)
    assert "Releases ship on Tuesdays [" in text or "Releases ship on Tuesdays\n" in text
    assert "REDACTED" not in text and "password" not in text


def test_dedupe_completed_only_and_byte_cap(store: MemoryStore, cp: Checkpointer, tmp_path: Path) -> None:
    cfg = settings(tmp_path)
    first = run_checkpoint(store, cp, cfg, "s1", None, turn(1))
    assert first.accepted == 2
    again = run_checkpoint(
        store, cp, cfg, "s1", None, [*turn(1), {"role": "assistant", "text": "still typing", "complete": False}]
    )
    assert again.accepted == 0 and again.duplicates == 2 and again.dropped == 1
    # Messages without ids are deduplicated by their content.
    assert run_checkpoint(store, cp, cfg, "s1", None, [{"role": "user", "text": "same words"}]).accepted == 1
    assert run_checkpoint(store, cp, cfg, "s1", None, [{"role": "user", "text": "same words"}]).duplicates == 1
    big = [{"id": f"b{i}", "role": "assistant", "text": "y" * 7_000} for i in range(12)]
    capped = run_checkpoint(store, cp, cfg, "s2", None, big)
    assert capped.accepted == MAX_CALL_BYTES // 7_000 and capped.dropped == 12 - capped.accepted
    bad = run_checkpoint(store, cp, cfg, "s1", None, [{"role": "tool", "text": "x"}])
    assert bad.status == "failed" and "role" in (bad.reason or "")


def test_command_provider_supersede_needs_verbatim_quotes_and_conflicts_stay_side_by_side(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    store.remember(Candidate(text="Deploys go out on Tuesdays", kind="fact", by="agent", origin="cli"))
    store.remember(Candidate(text="The user prefers spaces over tabs", kind="preference", by="user", origin="cli"))
    msgs = [
        {"id": "u1", "role": "user", "text": "No, deploys go out on Thursdays now. Also tabs are fine."},
        {"id": "a1", "role": "assistant", "text": "Understood."},
    ]
    # Probe which aliases the prompt gives (the distiller sees them as E<n>).
    _result, claim = cp.submit("s1", None, msgs, "force")
    assert claim is not None
    cp.prepare(store, claim)
    alias = {e.text: e.alias for e in claim.existing.values()}
    cp.release(claim, failed=False)
    ops = {
        "operations": [
            {
                "op": "supersede",
                "target": alias["Deploys go out on Tuesdays"],
                "target_quote": "on Tuesdays",
                "user_quote": "deploys go out on Thursdays now",
                "text": "Deploys go out on Thursdays",
                "reason": "the user corrected it",
            },
            {
                "op": "supersede",
                "target": alias["The user prefers spaces over tabs"],
                "target_quote": "spaces",
                "user_quote": "the user said tabs",
                "text": "The user prefers tabs",
                "reason": "not verbatim",
            },
            {
                "op": "revise",
                "target": alias["The user prefers spaces over tabs"],
                "target_quote": "prefers spaces over tabs",
                "text": "The user is fine with tabs",
                "reason": "unsure",
            },
        ]
    }
    cfg = command_settings(tmp_path, tmp_path, json.dumps(ops))
    done = run_checkpoint(store, cp, cfg, "s1", None, [], "force")
    assert done.status == "distilled" and done.invalid == 1, done
    me = (store.root / "me.md").read_text()
    assert "Deploys go out on Thursdays" in me and "Tuesdays" not in me
    groups = conflicts_in(store.root)  # what the Inbox pane lists
    assert len(groups) == 1
    assert [v.text for v in groups[0].versions] == ["The user prefers spaces over tabs", "The user is fine with tabs"]
    assert [v.by for v in groups[0].versions] == ["user", "agent"]


def test_malformed_provider_output_leaves_the_store_unchanged(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    head = store.head()
    before = {p: (store.root / p).read_bytes() for p, _ in store.list_files()}
    for i, answer in enumerate(
        (
            "not json at all",
            json.dumps({"operations": [{"op": "delete", "line": "E1"}]}),
            json.dumps({"operations": [], "extra": 1}),
            json.dumps({"operations": [{"op": "add", "text": "x" * 600}]}),
        )
    ):
        cfg = command_settings(tmp_path, tmp_path, answer)
        result = run_checkpoint(store, cp, cfg, f"s{i}", None, turn(i, "Remember that the port is 8080."), "force")
        assert result.status == "failed" and result.reason, answer
        assert result.pending == 2 * (i + 1)  # nothing lost: the batch waits for the next try
    # A batch that fails three times is parked (logged, named by status and Health), so it cannot block the
    # buffer for ever and is never dropped (tests/checkpoints/test_checkpoint_parked.py).
    for _ in range(2):
        assert run_checkpoint(store, cp, cfg, "s0", None, [], "force").status == "failed"
    assert run_checkpoint(store, cp, cfg, "s1", None, [], "force").pending == 6
    assert [(p.messages, p.sessions) for p in cp.parked()] == [(2, ["s0"])]
    assert store.head() == head
    assert {p: (store.root / p).read_bytes() for p, _ in store.list_files()} == before


def test_openai_compatible_server_distils(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = {
        "operations": [
            {
                "op": "add",
                "text": "The team uses trunk-based development",
                "kind": "fact",
                "scope": "global",
                "reason": "stated twice",
            }
        ]
    }
    endpoint = FakeEndpoint(
        lambda _h, _b: (
            200,
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": json.dumps(answer)},
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            },
        )
    )
    try:
        cfg = settings(
            tmp_path, provider="openai", openai={"base_url": endpoint.url + "/v1", "model": "m", "timeout_s": 5}
        )
        msgs = [
            {"id": "u", "role": "user", "text": "We do trunk-based development here, always."},
            {"id": "a", "role": "assistant", "text": "OK."},
        ]
        result = run_checkpoint(store, cp, cfg, "s1", None, msgs, "task_end")
    finally:
        endpoint.close()
    assert result.status == "distilled"
    prompt = endpoint.requests[0][2]["messages"][-1]["content"]
    assert "We do trunk-based development here" in prompt and "<messages>" in prompt
    assert store.recall("trunk-based")[0].text == "The team uses trunk-based development"


def test_messages_arriving_during_a_distillation_stay_pending(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    _result, claim = cp.submit("s1", None, turn(1, "Remember that lint runs with ruff."), "force")
    assert claim is not None
    late, late_claim = cp.submit("s1", None, turn(2), "force")
    assert late_claim is None and late.status == "distilling" and late.accepted == 2
    done = finish_claim(store, cp, settings(tmp_path), claim)
    assert done.status == "distilled" and done.pending == 2
    assert [m["id"] for m in json.loads((store.state_dir / "checkpoints" / "global.json").read_text())["messages"]] == [
        "s1/u2",
        "s1/a2",
    ]


def test_forgetting_a_session_during_a_queued_distillation_leaves_nothing(
    store: MemoryStore, cp: Checkpointer, tmp_path: Path
) -> None:
    _result, claim = cp.submit("doomed", None, turn(1, "Remember that the vault code is orange-fish."), "force")
    assert claim is not None
    cp.submit("keep", None, turn(2, "Remember that builds use make."))
    assert cp.forget_session("doomed") == 2
    store.purge_task("doomed")
    done = finish_claim(store, cp, settings(tmp_path), claim)
    assert done.status == "forgotten" and not done.written
    assert store.recall("orange-fish") == [] and store.recall("vault code") == []
    state = b"".join(p.read_bytes() for p in (store.state_dir / "checkpoints").rglob("*") if p.is_file())
    assert b"orange-fish" not in state and b"builds use make" in state
    again = run_checkpoint(store, cp, settings(tmp_path), "doomed", None, turn(3), "force")
    assert again.status == "forgotten"


async def test_repo_forget_session_removes_what_it_already_wrote(repo_path: Path, tmp_path: Path) -> None:
    from memrepo.engine.repo.repo import MemoryRepo

    async with await MemoryRepo.open(repo_path, settings(tmp_path)) as repo:
        result = await repo.checkpoint("s9", None, turn(1, "Remember that the cat is called Miso."), "task_end")
        assert result.status == "distilled"
        assert await repo.recall("Miso")
        assert await repo.forget_session("s9") == 0
        assert await repo.recall("Miso") == []


async def test_forget_session_while_the_model_call_runs(repo_path: Path, tmp_path: Path) -> None:
    """The distillation is in flight (a real command provider waiting on a gate): messages arriving meanwhile
    stay pending, and forgetting the session then leaves nothing written or searchable."""
    import asyncio

    from memrepo.engine.repo.repo import MemoryRepo

    started, gate = tmp_path / "started", tmp_path / "gate"
    answer = json.dumps(
        {
            "operations": [
                {
                    "op": "add",
                    "text": "The vault code is orange-fish",
                    "kind": "fact",
                    "scope": "global",
                    "reason": "stated",
                }
            ]
        }
    )
    script = tmp_path / "slow_provider.py"
    script.write_text(
        "import pathlib, sys, time\nsys.stdin.read()\n"
        f"pathlib.Path({str(started)!r}).write_text('x')\n"
        f"while not pathlib.Path({str(gate)!r}).exists():\n    time.sleep(0.02)\n"
        f"sys.stdout.write({answer!r})\n"
    )
    cfg = settings(tmp_path, provider="command", command={"argv": [sys.executable, str(script)]})

    async def until(path: Path) -> None:
        while not path.exists():
            await asyncio.sleep(0.02)

    async with await MemoryRepo.open(repo_path, cfg) as repo:
        running = asyncio.ensure_future(
            repo.checkpoint("doomed", None, turn(1, "The vault code is orange-fish."), "task_end")
        )
        await asyncio.wait_for(until(started), 60)  # a hang guard: the provider is a new python process
        late = await repo.checkpoint("other", None, turn(2), "turn")
        assert late.status == "buffered" and late.pending == 4  # the claimed batch plus the new turn
        assert await repo.forget_session("doomed") == 2
        gate.write_text("go")
        done = await asyncio.wait_for(running, 60)
        assert done.status == "forgotten" and not done.written
        assert await repo.recall("orange-fish") == [] and await repo.recall("vault code") == []
        assert "orange-fish" not in (repo_path / "me.md").read_text()
        buffered = json.loads((repo_path / ".git" / "memrepo" / "checkpoints" / "global.json").read_text())
        assert [m["session"] for m in buffered["messages"]] == ["other", "other"]


TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def test_buffer_never_holds_secrets_or_no_memory_messages(store: MemoryStore, cp: Checkpointer) -> None:
    """Secrets are redacted before the buffer is saved; a <no-memory> message is never buffered (README)."""
    msgs = [
        {"id": "u1", "role": "user", "text": f"My CI token is {TOKEN} please use it"},
        {"id": "u2", "role": "user", "text": "<No-Memory> the locker code is 4417"},
        {"id": "a1", "role": "assistant", "text": "OK."},
    ]
    result, claim = cp.submit("s1", None, msgs)
    assert claim is None and result.accepted == 2 and result.dropped == 1
    assert any("<no-memory>" in note for note in result.notes)
    raw = (store.state_dir / "checkpoints" / "global.json").read_text()
    assert "ghp_" not in raw and "[REDACTED:github-token]" in raw
    assert "4417" not in raw and "locker" not in raw


def test_byte_budget_drops_and_truncations_are_reported(store: MemoryStore, cp: Checkpointer) -> None:
    msgs = [{"id": f"m{i}", "role": "assistant", "text": "word " * 12_600} for i in range(200)]  # 63,000 chars
    result, _claim = cp.submit("s1", None, msgs)
    assert result.accepted == 8 and result.dropped == 192 and result.truncated == 8
    assert any(f"per-call budget of {MAX_CALL_BYTES} bytes" in n for n in result.notes)
    assert any("cut to 8000 characters" in n for n in result.notes)


def test_force_distils_every_pending_batch(store: MemoryStore, cp: Checkpointer, tmp_path: Path) -> None:
    _held, claim = cp.submit("s1", None, turn(0), "force")  # a running distillation: later messages pile up
    assert claim is not None
    many = [m for n in range(1, 66) for m in turn(n)]
    many[-2]["text"] = "Remember that the last batch is distilled too."
    assert cp.submit("s1", None, many)[0].status == "distilling"
    cp.release(claim, failed=False)
    done = run_checkpoint(store, cp, settings(tmp_path), "s1", None, [], "force")  # 132 messages: 3 batches
    assert done.status == "distilled" and done.pending == 0, done
    assert "The last batch is distilled too" in (store.root / "me.md").read_text()


async def test_repo_force_distils_every_pending_batch(repo_path: Path, tmp_path: Path) -> None:
    from memrepo.engine.repo.repo import MemoryRepo

    async with await MemoryRepo.open(repo_path, settings(tmp_path)) as repo:
        cp = repo.checkpointer()
        _held, claim = cp.submit("s1", None, turn(0), "force")
        assert claim is not None
        cp.submit("s1", None, [m for n in range(1, 66) for m in turn(n)])
        cp.release(claim, failed=False)
        done = await repo.checkpoint("s1", None, [], "force")
        assert done.pending == 0 and done.status != "failed", done


async def test_idle_checkpoint_releases_and_logs_a_batch_whose_preparation_fails(
    repo_path: Path, tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The idle tick runs the one checkpoint flow: a failed preparation gives the batch back at once (it
    once kept the claim for 15 minutes) and says why in the log."""
    import logging

    from memrepo.engine.repo.repo import MemoryRepo

    async with await MemoryRepo.open(repo_path, settings(tmp_path)) as repo:
        repo.checkpointer(clock)
        assert (await repo.checkpoint("s1", None, turn(1, "Remember that the printer is on floor 3."))).status == (
            "buffered"
        )
        clock.now += IDLE_S + 1

        def broken(self: Checkpointer, store: object, claim: object) -> None:
            raise OSError("the disk went away")

        with monkeypatch.context() as patch, caplog.at_level(logging.WARNING, logger="memrepo.checkpoint"):
            patch.setattr(Checkpointer, "prepare", broken)
            failed = await repo.checkpoint_idle()
        assert [r.status for r in failed] == ["failed"] and "the disk went away" in (failed[0].reason or "")
        assert failed[0].pending == 2
        assert "preparing the batch failed; released: OSError: the disk went away" in caplog.text
        buffer = json.loads((repo_path / ".git" / "memrepo" / "checkpoints" / "global.json").read_text())
        assert buffer["claim"] is None and not any(m.get("claimed") for m in buffer["messages"])
        # Given back, not held: the next tick distils it, with no 15-minute wait.
        done = await repo.checkpoint_idle()
        assert [r.status for r in done] == ["distilled"], done
        assert "The printer is on floor 3" in (repo_path / "me.md").read_text()


def test_the_session_buffer_is_readable_by_its_owner_only(cp: Checkpointer, store: MemoryStore) -> None:
    """What a session said waits in .git/memrepo/checkpoints/ as 0600, as the other state files (breaker4:
    it was 0644, readable by every user of the machine)."""
    cp.submit("s-mode", "/tmp/project", turn(1), "turn")
    buffers = [p for p in (store.state_dir / "checkpoints").iterdir() if p.suffix == ".json"]
    assert buffers
    for path in buffers:
        assert path.stat().st_mode & 0o777 == 0o600, path
