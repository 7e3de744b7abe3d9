"""A workspace's name alone does not answer a question; a workspace file's header entry is no hit
(docs/architecture.md §4, "Confidence"; breaker30 B30-8, B30-9).

"How do we deploy lantern?" asked in lantern's folder, over a workspace file holding its MSRV and migrations lines
and no deploy line: "lantern" is in most lines of lantern's file (the agent writes the project's name into its
lines), so each of them held the rare half of the question and passed the confidence minimum, and the prompt hook
gave the agent three lines that do not say how lantern deploys. A project's name says which project a question is
about; whether a line answers it is the rest of the question.

- **Names** (:func:`name_terms`): each active workspace file's name (``workspaces/lantern.md`` is ``lantern``;
  the ``-2`` memrepo adds to keep two folders of one name apart is left off when ``lantern.md`` is there too;
  memrepo makes the name from the project folder's name) as its index terms; a name of several words
  ("mobile-app") is a name only where the question holds all of its words.
- **Confidence** (:func:`name_only`): a line holding nothing of the query but the words of a workspace's name it
  names (and filler words) has confidence 0, unless the query has nothing else ("lantern" alone still finds
  lantern's lines). A line holding more of the query counts the name as any word: "state management library for
  the mobile app" is answered by "Use Zustand for client state; no Redux in the mobile app", which holds the name
  with the rest (left out of every line's count, the name cost such lines their share: 4 of repo A's tuning
  queries lost their answer). The ranking's scores keep the name, so among the lines holding the rest of the
  question the named project's rank first.
- **The header entry** (:func:`is_workspace_head`): the entry memrepo writes at the top of a workspace file
  (``- Workspace lantern [workspace: ws-...; path: ...]``) names the file's project and says nothing else; it is
  never a recall hit (as the importers and the archive's merge leave it out).
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping

from memrepo.engine.format.stemming import index_terms
from memrepo.engine.format.terms import fold, split_folded

WORKSPACES_PREFIX = "workspaces/"
"""Where the active workspace files are (repo-relative, ``layout.WORKSPACES``)."""
_COPY_SUFFIX = re.compile(r"-\d+$")


Names = Mapping[frozenset[str], frozenset[str]]
"""A workspace name's index terms -> the workspace files of that name (repo-relative)."""


def name_terms(paths: Iterable[str]) -> Names:
    """The names of the workspace files among ``paths``, each as its index terms, with its files.

    Args:
        paths: repo-relative file paths (any; only ``workspaces/<name>.md`` count, not deeper ones).

    Returns:
        Names: each name's terms -> its files (``api.md`` and ``api-2.md`` beside it are both "api"; a name whose
        words are all stop words is left out).
    """
    stems = {
        path[len(WORKSPACES_PREFIX) : -3]: path
        for path in paths
        if path.startswith(WORKSPACES_PREFIX) and path.endswith(".md") and "/" not in path[len(WORKSPACES_PREFIX) :]
    }
    out: dict[frozenset[str], set[str]] = {}
    for stem, path in stems.items():
        base = _COPY_SUFFIX.sub("", stem)
        stem = base if base in stems else stem  # memrepo's "api-2.md" beside "api.md"; "project-0001.md" stays whole
        terms = _terms(stem)
        if terms:
            out.setdefault(terms, set()).add(path)
    return {terms: frozenset(files) for terms, files in out.items()}


@functools.lru_cache(maxsize=4096)
def _terms(stem: str) -> frozenset[str]:
    """The index terms of a workspace file's name (remembered: a search reads every name, 3 ms at 1,000 unremembered)."""
    return frozenset(index_terms(split_folded(fold(stem.replace("-", " ").replace("_", " ")))))


def names_in_index(db: sqlite3.Connection) -> Names | None:
    """:func:`name_terms` of the workspace files a recall index holds (one range read of its ``files`` table), or None
    when the table cannot be read (nothing to keep: the next ranking reads it again)."""
    try:
        rows = db.execute("SELECT path FROM files WHERE path > ? AND path < ?", (WORKSPACES_PREFIX, "workspaces0"))
        return name_terms(path for (path,) in rows)
    except sqlite3.Error:
        return None


def named_terms(qterms: Iterable[str], names: Names) -> tuple[frozenset[str], frozenset[str]]:
    """The query terms that are a workspace's name (each name all of whose terms the query holds), and its files.

    Args:
        qterms: the query's index terms.
        names: :func:`name_terms`.

    Returns:
        tuple[frozenset[str], frozenset[str]]: those terms and the files of the names (both empty when the query
        names no workspace).
    """
    held = set(qterms)
    named = [(name, files) for name, files in names.items() if name <= held]
    return frozenset(t for name, _files in named for t in name), frozenset(f for _name, files in named for f in files)


def name_only(qterms: Iterable[str], names: Names, counted: Iterable[str]) -> Callable[[Iterable[str]], bool]:
    """Whether a line holds nothing of the question but a workspace's name (module docstring): such a line's
    confidence is 0.

    Args:
        qterms: the query's index terms.
        names: :func:`name_terms` of the repo's workspaces.
        counted: the terms a confidence counts (:func:`.recallabsent.confidence_weights`: no filler).

    Returns:
        Callable[[Iterable[str]], bool]: of the query terms a line holds, True when none is counted beyond the
        names the query holds; always False when the query names no workspace or has nothing else to count.
    """
    named, _files = named_terms(qterms, names)
    rest = frozenset(counted) - named
    if not named or not rest:
        return lambda _held: False
    return lambda held: rest.isdisjoint(held)


def is_workspace_head(path: str, meta: Mapping[str, str] | None) -> bool:
    """Whether an entry is a workspace file's header entry: in ``workspaces/`` and holding a ``workspace:`` key
    (an entry of a global file or the inbox with that key is a fact about the workspace, and stays a hit)."""
    return path.startswith(WORKSPACES_PREFIX) and bool((meta or {}).get("workspace"))
