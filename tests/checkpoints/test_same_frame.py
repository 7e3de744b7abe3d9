"""A correction that says its stored line again with one value swapped (breaker17 B17-1, B17-3, fix11a).

Before: "I live in Lisbon now." for "I live in Berlin", "My shell is zsh now." for "My shell is fish", "The billing
service is written in Rust now, not Go." for "The billing service is written in Go" and "No, the deploy window is
Friday morning now." for "The deploy window is Thursday afternoon" kept nothing (or only a proposal): a lowercase
value was not read as a value, a first-person line was never corrected in the "... now" shape, and "written" read
as hearsay. Pure functions of text and entries (:mod:`memrepo.engine.checkpoints.corrections`).
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections
from memrepo.engine.checkpoints.userkept import kept_statements, place


def stored(text: str) -> list[ExistingEntry]:
    path = "me.md" if text.startswith(("I ", "My ")) else "workspaces/shop.md"
    return [
        ExistingEntry("E1", path, 4, text, "user", {"by": "user", "added": "2026-11-01"}),
        ExistingEntry(
            "E2", "workspaces/shop.md", 5, "The shop DB runs on Postgres 15", "user", {"added": "2026-11-01"}
        ),
    ]


@pytest.mark.parametrize(
    ("old", "said", "new"),
    [
        ("I live in Berlin", "I live in Lisbon now.", "I live in Lisbon now"),
        ("I live in Berlin", "Actually, I live in Lisbon now.", "I live in Lisbon now"),
        ("I use Vim", "I use Emacs now.", "I use Emacs now"),
        ("My shell is fish", "My shell is zsh now.", "My shell is zsh now"),
        ("The shell is fish", "The shell is zsh now.", "The shell is zsh now"),
        ("The billing service is written in Go", "The billing service is written in Rust now, not Go.",
         "The billing service is written in Rust now, not Go"),
        ("The billing service is written in Go", "Actually the billing service is written in Rust now.",
         "the billing service is written in Rust now"),
        ("The standup is in the morning", "Actually the standup is in the evening now.",
         "the standup is in the evening now"),
        ("The deploy window is Thursday afternoon", "Actually the deploy window is Friday at 9am now.",
         "the deploy window is Friday at 9am now"),
        ("The deploy window is Thursday afternoon", "No, the deploy window is Friday morning now.",
         "the deploy window is Friday morning now"),
    ],
)  # fmt: skip
def test_the_line_said_again_with_a_new_value_is_replaced(old: str, said: str, new: str) -> None:
    lines = stored(old)
    assert correction_statements([said], lines) == [new]
    kept = kept_statements([said], lines)
    assert [k.text for k in kept] == [new]
    scope, target = place(new, "fact", "/p/shop", lines, [said])
    assert target is not None and target.text == old
    assert scope == ("global" if old.startswith(("I ", "My ")) else "workspace")


def test_a_value_whose_tail_the_correction_drops_waits_in_the_inbox() -> None:
    lines = stored("I live in Berlin with my family")
    assert correction_statements(["Actually I live in Lisbon now."], lines) == []
    assert proposed_corrections(["Actually I live in Lisbon now."], lines) == ["I live in Lisbon now"]


def test_a_shell_for_a_shell_replaces_the_line_its_tail_only_names_the_kind() -> None:
    lines = stored("I use fish as my shell")  # zsh is a shell: "as my shell" says nothing more (:mod:`.newswitch`)
    assert correction_statements(["Actually I use zsh now."], lines) == ["I use zsh now"]


@pytest.mark.parametrize(
    ("old", "said"),
    [
        ("I live in Berlin", "Bob lives in Lisbon now."),  # another person
        ("I live in Berlin", "My brother lives in Lisbon now."),
        ("I live in Berlin", "My sister said I live in Lisbon now."),  # hearsay
        ("I live in Berlin", "I work in Lisbon now."),  # another verb: another fact
        ("I live in Berlin", "I live in Lisbon now?"),  # a question
        ("I live in Berlin", "If I live in Lisbon now, what changes?"),  # a supposition
        ("I live in Berlin", "Imagine I live in Lisbon now."),
        ("I live in Berlin", '"I live in Lisbon now", she wrote.'),  # a quote
        ("I live in Berlin", "Yeah right, I live in Lisbon now."),  # irony
        ("I live in Berlin", "I live in Berlin now."),  # the same value
        ("My shell is fish", "My editor is fish now."),  # the subject swapped, not the value
        ("My shell is fish", "My brother's shell is zsh now."),
        ("My shell is fish", "My shell is not zsh now."),  # a negation in the slot
        ("The billing service is written in Go", "The auth service is written in Rust now."),
        ("The billing service is written in Go", "The billing tool is written in Go now."),
        ("The billing service is written in Go", "The billing service is also written in Rust now."),
        ("The billing service is written in Go", "It is written in the docs that the billing service is in Rust now."),
        ("The deploy window is Tuesday", "The deploy window tests now pass."),
        ("The deploy window is Tuesday", "The deploy window is still Tuesday."),
        ("The deploy window is Tuesday", "The deploy window is closed now."),  # a state, not a new day
        ("The CDN is Cloudflare", "The CDN is down now."),
        ("I use Vim", "I use Emacs for email now."),  # a scope added: both hold
        ("I use Vim", "I use Emacs too now."),
        ("I use Vim", "They use Emacs now."),
        ("I use Vim", "You use Emacs now."),
        ("I use fish as my shell", "I use Docker now."),  # a name for a word: not the same kind of value
        ("I use fish as my shell", "I use zsh at work now."),
        ("The standup is in the morning", "The retro is in the evening now."),
    ],
)
def test_a_look_alike_corrects_nothing(old: str, said: str) -> None:
    lines = stored(old)
    assert correction_statements([said], lines) == []
    assert proposed_corrections([said], lines) == []
