"""The day a kept statement was said: the time of the user's message it was read from (breaker29 B29-6).

A checkpoint often runs later than the message it distils: a session left open overnight, ``claude --resume`` days
later, parked messages retried, a missed SessionEnd hook. "Until Wednesday the release branch is frozen" said on
Tuesday 1 December ends on Wednesday 2 December, not on the Wednesday after the checkpoint's run. The buffer keeps
each message's own time as ``said`` (seconds since the epoch, :meth:`.checkpoint.Checkpointer.submit`) when the
harness's transcript gives one (Claude Code's and Codex's ``timestamp``); :func:`said_day` finds the message a
statement came from and gives its local day, for :func:`memrepo.engine.format.relativedates.dated`
(docs/architecture.md §7).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime
from typing import Any

_WORD_RE = re.compile(r"[^\W_]+")


def _words(text: str) -> set[str]:
    return set(_WORD_RE.findall(text.casefold()))


def said_day(messages: Iterable[Mapping[str, Any]], text: str, today: date) -> date:
    """The local day the user said ``text``: the ``said`` time of the user message sharing the most of its words
    (the later one on a tie), or ``today`` when no user message shares a word or that message's time is not known.

    Args:
        messages: a claimed batch's messages (dicts with ``role``, ``text`` and, when known, ``said``).
        text: a statement kept from the user's words (a lead-in or a relative time may be reworded).
        today: the day the checkpoint runs (the fallback).

    Returns:
        date: the day, in the machine's local time zone (as the writer dates ``added:``); never after ``today``.
    """
    want = _words(text)
    best: Mapping[str, Any] | None = None
    best_shared = 0
    for message in messages:
        if message.get("role") != "user" or not isinstance(message.get("text"), str):
            continue
        shared = len(want & _words(message["text"]))
        if shared and shared >= best_shared:
            best, best_shared = message, shared
    said = best.get("said") if best is not None else None
    if not isinstance(said, int | float) or isinstance(said, bool):
        return today
    try:
        day = datetime.fromtimestamp(float(said), UTC).astimezone().date()
    except (OverflowError, OSError, ValueError):
        return today
    return min(day, today)


__all__ = ["said_day"]
