"""File-system primitives: atomic writes, locks, safe reads of regular files (docs/architecture.md §3)."""
