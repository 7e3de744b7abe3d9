"""Whether two lines of a file are about different items, so neither replaces the other (docs/architecture.md §4).

A folder written from templates holds one line per item: "Team uses squash merges for api (item 4722)" and the same
for item 4745, "数据库迁移需要人工审核（migrations-4011）" and the same for docs-4036. Each is a fact about its own item.
Two such lines may share a ``subject:`` ("database") or most of their words and a change word (迁移, "migration",
is a noun in both): neither makes one the newer value of the other. The dream asks the same of the pairs it
proposes (:func:`memrepo.engine.format.itemids.different_items`); the context block asks it of every replacement by a
shared subject or by words (:func:`.contextselect.replaced`): a shared subject alone hides nothing.
"""

from __future__ import annotations

import re

from memrepo.engine.format.itemids import different_items, ids
from memrepo.engine.read.contexttopic import Topic, change_words

_CODE_RE = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z][a-z0-9]*)*-\d+")
"""An id of :func:`~memrepo.engine.format.itemids.ids` that is a code ("migrations-4011"), not a version or a hash."""


def says_own_change(old: str, new: str, old_topic: Topic, new_topic: Topic, *, supersedes: bool) -> bool:
    """Whether the newer line says in its own words that it changed the older one's value: it carries
    ``supersedes:``, closes with "X, not Y", or holds a change word the older line lacks and shares a topic word
    with it (a change word both hold is no change: 数据库迁移; one beside nothing the older line says is none:
    "数据库迁移需要人工审核" after "テストは並列で実行する").

    Args:
        old: the older line's text.
        new: the newer line's text.
        old_topic: the older line's :func:`.contexttopic.topic_terms`.
        new_topic: the newer line's.
        supersedes: whether the newer line carries ``supersedes:``.

    Returns:
        bool: True when a version or code that differs may be the value the newer line changed.
    """
    if supersedes or new_topic.denied:
        return True
    return bool(change_words(new) - change_words(old)) and not old_topic.words.isdisjoint(new_topic.words)


def items_apart(old: str, new: str, *, says_changed: bool) -> bool:
    """Whether two lines state facts about different items (:func:`~memrepo.engine.format.itemids.different_items`), or
    one names an item's number and the other only a code ("(item 4111)" / "（auth-4092）": two templates' items).

    Args:
        old: the older line's text.
        new: the newer line's text.
        says_changed: :func:`says_own_change` of the two: a version or code that differs may be the changed value.

    Returns:
        bool: True when an id tells them apart: neither replaces the other.
    """
    if different_items(old, new, says_changed=says_changed):
        return True
    a, b = ids(old), ids(new)
    codes_a = {x for x in a.other if _CODE_RE.fullmatch(x)}
    codes_b = {x for x in b.other if _CODE_RE.fullmatch(x)}
    return bool(
        (a.items and not a.other and codes_b and not b.items) or (b.items and not b.other and codes_a and not a.items)
    )
