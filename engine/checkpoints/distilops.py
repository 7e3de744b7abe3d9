"""The distiller's operations and its whole answer, read strictly (split from :mod:`.distill`; docs/architecture.md
§7): ``{"operations": [...]}`` with at most :data:`MAX_OPERATIONS` of ``add``, ``revise``, ``supersede`` and
``flag_conflict``; anything else is malformed and changes nothing.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

MAX_OPERATIONS = 20
"""Most operations one distillation may propose; more is malformed output."""


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    reason: str = Field("", max_length=500)


class AddOp(_Op):
    """A new durable fact."""

    op: Literal["add"]
    text: str = Field(min_length=1, max_length=500)
    kind: str = Field("fact", max_length=40)
    scope: Literal["global", "workspace"] = "workspace"
    subject: str | None = Field(None, max_length=80)


class ReviseOp(_Op):
    """A refined wording of an existing agent entry ``target``."""

    op: Literal["revise"]
    target: str
    target_quote: str = Field(min_length=1)
    text: str = Field(min_length=1, max_length=500)


class SupersedeOp(_Op):
    """The user corrected ``target``: ``user_quote`` is their words, verbatim."""

    op: Literal["supersede"]
    target: str
    target_quote: str = Field(min_length=1)
    user_quote: str = Field(min_length=1)
    text: str = Field(min_length=1, max_length=500)


class ConflictOp(_Op):
    """``text`` may contradict ``target``; keep both, marked, for a person to pick."""

    op: Literal["flag_conflict"]
    target: str
    target_quote: str = Field(min_length=1)
    text: str = Field(min_length=1, max_length=500)


Operation = Annotated[AddOp | ReviseOp | SupersedeOp | ConflictOp, Field(discriminator="op")]


class DistillOutput(BaseModel):
    """The distiller's whole answer: ``{"operations": [...]}``."""

    model_config = ConfigDict(extra="forbid")
    operations: list[Operation] = Field(default_factory=list, max_length=MAX_OPERATIONS)


def parse_output(text: str) -> DistillOutput:
    """Parse a distiller's answer strictly (one JSON object, optionally in a code fence).

    Raises:
        ValueError: not JSON, or not the schema (an unknown op, an extra field,
            too many operations); the message says what.
    """
    from memrepo.engine.format.modeljson import extract

    raw = extract(text)  # a fence in any case, or prose around the JSON
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ValueError(f"the distiller's answer is not JSON: {exc}") from exc
    try:
        return DistillOutput.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ValueError(
            f"the distiller's answer breaks the schema at {'.'.join(map(str, err['loc']))}: {err['msg']}"
        ) from exc


__all__ = [
    "MAX_OPERATIONS",
    "AddOp",
    "ConflictOp",
    "DistillOutput",
    "Operation",
    "ReviseOp",
    "SupersedeOp",
    "parse_output",
]
