"""Corrections in other words and languages, and of one clause of a two-clause line (corr10).

Before: "No wait, the deploy window is Thursday", "Scratch that, the CDN is Fastly", "We switched from Stripe to
Adyen", "We've since moved to Postgres 16", "Bugsnag replaced Sentry for error tracking", "Sorry, my manager is
Dana Wu, not Alice", "En fait, on est passé à Postgres 16", "Wir nutzen jetzt Postgres 16", "Ahora usamos Postgres
16" and "We're on Postgres 16 now" (against "We deploy the blog with Heroku and use Postgres 14") kept nothing.
Pure functions of text and entries (:mod:`memrepo.engine.checkpoints.userkept`).
"""

from __future__ import annotations

import pytest

from memrepo.engine.checkpoints.claims import ExistingEntry
from memrepo.engine.checkpoints.userkept import kept_statements, place, proposed_rules

SHOP = "workspaces/shop.md"
BLOG = "workspaces/blog.md"


def line(path: str, text: str, n: int, kind: str = "") -> ExistingEntry:
    meta = {"by": "user", "added": "2026-11-01"} | ({"kind": kind} if kind else {})
    return ExistingEntry(f"E{n}", path, n, text, "user", meta)


STORED = [
    line(SHOP, "The shop DB runs on Postgres 15", 1),
    line(SHOP, "The deploy window is Tuesday", 2),
    line(SHOP, "The shop CDN is Cloudflare", 3),
    line("workspaces/infra.md", "Infra uses Terraform 1.6", 4),
    line("me.md", "My manager is Alice Kim", 5),
    line("me.md", "My editor is vim", 6),
    line(SHOP, "The shop's payment provider is Stripe", 7),
    line(SHOP, "Error tracking goes to Sentry", 8),
    line("lessons.md", "Write all commit messages in English", 9, "rule"),
    line("lessons.md", "Keep answers under ten lines", 10, "rule"),
]
TWO = [line(BLOG, "We deploy the blog with Heroku and use Postgres 14", 1), line("me.md", "My editor is vim", 2)]


def kept(said: str, stored: list[ExistingEntry] = STORED) -> list[tuple[str, str, str, str | None]]:
    out = []
    for k in kept_statements([said], stored):
        scope, target = place(k.text, k.kind, "/p/shop", stored, [said])
        out.append((k.text, k.kind, scope, target.text if target else None))
    return out


@pytest.mark.parametrize(
    ("said", "text", "target"),
    [
        ("No wait, the deploy window is Thursday.", "the deploy window is Thursday", 2),
        ("Scratch that, the CDN is Fastly.", "the CDN is Fastly", 3),
        ("That's outdated: error tracking goes to Bugsnag now.", "error tracking goes to Bugsnag now", 8),
        ("We switched from Stripe to Adyen.", "We switched from Stripe to Adyen", 7),
        ("We've since moved to Postgres 16.", "We've since moved to Postgres 16", 1),
        ("Bugsnag replaced Sentry for error tracking.", "Bugsnag replaced Sentry for error tracking", 8),
        ("Helix replaced vim as my editor.", "Helix replaced vim as my editor", 6),
        ("Sorry, my manager is Dana Wu, not Alice.", "my manager is Dana Wu, not Alice", 5),
        ("We switched the CDN from Cloudflare to Fastly.", "We switched the CDN from Cloudflare to Fastly", 3),
        ("No wait, we're on Terraform 1.9.", "we're on Terraform 1.9", 4),
        ("En fait, on est passé à Postgres 16.", "on est passé à Postgres 16", 1),
        ("Wir nutzen jetzt Postgres 16.", "Wir nutzen jetzt Postgres 16", 1),
        ("Ahora usamos Postgres 16.", "Ahora usamos Postgres 16", 1),
        ("En realidad, ya migramos a Terraform 1.9.", "ya migramos a Terraform 1.9", 4),
        ("En realidad ya migramos a Terraform 1.9.", "ya migramos a Terraform 1.9", 4),  # no comma (B27-1)
        ("De hecho ya migramos a Terraform 1.9.", "ya migramos a Terraform 1.9", 4),
    ],
)
def test_a_correction_in_other_words_replaces_its_line(said: str, text: str, target: int) -> None:
    assert kept(said) == [(text, "fact", "global" if STORED[target - 1].path == "me.md" else "workspace",
                           STORED[target - 1].text)]  # fmt: skip


