"""A correction names the stored line it corrects by the subject both are about (corr9).

Before: "Nope, the CDN is Fastly now" shared one topic word with "The shop CDN is Cloudflare", "Terraform is on 1.9
now" named no version the block's change rule reads in "Infra uses Terraform 1.6", "Nope, my manager is Dana Wu
now" shared one word with "My manager is Alice Kim", and "We moved the deploy window to Wednesday last week" has
no "now": none reached memory. Pure functions of text and entries (:mod:`memrepo.engine.checkpoints.samesubject`).
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.corrections import correction_statements, proposed_corrections, where
from memrepo.engine.checkpoints.samesubject import corrects_line, spare_words, statement

SHOP = "workspaces/shop.md"


def line(path: str, text: str, n: int) -> ExistingEntry:
    return ExistingEntry(f"E{n}", path, n, text, "user", {"by": "user", "added": "2026-11-01"})


STORED = [
    line(SHOP, "The shop DB runs on Postgres 15", 1),
    line(SHOP, "The deploy window is Tuesday", 2),
    line(SHOP, "The shop CDN is Cloudflare", 3),
    line("workspaces/infra.md", "Infra uses Terraform 1.6", 4),
    line("me.md", "My manager is Alice Kim", 5),
    line("me.md", "My editor is vim", 6),
]


@pytest.mark.parametrize(
    ("said", "kept", "target"),
    [
        ("Nope, the CDN is Fastly now.", "the CDN is Fastly now", 3),
        ("Terraform is on 1.9 now.", "Terraform is on 1.9 now", 4),
        ("We upgraded Terraform to 1.9.", "We upgraded Terraform to 1.9", 4),
        ("Nope, my manager is Dana Wu now", "my manager is Dana Wu now", 5),
        ("We moved the deploy window to Wednesday last week", "We moved the deploy window to Wednesday last week", 2),
        ("My editor is Helix now.", "My editor is Helix now", 6),
        # breaker11 B11-2: docs/agents.md's own example, and a name whose fold drops its "s"
        ("Actually, we moved to Postgres 16 last week.", "we moved to Postgres 16 last week", 1),
        ("Postgres is on 16 now.", "Postgres is on 16 now", 1),
    ],
)
def test_a_correction_naming_only_the_subject_is_kept_against_its_line(said: str, kept: str, target: int) -> None:
    assert correction_statements([said], STORED) == [kept]
    assert where(kept, "/p/shop", STORED)[1] is STORED[target - 1]


@pytest.mark.parametrize(
    "said",
    [
        "The CDN cache TTL is 5 minutes now.",  # "CDN" modifies another subject
        "No, we moved the deploy window tests to a new folder.",  # shares the words, not the subject
        "My manager's team is Payments now.",
        "My brother's manager is Dana Wu now.",
        "My manager is in Berlin now.",  # where, not who
        "Nope, the CDN is down now.",  # a state, not a CDN
        "Actually the deploy window is closed now.",  # shares the words: once proposed in the inbox
        "My editor is laggy now.",
        "The staging DB runs on Postgres 16 now.",  # another DB
        "Our Terraform modules are on 2.0 now.",
        "Nope, the CDN is Fastly now on the marketing site.",  # a value with a scope
        "We moved the deploy window to Wednesday and the freeze to Friday.",
    ],
)
def test_a_sentence_about_another_subject_corrects_nothing(said: str) -> None:
    assert correction_statements([said], STORED) == []
    assert proposed_corrections([said], STORED) == []


def test_a_subject_two_stored_lines_share_names_neither() -> None:
    both = [*STORED, line(SHOP, "The blog CDN is Akamai", 7)]
    assert correction_statements(["Actually, the CDN is Fastly now."], both) == []
    assert correction_statements(["Actually, the blog CDN is Fastly now."], both) == ["the blog CDN is Fastly now"]


def test_a_subject_may_leave_out_only_the_projects_own_words() -> None:
    """ "the CDN" for "The shop CDN" in shop's file; never "the branch" for "The default branch"."""
    assert spare_words(SHOP, ["The default branch is main"]) == frozenset({"shop"})
    assert corrects_line("the CDN is Fastly now", "The shop CDN is Cloudflare", spare_words(SHOP, []))
    assert not corrects_line("the branch is feature-x now", "The default branch is main", spare_words(SHOP, []))
    words = ["The api gateway runs on Kong", "The api docs are in Notion", "The api is on port 8080"]
    assert "api" in spare_words("me.md", words)  # a word in three of the file's lines


def test_a_value_replaces_only_a_value_of_its_kind() -> None:
    assert not corrects_line("our meetings are on Zoom now", "Our meetings are on Mondays")
    assert corrects_line("our meetings are on Thursdays now", "Our meetings are on Mondays")
    assert not corrects_line("I moved my laptop to the Berlin office", "My laptop is a MacBook Air")
    assert not corrects_line("the staging host is offline now", "The staging host is pg-stage-12")
    assert not corrects_line("my manager is Alice now", "My manager is Alice Kim")  # the same value, shorter


def test_the_sentence_must_say_it_changed() -> None:
    assert not corrects_line("the CDN is Fastly", "The CDN is Cloudflare")
    assert corrects_line("the CDN is Fastly these days", "The CDN is Cloudflare")
    assert corrects_line("we switched the CDN to Fastly", "The CDN is Cloudflare")


def test_statement_reads_a_subject_and_one_value() -> None:
    said = statement("We moved the deploy window to Wednesday last week")
    assert said is not None
    assert (said.subject, said.value, said.change, said.kind) == (("deploy", "window"), ("wednesday",), True, "time")
    version = statement("Terraform is on 1.9 now")
    assert version is not None and (version.subject, version.version, version.link) == (("terraform",), "1.9", "on")
    assert statement("It is Friday now") is None
    assert statement("the deploy window is Friday now, not Tuesday") is None  # two clauses: the block's rule reads it


@pytest.mark.parametrize(
    "said",
    [
        "We moved to Postgres 16 for the analytics replica.",  # scoped: another database
        "They upgraded to Postgres 16 last week.",  # someone else's
        "Should we move to Postgres 16?",
    ],
)
def test_a_move_to_a_version_that_is_scoped_or_not_ours_is_not_kept(said: str) -> None:
    assert correction_statements([said], STORED) == []
