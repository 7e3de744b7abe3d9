"""The offline ``rules`` dreamer's operations (docs/architecture.md §6, the merge rule).

Without a model, a dream proposes:

* For lines that differ in form only (:func:`memrepo.engine.dreams.same.equal`):
  one stays, the others go: a ``delete`` naming the line kept for identical
  text, a ``merge`` into the kept line's text for a spelling or spacing
  variant. These may apply automatically (agent lines only).
* For lines alike but not equal (:class:`memrepo.engine.dreams.same.Likeness`):
  a replacement (a swapped word, a negation, an antonym, another number), a
  restatement (the same fact in other words) or an extension (one says more):
  the losing line is deleted, or same-author near-duplicates are merged into
  the winner's text. Always marked with their ``relation``, so validation
  sends them to review.
* An entry whose ``workspace:`` names another file's workspace: moved there.

Who wins: for a replacement (a fact that changed), the newer line
(``added:`` date, then the later line of one file); an agent's newer line
wins over the user's only when it gives a new value (other numbers, or a
change word) and the user's line is no rule, decision or correction
(:func:`newer_first`); for a restatement, an extension or a duplicate, the user's
line over an agent's, then the newer. A line the context block's rule finds
replaced by a newer line of its file by words (:func:`memrepo.engine.read.contextselect.replaced`
with ``subjects=False``: a ``supersedes:`` naming it, or topic words shared and a change word, "X, not Y"
or the same label) is proposed for removal too; a shared ``subject:`` alone is no evidence (the block hides
the older line, the dream leaves both: two lines about one subject may both be true), nor is a change word both
lines hold. Two lines that name different items ("(item 4722)" / "(item 4745)", "ticket 12" / "ticket 15"; a
version or code unless the newer line says it changed: :mod:`.ids`) are no replacement, restatement or extension
of each other. A pair the block's
rule relates by a change (an agent's line correcting the user's too) is a replacement, never a restatement. Lines are compared within
one file, and across MEMORY.md, me.md and lessons.md (never across two other
files: a fact may hold in two workspaces or topics). Reasons name files,
lines and texts, never the input's aliases.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from memrepo.engine.format import entries as fmt
from memrepo.engine.read.contextpart import partly_replaced
from memrepo.engine.read.contextselect import RULE_KINDS, candidates, replaced, topic_terms
from memrepo.engine.read.contexttopic import change_words

from .ids import different_items, other_counts
from .input import INBOX_MD, MAX_OPERATIONS, DreamInput, LineRef
from .progress import ProgressFn, silent
from .same import Likeness, Relation, adds_fact, content, equal_key, numbers

PLAIN_KEYS = frozenset({"by", "added"})
"""Metadata every entry may carry: it does not make one duplicate richer than another."""
QUOTE_CHARS = 70
"""Characters of an entry's text quoted in a reason."""
MAX_PAIRS = 20_000
"""Pairs compared at most per dream (pairs that share the fewest lines' words first)."""
COMMON_SHARE = 0.2
"""A content word on more than this share of the lines finds no pairs by itself (it is a topic)."""

ORDER = {"duplicate": 0, "replacement": 1, "restatement": 2, "extension": 3}
"""Which operations come first when more than :data:`~memrepo.engine.dreams.input.MAX_OPERATIONS` are found."""


def where(ref: LineRef) -> str:
    """``path:line`` of a line as the dream read it."""
    return f"{ref.path}:{ref.line}"


def quoted(ref: LineRef) -> str:
    """A line's text in quotes, cut to :data:`QUOTE_CHARS`, with where it is."""
    text = " ".join(ref.text.split())
    if len(text) > QUOTE_CHARS:
        text = text[: QUOTE_CHARS - 1] + "…"
    return f'"{text}" ({where(ref)})'


CORE_FILES = frozenset({"MEMORY.md", "me.md", "lessons.md"})
"""The files every session reads: compared with each other as one scope."""


