"""The libgit2 layer: the only sub-package that imports pygit2 (docs/architecture.md §1)."""
