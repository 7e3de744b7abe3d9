"""How a sync reads for people, shared by ``memrepo sync`` and the app."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memrepo.engine.models import SyncResult


def describe_sync(result: SyncResult) -> str:
    """One line saying what a sync did.

    Args:
        result: from ``sync()``.

    Returns:
        str: e.g. ``merged 2 commit(s) from the remote, pushed 3``, with the
        retries and the entries kept in both versions when there were any.
    """
    what = {
        "up_to_date": "up to date",
        "pushed": f"pushed {result.sent} commit(s)",
        "fast_forwarded": f"took {result.received} commit(s) from the remote",
        "merged": f"merged {result.received} commit(s) from the remote, pushed {result.sent}",
        "adopted": f"{result.notice or 'the remote was compacted on another machine: adopted its history'}"
        + (f", pushed {result.sent}" if result.sent else ""),
    }[result.action]
    if result.notice and result.action != "adopted":
        what += f"; {result.notice}"
    if result.retries:
        what += f" (the remote moved meanwhile: {result.retries} retr{'y' if result.retries == 1 else 'ies'})"
    if result.conflicts:
        n = len(result.conflicts)
        what += (
            f"; {n} entr{'y' if n == 1 else 'ies'} changed on both machines kept in both versions: "
            "pick one in the Inbox pane"
        )
    return what
