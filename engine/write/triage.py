"""Inbox triage: accept inbox entries into the file they belong in, or discard them (docs/architecture.md §3).

Each change is one :class:`~memrepo.engine.write.writer.Transaction` and one commit:
the accepted entries are written by the :class:`~memrepo.engine.write.remember.EntryWriter`
(policy, dedupe, limits) with ``via: inbox`` and the inbox lines are removed in
the same commit, last, so a crash leaves a duplicate to discard, never a lost
entry.
"""

from __future__ import annotations

from collections.abc import Callable

from memrepo.engine.errors import BusyError, ChangedSinceSeen, LimitError, RefError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.entrytext import clean_text, summary
from memrepo.engine.format.layout import INBOX_MD, MEMORY_MD
from memrepo.engine.format.paths import make_ref, parse_ref, safe_relpath
from memrepo.engine.models import KIND_RE, Action, Candidate, EntryView, Origin, WriteResult, claims_user

from .remember import EntryWriter, Target, trailers
from .rewrites import forgotten_summary
from .writer import ChangedMeanwhile, Transaction


def _inbox_entry(tx: Transaction, ref: str) -> tuple[fmt.MemoryFile, int, fmt.Entry]:
    """The inbox entry at ``ref``; with ``ref@seen``, only if its line is exactly the one the person saw (found
    where it moved to, the nearest such line, when a triage above it moved it: breaker24 B24-12).

    Raises:
        RefError: not an inbox ref, or no entry there.
        ChangedSinceSeen: ``@seen`` was given and the line changed since.
    """
    bare, seen = fmt.split_seen(ref)
    rel, number = parse_ref(bare)
    if rel != INBOX_MD:
        raise RefError(f"{bare} is not in {INBOX_MD}: only inbox entries are triaged")
    parsed = tx.read(INBOX_MD)
    entry = parsed.entry_at(number) if parsed is not None else None
    if seen is not None and parsed is not None:
        line = parsed.lines[number - 1].text if 0 < number <= len(parsed.lines) else ""
        if entry is None or fmt.seen_hash(line) != seen:  # moved (a discard above it)? the line seen, nearest
            same = [n for n, e in parsed.entries() if fmt.seen_hash(parsed.lines[n - 1].text) == seen]
            if same:
                number = min(same, key=lambda n: abs(n - number))
                entry, line = parsed.entry_at(number), parsed.lines[number - 1].text
        if entry is None or fmt.seen_hash(line) != seen:
            raise ChangedSinceSeen(bare, line if entry is not None else "", fmt.seen_hash(line))
    if parsed is None or entry is None:
        raise RefError(f"{bare} is not an inbox entry (the inbox may have changed: read it again)")
    return parsed, number, entry


def accept_target(target: str | None) -> str | None:
    """Check a file chosen for accepted entries: safe, markdown, not the inbox.

    Raises:
        RefError: it is none of those.
    """
    if target is None:
        return None
    target = safe_relpath(target)
    if not target.endswith(".md") or target == INBOX_MD:
        raise RefError(f"cannot accept into {target!r}: give a markdown file other than the inbox")
    return target


def accepted(text: str, meta: dict[str, str], typed: bool = False) -> Candidate:
    """The candidate an inbox entry becomes when a person accepts it.

    It keeps where it came from: ``via: inbox`` and the writer's ``by``
    (an agent's line stays ``by: agent``), so an accepted line never passes
    for the user's own words; only when the person typed new text for it
    (``typed``) is it ``by: user`` (docs/architecture.md §6). A correction of
    the user's that waited for them (``corrects:``, breaker14 B14-9) keeps its
    ``supersedes:``/``subject:``, so it replaces the line it names (pinned in
    MEMORY.md when that line is pinned).
    """
    workspace = meta.get("workspace")
    by = "user" if typed or meta.get("by") == "user" else "agent"
    return Candidate(
        text=text,
        kind=kind if KIND_RE.fullmatch(kind := meta.get("kind") or "fact") else "fact",
        scope="workspace" if workspace else "global",
        workspace=workspace,
        subject=meta.get("subject"),
        supersedes=(meta.get("supersedes") or None) if corrected(meta) else None,
        source=None if claims_user(meta.get("source") or "") else meta.get("source"),
        task=meta.get("task"),
        by=by,
        pin=by == "user" and corrected(meta) == MEMORY_MD,
        origin="inbox_triage",
        via="inbox",
    )


def corrected(meta: dict[str, str]) -> str | None:
    """The file of the user's line an inbox entry corrects (its ``corrects:``, written by a checkpoint for the
    user's own correction, :class:`~memrepo.engine.models.Candidate`), or None: a safe markdown path other than
    the inbox, on a ``by: user`` entry only."""
    return _users_file(meta, "corrects")


