"""Entries moved by hand from one file to another are a move, never a drop (docs/architecture.md §3).

``mv a.md b.md`` (or ``git mv``), or cutting lines from ``me.md`` and pasting
them into ``topics/x.md`` (what Health's context-budget row advises), looks
file by file like entries dropped from one file and new text in another.
Looked at together, in one look at the work tree, an entry line that left
one file and appears in another (same text, same metadata: the whole line,
spaces around it aside) is a *move*: it raises no "drops entries" or
"deleted" question in the file it left, and no "new secret" or "brings back"
question in the file it came to. Only what truly left is asked about.

A deleted file is a *rename* when its entries all went to one new file, or
all but one in :data:`RENAME_SLACK` of them (``mv a.md b.md`` then an edit of a
line or two): committed as one "Move a.md -> b.md" hand edit, no question.
The files every session reads by name (MEMORY.md, me.md, lessons.md, inbox.md:
:data:`~memrepo.engine.format.layout.GLOBAL_FILES`) are never renamed or moved
away whole without a question: their deletion asks as before (B7-20).

A move never hides a loss: the lines that came to a file are no part of its
own entries. A file whose own committed entries are mostly gone, and went
to no other file, asks "lost N of its M entries" with its moved-in lines left
out of the count (``mv y.md x.md`` over an existing x.md; :func:`own_loss`, B7-25).
A move may take two looks: lines pasted into a file saved (and committed) first, then cut from their old
file in a later save. A line a save lost that an unchanged file of HEAD holds whole (one changed within the
hour) is a move there too
(:func:`moved_before`): nothing of it is lost, so nothing is asked.
A rename's commit also moves MEMORY.md's index lines (``- [[topics/a]]``) to the new name (:func:`.movelinks.relink`:
the context block's index never leads to a file that is gone, B7-5); other ``[[links]]`` to the old path
are left as written (the commit body names them; Health's links row warns of a link that leads nowhere).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from memrepo.engine.format.entrylines import entry_lines as parsed_entry_lines
from memrepo.engine.format.layout import GLOBAL_FILES, MEMORY_MD
from memrepo.engine.git.history import RELINKED
from memrepo.engine.git.store import format_message
from memrepo.engine.models import HandEditQuestion

from . import settle
from .movelinks import links_to, relinked_index

if TYPE_CHECKING:
    from .writer import Writer

Versions = Mapping[str, tuple[bytes | None, bytes | None]]
"""Each changed path of one look: (its bytes in HEAD or None, its bytes on disk or None)."""

RENAME_SLACK = 10
"""A deleted file whose entries all but one in this many (rounded down) went to one file is a rename."""


@dataclass(frozen=True)
class Move:
    """Entry lines that left ``src`` and appear in ``dst`` in the same look.

    Attributes:
        src: the file they left (repo-relative).
        dst: the file they are in now.
        lines: the entry lines, stripped, in ``src``'s committed order.
        rename: ``src`` was deleted and ``dst`` is a new file holding its entries (:data:`RENAME_SLACK`).
        left_behind: for a rename, ``src``'s entry lines found in no other file (a line edited while moving).
    """

    src: str
    dst: str
    lines: tuple[str, ...]
    rename: bool = False
    left_behind: tuple[str, ...] = field(default=())


def entry_lines(data: bytes | None, rel: str) -> list[str]:
    """The entry lines of ``data`` (``rel``'s bytes), stripped; empty when None or not a memory file's text."""
    return [line.text.strip() for line in parsed_entry_lines(data, rel)]


def loses_entries(rel: str, committed: bytes | None, now: bytes | None) -> bool:
    """Whether ``now`` lacks an entry line ``committed`` has: the only edits a move can explain."""
    if committed is None or committed == now:
        return False
    kept = set(entry_lines(now, rel))
    return any(line not in kept for line in entry_lines(committed, rel))


def find_moves(versions: Versions) -> list[Move]:
    """The moves among one look's changed files (see the module's rule).

    Args:
        versions: every changed path of the look with its HEAD and disk bytes.

    Returns:
        list[Move]: one per (source, destination) pair, sources in path order; empty for most looks.
    """
    gone: dict[str, list[str]] = {}
    came: dict[str, set[str]] = {}
    for rel, (committed, now) in versions.items():
        before, after = entry_lines(committed, rel), entry_lines(now, rel)
        kept, had = set(after), set(before)
        left = [line for line in before if line not in kept]
        if left:
            gone[rel] = left
        new = {line for line in after if line not in had}
        if new:
            came[rel] = new
    if not gone or not came:
        return []
    claimed: set[tuple[str, str]] = set()  # (destination, line): a line that arrived once moved once
    out: list[Move] = []
    for src in sorted(gone):
        by_dst: dict[str, list[str]] = {}
        for line in gone[src]:
            for dst in sorted(came):
                if dst != src and line in came[dst] and (dst, line) not in claimed:
                    claimed.add((dst, line))
                    by_dst.setdefault(dst, []).append(line)
                    break
        deleted = versions[src][1] is None
        for dst, lines in by_dst.items():
            missing = [line for line in gone[src] if line not in lines]
            rename = (
                deleted
                and versions[dst][0] is None  # a new file: into an existing one is a move of its entries
                and src not in GLOBAL_FILES  # read by name: a rename of one is a question (B7-20)
                and len(missing) <= len(gone[src]) // RENAME_SLACK
            )
            out.append(Move(src, dst, tuple(lines), rename, tuple(missing) if rename else ()))
    return out


def moved_before(
    versions: Versions, found: list[Move], held: Callable[[set[str], set[str]], dict[str, str]]
) -> list[Move]:
    """Moves whose destination was saved in an earlier look: lines pasted into a file first (committed as
    "Hand edits" then), cut from their old file after. Each line that left a file of this look for no file
    of it, and that an unchanged file of HEAD holds whole (one a commit of the last hour changed), is a move to
    that file: nothing of it is lost.

    Args:
        versions: every changed path of the look with its HEAD and disk bytes.
        found: the look's own moves (:func:`find_moves`).
        held: (lines, paths to leave out) -> {line: the first other HEAD file holding it}; read only when a
            file of the look lost a line no move of the look explains.

    Returns:
        list[Move]: one per (source, destination) pair; empty for most looks.
    """
    gone: dict[str, list[str]] = {}
    for rel, (committed, now) in versions.items():
        if committed is None:
            continue
        kept, out = set(entry_lines(now, rel)), set(moved_out(found, rel))
        left = [line for line in entry_lines(committed, rel) if line not in kept and line not in out]
        if left:
            gone[rel] = left
    if not gone:
        return []
    where = held({line for lines in gone.values() for line in lines}, set(versions))
    moves: list[Move] = []
    for src in sorted(gone):
        by_dst: dict[str, list[str]] = {}
        for line in gone[src]:
            if line in where:
                by_dst.setdefault(where[line], []).append(line)
        moves += [Move(src, dst, tuple(lines)) for dst, lines in sorted(by_dst.items())]
    return moves


def moved_out(moves: list[Move], rel: str) -> list[str]:
    """The entry lines that left ``rel`` for another file."""
    return [line for m in moves if m.src == rel for line in m.lines]


def moved_in(moves: list[Move], rel: str) -> list[str]:
    """The entry lines that came to ``rel`` from another file."""
    return [line for m in moves if m.dst == rel for line in m.lines]


def all_moved(moves: list[Move], rel: str, committed: bytes | None) -> bool:
    """Whether every entry of deleted ``rel`` went somewhere (or it was renamed): its deletion asks nothing.

    Never for a file every session reads by name (:data:`~memrepo.engine.format.layout.GLOBAL_FILES`): the
    context block would lose its lines wherever they went.
    """
    if rel in GLOBAL_FILES:
        return False
    if any(m.src == rel and m.rename for m in moves):
        return True
    gone = set(moved_out(moves, rel))
    return bool(gone) and all(line in gone for line in entry_lines(committed, rel))


def _with_lines(data: bytes | None, lines: list[str]) -> bytes:
    """``data`` with ``lines`` added at the end, one a line (what a file is judged as with its moves undone)."""
    base = data or b""
    if base and not base.endswith(b"\n"):
        base += b"\n"
    return base + "".join(f"{line}\n" for line in lines).encode("utf-8", "surrogateescape")


def judged_as(moves: list[Move], rel: str, committed: bytes | None, now: bytes) -> tuple[bytes | None, bytes] | None:
    """The (HEAD, disk) bytes to judge ``rel``'s edit by with its moves taken out, or None when it has none.

    Lines that left ``rel`` count as still in it; lines that came to it count as already committed. What is
    left to judge is what truly left, and what is truly new (a secret typed in, a line memrepo removed).
    """
    out, inn = set(moved_out(moves, rel)), set(moved_in(moves, rel))
    if not out and not inn:
        return None
    # As the files hold them (an indented bullet keeps its indent): the judges compare whole lines.
    back = [t for t in _texts(committed, rel) if t.strip() in out]
    came = [t for t in _texts(now, rel) if t.strip() in inn]
    return (_with_lines(committed, came) if came else committed), (_with_lines(now, back) if back else now)


def _without_lines(data: bytes, lines: set[str]) -> bytes:
    """``data`` without the lines whose stripped text is in ``lines``."""
    kept = data.splitlines(keepends=True)
    return b"".join(ln for ln in kept if ln.decode("utf-8", "surrogateescape").strip() not in lines)


def may_hide_loss(rel: str, committed: bytes | None, now: bytes | None) -> bool:
    """Whether ``now`` without its new entry lines lost most of ``committed``'s entries (:func:`.settle.question`).

    Only then can lines moved in from another file hide a loss (:func:`own_loss`); most edits need no look
    at the other files.
    """
    if committed is None or now is None:
        return False
    had = set(entry_lines(committed, rel))
    new = {line for line in entry_lines(now, rel) if line not in had}
    return bool(new) and settle.question(rel, committed, _without_lines(now, new)) is not None


def own_loss(moves: list[Move], rel: str, committed: bytes | None, now: bytes) -> HandEditQuestion | None:
    """The "lost N of its M entries" question ``rel``'s own entries raise, the lines moved into it not counted.

    ``mv y.md x.md`` over an existing x.md: y.md's entries are a move, and every entry x.md had is gone.
    Counted with y.md's lines in, the save looked like an edit (5 entries before, 3 after); counted as
    x.md's own, it lost 5 of 5 (B7-25). Lines that left ``rel`` for another file still count as in it.

    Returns:
        HandEditQuestion | None: the question about ``now`` (its counts are ``rel``'s own entries, its message
        names the moves), or None when ``rel`` got no moved lines or kept most of its own.
    """
    inn, out = set(moved_in(moves, rel)), set(moved_out(moves, rel))
    if not inn:
        return None
    back = [t for t in _texts(committed, rel) if t.strip() in out]
    own = _without_lines(now, inn)
    q = settle.question(rel, committed, _with_lines(own, back) if back else own)
    if q is not None:
        q.empty = now.strip() == b""  # the file holds the moved lines: not "empty"
        q.seen = settle.bytes_seen(now)
        q.message = settle.describe(q) + note(moves, rel)
    return q


def _texts(data: bytes | None, rel: str) -> list[str]:
    """The entry lines of ``data`` as written (not stripped)."""
    return [line.text for line in parsed_entry_lines(data, rel)]


def note(moves: list[Move], rel: str) -> str:
    """What a question about ``rel`` adds about its moves: ``34 entries moved to topics/x.md are not counted``."""
    parts = [f"{_count(len(m.lines))} moved to {m.dst}" for m in moves if m.src == rel]
    parts += [f"{_count(len(m.lines))} moved from {m.src}" for m in moves if m.dst == rel]
    return f" ({'; '.join(parts)}: not counted)" if parts else ""


def deleted_note(moves: list[Move], rel: str) -> str:
    """What the question about a deleted ``rel`` adds about its moves: for a file read by name, why it asks."""
    if rel not in GLOBAL_FILES:
        return note(moves, rel)
    parts = [f"{_count(len(m.lines))} moved to {m.dst}" for m in moves if m.src == rel]
    why = f"memrepo reads {rel} by name: the context block and the writer would not find these lines"
    return f" ({'; '.join(parts)}; {why})" if parts else ""


def _count(n: int) -> str:
    return f"{n} {'entry' if n == 1 else 'entries'}"


def groups(moves: list[Move]) -> list[set[str]]:
    """The paths committed together: each move's source and destination, joined when moves share a file.

    A move committed half-way would leave its lines in neither file of HEAD (or in both): the file they left
    would then ask about them on its own.
    """
    out: list[set[str]] = []
    for m in moves:
        joined = {m.src, m.dst}
        for g in [g for g in out if g & joined]:
            joined |= g
            out.remove(g)
        out.append(joined)
    return out


def message(moves: list[Move], paths: list[str], links: Callable[[str], list[str]]) -> tuple[str, str]:
    """The subject and body of the commit of a look's moves.

    Args:
        moves: the moves committed.
        paths: every path the commit holds.
        links: the files (``MEMORY.md L5``) whose ``[[links]]`` lead to a path in HEAD.

    Returns:
        tuple[str, str]: ``Move a.md -> b.md`` for one rename, else ``Move 34 entries me.md -> topics/x.md``
        (or ``Move entries: N files``); the body has one ``moved N entries a -> b`` line per move.
    """
    renames = [m for m in moves if m.rename]
    if len(moves) == 1 and renames:
        subject = f"Move {renames[0].src} -> {renames[0].dst}"
    elif len(moves) == 1:
        subject = f"Move {_count(len(moves[0].lines))} {moves[0].src} -> {moves[0].dst}"
    else:
        subject = f"Move entries between {len(paths)} files"
    body = []
    for m in moves:
        body.append(f"{'renamed' if m.rename else 'moved'} {_count(len(m.lines))} {m.src} -> {m.dst}")
        if m.left_behind:
            body.append(f"  not in {m.dst}: " + "; ".join(m.left_behind[:5]))
        if m.rename:
            for where in links(m.src):
                body.append(f"  {where} still links to {m.src}: links are left as written")
    body.append(", ".join(paths))
    return subject, "\n".join(body)


def gains_entries(rel: str, committed: bytes | None, now: bytes | None) -> bool:
    """Whether ``now`` has an entry line ``committed`` lacks (where moved entries can have come to)."""
    had = set(entry_lines(committed, rel))
    return any(line not in had for line in entry_lines(now, rel))


def commit_moves(
    writer: Writer,
    changed: list[str],
    seen: dict[str, bytes | None],
    look: Callable[[], Versions],
    *,
    whole: bool = True,
) -> tuple[str | None, list[str]]:
    """Commit the moves among the hand edits about to be committed as their own "Move ..." commit.

    A move's two files go in one commit or not at all (:func:`groups`): a file outside ``changed`` (the
    look was one file's) joins when it is settled and asks nothing; else the whole group waits.

    Args:
        writer: the writer, its lock held.
        changed: the paths about to be committed as "Hand edits", checked and settled.
        seen: their bytes as judged (``commit_paths(expect=...)``).
        look: every changed path's versions.
        whole: ``changed`` came from a look at the whole work tree.

    Returns:
        tuple: the move commit (None when there was none) and the paths left for "Hand edits".
    """
    from .settle import wait_settled

    if whole:  # the look is at hand: the files held by a question are in it too
        versions = look()
        if not any(loses_entries(p, old, now) for p, (old, now) in versions.items()):
            return None, changed
    else:  # a look at the whole work tree only when a file of this one could be half of a move
        heads = {p: writer.git.head_blob(p) for p in changed}
        if not any(loses_entries(p, heads[p], seen[p]) or gains_entries(p, heads[p], seen[p]) for p in changed):
            return None, changed
        versions = look()
    found = find_moves(versions)
    if not found:
        return None, changed
    taken: set[str] = set()  # committed here, or held with a file of their move
    expect = dict(seen)
    commit: str | None = None
    for group in groups(found):
        ok = True
        for p in sorted(group - set(changed)):
            data = versions[p][1] if p in versions else None
            ok = p in versions and wait_settled(writer.root / p) and writer.question(p, data, look=look) is None
            if not ok:
                break
            expect[p] = data
        if not ok:
            taken |= group
            continue
        these = [m for m in found if m.src in group]
        paths = sorted(group)
        index, relinked = relinked_index(writer, these, versions)
        links = partial(links_to, writer, data=index)  # after a relink, only the links it left as written
        subject, body = message(these, paths, links)
        written: dict[str, bytes | None] | None = None
        trailers = {"Origin": "hand_edit", "Task": None, RELINKED: MEMORY_MD if index is not None else None}
        if index is not None:
            body += "\n" + "\n".join(relinked)
            paths, written = sorted({*paths, MEMORY_MD}), {MEMORY_MD: index}
        made = writer.git.commit_paths(
            paths,
            format_message(subject, trailers, body=body),
            expect=expect,
            written=written,
        )
        commit = made or commit
        taken |= group
    return commit, [p for p in changed if p not in taken]


class HeadFiles(Protocol):
    """What :func:`held_in_head` needs of the git store."""

    root: Path

    def head_id(self) -> str | None: ...

    def recently_changed(self, within_s: float, limit: int = 200) -> list[str]: ...

    def head_blob(self, path: str) -> bytes | None: ...


PASTED_WITHIN_S = 3600.0
"""How recent (seconds) the commit that brought a line to its other file is, for a cut to count as the second
half of a move (:func:`held_in_head`): the paste and the cut of one move come minutes apart."""

_held_memo: dict[tuple[str, str | None, frozenset[str], frozenset[str]], dict[str, str]] = {}
"""What :func:`held_in_head` found, by repo, HEAD and the question (this process): while a question waits,
every status asks it again (the app, the write server)."""


def held_in_head(git: HeadFiles, lines: set[str], skip: set[str]) -> dict[str, str]:
    """{line: the first memory file of HEAD outside ``skip`` that holds it as a whole entry line, among the
    files commits of the last :data:`PASTED_WITHIN_S` changed (the paste's earlier look)}.

    Reads only those files' HEAD blobs (a bytes search first, a parse of the files holding a line's text), once
    per HEAD and question: run only when a save lost an entry line no move of its look explains.
    """
    key = (str(git.root), git.head_id(), frozenset(lines), frozenset(skip))
    found = _held_memo.get(key)
    if found is not None:
        return found
    found = {}
    raw = {line: line.encode("utf-8", "surrogateescape") for line in lines}
    for path in git.recently_changed(PASTED_WITHIN_S):
        if not path.endswith(".md") or path in skip or len(found) == len(lines):
            continue
        data = git.head_blob(path) or b""
        maybe = [line for line, text in raw.items() if line not in found and text in data]
        if maybe:
            have = set(entry_lines(data, path))
            found.update({line: path for line in maybe if line in have})
    if len(_held_memo) >= 32:
        _held_memo.clear()
    _held_memo[key] = found
    return found