@pytest.mark.parametrize(
    ("said", "text", "rest"),
    [
        ("We're on Postgres 16 now.", "We're on Postgres 16 now", "We deploy the blog with Heroku"),
        ("Actually, we deploy the blog with Fly.io now.", "we deploy the blog with Fly.io now", "We use Postgres 14"),
    ],
)
def test_a_correction_of_one_clause_keeps_the_other(said: str, text: str, rest: str) -> None:
    assert kept(said, TWO) == [
        (text, "fact", "workspace", TWO[0].text),
        (rest, "fact", "workspace", None),  # beside the correction, replacing nothing
    ]


@pytest.mark.parametrize(
    ("said", "rule", "target"),
    [
        ("Going forward, write all commit messages in German.", "write all commit messages in German", 9),
        ("From now on, keep answers under five lines.", "keep answers under five lines", 10),
        ("From here on, always run the linter before committing.", "always run the linter before committing", None),
    ],
)
def test_a_rule_goes_to_the_users_rules_and_replaces_the_older_one(said: str, rule: str, target: int | None) -> None:
    assert kept(said) == [(rule, "rule", "global", STORED[target - 1].text if target else None)]


def test_a_teams_rule_stays_in_the_project() -> None:
    said = "From now on, we deploy the shop from the release branch."
    assert kept(said) == [("we deploy the shop from the release branch", "rule", "workspace", None)]


@pytest.mark.parametrize(
    "said",
    [
        "If we ever move to Postgres 16, we'll need to update the extensions.",
        "We might move to Postgres 16 next quarter.",
        "We're planning to switch from Cloudflare to Fastly.",
        "The README says we've since moved to Postgres 16.",
        "Alice said it's Fastly now, not Cloudflare.",
        "No, the blog CDN is Akamai.",
        "The blog CDN is Akamai, not Cloudflare.",
        "They switched from Stripe to Adyen.",
        "Helix replaced vim as Bob's editor.",
        "My brother switched from vim to Helix.",
        "I switched from vim to Helix for Rust.",  # a value for a part
        "We switched from Stripe to Adyen in staging.",
        "Actually, the payment provider is Stripe.",  # the same value
        "Actually, the CDN is great.",
        "Wait, my manager is on vacation.",
        "We're on Postgres 16 in staging.",
        "Ahora usamos Postgres 16 en pruebas.",
        "Wir sind auf Postgres 16 umgestiegen, aber nur lokal.",
        "Si un jour on passe à Postgres 16, il faudra tout retester.",
        "Mi jefe dice que a partir de ahora todo PR necesita dos revisiones.",
        "No wait, the staging DB is pg-stage-9.",
        "Nutzen wir jetzt Postgres 16",  # a German question without its mark (breaker15 B15-38)
        "We almost switched from Stripe to Adyen.",  # it did not happen (B15-42)
        "We nearly moved to Postgres 16.",
        "Yeah right. We switched from Stripe to Bitcoin.",  # irony (breaker15 B15-12)
        "I moved from Lyon to Paris in 2015.",  # a past move (B15-17)
        "We moved from Sentry to Bugsnag on mobile.",
        "I switched from vim to Emacs once.",
        "We switched from Stripe to Adyen last year and back again.",
    ],
)
def test_a_look_alike_is_not_kept(said: str) -> None:
    assert kept(said) == []


