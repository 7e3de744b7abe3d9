"""A notice's end is dated from when the user said it, not from when the checkpoint ran (breaker29 B29-6).

Before: "until Wednesday the release branch is frozen", said on Tuesday 1 December and distilled on Sunday 6
December (a session left open, a resume, parked messages retried), was kept "Until Wednesday 2026-12-09". Claude
Code's and Codex's transcript lines carry their own ``timestamp``; the checkpoint now dates each kept statement by
the time of the message it was read from, and falls back to today when the harness gives none.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner
from test_hook_corrections import everywhere, lines_of, transcript_line, world  # noqa: F401  # world: a fixture

from memrepo.cli.main import main
from memrepo.engine.agents.codexturns import read_codex_turns
from memrepo.engine.agents.transcripts import read_claude_turns
from memrepo.engine.checkpoints.saidwhen import said_day
from memrepo.engine.repo.store import MemoryStore


def _stamp(when: datetime) -> str:
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _local_day(when: datetime) -> date:
    return when.astimezone().date()


def _after(day: date, weekday: int) -> date:
    """The next ``weekday`` (Monday 0) after ``day`` (a week on when ``day`` is one): "until Wednesday"."""
    return day + timedelta(days=(weekday - day.weekday() - 1) % 7 + 1)


def _session(store: MemoryStore, tmp_path: Path, project: Path, sid: str, turns: list[tuple[str, datetime]]) -> None:
    """A Claude Code session whose user says each text at its time, checkpointed now by its SessionEnd hook."""
    lines, parent = [], None
    for n, (said, when) in enumerate(turns, 1):
        for role, text, up in (("user", said, parent), ("assistant", "OK.", f"u{n}")):
            lines.append({**transcript_line(sid, project, n, role, text, up), "timestamp": _stamp(when)})
        parent = f"a{n}"
    transcript = tmp_path / f"{sid}.jsonl"
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    payload = {"session_id": sid, "transcript_path": str(transcript), "cwd": str(project)}
    done = CliRunner().invoke(
        main,
        ["--repo", str(store.root), "checkpoint", "--from-claude-hook"],
        input=json.dumps({**payload, "hook_event_name": "SessionEnd", "reason": "other"}),
    )
    assert done.exit_code == 0, done.output


def test_a_notice_said_days_ago_ends_when_the_user_meant(world, tmp_path: Path) -> None:  # noqa: F811
    store, shop, _forky = world
    first = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0) - timedelta(days=12)
    second = first + timedelta(days=2)
    _session(
        store,
        tmp_path,
        shop,
        "s1",
        [
            ("Heads up: until Wednesday the release branch is frozen, only hotfixes go in.", first),
            ("Heads up: until Friday the staging cluster is shared with the data team.", second),
            ("Heads up: for the next two weeks the build server is down for maintenance.", first),
        ],
    )
    found = {text: rel for text, rel in everywhere(store).items() if rel.startswith("workspaces/")}
    ends = {text: lines_of(store, rel)[text].get("until") for text, rel in found.items() if text != "Workspace shop"}
    day1, day2 = _local_day(first), _local_day(second)
    assert ends == {
        f"Until Wednesday {_after(day1, 2)} the release branch is frozen, only hotfixes go in": str(_after(day1, 2)),
        f"Until Friday {_after(day2, 4)} the staging cluster is shared with the data team": str(_after(day2, 4)),
        f"Until {day1 + timedelta(days=14)} the build server is down for maintenance": str(day1 + timedelta(days=14)),
    }


def test_a_request_to_forget_said_days_ago_names_the_week_it_meant(world, tmp_path: Path) -> None:  # noqa: F811
    """ "Forget that I'm on call this week", said in the week the line was kept for, names that line even when
    the checkpoint runs a week later (its "this week" is the week it was said in)."""
    store, shop, _forky = world
    monday = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0) - timedelta(days=14)
    monday -= timedelta(days=monday.weekday())
    _session(store, tmp_path, shop, "s1", [("Remember that I'm on call this week for the payments team.", monday)])
    week = _local_day(monday) - timedelta(days=_local_day(monday).weekday())
    assert list(lines_of(store, "me.md")) == [f"I'm on call the week of {week} for the payments team"]
    _session(store, tmp_path, shop, "s2", [("Please forget that I'm on call this week.", monday + timedelta(days=2))])
    assert lines_of(store, "me.md") == {}


def test_both_transcript_readers_give_the_users_message_its_time(tmp_path: Path) -> None:
    claude = tmp_path / "c.jsonl"
    lines = [transcript_line("s", tmp_path, 1, "user", "Hello.", None)]
    lines += [transcript_line("s", tmp_path, 1, "assistant", "Hi.", "u1")]
    lines[0]["timestamp"] = "2026-12-01T09:00:00.000Z"
    claude.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert [m.get("at") for m in read_claude_turns(claude, "s")[0]] == ["2026-12-01T09:00:00+00:00", None]
    lines[0]["timestamp"] = "not a time"
    claude.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert "at" not in read_claude_turns(claude, "s")[0][0]  # unreadable: the checkpoint's own day

    def line(kind: str, payload: dict) -> str:
        return json.dumps({"timestamp": "2026-12-02T16:51:08.524Z", "type": kind, "payload": payload}) + "\n"

    item = {"type": "UserMessage", "id": "u-1", "content": [{"type": "text", "text": "Hello."}]}
    reply = {"type": "message", "id": "m2", "role": "assistant", "content": [{"type": "output_text", "text": "Hi."}]}
    codex = tmp_path / "rollout.jsonl"
    codex.write_text(
        line("session_meta", {"id": "x", "cwd": str(tmp_path)})
        + line("event_msg", {"type": "item_completed", "item": item})
        + line("response_item", reply),
        encoding="utf-8",
    )
    assert read_codex_turns(codex)[0][0]["at"] == "2026-12-02T16:51:08.524000+00:00"


def test_said_day_reads_the_message_the_statement_came_from() -> None:
    today = date(2026, 12, 6)
    tue, thu = datetime(2026, 12, 1, 12, tzinfo=UTC), datetime(2026, 12, 3, 12, tzinfo=UTC)
    messages = [
        {"role": "user", "text": "Heads up: until Wednesday the branch is frozen.", "said": tue.timestamp()},
        {"role": "assistant", "text": "Noted: until Friday the staging cluster is shared.", "said": 0.0},
        {"role": "user", "text": "Until Friday the staging cluster is shared.", "said": thu.timestamp()},
        {"role": "user", "text": "Until Monday the office is closed."},  # no time given
    ]
    assert said_day(messages, "Until Wednesday the branch is frozen", today) == _local_day(tue)
    assert said_day(messages, "Until Friday the staging cluster is shared", today) == _local_day(thu)
    assert said_day(messages, "Until Monday the office is closed", today) == today
    assert said_day(messages, "Nothing in common", today) == today
    future = [{"role": "user", "text": "until Monday x", "said": datetime(2027, 1, 1, tzinfo=UTC).timestamp()}]
    assert said_day(future, "until Monday x", today) == today  # a clock ahead: never after today
