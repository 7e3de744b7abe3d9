"""Three-way merge of a markdown memory file, entry by entry (docs/architecture.md §2 entries).

Git's line merge knows nothing of entries: two machines that each appended an
entry to ``me.md`` conflict, and the file ends up holding ``<<<<<<<`` markers.
A memory file is a list of independent entry lines, so :func:`merge_entries`
merges against the merge base line by line, with these rules:

* an entry (or any line) added on either side is kept; when both sides added
  lines at the same place, ours come first, then theirs (a stable order), and
  an entry both sides added is kept once;
* a line removed on one side and untouched on the other is removed;
* a line changed on one side and untouched (or removed) on the other takes
  the change: nothing written on either machine is lost;
* the same entry changed differently on both sides keeps both versions side
  by side, ours first, each with a ``conflict: <id>`` metadata key for a
  person to pick one (the Inbox pane lists them);
* a non-entry line (prose, a heading) changed differently on both sides keeps
  both lines the same way, without a key (it has no metadata); it is listed in
  the conflicts too;
* link-only lines (the ``## Index`` of MEMORY.md) are a union: links added on
  either side are kept once, a link removed on one side goes.

Never a conflict marker. Untouched lines keep their bytes exactly (line
endings, trailing whitespace, a BOM); the result only ends without a newline
when the file did.

Pure: bytes in, bytes out; no git, no files.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from typing import cast

from . import entries as fmt

CONFLICT_KEY = "conflict"
"""The metadata key that marks the versions of an entry both sides changed."""

PAIR_RATIO = 0.5
"""How alike (difflib ratio, 0..1) a changed line must be to the base line to count
as an edit of it rather than a removal plus an addition."""


@dataclass(frozen=True, slots=True)
class MergeConflict:
    """One place where both sides changed the same line differently.

    Attributes:
        id: the ``conflict:`` value written on both versions (8 hex digits);
            for a non-entry line, an id that is written nowhere.
        kind: ``entry`` (both versions carry the key) or ``line`` (prose or a
            heading: both lines kept, no key).
        ours: our version of the line (without its ending).
        theirs: their version of the line.
    """

    id: str
    kind: str
    ours: str
    theirs: str


@dataclass(slots=True)
class MergeResult:
    """What :func:`merge_entries` produced.

    Attributes:
        data: the merged file's bytes.
        conflicts: the places both sides changed differently (both versions
            are in ``data``); empty for a clean merge.
    """

    data: bytes
    conflicts: list[MergeConflict] = field(default_factory=list)


# A line is (text, ending); ``_KEPT``/``_GONE`` or the new line describe what a
# side did with each base line.
_Line = tuple[str, str]
_KEPT = "kept"
_GONE = "gone"
_Fate = _Line | str  # a str is _KEPT or _GONE


@dataclass(slots=True)
class _Side:
    """What one side did to the base: per base line, and the lines it inserted before each."""

    fate: list[_Fate]  # _KEPT, _GONE, or the _Line it became
    inserts: list[list[_Line]]  # inserts[k]: lines added before base line k (k == len(base): at the end)


def _split(data: bytes | None) -> tuple[list[_Line], bool, fmt.MemoryFile]:
    parsed = fmt.parse(data or b"")
    return [(ln.text, ln.ending) for ln in parsed.lines], parsed.bom, parsed


def _key(line: _Line) -> str:
    return line[0] + line[1]


def _ratio(a: str, b: str, floor: float) -> float:
    """difflib's ratio of two lines, or 0.0 as soon as it is sure to be under ``floor``."""
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
        return 0.0
    return matcher.ratio()


