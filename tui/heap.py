"""Giving the C allocator's free memory back to the system while the app runs (docs/architecture.md §8).

Each pane switch builds and drops renderables, strips and segments; Python
frees them, but glibc keeps the freed pages in its heaps (one per thread that
allocated) unless the top of a heap is free. Measured at 2,000 files, the app
grew about 590 KB a pane switch, 115 MB after six switches to 163 MB after 90,
while the Python heap grew 7 MB (tracemalloc). ``malloc_trim(0)`` hands every
free page of every heap back (0.3-6 ms, the GIL released): with it every
:data:`TRIM_EVERY_S`, 131 MB after 90 switches, about 170 KB a switch.
"""

from __future__ import annotations

from memrepo.engine import trim_heap

__all__ = ["TRIM_EVERY_S", "trim_heap"]  # the engine's trim (engine/files/heap.py), on the app's timer

TRIM_EVERY_S = 2.0
"""Seconds between two trims while the app runs."""
