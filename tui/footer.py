"""The footer: ``?`` and ``q`` first, so they show at 80 columns whatever the pane adds.

Textual's footer lists the focused box's keys, then the pane's, then the
app's; at 80 columns the Inbox and Dreams panes pushed ``? Keys`` and
``q Quit`` past the right edge. This footer draws the same keys with those two
in front.

At 80 columns the keys of a busy pane do not all fit: Textual cut the last one
mid-word (``u Undo tr``, ``^p Comma``). Only whole keys are drawn now; those that
do not fit are left out (``?`` lists every key).

Its keys copy the footer's ``compact`` once, instead of Textual's
``data_bind``: a bound key stays in the footer's watcher list until
``compact`` changes, which it never does, so every recompose (each focus
change, each pane switch) kept the old keys alive, about 0.5 MB a switch.
"""

from __future__ import annotations

from collections import defaultdict

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

ALWAYS_SHOWN = ("app.help", "app.quit")
"""Binding ids drawn first in the footer, on every pane."""


def key_width(key_display: str, description: str, compact: bool) -> int:
    """Cells one footer key takes: its key, a space, its description, and the gap after it.

    Args:
        key_display: the key as shown (``^p``).
        description: what it does.
        compact: the footer's compact style (no padding around the key).

    Returns:
        int: the width in terminal cells.
    """
    return cell_len(key_display) + 1 + cell_len(description) + (1 if compact else 2)


class KeysFooter(Footer):
    """Textual's compact footer with :data:`ALWAYS_SHOWN` first."""

    def compose(self) -> ComposeResult:
        """Yield one key per action: the always-shown ones, then the rest in Textual's order."""
        if not self._bindings_ready:
            return
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show:
                by_action[binding.action].append((binding, enabled, tooltip))
        first = [a for a, items in by_action.items() if items[0][0].id in ALWAYS_SHOWN]
        first.sort(key=lambda a: ALWAYS_SHOWN.index(by_action[a][0][0].id or ""))
        order = first + [a for a in by_action if a not in first]
        room = self.app.size.width
        shown = []
        for action in order:  # whole keys only: one that does not fit is left out (`?` lists it), never cut
            binding = by_action[action][0][0]
            width = key_width(self.app.get_key_display(binding), binding.description, self.compact)
            if width <= room:
                shown.append(action)
                room -= width
        self._width = self.app.size.width
        self.styles.grid_size_columns = len(shown)
        for action in shown:
            binding, enabled, tooltip = by_action[action][0]
            key = FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
                classes="-compact" if self.compact else "",
            )
            key.set_reactive(FooterKey.compact, self.compact)
            yield key

    def on_resize(self) -> None:
        """Choose the keys again for the new width."""
        if self.is_mounted and getattr(self, "_width", None) != self.app.size.width:
            self.call_after_refresh(self.recompose)

    def watch_compact(self, compact: bool) -> None:
        """Draw the keys again in the new style (they copy ``compact``, see the module docstring)."""
        if self.is_mounted:
            self.call_after_refresh(self.recompose)
