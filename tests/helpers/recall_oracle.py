"""The test oracle of the persisted recall index: the same ranking rule over posting sets built fresh in memory.

The persisted index (``memrepo.engine.read.recall``) keeps its posting lists
in SQLite and updates them in place, file by file, entry by entry. This oracle
builds every posting list again from the files, as plain Python sets, and
ranks with the same rule (:func:`memrepo.engine.read.recallrank.rank`), so a
test that compares both, query by query, finds any posting list, item, count
or context the in-place updates got wrong (docs/architecture.md §4). The rule
itself is tested on its own (tests/read/test_recall.py, test_recall_ranking.py).

Its own walk and parse, independent of the index's: every ``*.md`` file under
the root, dot names, ``archived/`` and symlinks left out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass
from pathlib import Path

from memrepo.engine.errors import FormatError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.paths import normalize_workspace
from memrepo.engine.read.recallabsentterm import keys_prefixed
from memrepo.engine.read.recallcontext import entry_context, section_context
from memrepo.engine.read.recallkeys import entry_rank, has_phrase
from memrepo.engine.read.recallrank import (
    CONTEXT_KEY,
    MIN_CONFIDENCE,
    SEQ_BITS,
    Candidate,
    entry_index_terms,
    rank,
)

WORKSPACES_DIR = "workspaces/"
ARCHIVED_DIR = "archived/"
MAX_INDEXED_FILE = 1 << 20
_EMPTY: frozenset[int] = frozenset()


@dataclass(slots=True)
class _Item:
    path: str
    line: int
    ws: str | None
    text: str
    meta: dict[str, str]
    ctx: str


class RecallIndex:
    """Every entry of the files under ``root`` in memory, ranked by the persisted index's rule."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._items: dict[int, _Item] = {}
        self._post: dict[str, set[int]] = {}

    def __len__(self) -> int:
        return len(self._items)

    def _walk(self) -> list[str]:
        found: list[str] = []
        stack = [(str(self.root), "")]
        while stack:
            folder, prefix = stack.pop()
            with os.scandir(folder) as it:
                for de in it:
                    if de.name.startswith("."):
                        continue
                    rel = prefix + de.name
                    if de.is_dir(follow_symlinks=False):
                        if rel + "/" != ARCHIVED_DIR:
                            stack.append((de.path, rel + "/"))
                    elif de.name.endswith(".md") and de.is_file(follow_symlinks=False):
                        found.append(rel)
        return sorted(found)

    def sync(self) -> None:
        """Build every posting list from the files (the oracle is always built fresh)."""
        seq = 0
        for rel in self._walk():
            full = self.root / rel
            if full.stat().st_size > MAX_INDEXED_FILE:
                continue
            try:
                parsed = fmt.parse(full.read_bytes(), rel)
            except FormatError:
                continue
            contexts = section_context([ln.text for ln in parsed.lines])
            for number, entry in parsed.entries():
                seq += 1
                iid = (entry_rank(entry.meta) << SEQ_BITS) | seq
                ws_value = entry.meta.get("workspace")
                ws = normalize_workspace(ws_value)[0] if ws_value and ws_value.strip() else None
                ctx = entry_context(contexts.get(number, ""), entry.meta)
                self._items[iid] = _Item(rel, number, ws, entry.text, dict(entry.meta), ctx)
                content = set(entry_index_terms(entry.text))
                for t in content:
                    self._post.setdefault(t, set()).add(iid)
                for t in set(entry_index_terms(ctx)) - content:
                    self._post.setdefault(CONTEXT_KEY + t, set()).add(iid)

    def search(
        self,
        query: str,
        *,
        workspace_file: str | None = None,
        workspace_id: str | None = None,
        scoped: bool = False,
        limit: int = 10,
        min_confidence: float | None = None,
    ) -> list[tuple[int, tuple]]:
        """As the persisted index's ``search``: ids with ``(score, confidence, rank)``, best first."""

        def keep(iid: int) -> bool:
            item = self._items[iid]
            if item.ws is not None and item.ws != workspace_id:
                return False
            return not item.path.startswith(WORKSPACES_DIR) or item.path == workspace_file

        view = _View(self, keep if scoped else None, workspace_file if scoped else None)
        floor = MIN_CONFIDENCE if min_confidence is None else min_confidence
        found = rank(query, len(self._items), view, has_phrase, max(1, limit), floor)
        return [(hit.iid, (hit.score, hit.confidence, hit.iid >> SEQ_BITS)) for hit in found]


class _View:
    """The oracle's posting sets as :func:`rank` reads them: whole sorts, no partial ones."""

    def __init__(self, index: RecallIndex, keep: Callable[[int], bool] | None, home: str | None = None) -> None:
        self.index = index
        self.keep = keep
        self.home_file = home

    def _order(self, ids: Set[int], need: int, score: Callable[[int], float]) -> list[int]:
        items = self.index._items
        kept = [i for i in ids if self.keep is None or self.keep(i)]
        kept.sort(key=lambda i: (-score(i), -(i >> SEQ_BITS), items[i].path, items[i].line))
        return kept[:need]

    def df(self, key: str) -> int:
        return len(self.index._post.get(key, _EMPTY))

    def ids(self, key: str) -> Set[int]:
        return self.index._post.get(key, _EMPTY)

    def newest(self, key: str, need: int) -> list[int]:
        return self._order(self.ids(key), need, lambda i: 0.0)

    def ranked(self, ids: Set[int], need: int) -> list[int]:
        return self._order(ids, need, lambda i: 0.0)

    def home(self, keys: Set[str], need: int) -> list[int]:
        items = self.index._items
        held = {i for k in keys for i in self.ids(k) if items[i].path == self.home_file}
        return self._order(held, need, lambda i: 0.0) if self.home_file else []

    def prefixed(self, term: str) -> bool:
        return keys_prefixed(self.index._post, term)

    def workspace_names(self) -> Mapping[frozenset[str], frozenset[str]]:
        from memrepo.engine.read.recallnames import name_terms

        return name_terms({item.path for item in self.index._items.values()})

    def candidate(self, iid: int) -> Candidate:
        item = self.index._items[iid]
        meta = json.loads(json.dumps(item.meta))
        return Candidate(item.text, meta.get("subject"), meta.get("kind"), item.path, item.line, item.ctx, meta)
