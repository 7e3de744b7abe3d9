"""A transcript line is heard once, whatever session id it comes under (breaker31 B31-19).

Claude Code's ``claude --resume`` starts a new session whose transcript holds a copy of the old session's lines
(each with its own ``uuid``) before the new turns. Buffered message ids are ``<session>/<uuid>``
(:meth:`.Checkpointer.submit`), so a copy read under the new session id looked new, and the old requests ran again:
a line the user told memory to forget came back, an old forget deleted a line re-added since. A transcript line's
``uuid`` is unique, so a line whose uuid the scope has already seen is a duplicate (docs/agents.md "Checkpoints").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
"""A transcript line's ``uuid``: an id unique across sessions (an agent's own ids such as ``u1`` are not)."""


def heard_uuids(seen: Iterable[str]) -> set[str]:
    """The transcript line uuids among a scope's seen message ids (``<session>/<uuid>``).

    Args:
        seen: buffered message ids of one scope.

    Returns:
        set[str]: each id's part after its last ``/`` that is a uuid.
    """
    tails = (mid.rsplit("/", 1)[1] for mid in seen if "/" in mid)
    return {tail for tail in tails if _UUID_RE.fullmatch(tail)}


def heard_before(msg_id: str | None, heard: set[str]) -> bool:
    """True when ``msg_id`` is a transcript line's uuid already seen under any session (:func:`heard_uuids`)."""
    return bool(msg_id) and msg_id in heard and bool(_UUID_RE.fullmatch(msg_id or ""))
