"""The models' base class (docs/architecture.md §1)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Model(BaseModel):
    """The models' base: each one's validator is built when it is first used, not at import.

    A command that touches two models does not pay for thirty (docs/architecture.md §1: cheap starts).
    """

    model_config = ConfigDict(defer_build=True)
