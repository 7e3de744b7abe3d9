"""Writing an agent's own files for ``memrepo setup claude-code --write`` and ``setup codex --write`` (docs/agents.md).

Only when asked (``--write``): memrepo's hook groups go into Claude Code's
``~/.claude/settings.json`` and the memory line into Codex's ``AGENTS.md``. Each
write keeps everything else in the file, replaces only what runs memrepo, keeps
the old bytes beside it (``<name>.bak``) and lands at once (a temp file renamed
over it), so a crash leaves the old file or the new one, never half of one. A file
that is not what the agent reads (settings that are not a JSON object) is one
clear error and is left untouched.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
import tempfile
from pathlib import Path

MAX_BYTES = 8 * 1024 * 1024
"""Largest agent file read (bytes)."""

AGENTS_LINE = (
    "- Memory: call `memory_context` from the memrepo MCP server at the start of a task, `memory_recall` when you\n"
    "  need something specific, and `memory_remember` for durable facts the user would want kept (never secrets).\n"
)
"""The lines Codex reads in AGENTS.md (docs/agents.md, "Codex")."""

AGENTS_MARK = "`memory_context` from the memrepo MCP server"
"""How an AGENTS.md that already holds the memory line is recognised."""


class AgentFileError(Exception):
    """An agent's file cannot be read or changed; nothing was written."""


def _read(path: Path) -> bytes | None:
    """The bytes of ``path``, or None when missing; only a regular file, at most :data:`MAX_BYTES`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise AgentFileError(f"cannot read {path}: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise AgentFileError(f"{path} is not a regular file")
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise AgentFileError(f"{path} is over {MAX_BYTES // (1024 * 1024)} MiB")
    return data


def _write(path: Path, data: bytes, old: bytes | None) -> None:
    """Replace ``path`` with ``data`` at once, the old bytes kept in ``<name>.bak``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if old is not None:
        path.with_name(path.name + ".bak").write_bytes(old)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if old is not None:
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _runs_memrepo(hook: object) -> bool:
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    try:
        argv = shlex.split(hook["command"])
    except ValueError:
        return False
    return any(Path(word).name == "memrepo" or word == "memrepo.cli.main" for word in argv)


def merge_claude_hooks(settings: Path, hooks: dict[str, list[dict]]) -> list[str]:
    """Put memrepo's hook groups into a Claude Code settings file, keeping every other setting and hook.

    Args:
        settings: the settings file (``~/.claude/settings.json``); created when missing.
        hooks: memrepo's ``hooks`` object (event -> groups), as ``setup claude-code`` prints it.

    Returns:
        One line per event, saying whether memrepo's hook was added, replaced or unchanged (the same groups
        already there: left where they are, so an agent's trust in them stays).

    Raises:
        AgentFileError: the file cannot be read, is not JSON, or its ``hooks`` is not an object; nothing written.
    """
    old = _read(settings)
    try:
        data = json.loads(old.decode("utf-8")) if old is not None and old.strip() else {}
    except (UnicodeDecodeError, ValueError) as exc:
        raise AgentFileError(f"{settings} is not JSON ({' '.join(str(exc).split())}): left as it is") from exc
    if not isinstance(data, dict):
        raise AgentFileError(f"{settings} is not a JSON object: left as it is")
    current = data.setdefault("hooks", {})
    if not isinstance(current, dict):
        raise AgentFileError(f"{settings}: its hooks is not an object: left as it is")
    said = []
    for event, groups in hooks.items():
        kept = []
        ours = []
        for group in current.get(event) or []:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(_runs_memrepo(h) for h in inner):
                others = [h for h in inner if not _runs_memrepo(h)]
                ours.append(group)
                if others:
                    kept.append({**group, "hooks": others})
            else:
                kept.append(group)
        if ours == groups:  # the same hooks, where they were: nothing changes, Codex's trust stays (breaker30 B30-23)
            said.append(f"hooks.{event}: memrepo's hook unchanged")
            continue
        current[event] = kept + groups
        said.append(f"hooks.{event}: memrepo's hook {'replaced' if ours else 'added'}")
    _write(settings, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), old)
    return said


def codex_home() -> Path:
    """Codex's folder: ``$CODEX_HOME``, else ``~/.codex``."""
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex").expanduser()


def add_agents_line(agents_md: Path) -> bool:
    """Add the memory line to a Codex ``AGENTS.md`` unless it is there already.

    Args:
        agents_md: the file (``~/.codex/AGENTS.md``); created when missing.

    Returns:
        True when the line was added, False when the file already had it.

    Raises:
        AgentFileError: the file cannot be read or is not UTF-8; nothing written.
    """
    old = _read(agents_md)
    try:
        text = old.decode("utf-8") if old is not None else ""
    except UnicodeDecodeError as exc:
        raise AgentFileError(f"{agents_md} is not UTF-8 text: left as it is") from exc
    if AGENTS_MARK in text:
        return False
    if text and not text.endswith("\n"):
        text += "\n"
    text += ("\n" if text else "") + AGENTS_LINE
    _write(agents_md, text.encode("utf-8"), old)
    return True


def codex_server(config_toml: Path) -> tuple[list[str] | None, str | None]:
    """The command of ``[mcp_servers.memrepo]`` in Codex's ``config.toml``.

    Returns:
        (argv, None) when set; (None, why) when missing or unreadable.
    """
    import tomllib

    try:
        old = _read(config_toml)
    except AgentFileError as exc:
        return None, str(exc)
    if old is None:
        return None, f"{config_toml} does not exist"
    try:
        data = tomllib.loads(old.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return None, f"cannot read {config_toml}: {exc}"
    entry = (data.get("mcp_servers") or {}).get("memrepo")
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return None, f"{config_toml} has no [mcp_servers.memrepo] with a command"
    args = entry.get("args") or []
    return [entry["command"], *(str(a) for a in args)] if isinstance(args, list) else [entry["command"]], None


def codex_server_required(config_toml: Path) -> bool:
    """Whether ``[mcp_servers.memrepo]`` in Codex's ``config.toml`` says ``required = true`` (False when unreadable).

    ``codex exec`` waits for a required server's ``initialize`` and ``tools/list`` before its first model
    request (and stops when the server cannot start); a server not required may be listed only from the
    second request on (breaker5 B5-10).
    """
    import tomllib

    try:
        old = _read(config_toml)
        data = tomllib.loads(old.decode("utf-8")) if old is not None else {}
    except (AgentFileError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    entry = (data.get("mcp_servers") or {}).get("memrepo")
    return isinstance(entry, dict) and entry.get("required") is True
