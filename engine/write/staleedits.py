"""A stale copy that edits a line memrepo just removed brings it back in other words (docs/architecture.md §3).

An editor's copy read before a ``memrepo forget`` still holds the forgotten line; the user edits it (a typo, a
date) and saves. The save's line is not the forgotten one byte for byte, so the exact look of
:func:`memrepo.engine.write.stalerevived.revived_entries` misses it and the forgotten entry came back in a "Hand
edits" commit (breaker10 B10-8). :func:`edits_of` finds such a line: it carries the metadata of an entry line
memrepo removed outright (:func:`removed_outright`: no successor in the same commit, so not a ``--subject``
replace or a reinforce) and its text pairs with it as the entry merge pairs an edited line, more than with any
line of HEAD the save lacks. It is then asked about like an exact revival; "put back" leaves it out.
"""

from __future__ import annotations

import difflib

from memrepo.engine.format.entries import Entry, parse_entry
from memrepo.engine.format.merge import CONFLICT_KEY, PAIR_RATIO, conflict_id


def _lines(data: bytes | None) -> set[bytes]:
    """``data``'s lines without their ``\n`` or ``\r\n`` (empty for None)."""
    return {line.rstrip(b"\r") for line in data.split(b"\n")} if data else set()


def removed_outright(old: bytes, new: bytes | None) -> list[str]:
    """The entry lines (with metadata) of ``old`` that ``new`` lacks and did not replace: no line new in ``new``
    carries the same metadata and pairs with it, nor the same ``subject`` (a forget, a move out; not a
    ``--subject`` replace or a revise, whose successor is the current value: :func:`mark_rivals`)."""
    removed = _lines(old) - _lines(new)
    if not removed:
        return []
    added = [parse_entry(raw.decode("utf-8", "surrogateescape")) for raw in _lines(new) - _lines(old)]
    out = []
    for raw in removed:
        text = raw.decode("utf-8", "surrogateescape")
        entry = parse_entry(text)
        if entry is None or not entry.meta:
            continue
        subject = entry.meta.get("subject")
        if not any(
            a is not None and (_pairs(entry, a) or (subject and a.meta.get("subject") == subject)) for a in added
        ):
            out.append(text)
    return out


def _likeness(a: Entry, b: Entry) -> float:
    """How much entry ``b`` reads as an edit of ``a``: 0.0 unless they carry the same metadata, else their
    texts' difflib ratio when at least :data:`~memrepo.engine.format.merge.PAIR_RATIO` (as the entry merge pairs
    an edited line)."""
    if a.meta != b.meta:
        return 0.0
    ratio = difflib.SequenceMatcher(a=a.text, b=b.text, autojunk=False).ratio()
    return ratio if ratio >= PAIR_RATIO else 0.0


def _pairs(a: Entry, b: Entry) -> bool:
    """Whether entry ``b`` reads as an edit of ``a`` (:func:`_likeness`)."""
    return _likeness(a, b) > 0.0


def edits_of(lines: list[str], gone: list[str], committed: bytes, now: bytes) -> set[str]:
    """Which of ``lines`` (entry lines new in a save) are an edit of a line memrepo removed outright (breaker10
    B10-8): a stale copy that edits a line just forgotten would bring it back in other words. A removed line
    HEAD or the save still holds whole is no source of an edit; each removed line claims one edit; a line that
    reads at least as much as an edit of a line of HEAD the save lacks is that line's edit, not a revival."""
    present = _lines(committed) | _lines(now)
    sources = [
        entry
        for line in dict.fromkeys(gone)
        if line.encode("utf-8", "surrogateescape") not in present and (entry := parse_entry(line)) is not None
    ]
    lacking = [
        entry
        for raw in _lines(committed) - _lines(now)
        if (entry := parse_entry(raw.decode("utf-8", "surrogateescape"))) is not None and entry.meta
    ]
    out: set[str] = set()
    for text in lines:
        new = parse_entry(text)
        if new is None or not new.meta or not sources:
            continue
        own = max((_likeness(entry, new) for entry in lacking), default=0.0)
        best = max(range(len(sources)), key=lambda i: _likeness(sources[i], new))
        if _likeness(sources[best], new) > own:
            out.add(text)
            del sources[best]
    return out