def scope(ref: LineRef) -> str:
    """Lines are compared within a scope: one file, or the core files together (:data:`CORE_FILES`)."""
    return "(core)" if ref.path in CORE_FILES else ref.path


def newer_rank(ref: LineRef) -> tuple[str, str, int]:
    """Sorts older lines first: the ``added:`` date, then (within one file) the line number."""
    return (ref.meta.get("added", ""), ref.path, ref.line)


def winner(a: LineRef, b: LineRef) -> tuple[LineRef, LineRef, str]:
    """Which of two lines stays when one goes: ``(kept, gone, why)``.

    The user's line over an agent's; then the newer (``added:``; within one
    file, the later line); else the first read.
    """
    if (a.by == "user") != (b.by == "user"):
        return (a, b, "the user's line") if a.by == "user" else (b, a, "the user's line")
    da, db = a.meta.get("added", ""), b.meta.get("added", "")
    if da != db and da and db:
        return (a, b, "the newer line") if da > db else (b, a, "the newer line")
    if a.path == b.path and a.line != b.line:
        return (a, b, "the newer line") if a.line > b.line else (b, a, "the newer line")
    return a, b, "the first one"


def newer_first(a: LineRef, b: LineRef) -> tuple[LineRef, LineRef, str]:
    """Which of two lines that replace each other stays, ``(kept, gone, why)``: the newer, mostly.

    The newer line is the one a change was written in (breaker6 B6-4: the rules dream kept "Postgres 14" of
    the user over the agent's newer "Postgres 16"). An agent's newer line wins over the user's only when it
    gives a new value (:func:`_changed_value`) and the user's line is no rule, decision or correction
    (docs/architecture.md §3); else the user's stays, and the reason says it is the older. Same age: the
    user's line, else the first read.
    """
    da, db = a.meta.get("added", ""), b.meta.get("added", "")
    if da != db and da and db:
        new, old = (a, b) if da > db else (b, a)
    elif a.path == b.path and a.line != b.line:
        new, old = (a, b) if a.line > b.line else (b, a)
    else:
        return winner(a, b)
    if old.by == "user" and new.by != "user":
        if old.meta.get("kind", "").strip().casefold() in RULE_KINDS or not _changed_value(old, new):
            return old, new, f"the user's line, older than the agent's (added {_day(old)} / {_day(new)})"
        return new, old, "the newer line (an agent's, newer than the user's: check it)"
    return new, old, "the newer line"


def _day(ref: LineRef) -> str:
    return ref.meta.get("added", "") or f"line {ref.line}"


def _changed_value(old: LineRef, new: LineRef) -> bool:
    """Whether ``new`` gives ``old`` a new value rather than saying the opposite: the same content words with
    other numbers ("Postgres 14" / "Postgres 16"), or it says it changed (a change word, ``supersedes:``; a
    ``subject:`` says what the line is about, not that it changed). An agent's line that negates or turns the
    user's around may be a misreading: the user's stays."""
    if numbers(old.text) != numbers(new.text) and set(content(old.text)) == set(content(new.text)):
        return True
    return bool(new.meta.get("supersedes")) or _new_change(old.text, new.text)


NOW_WORDS = frozenset({"now", "现在", "現在", "今は", "이제", "지금"})
"""Change words that date their line ("is now"): held by both lines, the newer one's is the later state."""


def _new_change(old: str, new: str, *, now: bool = False) -> bool:
    """Whether ``new`` holds a change word ``old`` lacks (:func:`~memrepo.engine.read.contexttopic.change_words`): a
    change word both lines hold is no change (数据库迁移, "database migration", is a noun in both lines). With
    ``now``, a "now" both hold is one ("We now deploy from the release branch", then "We now deploy from main")."""
    words = change_words(new)
    return bool(words - change_words(old)) or (now and not words.isdisjoint(NOW_WORDS))


def _richer(ref: LineRef) -> int:
    return len(set(ref.meta) - PLAIN_KEYS)


