"""Sync through one private git remote, merged entry by entry (docs/architecture.md, Packages)."""
