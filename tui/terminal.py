"""Leaving the terminal as it was found, whatever ends the app (docs/architecture.md §8).

Textual puts the terminal back (main screen, cursor, mouse and paste modes,
line settings) when the app exits normally. A signal ended the process without
that: Python's default SIGTERM and SIGHUP kill it at once, so the terminal
stayed on the app's screen with the cursor hidden and mouse reporting on until
``reset``. :func:`signals_restore_terminal` wraps the app's run:

* SIGTERM, SIGHUP and SIGINT (Textual reads ctrl+c as a key, so SIGINT only
  comes from ``kill``) ask the app to exit normally, which restores the terminal.
* A watchdog then restores it by hand and ends the process when that exit has
  not finished within :data:`EXIT_GRACE_S` (the loop stuck in a long call, or
  the terminal gone with a dropped SSH connection); so does a second signal.
* The process ends with the shell's code for the signal (143 for SIGTERM).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
"""The signals that end the app with the terminal restored."""

EXIT_GRACE_S = 3.0
"""Seconds a normal exit gets before the terminal is restored by hand and the process ends."""

RESTORE = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l"  # mouse reporting off
    "\x1b[?2004l"  # bracketed paste off
    "\x1b[?1004l"  # focus events off
    "\x1b[?2048l"  # in-band resize reports off
    "\x1b[<u"  # kitty keyboard protocol off
    "\x1b[?7h"  # line wrap on
    "\x1b[?1049l"  # back to the main screen
    "\x1b[?25h"  # cursor shown
)
"""What puts a terminal back after a Textual app: what its driver writes when it stops."""


def exit_code(signum: int) -> int:
    """The shell's code for a process ended by ``signum``: 128 plus its number."""
    return 128 + signum


def _stdin_attrs() -> list[Any] | None:
    import termios

    try:
        return termios.tcgetattr(sys.__stdin__.fileno())  # type: ignore[union-attr]
    except (OSError, termios.error, ValueError, AttributeError):
        return None


def restore_by_hand(attrs: list[Any] | None) -> None:
    """Write :data:`RESTORE` and put back the line settings ``attrs``; never raises (the terminal may be gone).

    Args:
        attrs: ``termios`` settings read before the app started, or None.
    """
    import termios

    for stream in (sys.__stderr__, sys.__stdout__):  # Textual draws on stderr
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if stream is not None and os.isatty(stream.fileno()):
                os.write(stream.fileno(), RESTORE.encode())
                break
    if attrs is not None:
        with contextlib.suppress(OSError, termios.error, ValueError, AttributeError):
            termios.tcsetattr(sys.__stdin__.fileno(), termios.TCSANOW, attrs)  # type: ignore[union-attr]


@contextlib.contextmanager
def signals_restore_terminal(exit_app: Callable[[int], None]) -> Iterator[None]:
    """While the app runs, make SIGTERM, SIGHUP and SIGINT end it with the terminal restored.

    Args:
        exit_app: asks the app to exit with a return code; called from the
            signal handler, so it must be safe there (``loop.call_soon_threadsafe``).
    """
    attrs = _stdin_attrs()
    received: list[int] = []
    watchdog: list[threading.Timer] = []

    def hard_exit(signum: int) -> None:
        restore_by_hand(attrs)
        os._exit(exit_code(signum))

    def on_signal(signum: int, _frame: object) -> None:
        if received:
            hard_exit(signum)
        received.append(signum)
        timer = threading.Timer(EXIT_GRACE_S, hard_exit, args=(signum,))
        timer.daemon = True
        timer.start()
        watchdog.append(timer)
        try:
            exit_app(exit_code(signum))
        except Exception:  # the loop is not running (yet or any more): restore now
            hard_exit(signum)

    before = {signum: signal.signal(signum, on_signal) for signum in SIGNALS}
    try:
        yield
    finally:
        for timer in watchdog:
            timer.cancel()
        for signum, handler in before.items():
            signal.signal(signum, handler)
        if received:  # a signal ended it: make sure, whatever the driver managed to flush on a loaded machine
            restore_by_hand(attrs)
