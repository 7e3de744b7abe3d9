"""Dreams: one model call proposes clean-up operations; safe ones commit, the rest wait for review (docs/architecture.md §6)."""
