"""The write side: policy, the one write transaction, entries written and rewritten (docs/architecture.md §3)."""
