"""The recall index as it was before it was persisted: an in-memory index kept per file, the test oracle.

Kept verbatim from ``memrepo.engine.read.recall`` (an inverted index of Python
sets) except for three changes that make its order total, so the persisted
index can be compared with it result by result: ties of rank break by path
then line (they fell to set order), and coverage is summed in query-term
order (the float sum no longer depends on the entry's word order).

Original module docstring:

Lexical recall over the memory folder: an in-memory index kept per file (docs/architecture.md §4).

The index holds every entry of every markdown file (``.git`` and
``archived/`` left out) as folded terms (:mod:`memrepo.engine.format.terms`) in an inverted
index of Python sets, plus adjacent-word pairs (so an exact phrase is found
with set intersections, then confirmed on the text), subject and kind terms,
and month buckets of the ``added:`` date (so "newest first" inside a large
set of matches needs no sort of the whole set).

It is updated one file at a time: :meth:`RecallIndex.sync` re-reads only
files whose mtime or size changed (all of them, or the paths a watcher
reported) and drops files that are gone. Nothing is ever rebuilt whole after
the first build.

Ranking (docs/architecture.md §4, DSH seed "Retrieval"), compared in this order:

1. exact phrase: the folded query appears in the folded entry text on word
   boundaries (queries of two or more terms);
2. subject match: every term of the entry's ``subject:`` is in the query;
3. kind match: a query term is the entry's ``kind:``;
4. term coverage: the share of the query's terms the entry has, each term
   weighted by its inverse document frequency;
5. recency (``added:`` date, newest first), then ``by: user`` before ``by: agent``.

Results are bounded by count and by UTF-8 bytes; a workspace scope also
leaves out entries whose ``workspace:`` key names another workspace (in a
global file or the inbox). Hit text goes out with secrets written by hand
redacted, as in the context block. Nothing here raises on a query: empty,
huge, or odd Unicode gives a list (maybe empty).
"""

from __future__ import annotations

import gc
import math
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Set
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from memrepo.engine.errors import FormatError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.paths import normalize_workspace
from memrepo.engine.format.terms import MAX_QUERY_TERMS, fold, query_terms, split_folded
from memrepo.engine.models import RecallHit

INBOX = "inbox.md"
WORKSPACES_DIR = "workspaces/"
ARCHIVED_DIR = "archived/"
MAX_INDEXED_FILE = 1 << 20
"""Files larger than this (bytes) are not indexed (a memory file is at most 64 KB by the format)."""

SECTION_LINES = 80
"""``detail="full"`` returns at most this many lines of the section around a hit (docs/architecture.md §4)."""

_SUBJECT = "\x01"
_KIND = "\x02"
_DATE_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_HEADING_RE = re.compile(r"^(#{1,6})[ \t]")
_EMPTY: frozenset[int] = frozenset()


@dataclass(slots=True)
class _Item:
    path: str
    line: int
    text: str
    meta: dict[str, str]
    folded: str
    terms: tuple[str, ...]
    rank: int  # recency and by: user packed in one int: bigger is better
    ws: str | None  # the workspace id its ``workspace:`` key names, if any


@dataclass(slots=True)
class _FileRec:
    stamp: tuple[int, int]
    ids: list[int] = field(default_factory=list)


@lru_cache(maxsize=4096)
def _date_ordinal(value: str | None) -> int:
    """Days since year 0 of an ``added:`` value (``YYYY-MM-DD``), or 0 when missing or odd."""
    m = _DATE_RE.match(value or "")
    if not m:
        return 0
    y, mo, d = (int(g) for g in m.groups())
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return 0
    return y * 372 + (mo - 1) * 31 + (d - 1)


@lru_cache(maxsize=4096)
def _fold_meta(value: str) -> str:
    """:func:`fold` of a ``subject:`` or ``kind:`` value, remembered (few distinct values repeat a lot)."""
    return fold(value)


def is_workspace_file(path: str) -> bool:
    """True for a workspace file (``workspaces/…``), which a workspace scope may leave out."""
    return path.startswith(WORKSPACES_DIR)


