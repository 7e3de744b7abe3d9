"""Checkpoints: an agent's completed messages distilled into memory (docs/architecture.md §7)."""
