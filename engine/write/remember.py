"""The entry writer: route a candidate to its file and write it as one entry (docs/architecture.md §3).

:class:`EntryWriter` checks the candidate (its own checks, then the write
policy of :mod:`memrepo.engine.write.policy`: salience, secret redaction,
``<no-memory>``, scopes), routes it to a file, and writes it inside one
:class:`~memrepo.engine.write.writer.Transaction`: dedupe by normalized text,
replace by subject (a user's entry outranks an agent's), append, commit that
path alone. A write refused while the work tree is blocked, or while a hand
edit of its file waits for the user's answer, is kept under
``.git/memrepo/pending/`` and applied by the next write (or the answer).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memrepo.engine.errors import BlockedError, BusyError, HandEditQuestion, LimitError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.entrytext import clean_text, summary
from memrepo.engine.format.layout import (
    INBOX_MD,
    INDEX_HEADING,
    LESSON_KINDS,
    LESSONS_MD,
    ME_MD,
    MEMORY_MD,
    is_workspace_file,
    link_of,
    new_file_text,
    workspace_file,
)
from memrepo.engine.format.limits import MEMORY_MD_MAX_BYTES
from memrepo.engine.format.paths import make_ref
from memrepo.engine.format.relativedates import until_date
from memrepo.engine.models import Action, Candidate, WriteResult
from memrepo.engine.read.workspaceindex import WorkspaceIndex, workspace_id_in

from .keptwrites import KeptWrites
from .writer import Transaction, Writer, retrying

KEPT_UNTIL_BLOCK_GONE = "the write is kept in .git/memrepo/pending/ and applied once the block is gone"
USERS_RULE_WAITS = "it would change a rule of yours"
"""The ``waits:`` of an agent's line that names a rule of the user's (:meth:`EntryWriter.route`)."""
KEPT_UNTIL_ANSWERED = "the write is kept in .git/memrepo/pending/ and applied once the question is answered"
"""What a write refused by a waiting hand-edit question is told (docs/architecture.md §3: nothing is lost)."""


@dataclass(slots=True)
class Target:
    """Where a write goes: a repo-relative file, and the workspace file to create first, if any."""

    path: str
    new_workspace: tuple[str, str, str | None, str] | None = None  # id, slug, abs path, label
    remote: str | None = None
    """The writing project folder's ``origin`` (:func:`~memrepo.engine.format.gitfolder.origin_of`), for a
    workspace file whose first entry has none yet (made before remotes were stored): a moved clone finds it."""
    folder: str | None = None
    """The writing project folder (a path given): a moved clone's file whose ``path:`` names a folder now gone
    takes this one with the write (:func:`stamp_path`)."""
    waits: str | None = None
    """Why an agent's line routed to the inbox waits there when no taint sent it (written as ``waits:``, so the
    Inbox says that reason, not "it read outside content": breaker30 B30-17)."""


def stamp_remote(parsed: fmt.MemoryFile, remote: str) -> None:
    """Add ``remote:`` to the workspace entry among a file's first three that has none (docs/memory-repo.md)."""
    for number, head in parsed.entries()[:3]:
        if head.meta.get("workspace"):
            if not head.meta.get("remote"):
                meta = {k: v for k, v in head.meta.items() if k != "by"} | {"remote": remote}
                meta.update({"by": head.meta["by"]} if "by" in head.meta else {})
                parsed.set_entry(number, fmt.Entry(head.indent, head.bullet, head.text, meta))
            return


def stamp_path(parsed: fmt.MemoryFile, folder: str) -> None:
    """Point the workspace entry's ``path:`` at ``folder`` when the folder it names is gone (docs/memory-repo.md).

    A moved or renamed clone finds its workspace file by its ``origin`` remote; its first write from the new
    folder also moves the header's ``path:`` there, in the same commit, so ``memrepo workspaces`` no longer
    lists the file as gone (and ``archive`` does not take a file in use). A folder that still exists (a
    second clone, the main checkout of a linked worktree) keeps its file's ``path:``.
    """
    for number, head in parsed.entries()[:3]:
        if head.meta.get("workspace"):
            old = head.meta.get("path")
            if old and old != folder and not os.path.isdir(old) and os.path.isdir(folder):
                meta = dict(head.meta)
                meta["path"] = folder
                parsed.set_entry(number, fmt.Entry(head.indent, head.bullet, head.text, meta))
            return