@dataclass(slots=True)
class _Plan:
    """Operations found, and the lines they use (one operation per line; a kept line is never removed)."""

    ops: list[tuple[int, float, dict[str, object]]]
    gone: set[str]
    kept: set[str]

    def free(self, *aliases: str) -> bool:
        return not any(a in self.gone for a in aliases)


def _duplicates(din: DreamInput, rows: list[tuple[str, LineRef]], plan: _Plan) -> None:
    """Lines equal in form only: one stays (the user's, then more metadata, then the first), the rest go."""
    groups: dict[tuple[str, str, tuple[str, ...]], list[str]] = {}
    for alias, ref in rows:
        groups.setdefault((scope(ref), equal_key(ref.text), tuple(numbers(ref.text))), []).append(alias)
    order = list(din.lines)
    for aliases in groups.values():
        if len(aliases) < 2 or not equal_key(din.lines[aliases[0]].text):
            continue
        keep = max(
            aliases,
            key=lambda a: (din.lines[a].by == "user", _richer(din.lines[a]), -order.index(a)),
        )
        kept = din.lines[keep]
        why = "the user's line" if kept.by == "user" and any(din.lines[a].by != "user" for a in aliases) else None
        if why is None:
            why = (
                "it has more metadata"
                if any(_richer(din.lines[a]) < _richer(kept) for a in aliases)
                else "the first one"
            )
        plan.kept.add(keep)
        variants = []
        for alias in aliases:
            if alias == keep:
                continue
            ref = din.lines[alias]
            plan.gone.add(alias)
            if fmt.normalize_text(ref.text) == fmt.normalize_text(kept.text):
                what = "exact duplicate" if ref.text == kept.text and ref.meta == kept.meta else "duplicate"
                reason = f"{what} of {quoted(kept)}, which stays ({why})"
                if ref.text != kept.text:
                    reason = (
                        f"same text but for case, spacing or end punctuation as {quoted(kept)}, which stays ({why})"
                    )
                elif ref.meta != kept.meta:
                    reason = f"same text (other metadata) as {quoted(kept)}, which stays ({why})"
                op: dict[str, object] = {
                    "op": "delete",
                    "line": alias,
                    "keep": keep,
                    "relation": "duplicate",
                    "reason": reason,
                }
                plan.ops.append((ORDER["duplicate"], 1.0, op))
            else:
                variants.append(alias)
        if variants and any(din.lines[a].by != kept.by for a in variants):
            for alias in variants:  # the user's line stays as the user wrote it
                reason = f"same as {quoted(kept)} but for spelling or spacing, which stays ({why})"
                gone: dict[str, object] = {"op": "delete", "line": alias, "keep": keep, "relation": "duplicate"}
                plan.ops.append((ORDER["duplicate"], 1.0, {**gone, "reason": reason}))
        elif variants:
            lines = [keep, *variants]
            spelled = ", ".join(quoted(din.lines[a]) for a in variants)
            op = {
                "op": "merge",
                "lines": lines,
                "text": kept.text,
                "path": kept.path,
                "relation": "duplicate",
                "reason": f"near-duplicate: {spelled} differs from {quoted(kept)} in spelling or spacing only; "
                f"one entry in its words ({why})",
            }
            plan.ops.append((ORDER["duplicate"], 1.0, op))


def _pairs(rows: list[tuple[str, LineRef]]) -> list[tuple[int, int]]:
    """Pairs of rows in one scope that share at least two content words (not topic words)."""
    stems = [set(content(ref.text)) for _, ref in rows]
    postings: dict[str, list[int]] = {}
    for i, words in enumerate(stems):
        for w in words:
            postings.setdefault(w, []).append(i)
    limit = max(4, int(COMMON_SHARE * len(rows)))
    shared: dict[tuple[int, int], int] = {}
    for _word, idx in sorted(postings.items(), key=lambda kv: len(kv[1])):
        if len(idx) > limit:
            continue
        for i, j in combinations(idx, 2):
            shared[(i, j)] = shared.get((i, j), 0) + 1
    pairs = [p for p, n in shared.items() if n >= 2]
    pairs.sort(key=lambda p: -shared[p])
    return pairs[:MAX_PAIRS]


