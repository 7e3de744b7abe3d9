"""Recall without the index: a direct lexical scan of the markdown, while the first build runs (docs/architecture.md §4).

A fresh clone has no recall index, and building it reads, parses and
redacts every entry (minutes at 20,000 files). Until the build is done, a
recall answers from the files themselves: every indexable file
(:func:`.recallkeys.walk`) is read, the few entries that may hold a query
term are found by a cheap test on the lowered text, and only those are cut
into index terms with the index's own functions (:func:`.recallkeys.entry_keys`).
The ranking is the index's (:func:`.recallrank.rank`, through the same
:class:`~.recallrank.Postings` reads), so the scan and the index give the
same results; a test compares them.

- **The cheap test**: a term a line's entry is indexed under shows in the
  lowered line as a prefix of it. Folding (NFKC, case folding, accents,
  :mod:`memrepo.engine.format.terms`) only differs from lowering for
  characters outside :data:`SAFE_CHARS` (ASCII, CJK ideographs, kana, Hangul
  syllables, common punctuation and emoji; a test checks every one), and a
  line holding one is cut into terms whatever it holds. A Snowball stem
  (:mod:`memrepo.engine.format.stemming`) keeps all of its word but the last
  letter (``happy`` → ``happi``, ``hoping`` → ``hope``; checked on 320,000
  words), except three irregular forms (``dying``, ``lying``, ``tying``).
- **Context**: a heading or link-only bullet that may hold a query term has
  every entry of its file cut into terms with the section's context, as the
  index does; otherwise an entry's context can hold no query term but its
  own ``subject:``.
- **Redaction**: what is scored and shown of a candidate is redacted as the
  index holds it (the ranking reads only the few best candidates), so what
  leaves is the same; a term found only inside a secret still counts in its
  weight, which the index never sees (a small difference, in the weights only).
- **Counts**: BM25 needs the number of entries; each file's bullets are
  counted with one pattern (files with code fences, comments or front matter
  are parsed whole).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Mapping, Set
from pathlib import Path

from memrepo.engine.format.entries import Entry, is_link_line, parse, parse_entry
from memrepo.engine.format.paths import normalize_workspace
from memrepo.engine.format.stemming import acronym_singulars, index_term
from memrepo.engine.format.terms import is_cjk

from .recallcontext import entry_context, section_context
from .recallentries import MAX_INDEXED_FILE
from .recallkeys import SEQ_BITS, SEQ_MASK, FileStat, date_ordinal, entry_keys, entry_rank, walk
from .recallrank import CONTEXT_KEY, Candidate, Ranked, query_index_terms, rank

SAFE_CHARS = (
    "\x00-\x7f"
    "\u00a0\u00b7\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u2192"
    "\u2600-\u26ff\u2705\u2714\u2728\u274c\u2757\u27a1\ufe0f"
    "\u3000-\u3003\u3008-\u3011\u3041-\u3096\u30a1-\u30fa\u30fc"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3"
    "\uff01\uff08\uff09\uff0c\uff0e\uff1a\uff1b\uff1f"
    "\U0001f300-\U0001f5ff\U0001f600-\U0001f64f\U0001f680-\U0001f6ff\U0001f900-\U0001f9ff"
)
"""Characters whose fold is their lowercase, or that are no part of a term either way (a regex class body)."""
_UNSAFE_RE = re.compile(f"[^{SAFE_CHARS}]")
_BULLET_RE = re.compile(r"^[ \t\ufeff]*[-*+][ \t]", re.MULTILINE)
_LINK_BULLET_RE = re.compile(r"^[ \t\ufeff]*[-*+][ \t]+[^\n]*\[\[[^\n]*$", re.MULTILINE)
_PLAIN_RE = re.compile("\n[ \t*+\ufeff]|```|~~~|<!--|<<<<<<<|\\[\\[")
"""What makes a file's entries need more than a count of ``- `` at line starts: other bullets, blocks, links."""
_ODD_FIRST = (" ", "\t", "*", "+", "\ufeff", "---")
_IRREGULAR = {"die": ("dy",), "lie": ("ly",), "tie": ("ty",)}
"""Stems of an irregular form that keeps less than all but its last letter (Snowball's exceptions)."""