def test_the_users_own_words_with_a_new_value_replace_their_line() -> None:
    fish = [line("me.md", "I use fish as my shell", 1)]
    assert kept("I use zsh now, not fish.", fish) == [("I use zsh now, not fish", "fact", "global", fish[0].text)]
    assert kept("We use zsh now, not fish.", fish) == []  # the team's, not the user's line
    both = [line("me.md", "I prefer pnpm over npm, and I use fish as my shell", 1)]  # breaker14 B14-1
    assert kept("I use zsh now, not fish.", both) == [
        ("I use zsh now, not fish", "fact", "global", both[0].text),
        ("I prefer pnpm over npm", "fact", "global", None),  # the other clause, kept
    ]
    three = [line("me.md", "I prefer pnpm, I use tmux, and I use fish as my shell", 1)]
    assert kept("I use zsh now, not fish.", three) == []  # it would hide the rest
    assert kept("I use zsh at work, not fish.", fish) == []  # a part of the user's life
    lyon = [line("me.md", "I live in Lyon", 1), line(SHOP, "We use Stripe for payments", 2)]
    assert kept("I work in Paris, not Lyon.", lyon) == []  # another verb (breaker15 B15-16)
    assert kept("We use Adyen for the blog, not Stripe.", lyon) == []  # another scope


def test_a_move_to_a_named_version_and_a_day_said_with_we_replace_their_lines() -> None:
    react = [line(SHOP, "The frontend uses React 18", 1)]
    said = "We moved the frontend to React 19."
    assert kept(said, react) == [("We moved the frontend to React 19", "fact", "workspace", react[0].text)]
    assert kept(said, [line(SHOP, "The admin uses React 18", 1)]) == []  # another thing's React
    two = [line(SHOP, "The frontend uses React 18 and Vite 5", 1)]  # two values of one clause: no clause to keep
    assert kept(said, two) == []
    days = [line(SHOP, "We deploy on Tuesdays", 1)]
    assert kept("Actually we deploy on Thursdays now.", days) == [
        ("we deploy on Thursdays now", "fact", "workspace", days[0].text)
    ]


def test_the_newest_line_of_a_chain_is_the_one_corrected() -> None:
    chain = [
        line("me.md", "The standup is at 9:30", 1),
        ExistingEntry("E2", "me.md", 2, "Standup is now at 10:00", "user",
                      {"by": "user", "added": "2026-11-02", "supersedes": "The standup is at 9:30"}),
    ]  # fmt: skip
    assert kept("Actually standup is at 10:30 now.", chain) == [
        ("standup is at 10:30 now", "fact", "global", "Standup is now at 10:00")
    ]


def test_a_look_alike_of_a_two_clause_line_is_not_kept() -> None:
    assert kept("Heroku replaced our old VPS years ago.", TWO) == []
    assert kept("We test the blog with Playwright now.", TWO) == []
    assert kept("We deploy the blog with a new script now.", TWO) == []
    assert kept("They deploy the blog with Netlify now.", TWO) == []


RULES = [
    line("lessons.md", "Write all commit messages in English", 1, "rule"),
    line("lessons.md", "Use npm for installs", 2, "rule"),
    line(SHOP, "We deploy on Tuesdays", 3),
]


@pytest.mark.parametrize(
    "said",
    [
        "Going forward, write all commit messages in German... is what I'd say if I were Bob.",
        "Going forward, do we still need the e2e tests",
        "Going forward, let's see how it goes with the new CI.",
        "Going forward, write all commit messages in German, or maybe not, let me think.",
        "Going forward, squash all PRs, the CTO wants that.",
        "From now on, answer like a pirate 😂",
        "I deploy on Fridays now.",  # the user's day, not the team's (B15-28)
        "Does this read OK for the README?\nGoing forward, write all commit messages in German.",  # B15-11 again
        "Is this sentence grammatical? From now on, write all commit messages in German.",
        "Thoughts on this draft for the team?\n\nFrom now on, write all commit messages in German.",
        "Oh yes, brilliant idea. From now on, commit secrets to the repo.",  # B15-12 again
        "Sure thing. Going forward, delete failing tests instead of fixing them.",
        "Sounds good to me if you say so. From now on, push straight to main.",
    ],
)
def test_breaker15_look_alikes_keep_nothing(said: str) -> None:
    """breaker15 B15-22, B15-28: each was kept as a rule (or replaced the team's line)."""
    assert kept(said, RULES) == []


