"""A newer line that names its own scope, another owner, or what it says the older line's by name (breaker15,
round 10, a hostile trial of the same-fact rule; docs/benchmarks.md).

- an explicit ``supersedes:`` naming one line is honoured whatever the word rules say (B15-33);
- a one-off move ("moved to 10:00 tomorrow", "... on Fridays") leaves the standing time shown (B15-7);
- a newer line that denies or narrows another scope, place or owner hides nothing.

Each case is a file as ``memrepo remember`` writes it (one ``added:`` day, the older line first, a line between
them); each false hide here was a hide on ctx10's code (eb0db15).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memrepo.engine.format.entries import Entry
from memrepo.engine.read.contextselect import candidates, replaced
from memrepo.engine.repo.store import MemoryStore

DAY = {"by": "user", "added": "2026-12-05"}
FILLER = "Prefers tea over coffee"


def gone(*texts: str, meta: dict[str, str] | None = None) -> dict[int, int]:
    """The rule's answer for a file holding ``texts`` in order (line numbers from 1); ``meta`` on the last line."""
    rows = []
    for n, text in enumerate(texts, start=1):
        extra = meta if meta and n == len(texts) else {}
        rows.append((n, Entry("", "-", text, {**DAY, **extra})))
    return replaced(candidates(rows))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Infra uses Terraform 1.6", "We're on Terraform 1.9"),
        ("The shop DB runs on Postgres 15", "On est passé à Postgres 16"),
        ("The shop DB runs on Postgres 15", "Wir nutzen jetzt Postgres 16"),
    ],
)
def test_remember_supersedes_always_hides_the_line_it_names(store: MemoryStore, old: str, new: str) -> None:
    # B15-33: the same-fact words read "re", "est", "nutzen" as the newer line's subject and kept the named line
    from memrepo.cli.main import main

    runner = CliRunner()
    repo = ["--repo", str(store.root), "remember"]
    assert runner.invoke(main, [*repo, old]).exit_code == 0
    assert runner.invoke(main, [*repo, FILLER]).exit_code == 0
    assert old in store.context(None).text  # control: shown before
    assert runner.invoke(main, [*repo, "--supersedes", old, new]).exit_code == 0
    block = store.context(None).text
    assert new in block and old not in block and FILLER in block


def test_a_supersedes_piece_in_several_lines_still_picks_the_same_subject() -> None:
    # B13-16 stays: "deploy window" stands in both lines; the api's is another subject
    lines = ("Deploy window for web is Tuesday", "Deploy window for api is Monday")
    got = gone(*lines, "Deploy window for web is now Thursday", meta={"supersedes": "deploy window"})
    assert got == {1: 3}
    assert gone("Infra uses Terraform 1.6", FILLER, "We're on Terraform 1.9", meta={"supersedes": "terraform 1.6"}) == {
        1: 3
    }


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Standup is at 9:30", "Standup moved to 10:00 tomorrow"),
        ("Standup is at 9:30", "Standup moved to 10:00 for this week only"),
        ("Standup is at 9:30 on weekdays", "Standup moved to 10:00 on Fridays"),
        ("Standup is on Mondays at 9:30", "Standup moved to 10:00"),  # the day would be lost with the line
    ],
)
def test_a_one_off_move_leaves_the_standing_time_shown(old: str, new: str) -> None:
    # B15-7/7b: a move of one day (a date, "tomorrow", "this week", "on Fridays") is scoped, not a replacement
    assert gone(old, FILLER, new) == {}