def _diff(base: list[_Line], side: list[_Line]) -> _Side:
    """Describe ``side`` as changes to ``base``: kept, removed, edited lines and insertions."""
    fate: list[_Fate] = [_KEPT] * len(base)
    inserts: list[list[_Line]] = [[] for _ in range(len(base) + 1)]
    matcher = difflib.SequenceMatcher(a=[_key(x) for x in base], b=[_key(x) for x in side], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "insert":
            inserts[i1].extend(side[j1:j2])
            continue
        if tag == "delete":
            for i in range(i1, i2):
                fate[i] = _GONE
            continue
        # replace: pair each base line with the most alike later side line, in order.
        j = j1
        pending: list[_Line] = []
        for i in range(i1, i2):
            best, best_ratio = -1, PAIR_RATIO
            for k in range(j, j2):
                if (fmt.parse_entry(base[i][0]) is None) != (fmt.parse_entry(side[k][0]) is None):
                    continue
                r = _ratio(base[i][0], side[k][0], best_ratio)
                if r >= best_ratio and (best < 0 or r > best_ratio):
                    best, best_ratio = k, r
            if best < 0:
                fate[i] = _GONE
                continue
            pending.extend(side[j:best])
            inserts[i].extend(pending)
            pending = []
            fate[i] = side[best] if side[best] != base[i] else _KEPT
            j = best + 1
        inserts[i2].extend([*pending, *side[j:j2]])
    return _Side(fate, inserts)


def _links(text: str) -> frozenset[str] | None:
    """The link set of a link-only bullet line (an index line), or None for any other line."""
    entry = fmt.parse_entry(text)
    if entry is None or entry.meta or not fmt.is_link_line(entry.text):
        return None
    return frozenset(fmt.extract_links(entry.text))


def _union(ours: list[_Line], theirs: list[_Line]) -> list[_Line]:
    """Lines both sides inserted at one place: ours, then theirs' lines ours lack, in order."""
    if ours == theirs or not theirs:
        return list(ours)
    if not ours:
        return list(theirs)
    out: list[_Line] = []
    matcher = difflib.SequenceMatcher(a=[_key(x) for x in ours], b=[_key(x) for x in theirs], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        out.extend(ours[i1:i2])
        if tag != "equal":
            out.extend(theirs[j1:j2])
    return out


def conflict_id(base: str, ours: str, theirs: str) -> str:
    """The id written as ``conflict: <id>``: 8 hex digits of a hash of the three versions.

    Deterministic, so both machines merging the same histories write the same file.
    """
    digest = hashlib.sha1("\x00".join((base, ours, theirs)).encode("utf-8")).hexdigest()
    return digest[:8]


def _mark(text: str, cid: str) -> str:
    entry = fmt.parse_entry(text)
    assert entry is not None
    meta = {k: v for k, v in entry.meta.items() if k != CONFLICT_KEY}
    meta[CONFLICT_KEY] = cid
    return fmt.Entry(entry.indent, entry.bullet, entry.text, meta).render()


def merge_entries(base: bytes | None, ours: bytes | None, theirs: bytes | None) -> MergeResult:
    """Merge two versions of a memory file against their common base, entry by entry.

    Args:
        base: the file at the merge base (None or ``b""``: it did not exist).
        ours: our version (this machine).
        theirs: their version (the remote).

    Returns:
        MergeResult: the merged bytes and the conflicts kept side by side.
        A side that deleted the whole file while the other changed it counts
        as removing the lines the other side left untouched.

    Raises:
        FormatError: a version is not UTF-8 text or holds a NUL byte (a
            binary file): the caller falls back to git's merge.
    """
    if ours == theirs or theirs == base:
        return MergeResult(ours or b"")
    if ours == base:
        return MergeResult(theirs or b"")
    base_lines, base_bom, _ = _split(base)
    our_lines, our_bom, our_file = _split(ours)
    their_lines, their_bom, their_file = _split(theirs)
    newline = our_file.newline if our_lines else their_file.newline
    bom = their_bom if our_bom == base_bom else our_bom
    mine, other = _diff(base_lines, our_lines), _diff(base_lines, their_lines)

    out: list[_Line] = []
    conflicts: list[MergeConflict] = []
    seen_entries = {_key(x) for x in our_lines if fmt.parse_entry(x[0]) is not None}
    seen_links = {links for x in our_lines if (links := _links(x[0]))}

    def theirs_only(lines: list[_Line]) -> list[_Line]:
        # An entry or index link both sides added (at different places) is kept once.
        kept = []
        for line in lines:
            links = _links(line[0])
            if links is not None:
                if links in seen_links:
                    continue
            elif fmt.parse_entry(line[0]) is not None and _key(line) in seen_entries:
                continue
            kept.append(line)
        return kept

    for k in range(len(base_lines) + 1):
        ours_in, theirs_in = mine.inserts[k], other.inserts[k]
        if ours_in != theirs_in:
            theirs_in = theirs_only(theirs_in)
        out.extend(_union(ours_in, theirs_in))
        if k == len(base_lines):
            break
        line = base_lines[k]
        a, b = mine.fate[k], other.fate[k]
        if a is _KEPT:
            if b is not _GONE:
                out.append(line if b is _KEPT else cast(_Line, b))
        elif a is _GONE:
            if b not in (_KEPT, _GONE):
                out.append(cast(_Line, b))  # changed there, removed here: keep the change
        elif b in (_KEPT, _GONE) or a == b:
            out.append(cast(_Line, a))
        else:
            ours_line, theirs_line = cast(_Line, a), cast(_Line, b)
            ours_links, theirs_links = _links(ours_line[0]), _links(theirs_line[0])
            is_entry = fmt.parse_entry(ours_line[0]) is not None and ours_links is None
            both_entries = is_entry and fmt.parse_entry(theirs_line[0]) is not None and theirs_links is None
            if ours_links is not None and theirs_links is not None:
                out.append(ours_line)  # index lines: a union, never a conflict
                if theirs_links != ours_links:
                    out.append(theirs_line)
                continue
            if both_entries:
                cid = conflict_id(line[0], ours_line[0], theirs_line[0])
                conflicts.append(MergeConflict(cid, "entry", ours_line[0], theirs_line[0]))
                out.append((_mark(ours_line[0], cid), ours_line[1] or newline))
                out.append((_mark(theirs_line[0], cid), theirs_line[1]))
            else:
                cid = conflict_id(line[0], ours_line[0], theirs_line[0])
                conflicts.append(MergeConflict(cid, "line", ours_line[0], theirs_line[0]))
                out.append((ours_line[0], ours_line[1] or newline))
                out.append(theirs_line)
    # Only the last line may end without a newline: a line that lost its place
    # as the last one gets the file's newline.
    body = "".join(text + (ending or (newline if i < len(out) - 1 else "")) for i, (text, ending) in enumerate(out))
    data = body.encode("utf-8")
    return MergeResult(fmt.BOM + data if bom else data, conflicts)


def strip_conflict(text: str) -> str:
    """An entry line without its ``conflict:`` key (the line unchanged when it has none)."""
    entry = fmt.parse_entry(text)
    if entry is None or CONFLICT_KEY not in entry.meta:
        return text
    meta = {k: v for k, v in entry.meta.items() if k != CONFLICT_KEY}
    return fmt.Entry(entry.indent, entry.bullet, entry.text, meta).render()