def term_prefixes(term: str) -> tuple[str, ...]:
    """What the lowered text of any word indexed as ``term`` holds (a stem's word less its last letter, or the term).

    Args:
        term: an index term (:func:`memrepo.engine.format.stemming.index_term`).

    Returns:
        tuple[str, ...]: one or more strings, one of which every such word holds.
    """
    if term.isascii() and term.isalpha() and len(term) > 2:
        return (term[:-1], *_IRREGULAR.get(term, ()))
    return (term,)  # a stem of one or two letters keeps its word's letters (Snowball adds or changes none there)


def _blocks(text: str) -> bool:
    """Whether a file may hold a block whose bullets are no entries (fences, comments, front matter, a conflict)."""
    return (
        "```" in text or "~~~" in text or "<!--" in text or "<<<<<<<" in text or text.startswith(("---", "\ufeff---"))
    )


def _count(text: str, data: bytes, rel: str) -> int:
    """How many entries the file holds, as :func:`memrepo.engine.format.entries.parse` finds them."""
    if _PLAIN_RE.search(text) is None and not text.startswith(_ODD_FIRST):
        # every bullet is "- " or "-\t" at a line's start, and no block or link: counted at C speed
        return text.count("\n- ") + text.count("\n-\t") + text.startswith(("- ", "-\t"))
    if _blocks(text):
        return len(parse(data, rel, replace=True).entries())
    count = len(_BULLET_RE.findall(text))
    for m in _LINK_BULLET_RE.finditer(text):
        entry = parse_entry(m.group().rstrip("\r"))
        if entry is not None and not entry.meta and is_link_line(entry.text):
            count -= 1
    return count


class _Max:
    """A heap entry ordered the other way round: ``heapq`` keeps the largest ``key`` on top."""

    __slots__ = ("key",)

    def __init__(self, key: tuple[int, str, int, int]) -> None:
        self.key = key

    def __lt__(self, other: _Max) -> bool:
        return self.key > other.key


_ASCII = bytes(range(128))
_ADDED_RE = re.compile(r"added\s*:\s*(\d{4}-\d{2}-\d{2})", re.IGNORECASE)


class Item:
    """One entry the scan found holding a query key: its line, read in full only when the ranking asks."""

    __slots__ = ("_entry", "_rank", "context", "line", "path", "raw", "shown")

    def __init__(self, path: str, line: int, raw: str, entry: Entry | None, context: str | None) -> None:
        self.path = path
        self.line = line
        self.raw = raw  # the line as written (for an entry not parsed yet)
        self._entry = entry
        self.context = context  # the section's context; None until read (a candidate only)
        self.shown: tuple[str, dict[str, str], str] | None = None
        self._rank: int | None = None

    @property
    def entry(self) -> Entry:
        if self._entry is None:
            self._entry = parse_entry(self.raw) or Entry("", "-", "")
        return self._entry

    @property
    def bound(self) -> int:
        """At least :attr:`rank`, read without parsing: the latest ``added:`` date the line holds, as by a user."""
        if self._rank is not None or self._entry is not None:
            return self.rank
        dates = [date_ordinal(m.group(1)) for m in _ADDED_RE.finditer(self.raw)]
        return max(dates, default=0) * 2 + 1

    @property
    def rank(self) -> int:
        """Recency and ``by: user`` (:func:`.recallkeys.entry_rank`), as the index packs it in an item id."""
        if self._rank is None:
            self._rank = entry_rank(self.entry.meta)
        return self._rank

    @property
    def ws(self) -> str | None:
        value = self.entry.meta.get("workspace")
        return normalize_workspace(value)[0] if value and value.strip() else None


