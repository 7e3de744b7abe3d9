"""Redaction for structured values and log records (docs/architecture.md §3: every way out redacts).

Re-exported by :mod:`memrepo.engine.redaction`; split out to keep that module to one job (detection).
"""

from __future__ import annotations

import logging
from typing import Any


def redact_text(text: str) -> str:
    """:func:`memrepo.engine.redaction.redact_text` (imported at call time: that package imports this module)."""
    from . import redact_text as cached

    return cached(text)


def redact_obj(value: Any) -> Any:
    """A JSON-like value with every string in it redacted (dict keys stay, they are names)."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {k: redact_obj(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_obj(v) for v in value]
    return value


class RedactingFilter(logging.Filter):
    """A logging filter that redacts each record's message and traceback before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact_text(record.getMessage()), None
        if record.exc_info:
            record.exc_text = redact_text(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        if record.stack_info:
            record.stack_info = redact_text(record.stack_info)
        return True


LOGGERS = ("memrepo", "memrepo.checkpoint", "memrepo.mcp")
"""memrepo's loggers (a logger's filters do not apply to its children's records, so each gets one)."""


def protect_logs() -> None:
    """Put a :class:`RedactingFilter` on every memrepo logger (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactingFilter) for f in logger.filters):
            logger.addFilter(RedactingFilter())
