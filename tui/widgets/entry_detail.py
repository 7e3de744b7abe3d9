"""One entry in full: its whole text, metadata and provenance, in a box or on its own screen.

The Inbox pane shows the highlighted entry in an :class:`EntryDetail` box that
follows the cursor; ``enter`` (Inbox and Folder panes) opens it on an
:class:`EntryScreen` that fills the terminal. The text is wrapped, never cut.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ..plain import clean

if TYPE_CHECKING:
    from memrepo.engine.models import EntryView

INBOX = "inbox.md"

META_ORDER = ("by", "added", "kind", "subject", "source", "task", "workspace")
"""Metadata keys shown first, in this order; any others follow alphabetically."""


def inbox_row_text(entry: EntryView) -> str:
    """An inbox entry's text as its row in the Inbox pane shows it: one line, and "Forget: " before a request of
    the user's to forget a line (accepting it deletes that line: the row said only the line's own text, so a user
    accepting down the list deleted memories believing they kept them; breaker31 B31-11)."""
    text = " ".join(clean(entry.text).split())
    return f"Forget: {text}" if entry.meta.get("forgets") and entry.meta.get("by") == "user" else text


def provenance(entry: EntryView) -> list[str]:
    """Where the entry came from, what wrote it and, in the inbox, why it is not trusted yet.

    Args:
        entry: the entry.

    Returns:
        list[str]: one sentence per line.
    """
    by = entry.meta.get("by", entry.by)
    writer = "you" if by == "user" else "an agent" if by == "agent" else clean(by)
    said = f"Written by {writer}"
    if entry.meta.get("task"):
        said += f" in task {clean(entry.meta['task'])}"
    if entry.meta.get("source"):
        said += f", citing {clean(entry.meta['source'])}"
    lines = [said + "."]
    corrects = entry.meta.get("corrects", "") if by == "user" else ""
    if entry.path == INBOX and corrects:
        old = entry.meta.get("supersedes") or (
            f"the line on {entry.meta['subject']}" if "subject" in entry.meta else ""
        )
        why = clean(entry.meta.get("waits", "")) or (
            "a correction that does not say only the new value in the line's own words (it says more, or leaves "
            "part of the line out)"
        )
        lines.append(
            f"Your own words in a session: {why}{'' if 'confirm' in why else ', so it waits for you to confirm it'}. "
            f"Accepting it replaces {clean(old) or 'the line it corrects'} (in {clean(corrects)})."
        )
    elif entry.path == INBOX and by == "user" and entry.meta.get("forgets"):
        lines.append(
            f"You asked in a session to forget this line of {clean(entry.meta['forgets'])}, the nearest to what you "
            "named (memrepo forgets by itself only a line it is sure of), so it waits for you. Accepting it removes "
            "the line; discarding keeps it."
        )
    elif entry.path == INBOX and by == "user" and entry.meta.get("waits"):
        why = clean(entry.meta["waits"])  # a limit held it back (breaker17 B17-9), or its line is not known (sess20)
        more = " If a accepts nothing (the limit holds), m moves it into an existing file such as me.md."
        lines.append(f"Your own words in a session; it waits here because {why}.{more if 'limit' in why else ''}")
    elif entry.path == INBOX and by == "agent" and entry.meta.get("waits") and entry.meta.get("supersedes"):
        lines.append(  # an agent's line naming a rule of the user's (breaker30 B30-17), not outside content
            f"An agent's line that would change a rule of yours ({clean(entry.meta['supersedes'])}): an agent never "
            "changes your rules by itself, so it waits for you to accept or discard it."
        )
    elif entry.path == INBOX:
        lines.append(
            "Untrusted until you accept it: the task that wrote it read outside content (a web page, a file, "
            "a tool's output), or agents' writes are set to wait here ([writes] agent_to_inbox)."
        )
    return lines


def entry_content(entry: EntryView, extra: list[str] | None = None) -> Content:
    """The entry as plain content: its text, who wrote it and why it is untrusted, the rest of its metadata.

    Args:
        entry: the entry.
        extra: more lines after the provenance (the Inbox's suggested file).

    Returns:
        Content: never parsed as markup.
    """
    lines = [Content(clean(entry.text)).stylize("bold"), Content("")]
    for number, line in enumerate(provenance(entry)):
        lines.append(Content(line).stylize("$untrusted" if number else ""))
    lines += [Content(clean(line)) for line in extra or []]
    said = {"by", "task", "source"}
    keys = [k for k in META_ORDER if k in entry.meta and k not in said]
    keys += sorted(k for k in entry.meta if k not in META_ORDER)
    meta = " · ".join(f"{k}: {clean(entry.meta[k])}" for k in keys)
    if meta:
        lines.append(Content(meta).stylize("$foreground-muted"))
    return Content("\n").join(lines)


class EntryDetail(VerticalScroll, can_focus=False):
    """The box under a list that shows the highlighted entry in full."""

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self._key: tuple[object, ...] | None = None
        self.border_title = "Entry"

    def compose(self) -> ComposeResult:
        """Yield the text."""
        yield Static("", classes="entry-detail-text", markup=False)

    def show(self, entry: EntryView | None, extra: list[str] | None = None, empty: str = "") -> None:
        """Show ``entry`` (or ``empty`` when None) from the top.

        Args:
            entry: the entry to show.
            extra: more lines after the metadata.
            empty: what to say when there is no entry.
        """
        key = None if entry is None else (entry.ref, entry.text, tuple(sorted(entry.meta.items())), *(extra or []))
        if key is not None and key == self._key:
            return  # the same entry: keep where the reader scrolled to
        self._key = key
        text = self.query_one(".entry-detail-text", Static)
        text.update(Content(empty) if entry is None else entry_content(entry, extra))
        self.border_title = Content("Entry" if entry is None else clean(f"Entry {entry.path}:{entry.line}"))
        self.scroll_home(animate=False)

    @property
    def text(self) -> str:
        """What the box shows, as plain text."""
        return str(self.query_one(".entry-detail-text", Static).visual)


class EntryScreen(ModalScreen[str | None], inherit_bindings=False):
    """An entry filling the terminal; ``esc`` or ``q`` goes back.

    Args:
        entry: the entry.
        extra: more lines after the metadata.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Back", id="entry.close"),
        Binding("down,j", "scroll_down", "Scroll down", id="entry.down", show=False),
        Binding("up,k", "scroll_up", "Scroll up", id="entry.up", show=False),
        Binding("home,g", "scroll_home", "Top", id="entry.first", show=False),
        Binding("end,G", "scroll_end", "Bottom", id="entry.last", show=False),
    ]
    """Keys of the full-screen entry."""

    def __init__(self, entry: EntryView, extra: list[str] | None = None) -> None:
        super().__init__()
        self._entry = entry
        self._extra = extra

    def compose(self) -> ComposeResult:
        """Yield the entry in a scrolling box."""
        with VerticalScroll(id="entry-body") as body:
            body.border_title = Content(clean(f"{self._entry.path}:{self._entry.line}"))
            body.border_subtitle = "esc back"
            yield Static(entry_content(self._entry, self._extra), id="entry-text", markup=False)

    def action_scroll_down(self) -> None:
        """Scroll the entry down a line (the same as the box's own ↓)."""
        self.query_one("#entry-body", VerticalScroll).scroll_down(animate=False)

    def action_scroll_up(self) -> None:
        """Scroll the entry up a line (the same as the box's own ↑)."""
        self.query_one("#entry-body", VerticalScroll).scroll_up(animate=False)

    def action_scroll_home(self) -> None:
        """Scroll to the entry's top (the same as the box's own Home)."""
        self.query_one("#entry-body", VerticalScroll).scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        """Scroll to the entry's end (the same as the box's own End)."""
        self.query_one("#entry-body", VerticalScroll).scroll_end(animate=False)


class InboxEntryScreen(EntryScreen):
    """An inbox entry filling the terminal, with the Inbox pane's ``a`` and ``d`` (the footer shows them).

    Dismisses with ``"accept"`` or ``"discard"``; the pane then triages the entry it opened.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *EntryScreen.BINDINGS,
        Binding("a", "dismiss('accept')", "Accept", id="inbox-entry.accept"),
        Binding("d", "dismiss('discard')", "Discard", id="inbox-entry.discard"),
    ]
    """Keys of an inbox entry full screen."""
