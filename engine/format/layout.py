"""The memory repo's layout: the memory files' names, and a few state folders.

The starting files and the workspace folders (docs/architecture.md §2), and
three names under ``.git/memrepo/`` that several modules share. Every file
under ``.git/memrepo/`` is listed, with its owner, in
:mod:`memrepo.engine.state.registry`.
"""

from __future__ import annotations

from pathlib import Path

MEMORY_MD = "MEMORY.md"
"""The index every session reads first (at most 4 KB)."""
ME_MD = "me.md"
"""Identity, preferences and corrections."""
LESSONS_MD = "lessons.md"
"""Cross-workspace lessons: commands, setup, pitfalls."""
INBOX_MD = "inbox.md"
"""Writes from tasks that read untrusted content, waiting for review; never injected into prompts."""
WORKSPACES = "workspaces"
"""The folder of workspace files, ``workspaces/<slug>.md``."""
ARCHIVED = "archived"
"""Archived files keep their path under this folder: ``archived/workspaces/<x>.md``."""
ARCHIVED_WORKSPACES = f"{ARCHIVED}/{WORKSPACES}"
"""The folder of archived workspace files."""
INDEX_HEADING = "## Index"
"""MEMORY.md's section of ``[[links]]`` to the other files."""
GLOBAL_FILES = (MEMORY_MD, ME_MD, LESSONS_MD, INBOX_MD)
"""The global memory files, emptied by "clear global"."""

PENDING_DIR = "pending"
"""Under ``.git/memrepo/``: writes kept while the work tree was blocked, one JSON file each."""
SYNC_JOURNAL = "sync-move.json"
"""Under ``.git/memrepo/``: the sync move in progress (its ``expect`` and ``target`` commits; finished by the
next writer after a kill)."""
CHECKPOINTS_DIR = "checkpoints"
"""Under ``.git/memrepo/``: the checkpoint buffers, one JSON file per scope."""

LESSON_KINDS = frozenset({"insight", "rule", "lesson", "pitfall", "command", "setup"})
"""Global kinds routed to lessons.md; every other global kind goes to me.md (docs/architecture.md §3)."""

STARTING_LAYOUT: dict[str, str] = {
    MEMORY_MD: (
        "# Memory\n\n"
        "Entries every session needs. Everything else is in the files below.\n\n"
        f"{INDEX_HEADING}\n- [[me]]\n- [[lessons]]\n"
    ),
    ME_MD: "# About me\n\nIdentity, preferences and corrections.\n\n",
    LESSONS_MD: "# Lessons\n\nCross-workspace lessons: commands, setup, pitfalls.\n\n",
    INBOX_MD: (
        "# Inbox\n\nWrites from tasks that read untrusted content wait here for review; "
        "never injected into prompts.\n\n"
    ),
}
"""The starting layout of docs/architecture.md §2, committed as "Create memory repo"."""


def workspace_file(slug: str) -> str:
    """The repo-relative path of the workspace file named ``slug``: ``workspaces/<slug>.md``."""
    return f"{WORKSPACES}/{slug}.md"


def is_workspace_file(rel: str) -> bool:
    """Whether ``rel`` is an active workspace file (directly in ``workspaces/``)."""
    return rel.startswith(f"{WORKSPACES}/")


def link_of(rel: str) -> str:
    """The ``[[link]]`` target naming a markdown file: its path without ``.md``."""
    return rel.removesuffix(".md")


def new_file_text(rel: str) -> str:
    """The text a missing memory file starts with: its starting text, or a ``# <name>`` title."""
    if rel in STARTING_LAYOUT:
        return STARTING_LAYOUT[rel]
    return f"# {Path(rel).stem}\n\n"
