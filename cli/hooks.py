"""``memrepo hook ...``: Claude Code hook commands (docs/architecture.md §7).

Claude Code runs a hook command with the event's JSON on stdin (``session_id``,
``transcript_path``, ``cwd``, ``hook_event_name``, and per event ``source`` or
``prompt``) and, for ``SessionStart`` and ``UserPromptSubmit``, adds what the
command prints as ``{"hookSpecificOutput": {"hookEventName": ...,
"additionalContext": ...}}`` to the session. Every command here exits 0 and
never blocks the agent: a problem is one line on stderr and no output. Codex
(0.171 on) runs the same commands with the same payload fields and output
(:mod:`memrepo.cli.codexhooks`); its transcript is a rollout file, which the
checkpoint recognises (:mod:`memrepo.engine.agents.codexturns`).

* ``hook session-start``: the context block for the hook's ``cwd`` (MEMORY.md
  with its index links, me.md, the workspace's file), as ``SessionStart``'s
  ``additionalContext``.
* ``hook prompt``: for ``UserPromptSubmit``, the few recall hits for the
  prompt (at most :data:`PROMPT_HITS`, :data:`PROMPT_BYTES` bytes in all), or
  nothing when none match.
* ``hook stop`` / ``hook session-end``: hand the hook's JSON to a detached
  ``memrepo checkpoint --from-claude-hook`` and return at once, so a turn never
  waits for the checkpoint or a distillation (the printed entries also carry
  ``"async": true``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import click
from pydantic import BaseModel, ConfigDict, ValidationError

from memrepo.engine.format.paths import session_workspace

from .main import _open_store, _repo_path
from .quickhook import PROMPT_BYTES, PROMPT_CHARS, PROMPT_HITS, STDIN_MAX, count_read, emit, read_stdin


class HookPayload(BaseModel):
    """The fields of a Claude Code hook's JSON memrepo reads (the rest is ignored)."""

    model_config = ConfigDict(extra="ignore")

    session_id: str | None = None
    transcript_path: str | None = None
    cwd: str | None = None
    hook_event_name: str | None = None
    source: str | None = None
    prompt: str | None = None


def _say(message: str) -> None:
    click.echo(f"memrepo: {message}", err=True)


def read_payload() -> tuple[HookPayload | None, bytes]:
    """The hook's JSON from stdin (None, with a line on stderr, when it is not a JSON object)."""
    raw = read_stdin()
    if len(raw) > STDIN_MAX:  # cut: not JSON, and nothing in it is read
        _say(f"the hook's JSON is over {STDIN_MAX // (1024 * 1024)} MB (a pasted prompt?): nothing added")
        return None, raw
    try:
        data = json.loads(raw) if raw.strip() else None
    except ValueError as exc:
        _say(f"the hook's stdin is not JSON: {' '.join(str(exc).split())}")
        return None, raw
    if not isinstance(data, dict):
        _say("the hook's stdin is not a JSON object")
        return None, raw
    try:
        return HookPayload.model_validate(data), raw
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        _say(f"the hook JSON is invalid: {'.'.join(map(str, err['loc']))}: {err['msg']}")
        return None, raw


def _open(ctx: click.Context) -> object | None:
    from memrepo.engine.errors import MemrepoError, PathRuleError

    try:
        return _open_store(ctx, create=False)  # the settings, [context] me_md included, come with it
    except PathRuleError as exc:
        if exc.rule != "missing":
            _say(str(exc))
            return None
        # No repo yet: the session's first checkpoint makes it, as the app does (breaker31 B31-5: the hint to run
        # `memrepo init` was wrong, and printed by every hook of a new user's first sessions).
        _say(f"no memory repo yet at {exc.path}: this session's first checkpoint makes it (or run `memrepo`)")
        return None
    except MemrepoError as exc:
        _say(str(exc))
        return None


@click.group("hook")
def hook() -> None:
    """Claude Code hook commands: read the hook's JSON on stdin, never block the agent, always exit 0."""


@hook.command("session-start")
@click.pass_context
def session_start(ctx: click.Context) -> None:
    """SessionStart: print the context block for the hook's cwd as additionalContext."""
    from memrepo.engine.errors import MemrepoError

    payload, _raw = read_payload()
    if payload is None:
        return
    store = _open(ctx)
    if store is None:
        return
    workspace = session_workspace(payload.cwd)  # None in ~, / or /tmp: the global scope (B30-26)
    if payload.source == "compact":
        _distil_before_compact(ctx, store, payload)
    _distil_left_sessions(store, payload)
    try:
        block = store.context(workspace)  # type: ignore[attr-defined]
    except MemrepoError as exc:
        _say(str(exc))
        return
    emit("SessionStart", block.text)
    _count(store, "context", session=True)
    from .checkpointretry import retry_later

    retry_later(store.git.git_dir)  # type: ignore[attr-defined]  # lines a git lock kept from a past session (B26-6)
    if payload.session_id and payload.session_id.strip():
        from memrepo.engine.agents.sessionrepos import claim

        claim(payload.session_id.strip(), store.root)  # type: ignore[attr-defined]  # another repo's dream leaves this session alone (B11-9)


