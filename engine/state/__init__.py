"""Derived state: every file memrepo derives from the memory, and what forgetting does to each (docs/architecture.md §5)."""