def mark_rivals(merged: bytes, committed: bytes, dropped: list[str], revived: set[str]) -> bytes:
    """``merged`` (a stale save with the ``dropped`` lines put back) with each dropped line and the save's line
    of the same ``subject`` marked as one conflict (``conflict: <id>`` on both, as a sync merge marks an entry
    both machines changed): the user's value and the agent's are never both current (breaker10 B10-2). A line
    of the save that memrepo removed (``revived``: the old value the stale copy still holds) is no rival: it
    goes.
    """
    subjects: dict[str, str] = {}
    for line in dropped:
        entry = parse_entry(line)
        if entry is not None and entry.meta.get("subject") and CONFLICT_KEY not in entry.meta:
            subjects.setdefault(entry.meta["subject"], line)
    if not subjects:
        return merged
    head = _lines(committed)
    rows = merged.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    rival: dict[str, tuple[str, str]] = {}  # subject -> (the save's line, the conflict id)
    for row in rows:
        text = row.rstrip("\r\n")
        entry = parse_entry(text)
        subject = entry.meta.get("subject", "") if entry is not None else ""
        if entry is None or subject not in subjects or subject in rival or CONFLICT_KEY in entry.meta:
            continue
        if text in revived or text.encode("utf-8", "surrogateescape") in head:
            continue  # not the save's own value
        rival[subject] = (text, conflict_id(subjects[subject], text, subjects[subject]))
    marks = {text: cid for text, cid in rival.values()}
    marks.update({subjects[subject]: cid for subject, (_text, cid) in rival.items()})
    out = []
    for row in rows:
        text = row.rstrip("\r\n")
        cid = marks.get(text)
        entry = parse_entry(text) if cid else None
        if cid and entry is not None:
            marked = Entry(entry.indent, entry.bullet, entry.text, {**entry.meta, CONFLICT_KEY: cid})
            row = marked.render() + row[len(text) :]
        out.append(row)
    return "".join(out).encode("utf-8", "surrogateescape")


def edits_older(text: str, replaced: list[str], dropped: list[str]) -> bool:
    """Whether the save's new line ``text`` reads more as an edit of a line memrepo replaced after the save's
    base by a ``--subject`` replace (the old value the stale copy held) than of any ``dropped`` line (memrepo's
    new value): then it is no rewrite of the new value, which the save drops without the user having seen it
    (breaker10 B10-2: the user's edit of the old value silently replaced the agent's newer one)."""
    new = parse_entry(text)
    if new is None or not new.meta or not replaced:
        return False
    # only a value a --subject replace removed: a dream's or an agent's edit of a line without one is rewritten
    # by the user's fresh edit as before (test_dream_engine's undo after a later edit)
    olds = [e for line in replaced if (e := parse_entry(line)) is not None and e.meta.get("subject")]
    old = max((_likeness(e, new) for e in olds), default=0.0)
    if old == 0.0:
        return False
    return old > max((_likeness(e, new) for line in dropped if (e := parse_entry(line)) is not None), default=0.0)


REWRITE_PAIRS_MAX = 20_000
"""At most this many (new line, missing line) pairs with the same metadata are compared for
:func:`rewritten_lines`; past it no line counts as rewritten and the save's drops are asked about (a question,
never a loss)."""
REWRITE_SHORTLIST = 3
"""For each new line, how many missing lines (those sharing the most words with it) get their full difflib
ratio computed."""


