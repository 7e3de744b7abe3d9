"""Codex's lifecycle hooks for ``memrepo setup codex`` (docs/agents.md, "Codex").

Codex (0.171 and later) runs command hooks it finds in ``hooks.json`` beside a config layer
(``~/.codex/hooks.json``) or in ``[hooks]`` tables of ``config.toml``. Their format is Claude Code's:
event -> groups of ``{"hooks": [{"type": "command", "command", "timeout"}]}``, the event's JSON on the
command's stdin (``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``, ``source`` or
``prompt``), and ``{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`` on stdout, which
Codex adds to the model's input as a developer message. So memrepo's own ``hook session-start`` and
``hook prompt`` serve Codex as they are: the context block at session start, recall per prompt. Its
``Stop`` and ``SessionEnd`` run ``hook stop`` and ``hook session-end``: the detached checkpoint reads Codex's
rollout (``transcript_path``) with :mod:`memrepo.engine.agents.codexturns`, each turn is buffered, and the
session's end distils them, so what the user typed ("remember that X") is kept ``by: user``.

Codex runs a hook that is not managed only once the user has trusted it (``/hooks`` in the Codex TUI
records ``[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash`` in ``config.toml``); a changed
hook must be trusted again, and ``--check`` says so (:func:`codex_hook_hash` is Codex's hash). memrepo never records that trust itself: the review is the user's.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path

from .agentfiles import AgentFileError, _read, merge_claude_hooks

CODEX_EVENTS = {
    "SessionStart": "hook session-start",
    "UserPromptSubmit": "hook prompt",
    "Stop": "hook stop",
    "SessionEnd": "hook session-end",
}
"""The Codex hook events memrepo adds, and the memrepo subcommand that serves each."""
OPTIONAL = {
    "UserPromptSubmit": "adds recall hits for each prompt",
    "Stop": "buffers each finished turn for a checkpoint",
    "SessionEnd": "distils the session's turns, keeping what you asked Codex to remember",
}
"""Events ``--check`` does not fail without, and what each adds."""
EVENT_KEY = {
    "SessionStart": "session_start",
    "UserPromptSubmit": "user_prompt_submit",
    "Stop": "stop",
    "SessionEnd": "session_end",
}
"""Codex's label for each event in a ``[hooks.state]`` key."""
SESSION_END_TIMEOUT_S = 3
"""The SessionEnd hook's timeout: Codex 0.171 clamps a longer one to 3 s, with a warning each session."""
TRUST_STEP = (
    "Codex runs these hooks only once you trust them: start `codex`, type /hooks, review and trust memrepo's "
    "hooks (again after a change); `codex exec` in automation you vet "
    "can pass --dangerously-bypass-hook-trust instead"
)
"""What the user does so Codex runs the hooks (Codex's docs, "Review and trust hooks")."""


def codex_hooks(repo: str) -> dict[str, list[dict]]:
    """memrepo's groups for Codex's ``hooks.json``: the same entries ``setup claude-code`` prints for these events.

    Args:
        repo: the resolved memory repo.

    Returns:
        event -> a list of one group running ``memrepo --repo REPO hook ...`` (``timeout`` in seconds);
        ``Stop`` / ``SessionEnd`` run ``hook stop`` / ``hook session-end``, which hand the rollout to a detached
        checkpoint and return at once.
    """
    from .setup import hooks_entry

    entry = hooks_entry(repo)
    groups = {event: entry[event] for event in CODEX_EVENTS}
    for event in ("Stop", "SessionEnd"):  # `hook stop` / `hook session-end` detach the checkpoint and return at once
        for group in groups[event]:
            group["hooks"] = [{k: v for k, v in hook.items() if k != "async"} for hook in group["hooks"]]
    groups["SessionEnd"][0]["hooks"][0]["timeout"] = SESSION_END_TIMEOUT_S
    return groups