def _holds_secret(text: str | None) -> bool:
    """Whether redaction finds a secret in a workspace's folder path, name or remote (breaker30 B30-22).

    A folder named with a token (an agent's ``cwd`` is free text) must not put the token into a file name, a
    header entry, a commit or the index: such a workspace is filed under its id alone, with no ``path:`` or
    ``remote:`` (docs/architecture.md §2). Its id is a hash of the folder, so the same folder finds it again.
    """
    if not text:
        return False
    from memrepo.engine.redaction import find

    return bool(find(text))


Router = Callable[[Candidate], Target]
"""Picks a candidate's target (the routing rules, or an importer's)."""


def trailers(origin: str, task: str | None = None, by: str | None = None) -> dict[str, str | None]:
    """The ``Origin:``, ``Task:`` and ``By:`` trailers of a commit.

    ``By:`` (``user`` or ``agent``) says who a remembered fact is from, so ``memrepo stats`` counts
    it from the commit alone (docs/architecture.md §9), not from the lines it added (a new
    workspace file's header line is memrepo's, not the writer's).
    """
    return {"Origin": origin, "Task": task, "By": by}


class EntryWriter(KeptWrites):
    """Writes single entries for one store: routing, the writer's checks, dedupe, the pending queue.

    Args:
        writer: the store's write transaction.
        index: the store's workspace index.

    Attributes:
        agent_to_inbox: ask before saving: every agent write goes to the inbox
            (``[writes] agent_to_inbox``).
    """

    def __init__(self, writer: Writer, index: WorkspaceIndex) -> None:
        self.writer = writer
        self.index = index
        self.agent_to_inbox = False

    # -- routing -------------------------------------------------------------

    def tainted(self, cand: Candidate) -> bool:
        """True when the write goes to the inbox (docs/architecture.md §3 taint, ``[writes] agent_to_inbox``)."""
        proposed = bool(cand.corrects or cand.forgets or cand.waits)  # the user's, for them to confirm
        return cand.untrusted or proposed or (cand.by == "agent" and self.agent_to_inbox)

    def route(self, cand: Candidate) -> Target:
        """The file the routing rules pick: inbox, MEMORY.md (pinned), a workspace file, lessons.md or me.md.

        An agent's line whose ``supersedes:`` names a rule of the user's waits in the inbox, as the user's own
        opposite of a stored rule does (docs/agents.md; breaker20 B20-13: "Committing directly to main is fine"
        over "Never commit directly to main" was committed and recalled under it, unmarked).
        """
        from .userrules import names_users_rule

        target = self._route(cand)
        turns = cand.by == "agent" and bool(cand.supersedes) and target.path != INBOX_MD
        if turns and names_users_rule(self.writer.root, cand.supersedes or "", target.path):
            return Target(INBOX_MD, waits=None if cand.untrusted else USERS_RULE_WAITS)
        return target

    def _route(self, cand: Candidate) -> Target:
        if self.tainted(cand):
            return Target(INBOX_MD)
        if cand.pin:
            return Target(MEMORY_MD)
        if cand.scope == "workspace":
            assert cand.workspace is not None
            found = self.index.resolve(cand.workspace)
            file = found.file or self.held_workspace_file(found.id)
            if file is not None:
                if found.given_as != "path" or not found.path or _holds_secret(found.path):
                    return Target(file)
                from memrepo.engine.format.gitfolder import origin_of

                remote = origin_of(found.path)
                return Target(file, remote=None if _holds_secret(remote) else remote, folder=found.path)
            if _holds_secret(f"{found.path or ''} {found.label} {found.slug}"):  # breaker30 B30-22
                rel = self.free_workspace_file(found.id)  # named by its id: no word of the folder is written
                return Target(rel, (found.id, Path(rel).stem, None, found.id))
            rel = self.free_workspace_file(found.slug)
            return Target(rel, (found.id, Path(rel).stem, found.path, found.label))
        if cand.kind.lower() in LESSON_KINDS:
            return Target(LESSONS_MD)
        return Target(ME_MD)

    def held_workspace_file(self, ws_id: str) -> str | None:
        """The workspace file whose committed text names ``ws_id`` while a hand-edit question holds it, or None.

        An emptied file, or a save that dropped its header line with most entries, no longer names its
        workspace in the work tree, so the index misses it; memrepo keeps the committed text until the user
        answers. Routed there, a write is kept in ``.git/memrepo/pending/`` and applied after the answer,
        never written to a second file for the same workspace (docs/architecture.md §3, B7-21). Reads the
        work tree's status only on such a miss (a new workspace's first write).
        """
        git = self.writer.git
        for rel in git.status().changed:
            if not (is_workspace_file(rel) and rel.endswith(".md") and rel.count("/") == 1):
                continue
            committed = git.head_blob(rel)
            if not committed or workspace_id_in(committed, rel.rsplit("/", 1)[-1]) != ws_id:
                continue
            try:
                data: bytes | None = read_work_file(self.writer.root / rel)
            except (FileNotFoundError, IsADirectoryError):
                data = None
            except OSError:
                continue
            if self.writer.question(rel, data, committed) is not None:
                return rel
        return None

    def free_workspace_file(self, slug: str) -> str:
        """``workspaces/<slug>.md``, or ``<slug>-2.md``, ``-3`` ... when that file exists."""
        name, n = slug, 2
        while (self.writer.root / workspace_file(name)).exists():
            name, n = f"{slug}-{n}", n + 1
        return workspace_file(name)

    # -- the writer's checks -----------------------------------------------------

    @staticmethod
    def refusal(cand: Candidate) -> str | None:
        """The writer's own checks; salience, secrets, ``<no-memory>``, scopes and length are in policy."""
        fields = (
            cand.text,
            cand.kind,
            cand.subject,
            cand.supersedes,
            cand.source,
            cand.task,
            cand.workspace,
            cand.corrects,
            cand.waits,
        )
        if any(value and "\x00" in value for value in fields):
            # A NUL would make the memory file binary, and every later write to it fail.
            return "the candidate holds a NUL byte, which is not text: remove it and retry"
        if cand.pin and cand.by != "user":
            return "only the user's own statements are pinned to MEMORY.md; agents write without --pin"
        if cand.scope == "workspace" and not (cand.workspace or "").strip():
            return "scope workspace needs a workspace (a folder path or a name)"
        return None

    def new_entry(self, cand: Candidate) -> fmt.Entry:
        """The entry line a candidate becomes: its text and metadata, cleaned, ``added:`` today (or the
        candidate's own date, which an import keeps)."""
        meta: dict[str, str] = {"by": cand.by, "added": cand.added or self.writer.git.now().date().isoformat()}
        keys = ["kind", "subject", "supersedes", "until", "source", "task", "via"]
        if self.tainted(cand) and cand.scope == "workspace":
            keys.append("workspace")  # where triage will suggest it goes
        if not cand.untrusted:
            keys += ["corrects", "forgets", "waits"]  # the user's: the line it replaces/forgets, or why it waits
        for key in keys:
            value = clean_text(getattr(cand, key) or "")
            if value:
                meta[key] = value
        if "until" not in meta and (end := until_date(cand.text)):
            meta["until"] = end  # "Until 2025-03-31 the build signs with ...": past after that day (corr14)
        return fmt.Entry(indent="", bullet="-", text=clean_text(cand.text), meta=meta)

    # -- writing -------------------------------------------------------------------

    def stage(self, tx: Transaction, cand: Candidate, target: Target) -> WriteResult:
        """Stage one entry in ``tx`` (no commit): the result says what it would be.

        Returns:
            WriteResult: ``reinforced`` or ``outranked`` (nothing staged), or
            ``added``/``inboxed``/``replaced`` with the entry's ref (staged).

        Raises:
            LimitError: a file would pass its limit (nothing staged).
            ChangedMeanwhile: never here; from the commit that follows.
        """
        rel = target.path
        parsed = tx.read(rel)
        index_data: bytes | None = None
        index: fmt.MemoryFile | None = None
        if parsed is None:
            parsed = fmt.parse(self._new_file_text(target).encode("utf-8"), rel)
            if rel not in (MEMORY_MD, INBOX_MD) and not rel.startswith("archived/"):
                # every file memrepo creates is linked from the index in the same commit (docs/architecture.md §2),
                # me.md and lessons.md of an adopted repo too: Health finds no orphan, the format's agents find it
                index = tx.read(MEMORY_MD) or fmt.parse(b"# Memory\n", MEMORY_MD)
                if link_of(rel) not in fmt.extract_links(index.text()):
                    index.append_entry(fmt.Entry("", "-", f"[[{link_of(rel)}]]"), after_section=INDEX_HEADING)
                    index_data = index.render()
                    if len(index_data) > MEMORY_MD_MAX_BYTES:
                        raise LimitError(
                            f"MEMORY.md is full ({len(index_data)} bytes with the link, limit "
                            f"{MEMORY_MD_MAX_BYTES}): the new file {rel} could not be linked "
                            "from its index; forget or move entries out of MEMORY.md, then write again"
                        )
        entry = self.new_entry(cand)
        wanted = fmt.normalize_text(entry.text)
        for number, existing in parsed.entries():
            if fmt.normalize_text(existing.text) == wanted:
                return WriteResult(
                    action=Action.REINFORCED,
                    ref=make_ref(rel, number),
                    path=rel,
                    reason="the same entry is already there",
                )
        action = Action.INBOXED if rel == INBOX_MD else Action.ADDED
        number = 0
        if cand.subject:
            subject = cand.subject.casefold()
            for n, existing in parsed.entries():
                if existing.meta.get("subject", "").casefold() != subject:
                    continue
                if existing.by == "user" and cand.by == "agent":
                    return WriteResult(
                        action=Action.OUTRANKED,
                        ref=make_ref(rel, n),
                        path=rel,
                        reason=f"a user entry with subject {cand.subject!r} outranks an agent write",
                    )
                parsed.set_entry(n, entry)
                action, number = Action.REPLACED, n
                break
        if not number:
            number = parsed.append_entry(entry, before_section=INDEX_HEADING if rel == MEMORY_MD else None)
        if target.remote:
            stamp_remote(parsed, target.remote)
        if target.folder:
            stamp_path(parsed, target.folder)
        with tx.savepoint():
            if index is not None and index_data is not None:
                tx.write(MEMORY_MD, index_data)
            tx.write(rel, parsed.render(), parsed)
        if target.new_workspace is not None:
            self.index.learn(target.new_workspace[0], rel)
        return WriteResult(action=action, ref=make_ref(rel, number), path=rel)

    def write(self, tx: Transaction, cand: Candidate, target: Target, *, sync_index: bool = False) -> WriteResult:
        """Stage one entry and commit it alone ("Remember ...", "Replace ...", "Inbox ...")."""
        result = self.stage(tx, cand, target)
        if result.action in (Action.REINFORCED, Action.OUTRANKED):
            return result
        verb = {Action.REPLACED: "Replace", Action.INBOXED: "Inbox"}.get(result.action, "Remember")
        text = clean_text(cand.text)
        commit = tx.commit(
            f"{verb} {cand.kind or 'fact'}: {summary(text)}",
            trailers(cand.origin, cand.task, cand.by),
            sync_index=sync_index,
        )
        return result.model_copy(update={"commit": commit})

    @staticmethod
    def _new_file_text(target: Target) -> str:
        if target.new_workspace is not None:
            ws_id, slug, abs_path, label = target.new_workspace
            meta = {"workspace": ws_id}
            if abs_path:
                meta["path"] = abs_path
                from memrepo.engine.format.gitfolder import origin_of

                remote = origin_of(abs_path)  # a moved clone finds this file by it (docs/memory-repo.md)
                if remote and not _holds_secret(remote):
                    meta["remote"] = remote
            meta["by"] = "user"
            return f"# {slug}\n\n- Workspace {label} {fmt.render_metadata(meta)}\n"
        return new_file_text(target.path)

    def remember(
        self,
        cand: Candidate,
        hint: list[str] | None = None,
        on_committed: Callable[[WriteResult], None] | None = None,
        routed: Router | None = None,
        keep_if_git_busy: bool = False,
    ) -> WriteResult:
        """Save one memory through the governed writer (see :meth:`MemoryStore.remember`)."""
        reason = self.refusal(cand)
        if reason is not None:
            return WriteResult(action=Action.REFUSED, reason=reason)
        from .supersedesref import other_file_refusal, resolve

        named = resolve(self.writer.root, cand.supersedes) if cand.supersedes else None
        if named is not None:  # a ref: stored as what the block matches, never as a line number (B30-12)
            if named.value is None:
                return WriteResult(action=Action.REFUSED, reason=named.refusal)
            cand = cand.model_copy(update={"supersedes": named.value})
        from . import policy  # imported by writers only (its detectors load on the first text they meet)

        decision = policy.decide(cand, clean_text)
        if decision.candidate is None:
            return WriteResult(action=Action.REFUSED, reason=decision.reason, redacted=decision.redacted)
        cand, redacted = decision.candidate, decision.redacted
        if cand.untrusted and cand.by != "agent":
            # Text steered by untrusted content is never the user's word.
            cand = cand.model_copy(update={"by": "agent", "pin": False})
        route = self.route if routed is None else routed
        with contextlib.ExitStack() as stack:
            try:
                tx = stack.enter_context(self.writer.transaction("remember", hand_edits=False))
            except BusyError as exc:
                if not (keep_if_git_busy and exc.git_lock):
                    raise
                # Another git process holds its lock (``git commit -a`` in its editor), maybe for minutes: the
                # write is kept like one beside a merge, exit 3 "kept", not a failure to retry (breaker29 B29-14).
                self.queue(cand)
                held = str(exc).split("; memrepo waited")[0]  # "retry when it has finished" is not for a kept write
                raise BlockedError(f"{held} ({KEPT_UNTIL_BLOCK_GONE})", kept=True) from exc
            try:
                # Routed under the lock: another process may have just made a
                # workspace file with the same slug, which must not be reused.
                target = route(cand)
                check = None if hint is None else sorted({*hint, target.path})
                if check is not None and target.new_workspace is not None:
                    check.append(MEMORY_MD)
                tx.commit_hand_edits(check)
            except BlockedError as exc:
                self.queue(cand)
                raise BlockedError(f"{exc.reason} ({KEPT_UNTIL_BLOCK_GONE})", kept=True) from exc
            self.apply_pending_in(tx)
            first = [True]

            def write(tx: Transaction) -> WriteResult:
                # After an editor saved the file meanwhile (kept as "Hand edits"), route again.
                chosen = target if first[0] else route(cand)
                first[0] = False
                if named is not None and chosen.path not in (named.path, INBOX_MD):
                    return WriteResult(
                        action=Action.REFUSED, path=chosen.path, reason=other_file_refusal(named, chosen.path)
                    )
                said = cand.model_copy(update={"waits": chosen.waits}) if chosen.waits else cand
                try:
                    return self.write(tx, said, chosen)
                except LimitError as exc:
                    return WriteResult(
                        action=Action.REFUSED, path=chosen.path, reason=str(exc), redacted=redacted, limit=True
                    )

            try:
                result = retrying(tx, write)
            except HandEditQuestion as exc:
                # A hand edit of the file waits for the user's answer (an editor's stale save, an emptied
                # file): the write is kept like any block and applied once the question is answered.
                tx.discard()
                self.queue(cand)
                raise HandEditQuestion(f"{exc.reason} ({KEPT_UNTIL_ANSWERED})", kept=True) from exc
            except BlockedError as exc:
                if exc.kept:
                    raise
                # A rebase or merge that started after the check above, met at the commit: kept as above (B26-5).
                tx.discard()
                self.queue(cand)
                raise BlockedError(f"{exc.reason} ({KEPT_UNTIL_BLOCK_GONE})", kept=True) from exc
            if result.action is Action.REFUSED:
                return result
            result.redacted = redacted
            if result.commit is not None and result.path in (MEMORY_MD, LESSONS_MD):
                result.warning = self.budget_warning(result.path)
            if on_committed is not None and result.commit is not None:
                on_committed(result)
            self.writer.git.sync_index()
            return result

    def budget_warning(self, rel: str) -> str | None:
        """:func:`memrepo.engine.read.contextbudget.budget_warning` of ``rel`` as the write left it (None when unreadable)."""
        from memrepo.engine.read.context import READ_MAX
        from memrepo.engine.read.contextbudget import budget_warning

        try:
            data = read_work_file(self.writer.root / rel, READ_MAX)
        except OSError:
            return None
        return budget_warning(rel, data)