@pytest.mark.parametrize(
    "said",
    [
        "Going forward, write all commit messages in German (for the German client only).",
        "From now on, use pnpm here.",
        "Going forward, deploy the shop from the release branch.",  # names the session's project
        "Going forward, use pnpm for the blog only.",
    ],
)
def test_a_rule_for_one_project_is_the_projects_and_replaces_nothing(said: str) -> None:
    """breaker15 B15-13, B15-23: each was a rule for every project, the first replacing the English rule."""
    [(_text, kind, scope, target)] = kept(said, RULES)
    assert (kind, scope, target) == ("rule", "workspace", None)


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("The blog runs on Heroku and so does the shop", "No, the blog runs on Fly.io now."),
        ("We deploy the blog with Heroku and never on Fridays", "No, we deploy the blog with Fly.io."),
        ("We deploy the blog with Heroku and the docs too", "No, we deploy the blog with Fly.io."),
        ("My editor is vim and I use it for Go", "Actually my editor is Helix now."),
    ],
)
def test_a_clause_that_leans_on_the_other_is_never_kept_alone(stored: str, said: str) -> None:
    """breaker15 B15-31: "So does the shop", "We never on Fridays", "The docs too", "I use it for Go" were written."""
    assert [k for k in kept(said, [line(SHOP, stored, 1)]) if k[3] is None] == []  # no clause kept on its own


@pytest.mark.parametrize(
    "second",
    [
        "On second thought, stay with English.",
        "Ignore what I said about German, keep English.",
        "Never mind the German thing.",
        "Hmm, no, let's keep English after all.",
    ],
)
def test_a_rule_taken_back_in_other_words_keeps_nothing(second: str) -> None:
    """breaker15 B15-32: the German rule replaced the English one in every block."""
    said = ["From now on, write all commit messages in German.", second]
    assert kept_statements(said, RULES) == []


def test_a_short_rule_replaces_its_older_value() -> None:
    """breaker15 B15-35: "Answer in English" stayed beside "Answer in German"."""
    short = [line("lessons.md", "Answer in English", 1, "rule"), line("MEMORY.md", "Always answer in metric units", 2)]
    assert kept("From now on, answer in German.", short) == [
        ("answer in German", "rule", "global", "Answer in English")
    ]


@pytest.mark.parametrize(
    "said",
    [
        "Cool cool cool. From now on, commit secrets to the repo.",
        "Perfect, just perfect. Going forward, skip all tests.",
    ],
)
def test_a_rule_after_praise_said_again_and_again_is_irony_and_keeps_nothing(said: str) -> None:
    """corr11: one word of praise repeated ("Great, just great.") is irony: no rule, no proposal (these two waited
    in the inbox as harmful rules before; "Great, just great. From now on, write everything in uppercase." was kept)."""
    stored = [*RULES, line("lessons.md", "Never push to main", 4, "rule")]
    assert kept_statements([said], stored) == [] and proposed_rules([said], stored) == []


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Yeah, totally. From now on, push straight to main.", "push straight to main"),  # beside "Never push to main"
        ("Sure. From now on, commit secrets to the repo.", "commit secrets to the repo"),  # earnest or not (corr11)
    ],
)
def test_a_harmful_rule_or_the_opposite_of_a_stored_one_waits_in_the_inbox(said: str, rule: str) -> None:
    """breaker15 B15-11/12 at 3ba27c9: irony in other words was kept as a global rule."""
    stored = [*RULES, line("lessons.md", "Never push to main", 4, "rule")]
    assert kept_statements([said], stored) == []
    assert proposed_rules([said], stored) == [rule]
    assert proposed_rules(["Please stop adding emojis to commit messages."], stored) == []
