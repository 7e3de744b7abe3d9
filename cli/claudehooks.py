"""Claude Code's published rules for the ``hooks`` of a settings file, for ``memrepo setup claude-code --check``.

The rules are the ``hooks`` part of Claude Code's settings schema as SchemaStore
publishes it (``claude_hooks_schema.json`` beside this module says which commit),
checked with the jsonschema library (draft 7, the schema's own draft). Before, ``--check``
looked only for memrepo's commands, so a hook Claude Code refuses (``"type": "comand"``,
a timeout written as a string) passed as configured (docs/agents.md, "Check").
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_FILE = Path(__file__).with_name("claude_hooks_schema.json")
"""The hooks part of SchemaStore's claude-code-settings.json."""


@cache
def hooks_schema() -> dict[str, Any]:
    """The schema of a settings file's ``hooks`` object (read once a process)."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def _where(path: Any) -> str:
    out = "hooks"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _hook_types(schema: dict[str, Any]) -> list[str]:
    return [branch["properties"]["type"]["const"] for branch in schema["$defs"]["hookCommand"]["anyOf"]]


def _lines(error: Any, types: list[str]) -> list[str]:
    """One line per problem in ``error`` (a jsonschema ValidationError), naming the JSON path."""
    if error.validator != "anyOf" or not isinstance(error.instance, dict):
        return [f"{_where(error.absolute_path)}: {error.message}"]
    kind = error.instance.get("type")
    if kind not in types:  # no branch can match: the type itself is wrong
        return [f"{_where([*error.absolute_path, 'type'])}: {kind!r} is not a hook type (one of {', '.join(types)})"]
    branch = types.index(kind)
    inner = [e for e in error.context if e.schema_path and e.schema_path[0] == branch]
    return [line for e in inner for line in _lines(e, types)] or [f"{_where(error.absolute_path)}: {error.message}"]


def hook_problems(hooks: object) -> list[str]:
    """Every way ``hooks`` (a settings file's ``hooks`` value) breaks Claude Code's schema.

    Args:
        hooks: the parsed JSON value of the ``hooks`` key.

    Returns:
        One line per problem, each starting with its JSON path (``hooks.Stop[0].hooks[0].timeout: ...``),
        in document order; empty when Claude Code accepts it.
    """
    import jsonschema  # type: ignore[import-untyped]  # 0.07 s to import: only --check loads it

    schema = hooks_schema()
    types = _hook_types(schema)
    validator = jsonschema.Draft7Validator(schema)
    errors = sorted(validator.iter_errors(hooks), key=lambda e: [str(p) for p in e.absolute_path])
    return [line for error in errors for line in _lines(error, types)]
