"""What a running dream is doing, said while it runs: a step and ``n of N`` (breaker20 B20-11).

A rules dream on 2,000 files ran 8.5 minutes (a loaded machine) while the app said only that it was running,
and ``memrepo dream`` said nothing until the end. The rules provider now reports each step it takes, with a
count (:func:`memrepo.engine.dreams.rules.rules_operations`): the dreamer keeps the last line in the running
record (``progress``), which the app's Dreams pane follows, and hands it to the caller (the CLI prints it).

Reports are throttled to one every :data:`EVERY_S` seconds (the first always goes), so a fast dream costs a
line or two and a slow one says something every few seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

EVERY_S = 2.0
"""Least seconds between two reports."""


class Progress:
    """Throttled progress lines of one dream.

    Args:
        say: called with each line (``"<step>: <n> of <N>"``); never raises into the dream (errors are dropped).
        every_s: least seconds between two lines (:data:`EVERY_S` when None).
        clock: seconds (injectable for tests).
    """

    def __init__(
        self,
        say: Callable[[str], None],
        every_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._say = say
        self._every = EVERY_S if every_s is None else every_s
        self._clock = clock
        self._last = float("-inf")
        self.line: str | None = None
        """The last line said."""

    def __call__(self, step: str, done: int, total: int) -> None:
        """Say ``step: done of total`` when the last line is :attr:`every_s` old (or none was said)."""
        now = self._clock()
        if now - self._last < self._every:
            return
        self._last = now
        self.line = f"{step}: {done:,} of {total:,}"
        try:
            self._say(self.line)
        except Exception:  # a progress line never fails the dream
            return


def silent(step: str, done: int, total: int) -> None:
    """The progress of a dream nobody follows."""


ProgressFn = Callable[[str, int, int], None]
"""A step, how many of its items are done, and how many there are."""
