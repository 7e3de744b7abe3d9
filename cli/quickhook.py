"""Claude Code's SessionStart hook answered before click loads (docs/architecture.md §4, §7).

Claude Code runs ``memrepo hook session-start`` at the start of every
session, each time in a new process, and waits for it. Through click it
opened the whole store (pygit2, pydantic, every model) to print the context
block: about 0.65 s at 2,000 files, where ``memrepo context`` takes 0.15 s.
:func:`session_start` reads the hook's JSON itself, prints the block through
:func:`memrepo.engine.coldread.context_of` in the JSON the click command
prints, and counts the read as it does. Whatever is not the plain case (JSON
that is not an object, a field that is not a string, an error, a repo the
light path leaves to the store) goes to the click command with the same
stdin, which says what it always said.
"""

from __future__ import annotations

import io
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memrepo.engine.configpath import ReadKeys

STDIN_MAX = 1024 * 1024
"""Bytes of the hook's JSON read at most (:data:`memrepo.cli.hooks.STDIN_MAX`)."""
FIELDS = ("session_id", "transcript_path", "cwd", "hook_event_name", "source", "prompt")
"""The payload's fields the click command validates as strings (:class:`memrepo.cli.hooks.HookPayload`)."""


def parse_session_start(argv: list[str]) -> dict[str, str | None] | None:
    """``[--repo PATH] hook session-start`` exactly, or None for click to read.

    Args:
        argv: the command line after the program name.

    Returns:
        dict | None: ``repo`` (None when absent).
    """
    from .quick import split_repo

    split = split_repo(argv)
    if split is None or split[1] != ["hook", "session-start"]:
        return None
    return {"repo": split[0]}


def session_start(args: dict[str, str | None], keys: ReadKeys) -> bool:
    """Print the SessionStart hook's answer for the JSON on stdin, and count the read.

    Args:
        args: what :func:`parse_session_start` read.
        keys: the config's keys (:func:`memrepo.cli.quick.config_keys`).

    Returns:
        bool: True when answered; False when click's command should run, with
        stdin given back to it whole.
    """
    raw = sys.stdin.buffer.read(STDIN_MAX)

    def to_click() -> bool:
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
        return False

    try:
        payload = json.loads(raw) if raw.strip() else None
    except ValueError:
        return to_click()
    if not isinstance(payload, dict) or any(not isinstance(payload.get(f), str | None) for f in FIELDS):
        return to_click()
    cwd = payload.get("cwd")
    workspace = cwd if cwd and cwd.strip() else None
    from memrepo.engine import paths
    from memrepo.engine.coldread import context_of

    paths.GIT_TOPLEVEL = keys.git_toplevel  # as load_settings applies it
    try:
        found = context_of(args["repo"], workspace, keys)
    except Exception:  # the click command reports it, in its own words
        return to_click()
    if found is None:
        return to_click()
    text, git_dir = found
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    try:
        from memrepo.engine.readcount import SessionReads

        SessionReads(git_dir, "hook").note("context")  # one SessionStart is one session, as the click command counts
    except Exception as exc:  # a counter must never cost the agent its context
        sys.stderr.write(f"memrepo: cannot count the read: {exc}\n")
    return True