@lru_cache(maxsize=65536)
def redacted(text: str) -> str:
    """``text`` with secrets written by hand replaced by ``[REDACTED:<type>]`` (docs/architecture.md §4, on the way out).

    Remembered per text, so a hit shown again costs nothing.
    """
    from memrepo.engine.write.policy import redact

    return redact(text)[0]


def _has_phrase(text: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` on word boundaries (both folded).

    An ASCII letter or digit at an edge of the phrase must not touch another
    one in the text ("cat dog" is not in "concat dogma"); CJK has no word
    boundaries, so a CJK edge matches anywhere.
    """
    start = text.find(phrase)
    while start >= 0:
        end = start + len(phrase)
        before_ok = start == 0 or not (phrase[0].isascii() and phrase[0].isalnum() and text[start - 1].isalnum())
        after_ok = end == len(text) or not (phrase[-1].isascii() and phrase[-1].isalnum() and text[end].isalnum())
        if before_ok and after_ok:
            return True
        start = text.find(phrase, start + 1)
    return False


def _intersect(sets: list[Set[int]]) -> Set[int]:
    """The intersection of ``sets``, smallest first, never mutating them (empty for no sets)."""
    if not sets:
        return _EMPTY
    sets = sorted(sets, key=len)
    acc = sets[0]
    for s in sets[1:]:
        if not acc:
            break
        acc = acc & s
    return acc


class RecallIndex:
    """The recall index of one memory folder.

    Use from one thread at a time (the repo's worker thread does).

    Args:
        root: the memory repo's work tree (absolute).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, _FileRec] = {}
        self._items: dict[int, _Item] = {}
        self._post: dict[str, set[int]] = {}
        self._subjects: dict[str, set[str]] = {}  # term -> the folded subjects holding it
        self._months: dict[int, set[int]] = {}
        self._months_desc: list[int] | None = None
        self._next_id = 0
        self.built = False

    # -- keeping it current ---------------------------------------------

    def __len__(self) -> int:
        """The number of entries indexed."""
        return len(self._items)

    def _walk(self) -> dict[str, os.stat_result]:
        """Every indexable markdown file under the root with its stat (symlinks skipped)."""
        found: dict[str, os.stat_result] = {}
        stack = [(str(self.root), "")]
        while stack:
            folder, prefix = stack.pop()
            try:
                it = os.scandir(folder)
            except OSError:
                continue
            with it:
                for de in it:
                    name = de.name
                    if name.startswith("."):
                        continue  # .git, editor swap files, our temp files
                    rel = prefix + name
                    try:
                        if de.is_dir(follow_symlinks=False):
                            if rel + "/" != ARCHIVED_DIR:
                                stack.append((de.path, rel + "/"))
                        elif name.endswith(".md") and de.is_file(follow_symlinks=False):
                            found[rel] = de.stat(follow_symlinks=False)
                    except OSError:
                        continue
        return found

    def sync(self, paths: Iterable[str] | None = None) -> int:
        """Bring the index up to date with the files on disk.

        Args:
            paths: repo-relative paths known to have changed (from a watcher or
                the writer); None checks every file's mtime and size (a full
                stat scan, no file read unless it changed).

        Returns:
            int: how many files were re-read or dropped.
        """
        changed = 0
        if paths is None or not self.built:
            # A build makes a few hundred thousand containers (posting sets, items)
            # that live as long as the index and hold no cycles: the cyclic GC would
            # scan them again and again during the build (a quarter of its time),
            # finding nothing. So the GC is paused for the build. (gc.freeze() after
            # it would also spare the first query one collection, but it is process
            # wide: in the app or the MCP server, cycles among objects alive then
            # would never be collected; not worth 0.3 s once.)
            gc_was_on = gc.isenabled()
            gc.disable()
            try:
                return self._sync_all()
            finally:
                if gc_was_on:
                    gc.enable()
        for rel in dict.fromkeys(paths):
            rel = rel.replace(os.sep, "/")
            if rel.endswith("/") or not rel or rel.startswith(".git/"):
                continue
            if not rel.endswith(".md"):
                if (self.root / rel).is_dir():  # a folder moved or was deleted: check everything
                    return changed + self.sync(None)
                if any(r.startswith(rel + "/") for r in self._files):
                    return changed + self.sync(None)
                continue
            full = self.root / rel
            try:
                st = full.lstat()
                ok = full.is_file() and not full.is_symlink() and not rel.startswith(ARCHIVED_DIR)
                ok = ok and not any(part.startswith(".") for part in rel.split("/"))
            except OSError:
                ok = False
            if ok and self._update(rel, st):
                changed += 1
            elif not ok and rel in self._files:
                self._drop_file(rel)
                changed += 1
        return changed

    def _sync_all(self) -> int:
        """Stat every file, re-read those whose mtime or size changed, drop those gone.

        Returns:
            int: how many files were re-read or dropped.
        """
        changed = 0
        seen = self._walk()
        for rel in [r for r in self._files if r not in seen]:
            self._drop_file(rel)
            changed += 1
        for rel, st in seen.items():
            if self._update(rel, st):
                changed += 1
        self.built = True
        return changed

    def _update(self, rel: str, st: os.stat_result) -> bool:
        stamp = (st.st_mtime_ns, st.st_size)
        rec = self._files.get(rel)
        if rec is not None and rec.stamp == stamp:
            return False
        if rec is not None:
            self._drop_file(rel)
        rec = _FileRec(stamp)
        self._files[rel] = rec
        if st.st_size > MAX_INDEXED_FILE:
            return True
        try:
            data = (self.root / rel).read_bytes()
            parsed = fmt.parse(data, rel)
        except (OSError, FormatError):
            return True  # unreadable or not text: indexed as empty, retried when it changes
        for number, entry in parsed.entries():
            rec.ids.append(self._add(rel, number, entry))
        return True

    @staticmethod
    def _keys(words: list[str], meta: dict[str, str]) -> set[str]:
        """The index keys of an entry: its terms, adjacent-word pairs, subject and kind terms.

        Args:
            words: the entry's terms in order, repeats kept (:func:`split_folded`).
            meta: the entry's metadata.

        Returns:
            set[str]: every key whose posting set holds the entry.
        """
        keys = set(words)
        keys.update(map(" ".join, pairwise(words)))  # "a b" for each adjacent pair
        subject = meta.get("subject")
        if subject:
            subject = _fold_meta(subject)
            if subject:
                keys.add(_SUBJECT + subject)
        kind = meta.get("kind")
        if kind:
            keys.add(_KIND + _fold_meta(kind))
        return keys

    def _add(self, rel: str, number: int, entry: fmt.Entry) -> int:
        """Index one entry: its item, its posting sets and its month bucket.

        Args:
            rel: the file's repo-relative path.
            number: the entry's 1-based line number.
            entry: the parsed entry.

        Returns:
            int: the new item id.
        """
        iid = self._next_id
        self._next_id += 1
        folded = fold(entry.text)
        meta = entry.meta
        split = split_folded(folded)
        keys = self._keys(split, meta)
        post = self._post
        for key in keys:
            bucket = post.get(key)
            if bucket is None:
                post[key] = {iid}
                if key[0] == _SUBJECT:
                    for term in split_folded(key[1:]):
                        self._subjects.setdefault(term, set()).add(key[1:])
            else:
                bucket.add(iid)
        day = _date_ordinal(meta.get("added"))
        month = day // 31
        by_user = 0 if meta.get("by", "user").strip().lower() == "agent" else 1
        ws_value = meta.get("workspace")
        ws = normalize_workspace(ws_value)[0] if ws_value and ws_value.strip() else None
        self._items[iid] = _Item(
            rel, number, entry.text, meta, folded, tuple(dict.fromkeys(split)), day * 2 + by_user, ws
        )
        bucket = self._months.get(month)
        if bucket is None:
            self._months[month] = {iid}
            self._months_desc = None
        else:
            bucket.add(iid)
        return iid

    def _drop_file(self, rel: str) -> None:
        rec = self._files.pop(rel, None)
        if rec is None:
            return
        for iid in rec.ids:
            item = self._items.pop(iid)
            for key in self._keys(split_folded(item.folded), item.meta):
                bucket = self._post.get(key)
                if bucket is not None:
                    bucket.discard(iid)
                    if not bucket:
                        del self._post[key]
                        if key[0] == _SUBJECT:
                            for term in split_folded(key[1:]):
                                names = self._subjects.get(term)
                                if names is not None:
                                    names.discard(key[1:])
                                    if not names:
                                        del self._subjects[term]
            month = (item.rank // 2) // 31
            bucket = self._months.get(month)
            if bucket is not None:
                bucket.discard(iid)
                if not bucket:
                    del self._months[month]
                    self._months_desc = None

    # -- searching --------------------------------------------------------

    def _newest(self, group: Set[int], need: int, taken: set[int], keep: Callable[[int], bool] | None) -> list[int]:
        """Up to ``need`` ids of ``group``, not in ``taken`` and kept by ``keep``, best ``rank`` first.

        A large group is read month bucket by month bucket, newest first, so
        only the buckets needed are intersected and sorted.
        """
        items = self._items
        if len(group) <= 4 * need + 64:
            got = [i for i in group if i not in taken]
        else:
            if self._months_desc is None:
                self._months_desc = sorted(self._months, reverse=True)
            got = []
            for month in self._months_desc:
                bucket = self._months[month]
                found = (group & bucket) if len(group) < len(bucket) else (bucket & group)
                found -= taken
                got.extend(found if keep is None else (i for i in found if keep(i)))
                if len(got) >= need:
                    break
            keep = None
        if keep is not None:
            got = [i for i in got if keep(i)]
        got.sort(key=lambda i: (-items[i].rank, items[i].path, items[i].line))
        return got[:need]

    def search(
        self,
        query: str,
        *,
        workspace_file: str | None = None,
        workspace_id: str | None = None,
        scoped: bool = False,
        limit: int = 10,
    ) -> list[tuple[int, tuple]]:
        """Rank entries for ``query`` (the order of the module docstring).

        Args:
            query: any text; see :func:`memrepo.engine.format.terms.query_terms` for the limits.
            workspace_file: with ``scoped``, the one workspace file to keep (None keeps none).
            workspace_id: with ``scoped``, the one workspace an entry's own
                ``workspace:`` key may name (in a global file or the inbox).
            scoped: leave out every workspace file (``workspaces/…``) except
                ``workspace_file``, and every entry whose ``workspace:`` key
                names another workspace.
            limit: the most results wanted (at least 1).

        Returns:
            list[tuple[int, tuple]]: item ids with their sort keys, best first;
            pass each to :meth:`hit`.
        """
        folded, qterms = query_terms(query)
        if not qterms:
            return []
        limit = max(1, limit)
        post, items = self._post, self._items
        n_items = len(items) + 1
        weights = {t: math.log(1.0 + n_items / (len(post.get(t, _EMPTY)) + 1)) for t in qterms}
        total = sum(weights.values()) or 1.0
        multi = len(qterms) > 1

        def keep(iid: int) -> bool:
            item = items[iid]
            if item.ws is not None and item.ws != workspace_id:
                return False
            return not item.path.startswith(WORKSPACES_DIR) or item.path == workspace_file

        scope = keep if scoped else None
        qset = set(qterms)
        # A subject matches when all of its terms are in the query (not one common word of it).
        subject_ids: set[int] = set()
        for name in {n for t in qterms for n in self._subjects.get(t, ())}:
            if set(split_folded(name)) <= qset:
                subject_ids |= post.get(_SUBJECT + name, _EMPTY)
        kind_ids: set[int] = set()
        for t in qterms:
            kind_ids |= post.get(_KIND + t, _EMPTY)
        phrase: Set[int] = _EMPTY
        if multi:
            words = split_folded(folded)[: 2 * MAX_QUERY_TERMS]
            phrase = _intersect([post.get(f"{a} {b}", _EMPTY) for a, b in pairwise(words)])
        full_cache: list[Set[int]] = []

        def full() -> Set[int]:
            if not full_cache:
                full_cache.append(_intersect([post.get(t, _EMPTY) for t in qterms]))
            return full_cache[0]

        # Groups in the order of the sort key (phrase, subject, kind, then coverage):
        # each combination of the three marks, its full-coverage part first.
        groups: list[Callable[[], Set[int]]] = []
        for ph in (True, False):
            for su in (True, False):
                for ki in (True, False):
                    parts = [x for x, on in ((phrase, ph), (subject_ids, su), (kind_ids, ki)) if on]
                    if not parts:
                        continue
                    if any(not x for x in parts):
                        continue
                    if ph:  # a phrase has every term already
                        groups.append(lambda parts=parts: _intersect(parts))
                    else:
                        groups.append(lambda parts=parts: _intersect([*parts, full()]))
                        groups.append(lambda parts=parts: _intersect(parts))
        groups.append(full)

        need = limit * 2 + 8
        pool: list[int] = []
        taken: set[int] = set()
        for group_of in groups:
            if len(pool) >= need:
                break
            group = group_of()
            if group:
                for iid in self._newest(group, need - len(pool), taken, scope):
                    pool.append(iid)
                    taken.add(iid)
        if len(pool) < need:  # partial matches: weigh the terms each entry has
            counts: Counter[int] = Counter()
            for t in qterms:
                counts.update(post.get(t, _EMPTY))
            ranked = sorted(
                (i for i in counts if i not in taken and (scope is None or keep(i))),
                key=lambda i: (
                    -sum(weights[t] for t in qterms if t in items[i].terms),
                    -items[i].rank,
                    items[i].path,
                    items[i].line,
                ),
            )
            pool.extend(ranked[: need - len(pool)])

        pool.sort(key=lambda i: (items[i].path, items[i].line))  # ties keep file order
        scored = []
        for iid in pool:
            item = items[iid]
            coverage = sum(weights[t] for t in qterms if t in item.terms) / total
            subj_hit = iid in subject_ids
            kind_hit = iid in kind_ids
            is_phrase = multi and iid in phrase and _has_phrase(item.folded, folded)
            scored.append((iid, (int(is_phrase), int(subj_hit), int(kind_hit), round(coverage, 6), item.rank)))
        scored.sort(key=lambda pair: pair[1], reverse=True)  # stable
        return scored[:limit]

    def hit(self, iid: int, key: tuple, detail: str) -> RecallHit:
        """Turn a result of :meth:`search` into a :class:`~memrepo.engine.models.RecallHit`.

        Args:
            iid: the item id.
            key: its sort key.
            detail: ``"line"`` for the entry alone, ``"full"`` to add the section around it.

        Returns:
            RecallHit: the hit; ``section`` is None for ``detail="line"`` or when
            the file can no longer be read.
        """
        item = self._items[iid]
        phrase, subj, kind, coverage, _rank = key
        score = round(4 * phrase + 2 * subj + kind + coverage, 4)
        section = heading = None
        if detail == "full":
            heading, section = self._section(item.path, item.line)
            if section is not None:
                section = "\n".join(redacted(line) for line in section.split("\n"))
        return RecallHit(
            ref=f"repo:{item.path}#L{item.line}",
            path=item.path,
            line=item.line,
            text=redacted(item.text),
            by="agent" if item.meta.get("by", "user").strip().lower() == "agent" else "user",
            meta=dict(item.meta),
            score=score,
            unreviewed=item.path == INBOX,
            heading=heading,
            section=section,
        )

    def _section(self, rel: str, line: int) -> tuple[str | None, str | None]:
        """The heading above ``line`` and up to :data:`SECTION_LINES` lines of its section.

        Lines are cut exactly as the entry parser cuts them (``\n`` and
        ``\r\n`` only, a BOM dropped), so line numbers agree with refs.
        """
        try:
            lines = [ln.text for ln in fmt.parse((self.root / rel).read_bytes(), rel).lines]
        except (OSError, FormatError):
            return None, None
        if not 1 <= line <= len(lines):
            return None, None
        idx = line - 1
        start, heading, level = 0, None, 7
        for i in range(idx, -1, -1):
            m = _HEADING_RE.match(lines[i])
            if m:
                start, heading, level = i, lines[i].strip(), len(m.group(1))
                break
        end = len(lines)
        for i in range(idx + 1, len(lines)):
            m = _HEADING_RE.match(lines[i])
            if m and len(m.group(1)) <= level:
                end = i
                break
        if end - start > SECTION_LINES:  # centre the window on the hit, inside the section
            lo = max(start, idx - SECTION_LINES // 2)
            hi = min(end, lo + SECTION_LINES)
            start, end = max(start, hi - SECTION_LINES), hi
        return heading, "\n".join(lines[start:end])
