"""The user's answer to a hand-edit question: commit the edit (redacted), or keep the committed text.

Rules: docs/architecture.md §3.

A hand edit that emptied a file or removed most of its entries in one save is
never committed without asking (:mod:`.settle`). The answer names the file
and the version it was asked about (:attr:`.models.HandEditQuestion.seen`),
so nobody approves one save and gets another: a file saved again since the
question is left alone and the question asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memrepo.engine.errors import RefError
from memrepo.engine.files.regularfile import read_work_file
from memrepo.engine.format.paths import safe_relpath
from memrepo.engine.read.heldread import note_questions

from .handsecret import redact_added, secret_name
from .staleanswer import put_back
from .tornsave import mend, torn_lines

if TYPE_CHECKING:
    from .writer import Writer


def answer_hand_edit(
    writer: Writer,
    path: str,
    seen: str,
    commit: bool,
    *,
    redact: bool = False,
    scrub: Callable[[list[str]], object] | None = None,
) -> str | None:
    """Commit the questioned hand edit of ``path`` (redacted, when asked), or put its committed text back.

    Args:
        writer: the store's writer (its lock, git store and atomic replace).
        path: the repo-relative file the question is about.
        seen: the question's :attr:`~.models.HandEditQuestion.seen` (the bytes the user was asked about).
        commit: True commits the edit as "Hand edits"; False writes HEAD's
            text back to the file (atomically), so nothing is committed; for an
            editor's stale save (:attr:`~.models.HandEditQuestion.dropped`, ``revived``) False
            keeps the save with the dropped entries put back and the revived ones left out, and commits that.
        redact: for a question about secrets (:attr:`~.models.HandEditQuestion.secrets`), replace them
            with ``[REDACTED:<type>]`` in the file and commit that (:func:`.handsecret.redact_added`);
            ``commit`` is then ignored. Refused when the edit adds no secret.
        scrub: the derived-state walk of a forget (:mod:`memrepo.engine.state.scrub`), run under the same lock
            when the answer takes a secret the edit added out of the file (``redact``, or the committed text put
            back): the file's old inode, linked under ``oldinodes/`` by the replace, held the secret in clear
            (breaker31 B31-8; docs/architecture.md §3, derived files).

    Returns:
        str | None: the "Hand edits" commit id when ``commit`` (or a stale save put back), else None.

    Raises:
        RefError: the path is unsafe, or no question is waiting for that version
            of the file any more (saved again, or answered elsewhere), or ``redact``
            for a question that is not about secrets; nothing was done.
        BlockedError: the work tree is blocked (``commit``).
        BusyError: another writer held the lock for 5 s.
    """
    rel = safe_relpath(path)
    answered = _answer(writer, rel, seen, commit, redact, scrub)
    note_questions(writer.state_dir, [rel], [])  # answered: the readers read the work tree again (.heldread)
    return answered


def _answer(
    writer: Writer, rel: str, seen: str, commit: bool, redact: bool, scrub: Callable[[list[str]], object] | None
) -> str | None:
    """:func:`answer_hand_edit` for a safe ``rel``."""
    with writer.transaction("answer hand edit", [rel], hand_edits=False) as tx:
        try:
            data: bytes | None = read_work_file(writer.root / rel)
        except (FileNotFoundError, IsADirectoryError):
            data = None
        question = writer.question(rel, data)
        if question is None or question.seen != seen:
            raise RefError(
                f"{rel} changed since the question was asked (saved again or answered elsewhere): nothing was done"
            )
        committed = writer.git.head_blob(rel)
        if redact:
            if not question.secrets or data is None:
                raise RefError(f"{rel}: the edit adds no secret; nothing was redacted")
            if secret_name(rel, committed):  # a name cannot be redacted in place (B21-11)
                raise RefError("the file's name holds what looks like a secret: rename the file; nothing was redacted")
            writer.replace(rel, redact_added(committed, data), data)
            writer.note_written([rel])
            done = tx.commit_hand_edits([rel], confirm=True)
            if scrub is not None:
                scrub([rel])
            return done
        if commit:
            return tx.commit_hand_edits([rel], confirm=True)
        if committed is not None and data is not None and torn_lines(rel, committed, data):
            # A save cut mid-write: its whole lines stay, the cut ones go, HEAD's entries it lacks come back.
            writer.replace(rel, mend(rel, committed, data), data)
            writer.note_written([rel])
            return tx.commit_hand_edits([rel], confirm=True, secrets_asked=True)
        if (question.dropped or question.revived) and data is not None:
            # An editor's stale save: keep it, with the entries memrepo wrote put back in it and those it
            # removed (a forget, a move, a cleared workspace's file it recreates) left out.
            base = b"" if committed is None else committed
            writer.replace(rel, put_back(rel, base, data, question.dropped, question.revived), data)
            writer.note_written([rel])
            # The save is kept: a secret it added is still asked about, never committed by "put back".
            return tx.commit_hand_edits([rel], confirm=True, secrets_asked=True, put_back=True)
        if committed is not None:
            writer.replace(rel, committed, data)
            writer.note_written([rel])
            if question.secrets and scrub is not None:
                scrub([rel])  # the edit's secret leaves the old inode's link too
        return None
