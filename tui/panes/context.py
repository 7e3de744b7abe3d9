"""The Context pane: exactly the block an agent gets for a workspace (docs/architecture.md §4, §8).

The left box lists "no workspace" and every workspace file (the workspace of the folder the app was started in
highlighted first, when it has one); the right shows
the block :meth:`memrepo.engine.repo.repo.MemoryRepo.context` returns for the highlighted
one, byte for byte, under a line of token counts against each file's budget.
The block follows the repo: a hand edit or a commit shows up within the watch
debounce.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..plain import clean, plain
from ..widgets.list_table import ListOptions
from .base import Pane

if TYPE_CHECKING:
    from memrepo.engine.models import ContextBlock, RepoStatus

NO_WORKSPACE = "(no workspace)"

OPTIONS_AT_ONCE = 500
"""Workspaces added to the list between two turns of the event loop: 10,000 added one by one held the
loop (and a hand edit waiting to be shown) 674-764 ms, headless; in slices, 85 ms at most."""


def budget_line(block: ContextBlock) -> str:
    """The token counts of a block for people: each file against its budget, then the total.

    Args:
        block: a context block.

    Returns:
        str: e.g. ``MEMORY.md 31/500 tokens (2 lines) · … · 455 tokens at bb85cef``.
    """
    parts = []
    for section in block.sections:
        left_out = f", {section.omitted} left out" if section.omitted else ""
        parts.append(f"{section.path} {section.tokens}/{section.budget} tokens ({section.shown} shown{left_out})")
    head = f" at {block.head}" if block.head else ""
    parts.append(f"block ≈{block.tokens} tokens{head}")
    return " · ".join(parts)


class ContextPane(Pane):
    """Workspaces on the left, the context block an agent gets for the highlighted one on the right."""

    PANE_ID = "context"
    PANE_TITLE = "Context"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "Y",
            "copy",
            "Copy block",
            id="context.copy",
            tooltip="Copy the block to the clipboard (works over SSH in terminals with OSC 52)",
        ),
    ]
    """Keys of the Context pane."""

    def __init__(self) -> None:
        """Create the pane; it loads once the app attaches the repo."""
        super().__init__()
        self._workspaces: list[tuple[str, str]] = []
        """(id, file) of each workspace listed (models for 10,000 workspaces held 16 MB)."""
        self._block: ContextBlock | None = None
        self._chosen: str | None = None
        self._first = True
        """The first listing highlights the workspace of the folder the app was started in (breaker30 B30-24)."""

    def compose(self) -> ComposeResult:
        """Yield the workspace list and the block box."""
        options = ListOptions(id="context-workspaces")
        options.border_title = "Workspace"
        yield options
        with Vertical(id="context-right"):
            yield Static("", id="context-budget", markup=False)
            with VerticalScroll(id="context-block") as box:
                box.border_title = "What an agent gets"
                yield Static("", id="context-text", markup=False)

    # -- state ---------------------------------------------------------

    @property
    def block(self) -> ContextBlock | None:
        """The block shown, or None before the first one is read."""
        return self._block

    @property
    def workspace(self) -> str | None:
        """The workspace id whose block is shown; None for no workspace."""
        return self._chosen

    @property
    def options(self) -> OptionList:
        """The workspace list."""
        return self.query_one("#context-workspaces", OptionList)

    # -- Pane contract -------------------------------------------------

    def reload(self) -> None:
        """List the workspaces and read the block again."""
        self.load_workspaces()

    def work_tree_changed(self, paths: list[str]) -> None:
        """Read the block again when MEMORY.md or a workspace file changed.

        Args:
            paths: repo-relative paths changed on disk.
        """
        if any(p.startswith("workspaces/") for p in paths):
            self.load_workspaces()
        elif any(p == "MEMORY.md" for p in paths):
            self.show_block(self._chosen)

    def repo_status_changed(self, status: RepoStatus) -> None:
        """Read the block again when HEAD moved (the block names its commit)."""
        if self._block is not None and (status.head or "")[:7] != self._block.head:
            self.show_block(self._chosen)

    def focus_default(self) -> None:
        """Focus the workspace list."""
        self.options.focus()

    # -- workers -------------------------------------------------------

    @work(group="context-workspaces", exclusive=True, exit_on_error=False, description="Listing workspaces")
    async def load_workspaces(self) -> None:
        """List the workspace files, keep the highlighted one, and show its block."""
        if self.repo is None:
            return
        self._workspaces = listed = await self.repo.workspace_files()
        options = self.options
        options.clear_options()
        options.add_option(Option(NO_WORKSPACE, id="none"))
        for start in range(0, len(listed), OPTIONS_AT_ONCE):
            if start:
                await asyncio.sleep(0)  # the screen and the other panes' messages get their turn
            options.add_options(
                [
                    Option(Content.assemble(clean(file.rsplit("/", 1)[-1].removesuffix(".md")), (f" · {ws_id}", "dim")))
                    for ws_id, file in listed[start : start + OPTIONS_AT_ONCE]
                ]
            )
        ids = [None, *(ws_id for ws_id, _file in listed)]
        if self._first:
            self._first = False
            self._chosen = await self.repo.workspace_of_folder(os.getcwd())
        options.highlighted = ids.index(self._chosen) if self._chosen in ids else 0
        self.show_block(ids[options.highlighted or 0])

    @work(group="context-block", exclusive=True, exit_on_error=False, description="Building the context block")
    async def show_block(self, workspace: str | None) -> None:
        """Build (or take from the cache) the block for ``workspace`` and show it.

        Args:
            workspace: a workspace id, or None for MEMORY.md alone.
        """
        if self.repo is None:
            return
        block = await self.repo.context(workspace)
        self._chosen = workspace
        self._block = block
        self.query_one("#context-budget", Static).update(plain(budget_line(block)))
        self.query_one("#context-text", Static).update(Content(clean(block.text, one_line=False)))
        box = self.query_one("#context-block", VerticalScroll)
        count = len(block.refs)
        box.border_subtitle = f"{count} line{'' if count == 1 else 's'} with refs"

    # -- events --------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#context-workspaces")
    def _moved(self, event: OptionList.OptionHighlighted) -> None:
        index = event.option_index
        chosen = None if index == 0 else self._workspaces[index - 1][0]
        if chosen != self._chosen or self._block is None:
            self.show_block(chosen)

    def action_copy(self) -> None:
        """Send the block shown to the terminal's clipboard (OSC 52), saying where that may not arrive."""
        if self._block is None:
            return
        self.app.copy_to_clipboard(self._block.text)
        # OSC 52 is a request to the terminal: nothing tells whether it was honoured.
        if os.environ.get("TMUX"):
            caveat = "under tmux it reaches the clipboard only with `set -g set-clipboard on`"
        elif os.environ.get("STY"):
            caveat = "GNU screen passes it on only in some setups"
        else:
            caveat = "some terminals ignore it"
        self.notify(
            f"Sent the block ({self._block.tokens} tokens) to the terminal's clipboard (OSC 52); {caveat}",
            timeout=5,
            markup=False,
        )
