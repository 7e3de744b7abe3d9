"""The read side: the context block, recall and workspace resolution (docs/architecture.md §4)."""
