"""What the ranking reads of the recall index for one search (docs/architecture.md §4)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Set
from typing import TYPE_CHECKING

from .recallkeys import SEQ_BITS, entry_keys, in_scope
from .recallpost import count_ids, read_ids
from .recallrank import Candidate

if TYPE_CHECKING:
    from .recall import RecallIndex


class IndexView:
    """What :func:`memrepo.engine.read.recallrank.rank` reads of a :class:`RecallIndex`, for one search."""

    def __init__(
        self,
        index: RecallIndex,
        keep: Callable[[int], bool] | None,
        home: str | None = None,
        left: frozenset[int] = frozenset(),
    ) -> None:
        self.index = index
        self.keep = keep
        self.home_file = home
        self.left = left
        """Ids never ranked, whatever ``keep`` says: a left-out file's entries (:func:`scoped_view`); no row read."""
        self.cache: dict[str, Set[int]] = {}
        self.counts: dict[str, int] = {}

    def df(self, key: str) -> int:
        got = self.counts.get(key)
        if got is None:
            cached = self.cache.get(key)
            if cached is None:
                cached = self.index._lru.get(key)
            got = len(cached) if cached is not None else count_ids(self.index.db, key)
            self.counts[key] = got
        return got

    def ids(self, key: str) -> Set[int]:
        return self.index._posting(key, self.cache)

    def _without(self, ids: Set[int]) -> Set[int]:
        """``ids`` without :attr:`left` (the same set when none of it is there: most searches)."""
        return ids if self.left.isdisjoint(ids) else frozenset(ids) - self.left

    def newest(self, key: str, need: int) -> list[int]:
        got = self.cache.get(key) or self.index._lru.get(key)
        if got is not None:
            return self.index._top(self._without(got), need, self.keep)
        ids = read_ids(self.index.db, key)  # sorted ascending: best rank last
        if ids is None:
            return []
        out: list[int] = []
        at = len(ids) - 1
        fetched = at + 1  # ids from here on have their scope rows fetched
        while at >= 0 and len(out) < need:  # ids of one rank need path-and-line order: let _top sort the ties
            if self.keep is not None and at < fetched:
                fetched = max(0, at - 511)
                self.index._scope_of(ids[fetched : at + 1])
            iid = ids[at]
            at -= 1
            if iid not in self.left and (self.keep is None or self.keep(iid)):
                out.append(iid)
        # Ties of rank at the cut: take every id of the last rank, so _top orders them by path and line.
        last = out[-1] >> SEQ_BITS if out else None
        while at >= 0 and last is not None and ids[at] >> SEQ_BITS == last:
            if ids[at] not in self.left and (self.keep is None or self.keep(ids[at])):
                out.append(ids[at])
            at -= 1
        return self.index._top(frozenset(out), need, None)

    def ranked(self, ids: Set[int], need: int) -> list[int]:
        return self.index._top(self._without(ids), need, self.keep)

    def home(self, keys: Set[str], need: int) -> list[int]:
        if self.home_file is None:
            return []
        row = self.index.db.execute("SELECT fid FROM files WHERE path = ?", (self.home_file,)).fetchone()
        if row is None:
            return []
        self.index._entries_of([row[0]])
        entries = self.index._texts.get(row[0], {})
        held = frozenset(
            i for i, (_line, text, _meta, ctx) in entries.items() if not keys.isdisjoint(entry_keys(text, ctx))
        )
        return self.index._top(self._without(held), need, self.keep)

    def candidate(self, iid: int) -> Candidate:
        path, line, _ws, text, meta_json, ctx = self.index.row(iid)
        meta = json.loads(meta_json)
        return Candidate(text, meta.get("subject"), meta.get("kind"), path, line, ctx or "", meta)

    def prefixed(self, term: str) -> bool:
        """Whether the index holds a term beginning ``term`` or begun by it (:func:`.recallabsentterm.held_prefix`)."""
        from .recallabsentterm import held_prefix

        return held_prefix(self.index.db, term)

    def workspace_names(self) -> Mapping[frozenset[str], frozenset[str]]:
        """The active workspaces' names (:func:`.recallnames.names_in_index`): one range read of the files table, kept
        in the index's memo until a file changes (its caches are dropped then: 2 ms CPU a ranking at 998 workspaces)."""
        names = self.index.memo.get("workspace_names")
        if names is None:
            from .recallnames import names_in_index

            names = names_in_index(self.index.db)
            if names is None:
                return {}
            self.index.memo["workspace_names"] = names
        return names


def scoped_view(
    index: RecallIndex, scoped: bool, workspace_file: str | None, workspace_id: str | None, leave_out: str | None = None
) -> IndexView:
    """The view of one search: the whole index, or (``scoped``) the workspace's scope, its file the session's own
    (:func:`.recallkeys.in_scope`; :mod:`.recallhome`); never an entry of ``leave_out`` (a file, repo-relative:
    the prompt hook's inbox.md, :mod:`.recallreviewed`), so the ranking fills its places without it. The left-out
    file's ids are read once, from its packed entries (no scope row per id: an unscoped search stays as cheap)."""
    left: frozenset[int] = frozenset()
    if leave_out is not None:
        row = index.db.execute("SELECT fid FROM files WHERE path = ?", (leave_out,)).fetchone()
        if row is not None:
            index._entries_of([row[0]])
            left = frozenset(index._texts.get(row[0], {}))
    if not scoped:
        return IndexView(index, None, None, left)

    def keep(iid: int) -> bool:
        return in_scope(*index.scope_row(iid), workspace_file, workspace_id)

    return IndexView(index, keep, workspace_file, left)