def rewritten_lines(
    new: list[tuple[str, object]], missing: list[tuple[str, object]], unseen: dict[str, int] | None = None
) -> set[str]:
    """Which ``missing`` lines (entry lines of HEAD the save lacks, with their metadata) the save rewrote.

    ``new`` are the save's new entry lines that may be a rewrite (with metadata, not a line memrepo removed). A
    new line rewrites at most one missing line with the same metadata, the one its text reads most like
    (difflib ratio, however low: a line reworded whole is still its own line's rewrite), and each missing line
    is rewritten at most once. ``unseen`` are the missing lines memrepo added after the save's base, which the
    editor's copy may never have held, each with its age (larger: older): a copy holds a prefix of them, so a new
    line with no line of the base left for it rewrites only the oldest one left of its metadata, and only when
    their texts read as an edit (:func:`_alike`); otherwise no line. A stale copy's rewrite of an older line, or
    a new line typed or copied (vim ``yyp``) in the entry format, "stood for" the agent's newer line of the same
    day it read a little more like, which was dropped with no question or with one naming the wrong line
    (breaker21 B21-5, B21-6); that save is now asked about. Before that, every missing line with the metadata
    of any new line counted as rewritten: a stale copy that edited one line of the agent's (``[by: agent; added: <today>]``, the metadata
    all the agent's lines of a day share) dropped the agent's later lines of that day with no question
    (breaker7 B7-10: the newest line memrepo wrote, edited in place in a copy read before the next write).
    The full ratio is computed for the :data:`REWRITE_SHORTLIST` candidates of each new line that share the
    most words with it (64 same-day lines edited at once, load 14: 1.6 s with every pair's ratio, 78 ms so).
    """
    texts = [(e.text if (e := parse_entry(old)) else old) for old, _meta in missing]
    words = [frozenset(t.casefold().split()) for t in texts]
    pairs: list[tuple[float, int, int]] = []
    later: dict[int, list[int]] = {}  # each new line's candidates among the lines added after the base
    unseen = unseen or {}
    compared = 0
    for i, (text, meta) in enumerate(new):
        entry = parse_entry(text)
        if entry is None or not meta:
            continue
        mine = frozenset(entry.text.casefold().split())
        bounds: list[tuple[float, int]] = []
        for j, (old, old_meta) in enumerate(missing):
            if old_meta != meta:
                continue
            compared += 1
            if compared > REWRITE_PAIRS_MAX:
                return set()
            if old in unseen:
                later.setdefault(i, []).append(j)
                continue
            bounds.append((len(mine & words[j]) / (len(mine | words[j]) or 1), j))
        bounds.sort(key=lambda b: (-b[0], b[1]))
        matcher = difflib.SequenceMatcher(b=entry.text, autojunk=False)
        for _shared, j in bounds[:REWRITE_SHORTLIST]:
            matcher.set_seq1(texts[j])
            pairs.append((matcher.ratio(), i, j))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    used_new: set[int] = set()
    out: dict[int, str] = {}
    for _ratio, i, j in pairs:
        if i in used_new or j in out:
            continue
        used_new.add(i)
        out[j] = missing[j][0]
    for i, js in later.items():  # the base's lines are taken: the oldest line added after it, if alike
        left = [j for j in js if j not in out]
        if i in used_new or not left:
            continue
        j = max(left, key=lambda j: (unseen[missing[j][0]], -j))
        new_text = e.text if (e := parse_entry(new[i][0])) else new[i][0]
        if _alike(texts[j], new_text):
            out[j] = missing[j][0]
    return set(out.values())


LOOSE_RATIO = 0.35
"""A line added after a save's base and a new line of the save that share a word (:func:`_alike`) pair as its
edit from this difflib ratio (a shortened line: "Use uv for every install" -> "Use uv, always", 0.47)."""
_COMMON = frozenset(
    ["a", "an", "and", "at", "by", "for", "i", "in", "is", "it", "my", "of", "on", "or", "the", "to", "we", "with"]
)


def _alike(old: str, new: str) -> bool:
    """Whether ``new`` reads as an edit of ``old``: a ratio of :data:`~memrepo.engine.format.merge.PAIR_RATIO`, or
    of :data:`LOOSE_RATIO` with a word in common (not a common one); an unrelated line typed or copied beside
    the agent's newer line (breaker21 B21-6: 0.19) is none."""
    ratio = difflib.SequenceMatcher(a=old, b=new, autojunk=False).ratio()
    if ratio >= PAIR_RATIO:
        return True
    words = [{w.strip(".,;:!?()\"'").casefold() for w in t.split()} - _COMMON - {""} for t in (old, new)]
    return ratio >= LOOSE_RATIO and bool(words[0] & words[1])
