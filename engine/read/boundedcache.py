"""A bounded map shared by threads, the oldest used dropped first: recall's per-file caches (docs/architecture.md §4).

The MCP server's worker thread and its recall door's thread both recall, so every read and write takes the lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

MISSING: Any = object()
"""What :meth:`BoundedCache.get` gives for a key it does not hold (None is an answer a cache may keep)."""


class BoundedCache:
    """At most ``size`` values by key, the oldest used out first; safe across threads.

    Args:
        size: how many values it keeps.
    """

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        """The value kept for ``key`` (now the newest used), or :data:`MISSING`."""
        with self._lock:
            if key not in self._items:
                return MISSING
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Any, value: Any) -> None:
        """Keep ``value`` for ``key``; drop the oldest used beyond the size."""
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget everything kept."""
        with self._lock:
            self._items.clear()


__all__ = ["MISSING", "BoundedCache"]
