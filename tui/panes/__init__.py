"""The app's panes, one module each, and the registry the app builds itself from.

A pane is a widget that fills the screen under the header; the app shows one
at a time and gives each a number key in :data:`PANES` order (lazygit's
numbered panes). A new pane (Inbox, Dreams, History, Health, Context) is a
:class:`~memrepo.tui.panes.base.Pane` subclass added to :data:`PANES`.
"""

from __future__ import annotations

from .base import Pane
from .context import ContextPane
from .dreams import DreamsPane
from .folder import FolderPane
from .health import HealthPane
from .history import HistoryPane
from .inbox import InboxPane

PANES: tuple[type[Pane], ...] = (FolderPane, InboxPane, HistoryPane, ContextPane, HealthPane, DreamsPane)
"""Every pane, in number-key order (``1`` is the first)."""

__all__ = ["PANES", "ContextPane", "DreamsPane", "FolderPane", "HealthPane", "HistoryPane", "InboxPane", "Pane"]
