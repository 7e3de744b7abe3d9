"""The context block's line on writes kept while the repo was blocked that the block does not hold (breaker14 B14-13).

A write refused while the memory repo is blocked (a merge, a detached HEAD, a git lock) is kept in
``.git/memrepo/pending/`` and applied once the block is gone; the SessionStart hook applies it and waits a few
seconds so its own block has it. The ones still waiting after that (the repo is still blocked, or the apply
outlasted the wait) were missing from the block without a word, so the agent of that session did not know the
user's line was kept, not lost. The kept text itself is not shown: only the governed writer writes it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from memrepo.engine.format.layout import PENDING_DIR


def kept_note(git_dir: Path) -> str | None:
    """The block's line on the writes kept while blocked that still wait in ``git_dir``, or None when none wait.

    Args:
        git_dir: the memory repo's ``.git`` folder.

    Returns:
        str | None: why they wait (the repo's blocked reason, or that they are being written now).
    """
    try:
        count = sum(1 for _ in (git_dir / "memrepo" / PENDING_DIR).glob("*.json"))
    except OSError:
        return None
    if not count:
        return None
    reason = None
    with contextlib.suppress(Exception):  # pygit2 only on this rare path; a failure leaves the plain line
        from memrepo.engine.git.store import GitStore

        reason = GitStore(git_dir.parent).blocked_reason()
    if reason:
        return (
            f"({count} write(s) kept while the memory repo is blocked are not in this block: {reason}; "
            "they are written once the block is gone)"
        )
    return (
        f"({count} write(s) kept while the memory repo was blocked are not in this block yet: they are being "
        "written now, and memory_recall finds them once they are)"
    )
