"""The `memrepo` command line: a front end on the engine's public API (docs/architecture.md)."""
