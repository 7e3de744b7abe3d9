"""Which links of MEMORY.md's index lines the context block shows (docs/architecture.md §4, step 2)."""

from __future__ import annotations

from memrepo.engine.format.layout import WORKSPACES


def link_path(target: str) -> str:
    """The repo path a ``[[link]]`` target names: ``me`` -> ``me.md``; a target with its own extension
    (``queries.sql``, ``notes.md``) is the path itself (links start at the root and omit ``.md``, docs/architecture.md §2)."""
    target = target.strip().lstrip("/")
    last = target.rsplit("/", 1)[-1]
    return target if "." in last.lstrip(".") else f"{target}.md"


def block_links(links: list[str], shown_paths: frozenset[str], workspace: str | None) -> tuple[list[str], bool]:
    """The links of an index line a block shows (docs/architecture.md §4): none to a file the block itself shows
    (``shown_paths``), and in a workspace's block none to another workspace's file (the session's project is this
    one; recall names another workspace's file when only it answers). Returns (the links kept, whether a link to
    another workspace's file was left out)."""
    kept: list[str] = []
    others = False
    for target in links:
        path = link_path(target)
        if path in shown_paths:
            continue
        if workspace and path.startswith(f"{WORKSPACES}/"):
            others = True
            continue
        kept.append(target)
    return kept, others