class Scan:
    """The entries of a memory folder that hold a query's keys, read from the files (:class:`~.recallrank.Postings`).

    Args:
        root: the work tree.
        query: the query (its index terms are looked for).
        redact: what makes an entry's text as the index holds it (:func:`.recallkeys.redacted`).
        found: the walk of the files (:func:`.recallkeys.walk`), if made already.

    Attributes:
        files: how many files were walked.
        entries: how many entries they hold.
        items: each found item by sequence number (an id's low bits).
    """

    def __init__(
        self, root: Path, query: str, redact: Callable[[str], str], found: dict[str, FileStat] | None = None
    ) -> None:
        self.root = Path(root)
        self.redact = redact
        self.keep: Callable[[int], bool] | None = None
        self.home_file: str | None = None
        self.leave_out: str | None = None  # a file no search ranks (:mod:`.recallreviewed`)
        self.items: dict[int, Item] = {}
        self.post: dict[str, set[int]] = {}
        self.files = 0
        self.entries = 0
        folded, terms = query_index_terms(query)
        if terms:  # the compounds the ranking may ask about (.recallcompound): read their entries too
            from .recallcompound import compound_keys

            terms = list(dict.fromkeys([*terms, *sorted(compound_keys(folded))]))
        self.terms = terms
        self.keys = frozenset(terms) | frozenset(CONTEXT_KEY + t for t in terms)
        self._seq = 0
        self._contexts: dict[str, dict[int, str]] = {}
        self._safe: dict[str, bool] = {}
        if terms:
            self._read_all(found)
        else:
            self.files = len(walk(self.root) if found is None else found)

    # -- reading the files -------------------------------------------------

    def _read_all(self, found: dict[str, FileStat] | None) -> None:
        prefixes = sorted({p for t in self.terms for p in term_prefixes(t)}, key=len, reverse=True)
        words = "|".join(re.escape(p) for p in prefixes if p.isascii())  # where a word starts, as split_folded cuts
        others = "|".join(re.escape(p) for p in prefixes if not p.isascii())  # CJK: overlapping, no word boundaries
        finder = re.compile(
            "|".join(
                ([f"(?<![a-z0-9])(?:{words})[a-z0-9]*"] if words else []) + ([f"(?=({others}))"] if others else [])
            )
        )
        # A line of safe characters is cut by the finder alone when every term is a word or a CJK bigram.
        self._quick = all(t.isascii() or (len(t) == 2 and is_cjk(t)) for t in self.terms)
        found = walk(self.root) if found is None else found
        self.files = len(found)
        for rel, st in found.items():
            if st.st_size > MAX_INDEXED_FILE:
                continue  # not indexed either
            try:
                with open(self.root / rel, "rb") as fh:
                    data = fh.read()
                if b"\x00" in data:
                    continue  # a binary file: no entries (the index keeps it empty)
                text = data.decode("utf-8", "replace")  # a stray non-UTF-8 byte hides no entry
            except (OSError, UnicodeDecodeError):
                continue
            if text.startswith("\ufeff"):
                text = text[1:]
            self.entries += _count(text, data, rel)
            low = text.lower()
            unsafe = not text.isascii() and self._unsafe(data)
            if unsafe or (any(p in low for p in prefixes) and finder.search(low) is not None):
                self._read_file(rel, data, text, low, finder, unsafe)

    def _unsafe(self, data: bytes) -> bool:
        """Whether a file's bytes hold a character outside :data:`SAFE_CHARS` (each distinct one looked at once)."""
        safe = self._safe
        for ch in set(data.translate(None, _ASCII).decode("utf-8", "replace")):  # its non-ASCII characters only
            got = safe.get(ch)
            if got is None:
                got = safe[ch] = _UNSAFE_RE.match(ch) is None and ch != "\ufeff"
            if not got:
                return True
        return False

    def _read_file(self, rel: str, data: bytes, text: str, low: str, finder: re.Pattern[str], unsafe: bool) -> None:
        """Add the entries of one file that hold a query key (only lines the cheap test lets through are cut)."""
        if _blocks(text) or len(low) != len(text):  # lowering moved offsets (a rare letter): cut it whole
            self._read_whole(rel, data)
            return
        starts: dict[int, bool] = {}  # a line's start: whether it holds an unsafe character
        for m in finder.finditer(low):
            starts.setdefault(low.rfind("\n", 0, m.start()) + 1, False)
        if unsafe:
            for m in _UNSAFE_RE.finditer(text):
                starts[text.rfind("\n", 0, m.start()) + 1] = True
        found: list[tuple[int, int, str, bool]] = []
        number, at = 1, 0
        for start in sorted(starts):
            number += text.count("\n", at, start)
            at = start
            end = text.find("\n", start)
            line = text[start:] if end < 0 else text[start : end - 1 if text[end - 1 : end] == "\r" else end]
            first = line.lstrip(" \t\ufeff")[:1]
            if first == "#" or "[[" in line:  # a heading or a link may hold a term: the section's context counts
                self._read_whole(rel, data)
                return
            if first in ("-", "*", "+"):
                found.append((number, start, line, starts[start]))
        for number, start, line, odd in found:
            held = None if odd or not self._quick else self._held(line, low[start : start + len(line)], finder)
            if held is None:  # cut it as the index does
                entry = parse_entry(line)
                if entry is None or (not entry.meta and is_link_line(entry.text)):
                    continue
                held = entry_keys(entry.text, entry_context("", entry.meta)) & self.keys
                self._add(held, Item(rel, number, line, entry, None))
            elif held:
                self._add(held, Item(rel, number, line, None, None))

    def _held(self, line: str, low: str, finder: re.Pattern[str]) -> set[str] | None:
        """The query terms a bullet line of safe characters holds in its text, or None to cut it in full.

        Its words are maximal runs of ASCII letters and digits, and its CJK bigrams
        pairs of CJK characters (:func:`memrepo.engine.format.terms.split_folded`), so
        the finder's matches are its terms; a term inside the trailing bracket group
        (metadata, a ``subject:``, or text when it is no metadata) leaves it to the parser.
        """
        if acronym_singulars(line):  # "GPUs" also holds gpu (.stemming.variant_terms): the parser's cut
            return None
        tail = line.rstrip(" \t")
        cut = len(tail)
        if tail.endswith("]"):
            at = tail.rfind("[")
            if at >= 0 and (at == 0 or tail[at - 1] != "[") and "]" not in tail[at + 1 : -1]:
                cut = at
        held: set[str] = set()
        terms = self.terms
        for m in finder.finditer(low):
            word = m.group(m.lastindex) if m.lastindex else m.group()
            term = word if not word.isascii() else index_term(word)
            if term in terms:
                if m.start() >= cut:
                    return None
                held.add(term)
        return held

    def _read_whole(self, rel: str, data: bytes) -> None:
        """Add the entries of one file holding a query key, cut with their sections' context (as the index does)."""
        from memrepo.engine.errors import FormatError

        try:
            parsed = parse(data, rel, replace=True)  # a stray non-UTF-8 byte hides no entry
        except FormatError:
            return
        contexts = section_context([ln.text for ln in parsed.lines])
        for number, entry in parsed.entries():
            section = contexts.get(number, "")
            held = entry_keys(entry.text, entry_context(section, entry.meta)) & self.keys
            self._add(held, Item(rel, number, "", entry, section))

    def _add(self, held: Set[str], item: Item) -> None:
        """Keep ``item`` under the query keys it holds, by its sequence number (its rank is read when ranked)."""
        if not held:
            return
        self._seq = (self._seq + 1) & SEQ_MASK
        self.items[self._seq] = item
        for key in held:
            self.post.setdefault(key, set()).add(self._seq)

    # -- what the ranking reads (recallrank.Postings) -------------------------

    def df(self, key: str) -> int:
        return len(self.post.get(key, ()))

    def ids(self, key: str) -> Set[int]:
        return self.post.get(key, frozenset())

    def _best(self, ids: Set[int], need: int) -> list[int]:
        """The ``need`` best-ranked of ``ids`` in scope: rank first, then path and line (as the index orders them).

        ``ids`` are sequence numbers (:meth:`ids`); those returned carry their rank in
        their high bits, as the index's item ids do (what the ranking reads of them).
        Items are parsed best bound first (:attr:`Item.bound`), until no bound left can
        reach the ``need``-th rank found: most lines of a common word are never parsed.
        """
        items = self.items
        keep = self.keep
        order = sorted(ids, key=lambda i: items[i].bound, reverse=True)
        best: list[_Max] = []  # (-rank, path, line, id): the worst of the best on top
        for i in order:
            item = items[i]
            if len(best) >= need and item.bound < -best[0].key[0]:
                break  # a rank under the need-th best: no later one can enter
            if keep is not None and not keep(i):
                continue
            key = (-item.rank, item.path, item.line, i)
            if len(best) < need:
                heapq.heappush(best, _Max(key))
            elif key < best[0].key:
                heapq.heapreplace(best, _Max(key))
        got = sorted(entry.key for entry in best)
        return [(-rank << SEQ_BITS) | i for rank, _path, _line, i in got]

    def newest(self, key: str, need: int) -> list[int]:
        return self._best(self.ids(key), need)

    def ranked(self, ids: Set[int], need: int) -> list[int]:
        return self._best(ids, need)

    def home(self, keys: Set[str], need: int) -> list[int]:
        home, items = self.home_file, self.items
        return (
            self._best({i for k in keys for i in self.post.get(k, ()) if items[i].path == home}, need) if home else []
        )

    def scored(self, iid: int) -> tuple[str, dict[str, str], str]:
        """(text, ``subject:`` and ``kind:``, context) of an item as the index holds them: redacted.

        Only what the ranking reads: the other metadata (a ``source:`` URL costs
        a millisecond to redact) is redacted for the hits shown (:meth:`meta_shown`).
        """
        item = self.items[iid & SEQ_MASK]
        if item.shown is None:
            if item.context is None:
                item.context = self._section(item.path, item.line)
            entry = item.entry
            ctx = entry_context(item.context, entry.meta)
            meta = {k: self.redact(v) for k, v in entry.meta.items() if k in ("subject", "kind")}
            item.shown = (self.redact(entry.text), meta, self.redact(ctx))
        return item.shown

    def _section(self, rel: str, number: int) -> str:
        """The section context of line ``number`` of ``rel`` (its file's contexts read once)."""
        contexts = self._contexts.get(rel)
        if contexts is None:
            try:
                with open(self.root / rel, "rb") as fh:
                    text = fh.read().decode("utf-8", "replace").removeprefix("\ufeff")
            except (OSError, UnicodeDecodeError):
                text = ""
            # Lines cut as the parser cuts them ("\n", a "\r" before it dropped); only headings and links count.
            lines = [ln.rstrip("\r") if ln[:1] == "#" or "[[" in ln else "" for ln in text.split("\n")]
            contexts = self._contexts[rel] = section_context(lines)
        return contexts.get(number, "")

    def prefixed(self, term: str) -> bool:
        """Whether an item holds a term beginning ``term`` or begun by it (:func:`.recallabsentterm.keys_prefixed`)."""
        from .recallabsentterm import keys_prefixed

        return keys_prefixed(self.post, term)

    def workspace_names(self) -> Mapping[frozenset[str], frozenset[str]]:
        """The active workspaces' names among the files scanned (:func:`.recallnames.name_terms`)."""
        from .recallnames import name_terms

        return name_terms({item.path for item in self.items.values()})

    def candidate(self, iid: int) -> Candidate:
        text, meta, ctx = self.scored(iid)
        item = self.items[iid & SEQ_MASK]
        return Candidate(text, meta.get("subject"), meta.get("kind"), item.path, item.line, ctx, item.entry.meta)

    # -- the search ----------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        workspace_file: str | None = None,
        workspace_id: str | None = None,
        scoped: bool = False,
        limit: int = 10,
        min_confidence: float | None = None,
    ) -> Ranked:
        """Rank the items for ``query``, as :meth:`memrepo.engine.read.recall.RecallIndex.search` ranks its entries.

        Args:
            query: the query the scan was made for.
            workspace_file, workspace_id, scoped, limit, min_confidence: as for ``RecallIndex.search``.

        Returns:
            Ranked: best first, with the confidence an answer needs (``answer_floor``).
        """
        from .recallkeys import has_phrase, in_scope
        from .recallrank import confidence_floor

        def keep(iid: int) -> bool:
            item = self.items[iid & SEQ_MASK]
            return item.path != self.leave_out and (
                not scoped or in_scope(item.path, item.ws, workspace_file, workspace_id)
            )

        self.keep = keep if scoped or self.leave_out is not None else None
        self.home_file = workspace_file if scoped else None
        return rank(query, self.entries, self, has_phrase, max(1, limit), confidence_floor(min_confidence))

    def hit_row(self, iid: int) -> tuple[str, int, str, dict[str, str]]:
        """(path, line, text, metadata) of a hit, redacted as an index row holds them."""
        item = self.items[iid & SEQ_MASK]
        meta = {k: self.redact(v) for k, v in item.entry.meta.items()}
        return item.path, item.line, self.scored(iid)[0], meta
