"""The footer: ``?`` and ``q`` first, so they show at 80 columns whatever the pane adds.

Textual's footer lists the focused box's keys, then the pane's, then the
app's; at 80 columns the Inbox and Dreams panes pushed ``? Keys`` and
``q Quit`` past the right edge. This footer draws the same keys with those two
in front.

Its keys copy the footer's ``compact`` once, instead of Textual's
``data_bind``: a bound key stays in the footer's watcher list until
``compact`` changes, which it never does, so every recompose (each focus
change, each pane switch) kept the old keys alive, about 0.5 MB a switch.
"""

from __future__ import annotations

from collections import defaultdict

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

ALWAYS_SHOWN = ("app.help", "app.quit")
"""Binding ids drawn first in the footer, on every pane."""


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
        self.styles.grid_size_columns = len(order)
        for action in order:
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

    def watch_compact(self, compact: bool) -> None:
        """Draw the keys again in the new style (they copy ``compact``, see the module docstring)."""
        if self.is_mounted:
            self.call_after_refresh(self.recompose)
