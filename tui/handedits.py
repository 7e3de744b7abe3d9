"""Hand-edit questions: a save that emptied a file, lost most entries or added a secret (docs/architecture.md §3).

The engine never commits such an edit on its own (``status().questions``);
the app asks. A question is asked once the file has been quiet for the
quiet period (a save in progress asks nothing: each change pushes the
question back), once per version of the file (``seen``): ``y`` commits the
edit, ``R`` redacts a secret it added and commits, ``p`` puts the committed
text back, ``esc`` decides later (the engine keeps the committed text as the
base meanwhile). A question whose file was
saved again goes away by itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from memrepo.engine import stale_did, stale_named

from .messages import RepoWritten, WorkTreeChanged, WriteFailed
from .plain import clean, plain

if TYPE_CHECKING:
    from memrepo.engine.models import HandEditQuestion, RepoStatus

    from .appbase import AppState

ASK_AFTER_MIN_S = 0.5
"""The question waits at least this long (seconds) after the file last changed, even with a shorter quiet period."""


def question_title(q: HandEditQuestion) -> str:
    """What the edit did, in one line: ``MEMORY.md lost 35 of its 40 entries in one save``."""
    if q.secrets:
        n = len(q.secrets)
        return f"{q.path}: a hand edit added what looks like a secret on {n} {'line' if n == 1 else 'lines'}"
    if q.torn:
        return f"{q.path}: a save holds {len(q.torn)} {'line' if len(q.torn) == 1 else 'lines'} cut mid-write"
    if q.dropped or q.revived:
        return f"{q.path}: a save {stale_did(q.dropped, q.revived)}"
    if q.not_text:
        return f"{q.path} is not UTF-8 text ({q.not_text}): save it as UTF-8"
    if q.deleted:
        return f"{q.path} was deleted: its {q.entries_before} entries would be lost"
    if q.empty:
        return f"{q.path} is empty after one save: its {q.entries_before} entries would be lost"
    lost = q.entries_before - q.entries_now
    return f"{q.path} lost {lost} of its {q.entries_before} entries in one save"


class HandEditQuestionScreen(ModalScreen[str | None], inherit_bindings=False):
    """Commit a mass deletion, or keep the committed text; dismisses with ``commit``, ``keep`` or None (later).

    Args:
        question: the engine's question (path, entries before and now, the version asked about).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("R", "dismiss('redact')", "Redact the secret, commit", id="handedit.redact"),
        Binding("y", "dismiss('commit')", "Yes, commit the edit", id="handedit.yes"),
        Binding("p", "dismiss('keep')", "Put back / keep the old text", id="handedit.keep-old"),
        Binding("escape", "dismiss(None)", "Decide later", id="handedit.cancel"),
    ]
    """Keys of the mass-deletion question."""

    def __init__(self, question: HandEditQuestion) -> None:
        super().__init__()
        self.question = question

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``R`` (redact) only for a question about secrets."""
        if action == "dismiss" and parameters == ("redact",):
            return bool(self.question.secrets)
        return True

    def compose(self) -> ComposeResult:
        """Yield what the edit did, what each answer does, and the keys."""
        q = self.question
        if q.secrets:
            yield from self._compose_secrets(q)
            return
        if q.torn:
            yield from self._compose_torn(q)
            return
        stale = bool(q.dropped or q.revived)  # an editor's stale copy (engine/write/stalesave.py)
        lost = len(q.dropped) if stale else q.entries_before - q.entries_now
        keep = (
            f"p  put back: the save stays, {_stale_fix(q)}"
            if stale
            else f"p  keep the old text: {q.path} gets its {q.entries_before} committed entries back, this edit is lost"
        )
        if q.revived and not q.dropped:
            done = (
                f"{_entries(len(q.revived), 'the ')} memrepo removed {'comes' if len(q.revived) == 1 else 'come'} back"
            )
        else:
            done = f"{_entries(lost, 'the ')}{' memrepo wrote' if stale else ''} {'leaves' if lost == 1 else 'leave'}"
            done += " the files"
        p_key = "p put back" if stale else "p keep the old text"
        named = f"{stale_named(q.dropped, q.revived)}\n" if stale else ""  # which entries, by their text (B8-5)
        with Vertical(classes="dialog"):
            yield Label(plain(question_title(q)), classes="dialog-title")
            yield Label(
                plain(
                    f"{named}memrepo has not committed this edit; its writes build on the committed text until you "
                    "decide.\n"
                    f"y  commit the edit: {done} (the Log can undo it)\n{keep}",
                    one_line=False,
                ),
                classes="dialog-body",
            )
            yield Label(f"y commit · {p_key} · esc decide later", classes="dialog-keys")

    def _compose_torn(self, q: HandEditQuestion) -> ComposeResult:
        """The question about a save cut mid-write (engine/write/tornsave.py)."""
        shown = "\n".join(f"  {line.strip()[:70]}" for line in q.torn[:3])
        with Vertical(classes="dialog"):
            yield Label(plain(question_title(q)), classes="dialog-title")
            yield Label(
                plain(
                    f"{shown}\nmemrepo has not committed this edit; its writes build on the committed text until you "
                    "decide.\ny  commit the edit: the cut lines are committed as they are (the Log can undo it)\n"
                    "p  put back: the save's whole lines stay, the cut ones go, the committed entries it lacks "
                    "come back",
                    one_line=False,
                ),
                classes="dialog-body",
            )
            yield Label("y commit · p put back · esc decide later", classes="dialog-keys")

    def _compose_secrets(self, q: HandEditQuestion) -> ComposeResult:
        """The question about a secret a hand edit added (engine/write/handsecret.py)."""
        lines = "; ".join(q.secrets[:5]) + (f" and {len(q.secrets) - 5} more" if len(q.secrets) > 5 else "")
        lost = len(q.dropped) or max(q.entries_before - q.entries_now, 0)
        if q.dropped or q.revived:  # a stale save that also adds a secret: put back keeps the save, asked again
            also = f"The save also {stale_did(q.dropped, q.revived)}.\n"
            keep = f"p  put back: the save stays, {_stale_fix(q)}; the secret is asked about again"
        elif lost:
            also = f"The save also removes {_entries(lost)} of {q.entries_before}.\n"
            keep = f"p  keep the old text: {q.path} as committed, this edit is lost"
        else:
            also = ""
            keep = f"p  keep the old text: {q.path} as committed, this edit is lost"
        p_key = "p put back" if q.dropped or q.revived else "p keep the old text"
        with Vertical(classes="dialog"):
            yield Label(plain(question_title(q)), classes="dialog-title")
            yield Label(
                plain(
                    f"{lines}\n{also}Not committed yet: git history (and remotes) keep what is committed.\n"
                    "R  redact: [REDACTED:<type>] replaces the value, then commit\n"
                    "y  commit as written (not a secret, or wanted in history)\n"
                    f"{keep}",
                    one_line=False,
                ),
                classes="dialog-body",
            )
            yield Label(f"R redact · y commit as written · {p_key} · esc decide later", classes="dialog-keys")


def _stale_fix(q: HandEditQuestion) -> str:
    """What "put back" does to a stale save: the entries memrepo wrote merged in, those it removed left out."""
    parts = []
    if q.dropped:
        parts.append(f"with the {_entries(len(q.dropped))} memrepo wrote merged back in")
    if q.revived:
        parts.append(f"without the {_entries(len(q.revived))} memrepo removed")
    return " and ".join(parts)


def _entries(n: int, the: str = "") -> str:
    """``n`` entries in words: ``1 entry``, ``3 entries`` (``the`` before it, when given)."""
    return f"{the}{n} {'entry' if n == 1 else 'entries'}"


class HandEditAsker:
    """Asks each mass-deletion question once its file is quiet, and carries out the answer.

    Args:
        app: the running app (its repo, settings, screens and notices).
    """

    def __init__(self, app: AppState) -> None:
        self.app = app
        self._waiting: dict[str, HandEditQuestion] = {}
        self._asked: set[tuple[str, str]] = set()
        self._open: HandEditQuestionScreen | None = None
        self._timer: object | None = None

    @property
    def delay(self) -> float:
        """Seconds a questioned file must stay unchanged before it is asked about (the quiet period)."""
        return max(float(self.app.settings.writes.commit_hand_edits_after), ASK_AFTER_MIN_S)

    def status_read(self, status: RepoStatus) -> None:
        """A status came in: (re)start the wait for new questions; close a question that no longer applies."""
        now = {q.path: q for q in status.questions}
        shown = self._open
        if shown is not None and (shown.question.path, shown.question.seen) not in {
            (q.path, q.seen) for q in now.values()
        }:
            if self.app.screen is shown:  # under another screen it stays; the engine refuses its answer
                self._open = None
                shown.dismiss(None)
            self.app.notify(
                clean(f"{shown.question.path} changed again: the question about its last save is gone"),
                timeout=4,
                markup=False,
            )
        new = {p: q for p, q in now.items() if (p, q.seen) not in self._asked}
        if new != self._waiting or (new and self._timer is None):
            self._waiting = new
            self._restart_timer()

    def _restart_timer(self) -> None:
        timer = self._timer
        if timer is not None:
            timer.stop()  # type: ignore[attr-defined]
            self._timer = None
        if self._waiting:
            self._timer = self.app.set_timer(self.delay, self._due)

    def _due(self) -> None:
        self._timer = None
        self.app.run_worker(self._ask_next(), group="hand-edit-question", exclusive=True, exit_on_error=False)

    async def _ask_next(self) -> None:
        """Read the status again; ask about the first question still there and not yet asked."""
        app = self.app
        repo = app.repo
        if repo is None or self._open is not None:
            return
        status = await repo.status()
        pending = [q for q in status.questions if (q.path, q.seen) not in self._asked]
        if not pending or self._open is not None:
            return
        q = pending[0]
        self._asked.add((q.path, q.seen))
        screen = self._open = HandEditQuestionScreen(q)

        def answered(answer: str | None) -> None:
            if self._open is not screen:
                return  # closed because the file changed again: the next status asks anew
            self._open = None
            if answer is None:
                app.notify(
                    clean(
                        f"{q.path}: memrepo keeps the committed text until you decide (memrepo commit-hand-edits --yes)"
                    ),
                    timeout=6,
                    markup=False,
                )
                self._waiting = {}
                app.refresh_status()  # another file may wait
            else:
                app.run_worker(self._answer(q, answer), group="hand-edit-answer", exit_on_error=False)

        app.push_screen(screen, answered)

    async def _answer(self, q: HandEditQuestion, answer: str) -> None:
        """Commit the edit or put the committed text back through the engine; one notice either way."""
        from memrepo.engine.errors import MemrepoError

        app = self.app
        if app.repo is None:
            return
        try:
            commit = await app.repo.answer_hand_edit(
                q.path, q.seen, commit=answer == "commit", redact=answer == "redact"
            )
        except MemrepoError as exc:
            app.notify(clean(str(exc), one_line=False), title="Not done", severity="error", timeout=8, markup=False)
            app.post_message(WriteFailed(str(exc)))
        else:
            if answer == "redact":
                app.notify(clean(f"Redacted and committed the edit of {q.path}"), timeout=4, markup=False)
                app.post_message(RepoWritten(commit))
            elif answer == "commit" and q.secrets:
                app.notify(clean(f"Committed the edit of {q.path} as written"), timeout=4, markup=False)
                app.post_message(RepoWritten(commit))
            elif answer == "commit":
                lost = q.entries_before - q.entries_now
                app.notify(clean(f"Committed the edit of {q.path}: {lost} entries deleted"), timeout=4, markup=False)
                app.post_message(RepoWritten(commit))
            else:
                if q.dropped:
                    left = ": the secret it adds is asked about again" if q.secrets else ""
                    app.notify(clean(f"Put the entries back into {q.path}{left}"), timeout=4, markup=False)
                else:
                    back = "the edit is undone" if q.secrets else "its entries are back"
                    app.notify(clean(f"Kept the old text of {q.path}: {back}"), timeout=4, markup=False)
                app.post_message(WorkTreeChanged([q.path]))
        self._waiting = {}
        app.refresh_status()  # more questions, or none