def _alike(
    din: DreamInput, rows: list[tuple[str, LineRef]], likeness: Likeness, plan: _Plan, known: Known, step: str = ""
) -> None:
    """Replacements, restatements and extensions among lines of one scope: to review, marked (``step``: the
    progress line's words, told the pairs compared)."""
    found: list[tuple[int, float, str, str, Relation]] = []
    block = _block_pairs(rows, known)
    pairs = _pairs(rows)
    din.progress(step, 0, len(pairs))
    for k, (i, j) in enumerate(pairs):
        if k:
            din.progress(step, k, len(pairs))
        (a, ra), (b, rb) = rows[i], rows[j]
        rel = likeness.relate(ra.text, rb.text)
        if rel.kind in ("restatement", "extension") and frozenset((a, b)) in block:
            rel = Relation("replacement", "the newer line says what changed", rel.score)
        elif rel.kind == "restatement" and adds_fact(ra.text, rb.text):
            continue  # "partner Sam is vegetarian" is a new fact, not "my partner is called Sam" again
        if rel.kind in ("replacement", "restatement", "extension") and not _items_apart(ra, rb, rel.kind):
            found.append((ORDER[rel.kind], -rel.score, a, b, rel))
    found.sort(key=lambda f: (f[0], f[1]))
    for rank, score, a, b, rel in found:
        if not plan.free(a, b):
            continue
        kept, gone, why = (newer_first if rel.kind == "replacement" else winner)(din.lines[a], din.lines[b])
        if gone.alias in plan.kept:
            continue
        if rel.kind == "extension" and kept.by == gone.by and kept.path == gone.path:
            plan.gone.update((a, b))
            op: dict[str, object] = {
                "op": "merge",
                "lines": [gone.alias, kept.alias],
                "text": kept.text,
                "path": kept.path,
                "relation": "extension",
                "reason": f"near-duplicate entries: {quoted(gone)} and {quoted(kept)}: {rel.why}; "
                f"one entry in the words of {why}",
            }
        else:
            plan.gone.add(gone.alias)
            plan.kept.add(kept.alias)
            verb = {
                "replacement": "is replaced by",
                "restatement": "restates",
                "extension": "says less than",
            }[rel.kind]
            op = {
                "op": "delete",
                "line": gone.alias,
                "keep": kept.alias,
                "relation": rel.kind,
                "reason": f"{quoted(gone)} {verb} {quoted(kept)} ({rel.why}); {why} stays",
            }
        plan.ops.append((rank, score, op))


def _items_apart(a: LineRef, b: LineRef, kind: str) -> bool:
    """Whether two alike lines name different items (:func:`~memrepo.engine.dreams.ids.different_items`), so they are
    no ``kind`` (a restatement, an extension or a replacement) of each other: for a replacement, a version or code
    that differs may be the value the newer line says it changed (``supersedes:``, a change word the older lacks). Two
    lines that count in other words ("one" / "two") are no restatement or extension either."""
    old, new = sorted((a, b), key=newer_rank)
    if kind != "replacement" and other_counts(old.text, new.text):
        return True  # "one approver" / "two approvers": two values, not the same fact in other words
    said = kind == "replacement" and (bool(new.meta.get("supersedes")) or _new_change(old.text, new.text))
    return bool(different_items(old.text, new.text, says_changed=said))


Known = dict[str, tuple[dict[int, int], dict[int, int], dict[int, str], set[int]]]
"""What :func:`~memrepo.engine.read.contextselect.replaced` found for a file's lines, by its path: (replaced, disputed,
line -> alias, the replaced lines the block keeps "replaced in part": :func:`.contextpart.partly_replaced`). :func:`_changed_facts` and :func:`_block_pairs` both ask it of every file; asked once per file (the
lines a dream read less the duplicates it removes), since it is most of a rules dream's time."""


