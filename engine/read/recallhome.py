"""Recall's preference for the session's own project: its workspace file's lines win ties (breaker14 B14-12).

"When do we deploy?" asked in a shop's folder, over a memory with a hundred lines holding "deploy" (topic notes of
other projects, rules): the question has one content word, so every such line holds all of it and is at full
confidence, and BM25's length normalisation put short topic lines first. The shop's own line ("... the deploy
window is Thursday afternoon", in ``workspaces/<shop>.md``) was not in the first twelve, and the prompt hook handed
the agent three lines about other projects. A scoped search (one workspace named) now:

- scores the workspace file's lines whatever the posting lists gather (a common word's list is read best-ranked
  first within a budget, so an older line of the file could be left out): at most ``need`` of them, best-ranked;
- lists the lines of that file that hold as much of the question as the best hit (the same confidence) first, in
  their order; the list keeps its scores in place, so it stays best first.

An unscoped search (the global scope, the benchmarks' queries) is unchanged, and so is every confidence: a line of
the file that holds less of the question than another hit keeps its place. A question about the user ("What editor
do I use?": "I", "my", "me") keeps the user's own lines (me.md, MEMORY.md) at the best confidence before the
workspace's (breaker19 B19-11: the shop's ".editorconfig" line was listed above "I use Neovim as my editor").
A task question is about the project, not the user, whatever its pronoun (breaker22 B22-8): "How do I deploy?",
"How should I run the tests?", "Can I merge on Fridays?", "Where do I find the logs?", and any question naming the
workspace ("here", "this repo", "this project") keep the workspace's lines first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from memrepo.engine.format.terms import split_folded

T = TypeVar("T")

_FIRST_PERSON = frozenset({"i", "my", "me", "mine", "myself"})
_USER_FILES = frozenset({"me.md", "MEMORY.md"})
_TASK_RE = re.compile(
    r"\bhow\s+(?:do|does|should|can|could|would|will|must|to|am)\s+i\b"
    r"|^\W*(?:can|could|should|may|must|do|shall)\s+i\b"
    r"|\bdo\s+i\s+(?:need|have)\s+to\b"
    r"|\b(?:where|when|what|which)\s+(?:\w+\s+){0,2}(?:do|should|can|must)\s+i\s+"
    r"(?:find|put|get|add|run|deploy|set|configure|look|start|call|pass|use\s+to|store|send|file|report|install)\b"
    r"|\bhere\b|\bthis\s+(?:repo|repository|project|codebase|workspace|folder)\b",
)
_OWN_RE = re.compile(r"\b(?:my|me|mine|myself)\b")


def users_own(folded_query: str, path_of: Callable[[Any], str]) -> Callable[[Any], bool] | None:
    """For a question about the user (a first-person word), whether a hit is from the user's own files (me.md,
    MEMORY.md); None for any other question."""
    if _FIRST_PERSON.isdisjoint(split_folded(folded_query)):
        return None
    if _TASK_RE.search(folded_query) and not (_OWN_RE.search(folded_query) and "here" not in folded_query):
        return None  # "How do I deploy?": a task of the project (B22-8)
    return lambda hit: path_of(hit) in _USER_FILES


def home_keys(qterms: Iterable[str], joins: Iterable[str], context_key: str) -> frozenset[str]:
    """The keys a line of the workspace file must hold to be scored: a query term or a compound of two, in its text
    or its context (``context_key`` + the term)."""
    terms = {*qterms, *joins}
    return frozenset(terms) | frozenset(context_key + t for t in terms)


def with_home(pool: list[int], home: Iterable[int]) -> frozenset[int]:
    """Add the workspace file's ids ``home`` to the candidate ``pool`` (in place); the set of them."""
    got = frozenset(home)
    if got:
        have = set(pool)
        pool.extend(i for i in sorted(got, reverse=True) if i not in have)
    return got


def home_first(
    out: list[T],
    home: frozenset[int],
    iid: Callable[[T], int],
    confidence: Callable[[T], float],
    own: Callable[[T], bool] | None = None,
) -> list[T]:
    """``out`` (best first) with its hits from the workspace file (ids ``home``) at the best confidence first.

    Args:
        out: the hits, best first.
        home: the item ids of the session's workspace file (empty: unscoped, ``out`` unchanged).
        iid, confidence: what a hit's item id and confidence are.
        own: :func:`users_own`: the user's own hits at the best confidence go first, before the workspace's.

    Returns:
        list: the same hits, those of ``home`` whose confidence is the best of ``out`` moved to the front.
    """
    if not home or not out:
        return out
    best = max(confidence(hit) for hit in out)
    top = [hit for hit in out if confidence(hit) >= best]
    ours = [hit for hit in top if iid(hit) in home]
    if not ours:
        return out
    first = [hit for hit in top if own is not None and own(hit)] + ours
    chosen = {id(hit) for hit in first}
    return list({id(hit): hit for hit in first}.values()) + [hit for hit in out if id(hit) not in chosen]
