"""What agents hand in and read: session transcripts, confined reads of one memory file (docs/architecture.md §7)."""
