"""The refs an MCP session was shown, bound to the entry it saw there (docs/agents.md, docs/architecture.md §7).

A ref (``repo:<path>#L<n>``) names a line, and lines move: when an entry above one goes (a forget, a hand
edit, a dream), the entry below takes its number. ``memory_forget`` of the same ref twice (a client's retry, a
model repeating itself) removed the entry that had moved up onto that line, and said it forgot the one named
(breaker30 B30-11). So each ref a tool answer shows (``memory_remember``, ``memory_recall``, ``memory_context``,
``memory_read``, ``memory_checkpoint``) is kept with the entry's text there, and a tool given a ref acts only
while that line still holds the text the session saw: else it answers "not the entry you meant", naming where
that entry is now when it moved. A ref this session forgot answers "already forgotten" until an answer shows
that ref again. A ref the session was never shown (one from a hook's block, or typed) is taken as it reads now.
This module needs no MCP SDK.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from memrepo.engine.errors import RefError
from memrepo.engine.format import entries as fmt
from memrepo.engine.format.paths import entry_ref, make_ref, parse_ref

QUOTE_CHARS = 60
"""The most characters of an entry's text an answer quotes."""


def canonical(ref: str) -> tuple[str, int]:
    """(path, line) of ``ref``, given with or without ``repo:`` (the block's ``me.md#L5``).

    Raises:
        RefError: not an entry ref, or its path is unsafe.
    """
    return parse_ref(fmt.split_seen(entry_ref(ref.strip()))[0])


@dataclass
class SeenRefs:
    """What one session was shown at each ref, and what it forgot.

    Attributes:
        shown: ``repo:<path>#L<n>`` -> the text of the entry that answer showed there (:func:`same_text`).
        forgotten: ``repo:<path>#L<n>`` -> the text of the entry this session forgot there.
    """

    shown: dict[str, str] = field(default_factory=dict)
    forgotten: dict[str, str] = field(default_factory=dict)

    def saw(self, ref: str, text: str) -> None:
        """An answer showed ``text`` at ``ref`` (a ref in canonical form, ``repo:`` first)."""
        self.shown[ref] = same_text(text)
        self.forgotten.pop(ref, None)

    def saw_entries(self, entries: Iterable[Any], refs: Iterable[str] | None = None) -> None:
        """An answer showed these entries (each with ``ref`` and ``text``); only those in ``refs`` when given."""
        wanted = None if refs is None else set(refs)
        for entry in entries:
            if wanted is None or entry.ref in wanted:
                self.saw(entry.ref, entry.text)

    def forgot(self, ref: str, text: str) -> None:
        """This session forgot the entry ``text`` at ``ref``."""
        self.shown.pop(ref, None)
        self.forgotten[ref] = text

    def check(self, given: str, entries: list[Any]) -> Any:
        """The entry at ``given`` when it is the one this session saw there (or the session saw nothing there).

        Args:
            given: the ref the tool was given (``repo:`` may be left out).
            entries: the entries of its file as it reads now (each with ``ref``, ``line`` and ``text``).

        Returns:
            the entry on that line.

        Raises:
            RefError: no entry is on that line; this session forgot the entry there ("already forgotten"); or the
                line holds another entry than the one the session saw ("not the entry you meant", with the ref
                the seen entry has now when it is still in the file).
        """
        rel, number = canonical(given)
        key = make_ref(rel, number)
        entry = next((e for e in entries if e.line == number), None)
        if key in self.forgotten:
            then = _quote(self.forgotten[key])
            now = " (the entry that moved onto that line is another)" if entry is not None else ""
            raise RefError(
                f"{given} is already forgotten: this session forgot {then} there{now}; "
                "recall again for the ref of the entry you mean"
            )
        seen = self.shown.get(key)
        if entry is None:
            where = _moved(entries, seen)
            raise RefError(f"{given} is not an entry (the file changed? recall it again){where}")
        if seen is None or same_text(entry.text) == seen:
            return entry
        raise RefError(
            f"{given} is not the entry you meant: it now holds {_quote(entry.text)} "
            f"(the file changed? recall it again){_moved(entries, seen)}"
        )

    def changed_note(self, given: str, entries: list[Any]) -> str:
        """``"(<why>)\\n"`` when ``given`` is a ref whose line no longer holds what this session saw there (it
        forgot it, or the line moved), for ``memory_read`` to put before the line it reads now; else ``""``."""
        try:
            key = make_ref(*canonical(given)) if "#L" in given else ""
        except RefError:
            return ""
        if key not in self.shown and key not in self.forgotten:
            return ""  # nothing seen there: nothing changed for this session
        try:
            self.check(given, entries)
        except RefError as exc:
            return f"({exc})\n"
        return ""


def same_text(text: str) -> str:
    """``text`` as two shows of one entry compare: redacted (recall shows a hand-saved secret redacted, the file
    holds it whole) and normalized."""
    from memrepo.engine.redaction import redact_text

    return fmt.normalize_text(redact_text(text))


def _quote(text: str) -> str:
    """``text`` quoted for an answer: redacted and escaped as recall hits are, on one line, cut to 60 characters."""
    from memrepo.engine import fence_safe
    from memrepo.engine.redaction import redact_text

    one_line = " ".join(fence_safe(redact_text(text)).split())
    return repr(one_line if len(one_line) <= QUOTE_CHARS else one_line[: QUOTE_CHARS - 1] + "…")


def _moved(entries: list[Any], seen: str | None) -> str:
    """``"; the entry you saw is now repo:me.md#L16"`` when exactly one line holds it now, else ``""``."""
    if seen is None:
        return ""
    found = [e.ref for e in entries if same_text(e.text) == seen]
    return f"; the entry you saw is now {found[0]}" if len(found) == 1 else ""


__all__ = ["SeenRefs", "canonical"]
