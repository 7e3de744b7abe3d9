"""Memory evals: cases that score the context block, recall, the files and .git (docs/architecture.md)."""
