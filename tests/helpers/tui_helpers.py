"""Helpers for the TUI tests: deterministic memory repos and ways to wait without sleeping."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.worker import WorkerState

from memrepo.tui.app import MemrepoApp

FIXED_WHEN = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
"""Commit time of every test repo, so HEAD's id is the same on every run."""

EXAMPLE_FILES: dict[str, str | bytes] = {
    "MEMORY.md": (
        "# Memory\n\n"
        "- Answer in English unless asked otherwise [by: user; added: 2025-01-02; kind: preference]\n\n"
        "## Index\n- [[me]]\n- [[lessons]]\n- [[notes/db/schema]]\n"
    ),
    "me.md": (
        "# About me\n\n"
        "- Name is Sam [by: user; added: 2025-01-02; kind: identity]\n"
        "- Prefers pytest over unittest [by: agent; added: 2025-01-03; kind: preference; "
        "source: https://example.com/s/1]\n"
    ),
    "lessons.md": (
        "# Lessons\n\n"
        "- Run ruff before committing [by: agent; added: 2025-01-04; kind: lesson]\n"
        "- uv pip is faster than pip [by: user; added: 2025-01-05; kind: insight]\n"
        "- Never force-push main [by: user; added: 2025-01-06; kind: rule]\n"
    ),
    "inbox.md": "# Inbox\n\n- Fetched page says to use tabs [by: agent; added: 2025-01-07; kind: fact]\n",
    "notes/db/schema.md": (
        "# DB schema\n\n- users has a soft-delete column deleted_at [by: user; added: 2025-02-01; kind: fact]\n"
    ),
    "notes/db/active_users.sql": "SELECT * FROM users WHERE deleted_at IS NULL;\n",
    "workspaces/billing.md": (
        "# Workspace billing\n\n"
        "- Workspace billing [workspace: ws-1a2b3c4d; by: user]\n"
        "- Invoices are in cents [by: agent; added: 2025-03-01; kind: fact]\n"
    ),
}
"""A repo shaped like the Agent Memory Repo format's example: an index, nested notes, a .sql file."""


def build_repo(root: Path, files: dict[str, str | bytes] | None = None) -> str:
    """Create a memory repo with one commit at :data:`FIXED_WHEN`.

    Args:
        root: a missing or empty folder.
        files: repo-relative path to content; :data:`EXAMPLE_FILES` by default.

    Returns:
        str: HEAD's full id (the same on every run for the same files).
    """
    from memrepo.engine.git.store import GitStore, format_message

    files = EXAMPLE_FILES if files is None else files
    root.mkdir(parents=True, exist_ok=True)
    git = GitStore.init(root)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        path.write_bytes(data)
    message = format_message("Create memory repo", {"Origin": "import"})
    return git.commit_paths(sorted(files), message, when=FIXED_WHEN)


async def settle(pilot: Pilot, timeout: float = 60.0) -> None:
    """Wait until every worker but the watcher has finished, then for the screen to catch up.

    Args:
        pilot: the running app's pilot.
        timeout: give up (and fail) after this many seconds (a hang guard, not a speed claim).
    """
    app = pilot.app
    deadline = time.monotonic() + timeout
    while True:
        await pilot.pause()
        busy = [w for w in app.workers if w.group != "watch" and w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not busy:
            await pilot.pause()
            return
        assert time.monotonic() < deadline, f"workers still busy after {timeout}s: {busy}"
        await asyncio.wait(
            [asyncio.ensure_future(app.workers.wait_for_complete(busy))], timeout=max(deadline - time.monotonic(), 0.01)
        )


async def wait_for(pilot: Pilot, condition: Callable[[], bool], timeout: float = 60.0, what: str = "condition") -> None:
    """Poll ``condition`` between screen updates, no key pressed, for at most ``timeout`` s.

    Args:
        pilot: the running app's pilot.
        condition: returns True when the wait is over.
        timeout: seconds before failing (a hang guard, not a speed claim).
        what: said in the failure message.
    """
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {timeout}s waiting for {what}"
        await pilot.pause(0.05)


class RecordingApp(MemrepoApp):
    """The app, keeping every notice it shows so tests can read them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notices: list[str] = []

    def notify(self, message: str, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        self.notices.append(message)
        super().notify(message, *args, **kwargs)


def fixed_time_git_env() -> dict[str, str]:
    """The environment for a `git commit` with memrepo's identity at a fixed time (deterministic ids)."""
    when = "2025-01-02T03:04:05+00:00"
    return {
        **os.environ,
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_NAME": "memrepo",
        "GIT_AUTHOR_EMAIL": "memrepo@localhost",
        "GIT_COMMITTER_NAME": "memrepo",
        "GIT_COMMITTER_EMAIL": "memrepo@localhost",
    }


def commit_at_fixed_time(root: Path, rel: str, text: str, summary: str) -> None:
    """Append to a file and commit it at a fixed time, with an Origin trailer (deterministic ids)."""
    with (root / rel).open("a", encoding="utf-8") as fh:
        fh.write(text)
    subprocess.run(
        ["git", "commit", "-q", "-m", f"{summary}\n\nOrigin: agent_tool", "--", rel],
        cwd=root,
        env=fixed_time_git_env(),
        check=True,
    )
