"""Lines that name different items state different facts; a change word both lines hold is no change (docs/dreams.md).

On a folder of template lines ("Team runs ... (item 4722)", "数据库迁移需要人工审核（migrations-4011）") the rules
dream proposed 40 review deletions, all wrong: each pair was two items' facts, related by the item number alone or by
迁移 ("migration"), a noun both lines hold. Lines compared in one file, the older first, in process (no git).
"""

from __future__ import annotations

from memrepo.engine.dreams.ids import different_items, ids, other_counts
from memrepo.engine.dreams.input import DreamInput, LineRef
from memrepo.engine.dreams.rules import rules_operations
from memrepo.engine.read.contexttopic import change_words

VERBS = ("prefers", "uses", "avoids", "requires", "runs", "keeps", "rejects", "owns")
OBJECTS = ("pnpm over npm", "tabs in Makefiles", "squash merges", "UTC timestamps in logs", "ruff format on save")
FILLER = [f"Team {VERBS[n % 8]} {OBJECTS[n % 5]} for {('api', 'review', 'docs')[n % 3]} (item {n})" for n in range(40)]
"""Template lines as make_corpus writes them, one item each (their words weigh as in a corpus file)."""


def _ops(
    old: str, new: str, old_by: str = "user", new_by: str = "user", filler: tuple[str, ...] = ()
) -> list[dict[str, object]]:
    """The rules dream's operations on a file holding ``filler`` (added 2025-03-01), ``old`` (added 2025-01-01) then
    ``new`` (2025-06-01); ``old`` is L1 and ``new`` L2."""
    din = DreamInput()
    din.lines = {
        "L1": LineRef("L1", "topics/t.md", 3 + len(filler), old, old_by, {"by": old_by, "added": "2025-01-01"}, "a"),
        "L2": LineRef("L2", "topics/t.md", 4 + len(filler), new, new_by, {"by": new_by, "added": "2025-06-01"}, "b"),
    }
    for n, text in enumerate(filler):
        din.lines[f"F{n}"] = LineRef(f"F{n}", "topics/t.md", 3 + n, text, "user", {"added": "2025-03-01"}, f"f{n}")
    din.examined = ["topics/t.md"]
    return rules_operations(din)


def _older_goes(ops: list[dict[str, object]]) -> bool:
    return any(op.get("line") == "L1" and op.get("keep") == "L2" for op in ops)


def test_template_lines_of_two_items_are_no_replacement() -> None:
    """Before: "one word or sign replaces another (4722 / 4745)", the older proposed for deletion."""
    ops = _ops(
        "Team runs a 2-space indent in YAML for api (item 4722)",
        "Team runs a 2-space indent in YAML for api (item 4745)",
    )
    assert ops == []


def test_an_agents_line_of_another_ticket_neither_restates_nor_replaces() -> None:
    ops = _ops("Ticket 12 is assigned to Bob", "Ticket 15 is now assigned to Alice")
    assert ops == []
    assert _older_goes(_ops("Ticket 12 is assigned to Bob", "Ticket 12 is now assigned to Alice"))


def test_a_change_word_both_lines_hold_is_no_change() -> None:
    """迁移 is a noun in both: before, "it says what changed" (the newer line kept, the older to review)."""
    assert _ops("数据库迁移需要人工审核（migrations-4011）", "数据库迁移需要人工审核（docs-4036）") == []
    assert _ops("数据库迁移需要人工审核", "数据库迁移需要两人审核") == []
    assert _ops("Users migrated from v1 keep their old passwords", "Users migrated from v1 must reset them") == []
    assert _older_goes(_ops("数据库迁移需要人工审核", "数据库迁移现在需要两人审核"))  # 现在 "now": its own
    now_then = ("We now deploy from the release branch", "We now deploy from main; the release branch is gone")
    assert _older_goes(_ops(*now_then))  # a "now" both hold: the newer's is the later state
    assert _ops("数据库现在需要人工审核（migrations-4011）", "数据库现在需要人工审核（docs-4036）") == []  # two items


def test_a_value_the_newer_line_says_it_changed_still_replaces() -> None:
    """A version or code that differs is the changed value when the newer line says so in words it alone holds."""
    assert _older_goes(_ops("The API is versioned v2", "API version bumped to v3"))
    assert _older_goes(_ops("Best checkpoint so far: ckpt-41", "New best checkpoint is ckpt-57, replacing ckpt-41"))
    assert _older_goes(_ops("We use Postgres 14", "We use Postgres 16"))  # a bare number is a value, not an id
    assert _ops("Fix for bug 301 ships in release 2.4.0", "Fix for bug 301 ships in release 2.5.0") == []


def test_two_counts_in_words_are_no_restatement() -> None:
    """Among a corpus file's lines: before, "restates ... (the same fact in other words (approver, need ...))"."""
    filler = tuple(FILLER)
    assert _ops("Reviews need one approver", "Security-sensitive changes still need two approvers", filler=filler) == []
    assert _ops(FILLER[0], FILLER[40 - 8]) == []  # the template lines alone: two items


def test_ids_and_change_words_found() -> None:
    found = ids("Fixed in PR #12 and issue no. 3 (migrations-4011), v1.2.3, commit a1b2c3d4")
    assert found.items == {"pr#12", "issue#3"}
    assert found.other == {"migrations-4011", "v1.2.3", "a1b2c3d4"}
    assert ids("The staging cluster runs in eu-west-1 with Postgres 16").other == frozenset()
    assert different_items("Team uses x (item 1)", "Team uses x (item 2)", says_changed=True) == "item#1"
    assert different_items("ckpt-41 is best", "ckpt-57 replaces ckpt-41", says_changed=False) == ""
    assert change_words("数据库迁移需要人工审核") == {"迁移"}
    assert change_words("We no longer deploy on Fridays going forward") == {"longer", "going forward"}
    assert change_words("Use longer timeouts") == frozenset()
    assert other_counts("Reviews need one approver", "still need two approvers") == "one"
    assert other_counts("The one with the cache", "Keep the cache warm") == ""
