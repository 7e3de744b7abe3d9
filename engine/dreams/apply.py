"""Applying a dream (docs/architecture.md §6): the automatic commit, the review branch, accept, reject, undo.

* Auto operations: under the write lock, after committing hand edits, written
  to the work tree and committed once on main ("Dream YYYY-MM-DD: N changes",
  ``Origin: dream``, ``Dream: <id>``). New and moved entries keep ``by: agent``;
  an add cites its first evidence task as ``source``.
* Review operations: one commit on ``dream/<id>`` from the post-auto HEAD,
  built in a temporary worktree outside the folder (:mod:`memrepo.engine.git.dream`);
  what they write keeps where it came from (``via: dream``; new entries are
  ``by: agent``, a moved line keeps its author): accepting is the user's
  confirmation, not the user's words.
* Accept: a ``--no-ff`` merge under the lock; a conflict changes nothing and
  marks the dream stale. Reject: the branch is deleted. Undo: the automatic
  commit is reverted in a new commit (entry-aware, as History's undo); a
  revert that conflicts with later edits is refused and changes nothing.

Operations address lines by the positions the dream read; a file changed on
disk since then drops the operations touching it (``changed_meanwhile``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from memrepo.engine.errors import BusyError, LimitError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.layout import INDEX_HEADING, MEMORY_MD
from memrepo.engine.format.limits import MAX_FILES, check_file_size
from memrepo.engine.git.dream import BRANCH_PREFIX, DreamGit
from memrepo.engine.git.store import format_message
from memrepo.engine.write.ports import WriteAccess
from memrepo.engine.write.writer import ChangedMeanwhile

from .input import DreamInput
from .ops import Planned
from .record import DreamRecord


def _touched(item: Planned, din: DreamInput) -> set[str]:
    paths = {din.lines[a].path for a in item.removes}
    paths |= {din.lines[a].path for a in item.replaces}
    paths |= {p for p, _, _ in item.appends}
    return paths


def _new_file_text(path: str) -> bytes:
    return f"# {Path(path).stem}\n\n".encode()


def render(
    din: DreamInput, items: Iterable[Planned], current: dict[str, bytes | None], today: str
) -> dict[str, bytes | None]:
    """The new bytes of every file the given (non-rejected) operations change.

    Args:
        din: the input (line aliases).
        items: the operations to apply; new entries are ``by: agent`` (a moved
            entry keeps its ``by``), and reviewed ones carry ``via: dream``.
        current: path -> the file's bytes now (None when missing).
        today: the ``added:`` date of new entries.

    Returns:
        dict[str, bytes | None]: path -> new bytes, for each file that changes.
    """
    removes: dict[str, set[int]] = {}
    replaces: dict[str, dict[int, tuple[str, dict[str, str]]]] = {}
    appends: dict[str, list[tuple[str, dict[str, str]]]] = {}
    for item in items:
        if item.record.classification == "rejected":
            continue
        # Auto operations touch agent lines only and stay the agent's; reviewed ones keep where they came
        # from (via: dream) and never pass for the user's own words (docs/architecture.md §6).
        via = {} if item.record.classification == "auto" else {"via": "dream"}
        for alias in item.removes:
            ref = din.lines[alias]
            removes.setdefault(ref.path, set()).add(ref.line)
        for alias, text in item.replaces.items():
            ref = din.lines[alias]
            replaces.setdefault(ref.path, {})[ref.line] = (text, via)
        for path, text, meta in item.appends:
            by = "user" if meta.get("by") == "user" else "agent"
            appends.setdefault(path, []).append((text, {"by": by, "added": today, **meta, **via}))
    out: dict[str, bytes | None] = {}
    new_files = [p for p in appends if current.get(p) is None]
    paths = set(removes) | set(replaces) | set(appends)
    if new_files:
        paths.add(MEMORY_MD)
    for path in sorted(paths):
        data = current.get(path)
        parsed = fmt.parse(data if data is not None else _new_file_text(path), path)
        for number, (text, via) in sorted(replaces.get(path, {}).items()):
            old = parsed.entry_at(number)
            if old is not None:
                parsed.set_entry(number, fmt.Entry(old.indent, old.bullet, text, {**old.meta, "by": old.by, **via}))
        for number in sorted(removes.get(path, ()), reverse=True):
            parsed.remove_line(number)
        for text, meta in appends.get(path, []):
            entry = fmt.Entry("", "-", text, meta)
            parsed.append_entry(entry, before_section=INDEX_HEADING if path == MEMORY_MD else None)
        if path == MEMORY_MD:
            links = fmt.extract_links(parsed.text())
            for new in new_files:
                link = new[: -len(".md")]
                if link not in links:
                    parsed.append_entry(fmt.Entry("", "-", f"[[{link}]]"), after_section=INDEX_HEADING)
        new_bytes = parsed.render()
        if new_bytes != data:
            out[path] = new_bytes
    return out


def _over_limit(files: dict[str, bytes | None], current: dict[str, bytes | None], file_count: int) -> set[str]:
    over = set()
    for path, data in files.items():
        if data is None:
            continue
        try:
            check_file_size(path, len(data))
        except LimitError:
            over.add(path)
    new = [p for p, d in files.items() if d is not None and current.get(p) is None]
    if file_count + len(new) > MAX_FILES:
        over.update(new)
    return over


def _reject(item: Planned, code: str, detail: str) -> None:
    item.record.classification = "rejected"
    item.record.rejection = code
    item.record.detail = detail
    item.removes, item.replaces, item.appends = [], {}, []


def apply(store: WriteAccess, record: DreamRecord, din: DreamInput, items: list[Planned]) -> None:
    """Apply the auto operations to main and build the review branch; fills ``record``.

    Args:
        store: the open store (its write transaction and git store).
        record: the run record; ``auto_commit``, ``base``, ``branch``,
            ``review_commit`` and ``status`` are set here.
        din: the input the operations refer to.
        items: the planned operations (rejections added here are recorded on them).

    Raises:
        BlockedError, BusyError, GitError: as for any write; nothing of the
            dream is committed then.
    """
    root = store.root
    with store.transaction("dream") as tx:
        live = [i for i in items if i.record.classification != "rejected"]
        touched = set().union(*(_touched(i, din) for i in live)) if live else set()
        current: dict[str, bytes | None] = {}
        for path in touched | {MEMORY_MD}:
            full = root / path
            current[path] = tx.read_bytes(path) if full.is_file() and not full.is_symlink() else None
        changed = {p for p in touched if p in din.files and current.get(p) != din.files[p]}
        if MEMORY_MD in din.files and current.get(MEMORY_MD) != din.files[MEMORY_MD]:
            changed.add(MEMORY_MD)
        for item in live:
            paths = _touched(item, din)
            if paths & changed or (MEMORY_MD in changed and any(current.get(p) is None for p in paths)):
                _reject(item, "changed_meanwhile", "the file changed on disk after the dream read it")
        file_count = len(store.list_files())
        today = store.git.now().date().isoformat()
        for _ in range(4):
            auto = [i for i in items if i.record.classification == "auto"]
            review = [i for i in items if i.record.classification in ("auto", "review")]
            auto_files = render(din, auto, current, today)
            review_files = render(din, review, current, today)
            over = _over_limit(review_files, current, file_count) | _over_limit(auto_files, current, file_count)
            if not over:
                break
            for item in items:
                if item.record.classification != "rejected" and {p for p, _, _ in item.appends} & over:
                    _reject(
                        item, "over_limit", "the file would grow past its size limit (or the repo past 2,000 files)"
                    )
        date = store.git.now().date().isoformat()
        trailers: dict[str, str | None] = {"Origin": "dream", "Dream": record.id}
        n_auto = sum(1 for i in items if i.record.classification == "auto")
        n_review = sum(1 for i in items if i.record.classification == "review")
        if auto_files:
            for path, data in auto_files.items():
                if data is None:
                    tx.delete(path)
                else:
                    tx.write(path, data)
            noun = "change" if n_auto == 1 else "changes"
            try:
                record.auto_commit = tx.commit(f"Dream {date}: {n_auto} {noun}", trailers)
            except ChangedMeanwhile as exc:
                raise BusyError(f"{exc.path} changed on disk while the dream was applied; retry") from exc
        base = store.git.head_id()
        after_auto = {p: auto_files.get(p, current.get(p)) for p in review_files}
        review_changes = {p: d for p, d in review_files.items() if d != after_auto.get(p)}
        if review_changes and base is not None:
            branch = f"{BRANCH_PREFIX}{record.id}"
            noun = "change" if n_review == 1 else "changes"
            message = format_message(f"Dream {date}: {n_review} {noun} for review", trailers)
            record.review_commit = DreamGit(root).commit_on_branch(base, branch, review_changes, message)
            record.branch = branch
            record.base = base
    if record.branch:
        record.status = "pending_review"
    elif record.auto_commit:
        record.status = "applied"
    else:
        record.status = "empty"


def accept(store: WriteAccess, record: DreamRecord) -> str:
    """Merge the review branch into main (``--no-ff``, under the lock).

    Returns:
        str: the merge commit.

    Raises:
        MergeConflict: it conflicts with main; nothing changed (the caller marks the dream stale).
        GitError: the branch is gone.
    """
    assert record.branch
    with store.transaction("accept dream"):
        n = record.counts.get("review", 0)
        message = format_message(
            f"Accept dream {record.id}: {n} change{'s' if n != 1 else ''}",
            {"Origin": "dream", "Dream": record.id},
        )
        commit, _paths = DreamGit(store.root).merge_no_ff(record.branch, message)
        DreamGit(store.root).delete_branch(record.branch)
        return commit
