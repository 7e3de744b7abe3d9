"""The façade: MemoryStore (sync), MemoryRepo (async), health and the watcher (docs/architecture.md §1)."""