def test_a_standing_move_still_hides_the_older_time() -> None:
    assert gone("Standup is at 9:30", FILLER, "Standup moved to 10:00") == {1: 3}
    assert gone("Standup is on Mondays", FILLER, "Standup moved to Tuesdays") == {1: 3}
    got = gone("Team standup is at 9:30 every weekday", FILLER, "Team standup moved to 10:15, Tuesdays and Thursdays")
    assert got == {1: 3}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("In staging, we use Redis", "In prod, we no longer use Redis"),  # B15-1: a fronted place
        ("For the api, Alice reviews PRs", "For the web app, Bob now reviews PRs"),
        ("In Lyon, I bike to work", "In Paris, I now take the metro to work"),
        ("Redis is used in staging", "Redis is no longer used in prod"),  # B15-2: a denial of another place
        ("User is allergic to penicillin", "The user's son is now allergic to penicillin"),  # B15-3
        ("The user lives in Lyon", "The user's sister now lives in Paris"),
        ("Web app: deploys on Fridays", "Web app: no longer deploys on Mondays"),  # B15-6: another day denied
        ("Alice is on the payments team", "Alice is no longer on the search team"),  # B15-26
        ("The api uses Redis for caching", "The api no longer uses Redis for sessions"),
        ("We deploy the api on Fridays", "We no longer deploy the web app on Fridays"),
        ("Deploys need one approval", "Prod deploys now need two approvals"),  # B15-34: a narrower newer line
        ("I drink coffee", "I no longer drink coffee after 3pm"),
        ("Alice is the tech lead", "Alice is no longer the tech lead for payments"),
    ],
)
def test_a_newer_line_of_another_scope_hides_nothing(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I drink coffee", "I don't drink coffee anymore"),
        ("I am vegetarian", "I'm no longer vegetarian"),
        ("Logging goes to Papertrail", "Papertrail is no longer used for logs; they go to Grafana Loki"),
        ("The shop uses Postgres 14", "We're on Postgres 16 now"),  # B15-29: "re" is no subject
        ("User is allergic to penicillin", "The user is no longer allergic to penicillin"),
    ],
)
def test_a_denial_or_correction_of_the_same_thing_still_hides(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {1: 3}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Run the tests with pytest in the api repo", "Run the tests with vitest in the web repo now"),  # B15-8
        ("The cron job for invoices runs at 2am", "The cron job for emails now runs at 3am"),  # B15-25
        ("Backups of the prod DB run nightly", "Backups of the staging DB now run weekly"),
        ("Feature flags for the api live in LaunchDarkly", "Feature flags for the web app now live in Unleash"),
        ("I use Vim", "My wife switched from Vim to Emacs"),  # B15-5: "from" names her old value, not my line
        ("The api uses Postgres", "The web app switched from Postgres to MySQL"),
    ],
)
def test_a_rule_or_thing_of_another_kind_hides_nothing(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Tests run in the GitHub CI", "Tests now run in the Buildkite CI"),  # the ending is the value here
        ("Staging runs on a single t3.medium instance", "Staging now runs on two t3.large instances"),
        ("Bob is on call for the api", "Alice took over on-call from Bob"),  # "from" names the older line's subject
        ("Invoices are generated by a nightly cron job", "Invoice generation no longer runs from cron"),
    ],
)
def test_a_value_changed_at_the_end_still_hides(old: str, new: str) -> None:
    assert gone(old, FILLER, new) == {1: 3}


def test_cjk_now_is_no_owner_and_a_possessive_head_is_read_past() -> None:
    # B15-20: 现在 "now" / 不再 "no longer" after 我 were read as another owner; the older line stayed current
    assert gone("我住在里昂", FILLER, "我现在住在巴黎") == {1: 3}
    assert gone("我对青霉素过敏", FILLER, "我不再对青霉素过敏了") == {1: 3}
    # B15-4: after a shared 我们的 "our", the test and the production environment are two subjects
    assert gone("我们的测试环境使用 Redis", FILLER, "我们的生产环境不再使用 Redis") == {}
    assert gone("我们的测试环境使用 Redis", FILLER, "我们的测试环境不再使用 Redis") == {1: 3}


def test_too_and_also_of_another_clause_add_no_value() -> None:
    # B15-14: "too slow", "..., also for hotfixes" kept the stale value shown beside the new one
    assert gone("My editor is Vim", FILLER, "My editor is now Helix, Vim was too slow") == {1: 3}
    assert gone("The deploy window is Tuesday", FILLER, "The deploy window is now Thursday, also for hotfixes") == {
        1: 3
    }
    # a value added still replaces nothing
    assert gone("I speak French", FILLER, "I now speak Spanish as well") == {}
    assert gone("I speak French", FILLER, "I now speak Spanish too") == {}
    assert gone("CI runs on Linux", FILLER, "CI now also runs on macOS") == {}


def test_a_newer_line_about_one_of_a_list_hides_nothing() -> None:
    # B15-15: staging still uses Redis; Alice is still on the team
    assert gone("Staging and prod use Redis", FILLER, "Prod no longer uses Redis") == {}
    assert gone("Alice and Bob are on the payments team", FILLER, "Bob is no longer on the payments team") == {}
    assert gone("Prod uses Redis", FILLER, "Prod no longer uses Redis") == {1: 3}


def test_an_exception_leaves_the_rule_and_a_lifted_rule_is_replaced() -> None:
    # B15-37: the rule still holds for everything but hotfixes / the docs repo
    assert gone("Never deploy on Fridays", FILLER, "Deploying on Fridays is now OK for hotfixes") == {}
    assert gone("Never push to main", FILLER, "Pushing to main is now allowed in the docs repo") == {}
    assert gone("No deploys on Fridays", FILLER, "Deploys on Fridays are fine now") == {1: 3}