def _file_replaced(
    scoped: list[tuple[str, LineRef]], known: Known
) -> tuple[dict[int, int], dict[int, int], dict[int, str], set[int]]:
    """``replaced`` of one file's lines (sorted by line), the user's lines it disputes, each line's alias and the
    replaced lines the block keeps "replaced in part" (docs/architecture.md §4), asked once per file: the first set
    of its lines asked is the one answered."""
    path = scoped[0][1].path
    found = known.get(path)
    if found is None:
        disputed: dict[int, int] = {}
        cands = candidates([(ref.line, fmt.Entry("", "-", ref.text, dict(ref.meta))) for _a, ref in scoped])
        at = {ref.line: alias for alias, ref in scoped}
        gone = replaced(cands, disputed, subjects=False)
        found = known[path] = (gone, disputed, at, set(partly_replaced(cands, gone)))
    return found


def _changed_facts(rows: list[tuple[str, LineRef]], plan: _Plan, known: Known, progress: ProgressFn = silent) -> None:
    """Lines the context block hides as replaced by a newer line of their file: the older goes, to review. A line the
    block keeps "replaced in part" (it says more than what changed) stays: deleting it would lose the rest (breaker31
    B31-11)."""
    by_path: dict[str, list[tuple[str, LineRef]]] = {}
    for alias, ref in rows:
        by_path.setdefault(ref.path, []).append((alias, ref))
    for n, scoped in enumerate(by_path.values()):
        progress("facts a newer line of the same file changed, file", n, len(by_path))
        scoped.sort(key=lambda row: row[1].line)
        gone_by, _disputed, at, partly = _file_replaced(scoped, known)
        for old_line, new_line in sorted(gone_by.items()):
            if old_line in partly:
                continue
            gone, kept = at[old_line], at[new_line]
            if not plan.free(gone, kept) or gone in plan.kept or not _changed_pair(scoped, gone, kept):
                continue  # a restatement is the likeness rules' (a merge in the user's words)
            plan.gone.add(gone)
            plan.kept.add(kept)
            old_ref, new_ref = plan_ref(scoped, gone), plan_ref(scoped, kept)
            op: dict[str, object] = {
                "op": "delete",
                "line": gone,
                "keep": kept,
                "relation": "replacement",
                "reason": f"{quoted(old_ref)} is replaced by the newer {quoted(new_ref)} ({_how_changed(old_ref, new_ref)}); "
                "the newer line stays",
            }
            plan.ops.append((ORDER["replacement"], -1.0, op))


def _block_pairs(rows: list[tuple[str, LineRef]], known: Known) -> set[frozenset[str]]:
    """The pairs of lines (aliases) the context block's rule relates in each file by a change: one replaces the other
    and says what changed (:func:`_says_changed`; not the same said again), or an agent's newer line corrects the user's (:func:`~memrepo.engine.read.contextselect.replaced`, ``disputed``).
    Such a line is never a restatement of the other (breaker7 B7-22): it goes as a replacement."""
    by_path: dict[str, list[tuple[str, LineRef]]] = {}
    for alias, ref in rows:
        by_path.setdefault(ref.path, []).append((alias, ref))
    out: set[frozenset[str]] = set()
    for scoped in by_path.values():
        if len(scoped) < 2:
            continue
        scoped.sort(key=lambda row: row[1].line)
        gone, disputed, at, _partly = _file_replaced(scoped, known)
        alive = {alias for alias, _ref in scoped}  # a line removed since the file was asked makes no pair
        out.update(
            frozenset((at[old], at[new])) for old, new in disputed.items() if at[old] in alive and at[new] in alive
        )
        out.update(
            frozenset((at[old], at[new]))
            for old, new in gone.items()
            if at[old] in alive and at[new] in alive and _changed_pair(scoped, at[old], at[new])
        )
    return out