def write_codex_hooks(home: Path, repo: str) -> list[str]:
    """Put memrepo's hooks into ``home/hooks.json``, keeping every other hook there (:func:`.merge_claude_hooks`).

    Returns:
        One line per event, saying whether memrepo's hook was added or replaced, and one naming the
        trusted hooks whose hash the write changed (Codex skips those until trusted again).

    Raises:
        AgentFileError: the file cannot be read, is not JSON, or its ``hooks`` is not an object; nothing written.
    """
    before = trusted_events(home)
    said = merge_claude_hooks(home / "hooks.json", codex_hooks(repo))
    changed = sorted(before - trusted_events(home))
    if changed:  # Codex marks them "modified" and skips them without a word (breaker7 B7-14)
        said.append(
            f"changed trusted hooks {', '.join(changed)}: Codex skips them until you trust them again in /hooks"
        )
    return said


def trusted_events(home: Path) -> set[str]:
    """The events whose memrepo hook in ``home`` Codex trusts now (its recorded hash is the hook's)."""
    from .setup import _runs_memrepo

    found, state, _problems = _load_hooks(home)
    out = set()
    for path, event, g, h, handler, matcher in found:
        try:
            ours = event in CODEX_EVENTS and _runs_memrepo(shlex.split(handler["command"]))
        except ValueError:
            continue
        entry = state.get(f"{path}:{EVENT_KEY[event]}:{g}:{h}") if ours else None
        if isinstance(entry, dict) and entry.get("trusted_hash") == codex_hook_hash(event, matcher, handler):
            out.add(event)
    return out