def _distil_before_compact(ctx: click.Context, store: object, payload: HookPayload) -> None:
    """Distil this session's buffered turns (a forced stage) before a compacted session's block is made (breaker31
    B31-12): the agent's earlier turns are now a summary, and a block without them handed it the value the user had
    corrected in this same session. The ``rules`` provider distils here, in well under the hook's timeout; a model
    is asked by a detached ``checkpoint`` (as ``PreCompact``), so the block never waits for it. Never raises."""
    session = (payload.session_id or "").strip()
    if not session:
        return
    try:
        if store.settings.dream.provider != "rules":  # type: ignore[attr-defined]
            if payload.transcript_path:  # the stage a PreCompact hook's checkpoint forces
                raw = payload.model_copy(update={"hook_event_name": "PreCompact"}).model_dump_json(exclude_none=True)
                detach_checkpoint(_repo_path(ctx), raw.encode("utf-8"))
            return
        from memrepo.engine.checkpoints.checkpoint import Checkpointer
        from memrepo.engine.checkpoints.flow import run_checkpoint

        cp = Checkpointer(store.state_dir)  # type: ignore[attr-defined]
        run_checkpoint(store, cp, store.settings, session, payload.cwd, [], "force", transcript=True)  # type: ignore[arg-type, attr-defined]
    except Exception as exc:  # the block is still made, without this session's lines
        _say(f"cannot checkpoint the session before its compacted block: {' '.join(str(exc).split())[:200]}")


def _distil_left_sessions(store: object, payload: HookPayload) -> None:
    """Distil, as their close would have, the turns other sessions left in this workspace's buffer idle past
    :data:`~memrepo.engine.checkpoints.leftover.IDLE_S` (a session that crashed or whose terminal was closed sent
    no SessionEnd; breaker31 B31-15), before the block is made. The ``rules`` provider only: a model is asked by
    the next turn's or the MCP server's idle checkpoint, so the block never waits for it. Never raises."""
    from memrepo.engine.checkpoints.waiting import left_in

    try:
        if store.settings.dream.provider != "rules":  # type: ignore[attr-defined]
            return
        left = left_in(store.state_dir, payload.cwd, (payload.session_id or "").strip() or None)  # type: ignore[attr-defined]
        if not left:
            return
        from memrepo.engine.checkpoints.checkpoint import Checkpointer
        from memrepo.engine.checkpoints.flow import run_checkpoint

        cp = Checkpointer(store.state_dir)  # type: ignore[attr-defined]
        for session, _turns in left:
            run_checkpoint(store, cp, store.settings, session, payload.cwd, [], "session_close")  # type: ignore[arg-type, attr-defined]
    except Exception as exc:  # the block is still made, without those lines
        _say(f"cannot checkpoint a session left in this folder: {' '.join(str(exc).split())[:200]}")


def recall_context(hits: list, max_bytes: int = PROMPT_BYTES, covered: float | None = None) -> str:
    """The recall hits as a small fenced block within ``max_bytes`` (:func:`memrepo.engine.recall_block`); ``covered``
    the share of entries with a vector when hybrid recall answered (the mode line says it)."""
    from memrepo.engine import recall_block

    return recall_block(hits, max_bytes, covered)


@hook.command("prompt")
@click.pass_context
def prompt(ctx: click.Context) -> None:
    """UserPromptSubmit: add the few recall hits for the prompt (nothing when none match)."""
    from memrepo.engine.errors import MemrepoError

    payload, _raw = read_payload()
    if payload is None or not payload.prompt or not payload.prompt.strip():
        return
    store = _open(ctx)
    if store is None:
        return
    workspace = session_workspace(payload.cwd)  # None in ~, / or /tmp: the global scope (B30-26)
    from .quickhook import ask_door

    try:
        query = payload.prompt[:PROMPT_CHARS]
        options = {"workspace": workspace, "limit": PROMPT_HITS, "max_bytes": PROMPT_BYTES, "reviewed": True}
        root, provider = store.root, store.settings.semantic.provider  # type: ignore[attr-defined]
        hits = ask_door(root, query, options, provider)  # as the quick path: a warm process's hybrid recall first
        if hits is None:
            hits = store.recall(query, **options)  # type: ignore[attr-defined]
    except MemrepoError as exc:
        _say(str(exc))
        return
    from memrepo.engine.read.heldread import with_held

    text = recall_context(hits, covered=getattr(hits[0], "covered", None) if hits else None)
    text = with_held(text, root, query)  # what a waiting hand edit lacks, as committed (B7-2)
    if text:
        emit("UserPromptSubmit", text)
        _count(store, "recall", session=False)


def _count(store: object, kind: str, session: bool) -> None:
    """:func:`.quickhook.count_read` for the store's repository."""
    count_read(store.git.git_dir, kind, session)  # type: ignore[attr-defined]


def detach_checkpoint(repo: Path, raw: bytes) -> int:
    """Start ``memrepo checkpoint --from-claude-hook`` in its own session with ``raw`` on its stdin; return its pid.

    The JSON goes through an unlinked temporary file, so the child reads all of
    it whenever it gets to it, and this process can exit at once.
    """
    fd, name = tempfile.mkstemp(prefix="memrepo-hook-", suffix=".json")
    try:
        os.write(fd, raw)
        os.lseek(fd, 0, os.SEEK_SET)
        os.unlink(name)
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "memrepo.cli.main",
                "--repo",
                str(repo),
                "checkpoint",
                "--from-claude-hook",
                "--wait-git",
            ],
            stdin=fd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    finally:
        os.close(fd)
    return child.pid


def _background(ctx: click.Context) -> None:
    payload, raw = read_payload()
    if payload is None:
        return
    if not payload.session_id or not payload.transcript_path:
        _say("the hook JSON needs session_id and transcript_path")
        return
    try:
        detach_checkpoint(_repo_path(ctx), raw)
    except OSError as exc:
        _say(f"cannot start the checkpoint: {exc.strerror or exc}")


@hook.command("stop")
@click.pass_context
def stop(ctx: click.Context) -> None:
    """Stop: checkpoint the finished turns in the background and return at once."""
    _background(ctx)


@hook.command("session-end")
@click.pass_context
def session_end(ctx: click.Context) -> None:
    """SessionEnd: checkpoint and close the session in the background and return at once."""
    _background(ctx)
