"""Eval steps and targets for dreams (docs/architecture.md §6, §10).

* step ``dream``: one dream on the case repo. ``provider`` (default
  ``rules``) proposes; or ``answer`` is the model's answer, a JSON text in
  which ``{line:WORDS}`` stands for the alias of the first line holding WORDS
  and ``{task}`` for the first task's alias. ``user_messages`` (a list) are
  written first as one finished Claude Code session, the dream's task.
  No process runs: a given answer is handed to the dream as a model's reply.
* target ``dream_auto``: the texts dreams changed on main automatically
  (each automatic operation's removed and written lines).
* target ``dream_review``: the texts dreams sent to review.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Any

from memrepo.engine.config import Settings
from memrepo.engine.errors import MemrepoError

from .steps import EvalRun, step, target


def _settings(run: EvalRun, provider: str) -> Settings:
    data = Settings().model_dump()
    home = run.root.parent / f"{run.root.name}-transcripts"
    data["transcripts"] = {"claude_code": str(home / "claude"), "codex": str(home / "codex")}
    data["dream"]["provider"] = provider
    return Settings.model_validate(data)


def _session(run: EvalRun, messages: list[str]) -> None:
    """One finished Claude Code session holding ``messages`` as the user's, an hour old."""
    folder = run.root.parent / f"{run.root.name}-transcripts" / "claude" / "-home-u-src-alpha"
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for n, text in enumerate(messages):
        rows.append(
            {
                "type": "user",
                "sessionId": "eval-1",
                "cwd": "/home/u/src/alpha",
                "uuid": f"u{n}",
                "timestamp": "2025-06-01T10:00:00Z",
                "isSidechain": False,
                "message": {"role": "user", "content": text},
            }
        )
    rows.append(
        {
            "type": "assistant",
            "sessionId": "eval-1",
            "cwd": "/home/u/src/alpha",
            "timestamp": "2025-06-01T10:00:00Z",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
        }
    )
    path = folder / "eval-1.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    past = time.time() - 3600
    os.utime(path, (past, past))


_LINE_RE = re.compile(r"\{line:([^}]+)\}")


@step("dream")
def _dream(run: EvalRun, args: dict[str, Any]) -> None:
    from memrepo.engine.dreams.dreamer import Dreamer, call_model
    from memrepo.engine.dreams.providers import Reply

    a = {k: run.fill(v) for k, v in args.items() if k != "op"}
    if a.get("user_messages"):
        _session(run, [str(m) for m in a["user_messages"]])
    dreamer = Dreamer(run.store, _settings(run, str(a.get("provider", "rules"))))
    prepared = dreamer.prepare("manual")
    if "answer" in a:
        din = prepared.din

        def line(match: re.Match[str]) -> str:
            words = match.group(1)
            found = next((al for al, ref in din.lines.items() if words in ref.text), None)
            if found is None:
                raise MemrepoError(f"dream answer: no line holds {words!r}")
            return found

        text = _LINE_RE.sub(line, str(a["answer"])).replace("{task}", next(iter(din.tasks), "T0"))
        record = dreamer.finish(prepared, Reply(text), None)
    else:
        reply, error = call_model(prepared)
        record = dreamer.finish(prepared, reply, error)
    run.notes.append(f"dream {record.id}: {record.status}")


def _dream_texts(run: EvalRun, classification: str) -> list[tuple[str, str]]:
    from memrepo.engine.dreams.dreamer import Dreamer

    out = []
    for record in Dreamer(run.store).list():
        for op in record.operations:
            if op.classification == classification:
                out.append((f"dream {record.id} {classification} {op.op}", f"{op.before}\n{op.after}\n{op.text}"))
    return out


def _found(texts: list[tuple[str, str]], needles: tuple[str, ...]) -> dict[str, str | None]:
    return {n: next((where for where, text in texts if n in text), None) for n in needles}


@target("dream_auto")
def _dream_auto(run: EvalRun, args: dict[str, Any], needles: tuple[str, ...]) -> dict[str, str | None]:
    """Texts that dreams removed or wrote on main automatically."""
    return _found(_dream_texts(run, "auto"), needles)


@target("dream_review")
def _dream_review(run: EvalRun, args: dict[str, Any], needles: tuple[str, ...]) -> dict[str, str | None]:
    """Texts that dreams sent to review."""
    return _found(_dream_texts(run, "review"), needles)
