"""Who claimed a buffer's batch: a claim names its process, so one whose process is gone is taken over at once
(docs/architecture.md §7, "Checkpoints"; breaker31 B31-10).

A checkpoint claims a batch, distils it and merges or releases it, all in the one process. A process killed between
the claim and the release (SIGKILL, the OOM killer, a shutdown) left the claim for :data:`.checkpoint.CLAIM_STALE_S`
(15 minutes), and every checkpoint of the workspace in that time, the session's own SessionEnd included, returned
at once with nothing written. The claim now records the claimer's pid and host: on the same host, a claim whose
process is no longer alive is stale at once. A claim of another host (a repo on a shared disk), of this very process
(another thread distils it) or written before claims named their process keeps the time rule.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from memrepo.engine.files.lockholder import pid_alive


def claim_record(claim_id: str, now: float) -> dict[str, Any]:
    """The ``claim`` a buffer keeps for a batch this process claims.

    Args:
        claim_id: the batch's claim id.
        now: the claim's time (the checkpointer's clock, seconds).

    Returns:
        dict: ``{id, at, pid, host}``.
    """
    return {"id": claim_id, "at": now, "pid": os.getpid(), "host": socket.gethostname()}


def claimer_gone(claim: dict[str, Any]) -> bool:
    """Whether the process that made ``claim`` is known to be gone: it names a pid of this host that is not this
    process and that no live process has (:func:`~memrepo.engine.files.lockholder.pid_alive`).

    Args:
        claim: a buffer's ``claim`` record.

    Returns:
        bool: True only when the claimer is surely dead; False for a live, unknown or other host's claimer.
    """
    pid = claim.get("pid")
    if not isinstance(pid, int) or claim.get("host") != socket.gethostname() or pid == os.getpid():
        return False
    return not pid_alive(pid)


__all__ = ["claim_record", "claimer_gone"]
