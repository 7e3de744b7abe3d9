"""Forgetting for real, retiring workspaces, stats over history (docs/architecture.md §5, §9)."""
