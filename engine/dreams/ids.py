"""Id-shaped tokens: two lines that name different items state different facts: moved to
:mod:`memrepo.engine.format.itemids` (round 20), where the context block's rule asks it too; re-exported here for the
rules dream."""

from memrepo.engine.format.itemids import (
    COUNT_WORDS,
    ITEM_WORDS,
    Ids,
    clear_caches,
    different_items,
    ids,
    other_counts,
)

__all__ = ["COUNT_WORDS", "ITEM_WORDS", "Ids", "clear_caches", "different_items", "ids", "other_counts"]