def _says_changed(rows: list[tuple[str, LineRef]], gone: str, kept: str, *, own: bool = False) -> bool:
    """Whether the newer line says in words what changed: ``supersedes:``, a change word the older line lacks (or a
    "now" both hold, :data:`NOW_WORDS`, unless ``own``), "X, not Y", or the old line's leading label again. A shared
    ``subject:`` is no such word: two lines about one subject may both be true (B28-7: 40 lines of a 2,000-file
    folder were proposed for deletion on their subject alone); nor is another change word both lines hold
    (数据库迁移需要人工审核, "database migrations need a manual review", holds 迁移 as a noun: 40 more)."""
    old, new = plan_ref(rows, gone), plan_ref(rows, kept)
    if new.meta.get("supersedes") or _new_change(old.text, new.text, now=not own):
        return True
    was, topic = topic_terms(old.text), topic_terms(new.text)
    return bool(topic.denied) or bool(topic.label and topic.label == was.label)


def _changed_pair(rows: list[tuple[str, LineRef]], gone: str, kept: str) -> bool:
    """Whether the context block's replacement of ``gone`` by the newer ``kept`` is one the dream proposes: the newer
    line says what changed (:func:`_says_changed`) and the two name no different items
    (:func:`~memrepo.engine.dreams.ids.different_items`: "(item 4722)" and "(item 4745)" are two facts; another code
    or version is the changed value only when the newer line says so in words of its own)."""
    if not _says_changed(rows, gone, kept):
        return False
    said = _says_changed(rows, gone, kept, own=True)
    return not different_items(plan_ref(rows, gone).text, plan_ref(rows, kept).text, says_changed=said)


def _how_changed(old: LineRef, new: LineRef) -> str:
    """Why the newer line replaces the older, as :func:`_says_changed` found it, in the reason's words."""
    if new.meta.get("supersedes"):
        return "it says it supersedes it"
    return "it says what changed"


def plan_ref(rows: list[tuple[str, LineRef]], alias: str) -> LineRef:
    """The line of ``rows`` with this alias."""
    return next(ref for a, ref in rows if a == alias)


def rules_operations(din: DreamInput) -> list[dict[str, object]]:
    """Every operation the offline dreamer proposes for ``din``, most certain first, at most 40.

    Args:
        din: the dream's input (aliased lines).

    Returns:
        list[dict]: operations in the answer schema (docs/architecture.md §6),
        each with a ``reason`` naming files, lines and texts.
    """
    rows = [(a, r) for a, r in din.lines.items() if not r.inbox and not r.header]
    plan = _Plan([], set(), set())
    by_scope: dict[str, list[tuple[str, LineRef]]] = {}
    for alias, ref in rows:
        by_scope.setdefault(scope(ref), []).append((alias, ref))
    lines = f"{len(rows):,} lines of {len(din.examined):,} files"
    for n, scoped in enumerate(by_scope.values()):
        din.progress(f"duplicates among {lines}, scope", n, len(by_scope))
        _duplicates(din, scoped, plan)
    known: Known = {}
    _changed_facts([(a, r) for a, r in rows if a not in plan.gone], plan, known, din.progress)
    likeness = Likeness(ref.text for _, ref in rows)
    for n, scoped in enumerate(by_scope.values()):
        step = f"lines that say the same or replace one another, among {lines} (scope {n + 1} of {len(by_scope)}), pair"
        _alike(din, [(a, r) for a, r in scoped if a not in plan.gone], likeness, plan, known, step)
    din.progress(f"the rules checked {lines}, scope", len(by_scope), len(by_scope))
    moves: list[dict[str, object]] = []
    for alias, ref in rows:
        if alias in plan.gone or alias in plan.kept:
            continue
        ws = ref.meta.get("workspace")
        home = din.workspaces.get(ws) if ws else None
        if home and home != ref.path and home != INBOX_MD:
            reason = f"{quoted(ref)} names workspace {ws}, which has its own file {home}"
            moves.append({"op": "move", "line": alias, "path": home, "reason": reason})
    ops = [op for _, _, op in sorted(plan.ops, key=lambda o: (o[0], o[1]))]
    return (ops + moves)[:MAX_OPERATIONS]


__all__ = ["newer_first", "rules_operations", "winner"]