def _users_file(meta: dict[str, str], key: str) -> str | None:
    """The safe markdown path (not the inbox) an inbox entry's ``key`` names, on a ``by: user`` entry only."""
    rel = (meta.get(key) or "").strip()
    if not rel or meta.get("by") != "user":
        return None
    try:
        return accept_target(rel)
    except RefError:
        return None


def replaces(meta: dict[str, str]) -> str | None:
    """What accepting an inbox entry replaces, in words ("the line 'X' of me.md"), or None (see :func:`corrected`)."""
    rel = corrected(meta)
    if rel is None:
        return None
    said = meta.get("supersedes") or (f"the line on {meta['subject']!r}" if meta.get("subject") else "")
    return f"{said} (in {rel})" if said else None


def forgotten(meta: dict[str, str]) -> str | None:
    """The file of the line an inbox entry asks to forget (its ``forgets:``, written by a checkpoint for the user's
    request to forget a line, :class:`~memrepo.engine.models.Candidate`), or None: as :func:`corrected`."""
    return _users_file(meta, "forgets")


def _forget_line(tx: Transaction, rel: str, text: str) -> int | None:
    """Remove the entry of ``rel`` whose text is ``text`` in ``tx`` (no commit): its line number, or None when the
    file no longer holds it (or it is a workspace file's header line)."""
    parsed = tx.read(rel)
    want = fmt.normalize_text(text)
    for number, entry in parsed.entries() if parsed is not None else []:
        if fmt.normalize_text(entry.text) == want and not entry.meta.get("workspace"):
            assert parsed is not None
            parsed.remove_line(number)
            tx.write(rel, parsed.render())
            return number
    return None


def _route(entries: EntryWriter, cand: Candidate, meta: dict[str, str], target: str | None) -> Target:
    """The file an accepted entry goes to: ``target``, else the file of the line it corrects, else the routing's."""
    if target is not None:
        return Target(target)
    rel = corrected(meta)
    if rel is not None and rel != MEMORY_MD and (entries.writer.root / rel).is_file():
        return Target(rel)
    return entries.route(cand)


def suggest(entries: EntryWriter, entry: EntryView) -> str:
    """The file an inbox entry goes to when accepted: the file of the line it corrects or forgets, its workspace's
    file, lessons.md or me.md."""
    rel = forgotten(entry.meta)
    if rel is not None:
        return rel
    return _route(entries, accepted(entry.text, entry.meta), entry.meta, None).path


def accept(
    entries: EntryWriter,
    ref: str,
    target: str | None = None,
    text: str | None = None,
    origin: Origin = "inbox_triage",
    scrub: Callable[[list[str]], object] | None = None,
) -> WriteResult:
    """Move an inbox entry to its suggested file (or ``target``), ``via: inbox``, in one commit; for the user's
    request to forget a line (``forgets:``), remove that line instead, in the same commit (``scrub`` then runs
    with the files changed, as for any forget).

    See :meth:`MemoryStore.accept`.
    """
    target = accept_target(target)
    from . import policy

    with entries.writer.transaction("accept") as tx:
        inbox, number, entry = _inbox_entry(tx, ref)
        typed = text is not None and fmt.normalize_text(text) != fmt.normalize_text(entry.text)
        rel = forgotten(entry.meta)
        if rel is not None and not typed and target is None:
            return _accept_forget(entries, tx, inbox, number, entry, rel, origin, scrub)
        cand = accepted(text if text is not None else entry.text, entry.meta, typed)
        decision = policy.decide(cand, clean_text)
        if decision.candidate is None:
            return WriteResult(action=Action.REFUSED, reason=decision.reason, redacted=decision.redacted)
        cand = decision.candidate
        route = _route(entries, cand, entry.meta, target)
        try:
            result = entries.stage(tx, cand, route)
        except LimitError as exc:
            how = ""
            if target is None and route.new_workspace is not None:  # say the one step that works (breaker17 B17-9)
                how = f"; to keep it now: memrepo inbox accept {ref} --to me.md (m in the app's Inbox)"
            return WriteResult(action=Action.REFUSED, path=route.path, reason=f"{exc}{how}")
        inbox.remove_line(number)
        # Last: a crash between the two leaves the entry in both files (a duplicate to discard), never in neither.
        tx.write(INBOX_MD, inbox.render())
        if result.action in (Action.REINFORCED, Action.OUTRANKED):  # already there: drop the inbox line only
            what, trail = f"{summary(cand.text)} (already in {route.path})", trailers(origin)
        else:
            what, trail = summary(cand.text), trailers(cand.origin, cand.task)
        try:
            commit = tx.commit(f"Accept: {what}", trail, sync_index=False)
        except ChangedMeanwhile as exc:
            raise BusyError(f"{exc.path} changed on disk while memrepo accepted {ref}; retry") from exc
        entries.writer.git.sync_index()
    said = replaces(entry.meta)
    reason = (
        f"replaces {said}" if said and result.action not in (Action.REINFORCED, Action.OUTRANKED) else result.reason
    )
    return result.model_copy(update={"commit": commit, "redacted": decision.redacted, "reason": reason})


