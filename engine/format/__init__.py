"""The memory repo's format: layout, paths, limits, the entry format and text rules (docs/architecture.md §2)."""