def codex_hook_hash(event: str, matcher: object, handler: dict) -> str | None:
    """The hash Codex 0.171 records as ``trusted_hash`` when the user trusts a command hook, or None when
    ``handler`` is not one Codex would load (then Codex's own warning says why).

    Codex's ``command_hook_hash`` (codex-rs/hooks/src/engine/discovery.rs, below ``append_matcher_groups``)
    hashes a normalized identity, ``{"event_name", "matcher"?, "hooks": [handler]}``, with the handler's
    ``timeout`` filled (600 when unset, at least 1) and unset fields left out, through ``version_for_toml``
    (codex-rs/config/src/fingerprint.rs): sha256 of the compact JSON with its keys sorted. Checked against
    ``codex app-server`` ``hooks/list``'s ``currentHash`` (tests/mcp/test_codex_hooks_cli.py).
    """
    import hashlib

    timeout = handler.get("timeout")
    status = handler.get("statusMessage")
    if (
        handler.get("type", "command") != "command"
        or not isinstance(handler.get("command"), str)
        or not (timeout is None or (isinstance(timeout, int) and not isinstance(timeout, bool) and timeout >= 0))
        or not isinstance(handler.get("async", False), bool)
        or not (status is None or isinstance(status, str))
    ):
        return None
    one: dict = {
        "type": "command",
        "command": handler["command"],
        "timeout": 600 if timeout is None else max(1, timeout),
        "async": handler.get("async", False),
    }
    if status is not None:
        one["statusMessage"] = status
    identity: dict = {"event_name": EVENT_KEY.get(event, event), "hooks": [one]}
    if isinstance(matcher, str) and event not in ("UserPromptSubmit", "Stop"):  # Codex ignores these events' matcher
        identity["matcher"] = matcher
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _load_hooks(home: Path) -> tuple[list[tuple[str, str, int, int, dict, object]], dict, list[str]]:
    """Every command hook in ``home/hooks.json`` and ``home/config.toml`` ``[hooks]``.

    Returns:
        (hooks as (file, event, group index, handler index, handler, the group's matcher), the
        ``[hooks.state]`` table, problems).
    """
    import tomllib

    found: list[tuple[str, str, int, int, dict, object]] = []
    problems: list[str] = []
    state: dict = {}
    sources: list[tuple[Path, object]] = []
    hooks_json = home / "hooks.json"
    try:
        raw = _read(hooks_json)
        if raw is not None and raw.strip():
            data = json.loads(raw.decode("utf-8"))
            sources.append((hooks_json, data.get("hooks") if isinstance(data, dict) else None))
    except (AgentFileError, UnicodeDecodeError, ValueError) as exc:
        problems.append(f"cannot read {hooks_json}: {' '.join(str(exc).split())}")
    config = home / "config.toml"
    try:
        raw = _read(config)
        table = tomllib.loads(raw.decode("utf-8")).get("hooks") if raw is not None else None
    except (AgentFileError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        table = None  # the MCP server's check already says config.toml cannot be read
    if isinstance(table, dict):
        state = table["state"] if isinstance(table.get("state"), dict) else {}
        sources.append((config, {k: v for k, v in table.items() if k != "state"}))
    for path, hooks in sources:
        for event, groups in hooks.items() if isinstance(hooks, dict) else []:
            for g, group in enumerate(groups if isinstance(groups, list) else []):
                handlers = group.get("hooks") if isinstance(group, dict) else None
                for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                    if isinstance(handler, dict) and isinstance(handler.get("command"), str):
                        found.append((str(path), event, g, h, handler, group.get("matcher")))
    return found, state, problems


def check_codex_hooks(
    home: Path, repo: str, command_missing: Callable[[list[str]], str | None]
) -> tuple[list[str], list[str]]:
    """(what is configured, what is missing) among memrepo's Codex hooks in ``home``, each line naming the file.

    A hook counts when it is a ``command`` hook running ``memrepo ... --repo REPO hook <sub>`` whose program
    exists. No trust recorded is said on a ``trust:`` line; a recorded ``trusted_hash`` that is not the hook's
    hash now (:func:`codex_hook_hash`; a re-run of ``--write`` with another path) is a missing line: Codex
    marks the hook "modified" and skips it.

    Args:
        home: Codex's folder (``$CODEX_HOME``).
        repo: the resolved memory repo.
        command_missing: why a command line cannot be started, or None (``setupcodex.command_missing``).

    Returns:
        (ok lines, missing lines); a ``trust:`` line among the ok ones when no trust is recorded.
    """
    from .setup import _repo_of, _runs_memrepo, _same_repo, hook_command

    ok: list[str] = []
    missing: list[str] = []
    found, state, problems = _load_hooks(home)
    missing += [f"hooks: {line}" for line in problems]
    untrusted: list[str] = []
    for event, sub in CODEX_EVENTS.items():
        ours = []
        for path, name, g, h, handler, matcher in found:
            try:
                argv = shlex.split(handler["command"])
            except ValueError:
                continue
            if name == event and _runs_memrepo(argv) and sub in " ".join(argv):
                ours.append((path, g, h, handler, argv, matcher))
        if not ours and event in OPTIONAL:
            ok.append(f"hooks.{event}: not set (optional: {OPTIONAL[event]})")
            continue
        if not ours:
            missing.append(
                f"hooks.{event}: no `{hook_command(repo, sub.split()[-1])}` in {home / 'hooks.json'} "
                f"or {home / 'config.toml'} [hooks]; run: memrepo setup codex --write"
            )
            continue
        path, g, h, handler, argv, matcher = ours[0]
        if handler.get("type", "command") != "command":
            missing.append(f'hooks.{event} in {path}: its type is {handler.get("type")!r}, Codex runs only "command"')
        elif not _same_repo(_repo_of(argv), repo):
            missing.append(
                f"hooks.{event} in {path}: runs memrepo for {_repo_of(argv) or 'the default repo'}, not {repo}"
            )
        elif (why := command_missing(argv)) is not None:
            missing.append(f"hooks.{event} in {path}: {why}; run: memrepo setup codex --write")
        elif (
            isinstance(entry := state.get(f"{path}:{EVENT_KEY[event]}:{g}:{h}"), dict) and entry.get("enabled") is False
        ):
            missing.append(f"hooks.{event} in {path}: disabled in Codex (/hooks); enable it there")
        elif (
            isinstance(entry, dict)
            and entry.get("trusted_hash")
            and entry["trusted_hash"] != codex_hook_hash(event, matcher, handler)
        ):
            missing.append(
                f"hooks.{event} in {path}: modified: re-trust in /hooks (its command or timeout changed since "
                "you trusted it, and Codex skips it without a word until then)"
            )
        else:
            ok.append(f"hooks.{event}: {path}")
            if not (isinstance(entry, dict) and entry.get("trusted_hash")):
                untrusted.append(event)
    if untrusted:
        ok.append(f"trust: no trust recorded in {home / 'config.toml'} for {', '.join(untrusted)}: {TRUST_STEP}")
    return ok, missing