def _accept_forget(
    entries: EntryWriter,
    tx: Transaction,
    inbox: fmt.MemoryFile,
    number: int,
    entry: fmt.Entry,
    rel: str,
    origin: Origin,
    scrub: Callable[[list[str]], object] | None,
) -> WriteResult:
    """Accept the user's request to forget ``entry``'s line of ``rel``: both lines go in one commit ("Forget: ...")."""
    line = _forget_line(tx, rel, entry.text)
    inbox.remove_line(number)
    tx.write(INBOX_MD, inbox.render())
    what = forgotten_summary(entry.text) + ("" if line is not None else f" (no longer in {rel})")
    try:
        commit = tx.commit(f"Forget: {what}", trailers(origin), sync_index=False)
    except ChangedMeanwhile as exc:
        raise BusyError(f"{exc.path} changed on disk while memrepo accepted a forget; retry") from exc
    entries.writer.git.sync_index()
    if scrub is not None:
        scrub([rel, INBOX_MD])
    said = f"forgot the line of {rel}" if line is not None else f"the line was no longer in {rel}"
    return WriteResult(action=Action.FORGOTTEN, ref=make_ref(rel, line or 1), path=rel, commit=commit, reason=said)


def accept_many(
    entries: EntryWriter,
    refs: list[str],
    target: str | None = None,
    origin: Origin = "inbox_triage",
    scrub: Callable[[list[str]], object] | None = None,
) -> WriteResult:
    """Accept several inbox entries in one commit (see :meth:`MemoryStore.accept_many`)."""
    if not refs:
        raise RefError("nothing to accept")
    target = accept_target(target)
    from . import policy

    with entries.writer.transaction("accept") as tx:
        found = [_inbox_entry(tx, ref) for ref in refs]
        inbox = found[0][0]
        refused: list[str] = []
        taken: list[int] = []
        forgot: list[str] = []
        for _, number, entry in found:
            rel = forgotten(entry.meta)
            if rel is not None and target is None:
                if _forget_line(tx, rel, entry.text) is not None:
                    forgot.append(rel)
                taken.append(number)
                continue
            decision = policy.decide(accepted(entry.text, entry.meta), clean_text)
            if decision.candidate is None:
                refused.append(f"L{number}: {decision.reason}")
                continue
            cand = decision.candidate
            route = _route(entries, cand, entry.meta, target)
            try:
                entries.stage(tx, cand, route)
            except LimitError as exc:
                refused.append(f"L{number}: {exc}")
                continue
            taken.append(number)
        for number in sorted(set(taken), reverse=True):
            inbox.remove_line(number)
        if taken:
            tx.write(INBOX_MD, inbox.render())
        try:
            commit = tx.commit(f"Accept: {len(taken)} inbox entries", trailers(origin))
        except ChangedMeanwhile as exc:
            raise BusyError(f"{exc.path} changed on disk while memrepo accepted entries; retry") from exc
    if forgot and scrub is not None:
        scrub([*forgot, INBOX_MD])
    reason = f"refused {len(refused)}: " + "; ".join(refused) if refused else None
    return WriteResult(action=Action.ADDED, path=INBOX_MD, commit=commit, reason=reason)


def discard_many(entries: EntryWriter, refs: list[str], origin: Origin = "inbox_triage") -> WriteResult:
    """Remove several inbox entries in one commit (see :meth:`MemoryStore.discard_many`)."""
    if not refs:
        raise RefError("nothing to discard")
    with entries.writer.transaction("discard") as tx:
        found = [_inbox_entry(tx, ref) for ref in refs]
        inbox = found[0][0]
        texts = [entry.text for _, _, entry in found]
        for number in sorted({n for _, n, _ in found}, reverse=True):
            inbox.remove_line(number)
        tx.write(INBOX_MD, inbox.render())
        what = summary(texts[0]) if len(texts) == 1 else f"{len(texts)} inbox entries"
        try:
            commit = tx.commit(f"Discard: {what}", trailers(origin))
        except ChangedMeanwhile as exc:
            raise BusyError(f"{INBOX_MD} changed on disk while memrepo discarded entries; retry") from exc
    return WriteResult(action=Action.DISCARDED, path=INBOX_MD, commit=commit)
