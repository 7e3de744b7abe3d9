"""A hostile labelled set for the context block's replacement rule (:func:`memrepo.engine.read.contextselect.replaced`).

Two lists, reported apart:

- ``MUST_NOT_HIDE``: (older, newer) pairs where both lines are true now. Most are breaker13's (round 9, a
  hostile trial of the rule; docs/benchmarks.md), named by finding: another owner ("I" /
  "my daughter"), another subject in the same sentence ("web" / "api", "standup" / "retro", "staging" / "prod",
  "ruff" / "mypy"), a note label ("Reminder:"), a value added ("as well"), CJK subject swaps; and three of this
  set's own (``move-*``): a move of another attribute or subject than the older line's value; and breaker15's
  (round 10, ``B15-*``): a fronted or trailing scope, a denial of another place, "the user's son", a one-off move.
- ``MUST_HIDE``: (older, newer) corrections the rule must keep, written for this set (not breaker13's): a
  move, a time, a version, a tool, a label, a chain of three (each later line hides every earlier one).
- ``CTX11_MUST_HIDE`` / ``CTX11_MUST_NOT_HIDE`` (round 11): both sides of six classes (a rule's value swapped
  "from now on", a narrower scope, a "switched from" past or scoped, a labelled version, a perfect-tense move, a
  role passed on), written before the code changed; a third of them (part "held") kept aside and reported apart.
- ``CTX12_MUST_HIDE`` / ``CTX12_MUST_NOT_HIDE`` (round 12): a move to a tool or a team named like a place, two
  times of the week; written before the code changed, part "held" kept aside as ctx11's.

Usage:
    python benchmarks/replacement_hostile.py [--json]

Each pair is put in a file of three lines (the older, an unrelated line, the newer; all ``by: user``, one
``added:`` day) as breaker13's harness did, and the rule is asked whether the
newer line hides the older. A chain is one file of its lines in order. Reports, for each list, how many pairs
the rule gets right, and names the wrong ones; then every line of ``MUST_NOT_HIDE`` is put in one file and the
hides between lines of two different pairs are counted and named (informative: a few are true corrections).
"""

from __future__ import annotations

import argparse
import json

MUST_NOT_HIDE: list[tuple[str, str, str]] = [
    ("B13-1", "I live in Lyon", "We moved to Linear for issue tracking"),
    ("B13-1b", "I live in Lyon", "I moved to the platform team"),
    ("B13-1c", "I live in Lyon", "We moved to Python 3.13"),
    ("B13-2", "The api service runs on Node 18", "The api service moved to Fly.io"),
    ("B13-2b", "Code review needs two approvals", "Code review moved to Gerrit"),
    ("B13-2c", "The rate limit is 100/min", "The rate limit raised to 200 for partners"),
    ("B13-3", "Staging uses Redis", "Prod no longer uses Redis"),
    ("B13-3b", "The web service uses Postgres for storage", "The api service now uses Postgres for storage"),
    ("B13-5", "Web uses Python 3.11", "Api now uses Python 3.12"),
    ("B13-5b", "Staging database is Postgres 14", "Production database is now Postgres 16"),
    ("B13-6", "Web team standup is at 9:30", "Web team retro moved to 16:00"),
    ("B13-7", "测试环境使用 Redis", "生产环境不再使用 Redis"),
    ("B13-7b", "東京チームの会議は 9:30", "大阪チームの会議は 10:00 に変更"),
    ("B13-7c", "前端部署使用 Jenkins", "后端部署现在使用 Jenkins"),
    ("B13-7d", "我姐姐住在里昂", "我哥哥现在住在里昂"),
    ("B13-12", "I am allergic to penicillin", "My daughter is now allergic to penicillin"),
    ("B13-12b", "My son is allergic to peanuts", "My daughter has been allergic to peanuts since 2020"),
    ("B13-13", "Bob is on the payments team", "Alice is not on the payments team anymore"),
    ("B13-13b", "Use 30s timeouts", "Use longer timeouts for uploads"),
    ("B13-13c", "The dashboard uses React 18", "The marketing site now uses React 19"),
    ("B13-13d", "Bob and Carol review payments PRs", "Alice no longer reviews payments PRs"),
    ("B13-15", "Reminder: rotate the API keys monthly", "Reminder: the office is now closed on Fridays"),
    ("B13-15b", "Important: I am allergic to penicillin", "Important: prod deploys now need two approvals"),
    ("B13-18", "I live in Paris", "I moved to Berlin in 2015 for my first job"),
    ("B13-19", "Frontend PRs need review from Alice", "Backend PRs need review from Alice"),
    ("B13-19b", "I drink coffee in the morning", "My partner drinks coffee in the morning too"),
    ("B13-20", "web: Node 18", "api: Node 20 now"),
    ("B13-20b", "worker: Python 3.11", "cron: Python 3.12 now"),
    ("B13-22", "Always run ruff before committing", "Always run mypy before committing"),
    ("B13-22b", "Do not use mocks in api tests", "Mocks are now allowed in web tests"),
    ("B13-22c", "I eat fish", "My partner no longer eats fish"),
    ("B13-22d", "The web team uses Jira", "The api team no longer uses Jira"),
    ("B13-23", "我住在里昂", "我父母现在住在里昂"),
    ("B13-23b", "我对青霉素过敏", "我女儿现在也对青霉素过敏"),
    ("B13-23c", "提交前总是运行 ruff", "提交前总是运行 mypy"),
    ("B13-23d", "私はペニシリンにアレルギーがある", "娘も今はペニシリンにアレルギーがある"),
    ("B13-27", "I speak French", "I now speak Spanish as well"),
    ("B13-27b", "CI runs on Linux", "CI now also runs on macOS"),
    ("move-1", "Standup is at 9:30", "Standup moved to Zoom"),
    ("move-2", "Standup is at 9:30 on Meet", "Standup moved to Thursdays"),
    ("move-3", "Web standup is at 9:30", "Retro moved to 10:00"),
    ("B15-1", "In staging, we use Redis", "In prod, we no longer use Redis"),
    ("B15-1b", "For the api, Alice reviews PRs", "For the web app, Bob now reviews PRs"),
    ("B15-2", "Redis is used in staging", "Redis is no longer used in prod"),
    ("B15-3", "User is allergic to penicillin", "The user's son is now allergic to penicillin"),
    ("B15-4", "我们的测试环境使用 Redis", "我们的生产环境不再使用 Redis"),
    ("B15-5", "I use Vim", "My wife switched from Vim to Emacs"),
    ("B15-6", "Web app: deploys on Fridays", "Web app: no longer deploys on Mondays"),
    ("B15-7", "Standup is at 9:30", "Standup moved to 10:00 tomorrow"),
    ("B15-7b", "Standup is at 9:30 on weekdays", "Standup moved to 10:00 on Fridays"),
    ("B15-8", "Run the tests with pytest in the api repo", "Run the tests with vitest in the web repo now"),
    ("B15-25", "The cron job for invoices runs at 2am", "The cron job for emails now runs at 3am"),
    ("B15-26", "Alice is on the payments team", "Alice is no longer on the search team"),
    ("B15-34", "Deploys need one approval", "Prod deploys now need two approvals"),
]
"""(finding, older, newer): both true now."""

MUST_HIDE: list[tuple[str, ...]] = [
    ("I live in Lyon", "I moved to Montreal"),
    ("Standup is at 9:30", "Standup is now at 10:00"),
    ("My editor is vim", "My editor is Helix now"),
    ("The web service runs on Node 18", "The web service now runs on Node 20"),
    ("Deploys of infra go through Heroku", "Deploys of infra now go through Fly.io"),
    ("Team standup is at 9:30 every weekday on Google Meet", "Team standup moved to 10:15, Tuesdays and Thursdays"),
    ("Web deploy target: Heroku", "Web deploy target: Fly.io now"),
    ("My manager is Dana", "My manager is now Luis"),
    ("I am allergic to penicillin", "I am no longer allergic to penicillin"),
    ("Staging uses Redis for sessions", "Staging no longer uses Redis for sessions"),
    ("Backend PRs need one approval", "Backend PRs now need two approvals"),
    ("The api runs Python 3.11", "The api now runs Python 3.12"),
    ("部署使用 Jenkins 流水线", "部署现在改用 GitHub Actions 流水线"),
    ("Code freeze starts on the 15th", "Code freeze now starts on the 20th"),
    ("Primary on-call is Priya", "Primary on-call is now Marcus"),
    ("Standup is at 9:30", "Standup moved to 10:00"),
    ("Standup is at 9:30", "Standup got moved to 10:00"),
    ("Retro is on Tuesdays", "Retro moved to Thursdays"),
    ("Deploy window is Tuesday", "Deploy window is now Thursday", "Deploy window is now Monday"),
    ("The api runs Node 16", "The api now runs Node 18", "The api now runs Node 20"),
    ("我住在里昂", "我现在住在巴黎"),
    ("My editor is Vim", "My editor is now Helix, Vim was too slow"),
    ("The shop uses Postgres 14", "We're on Postgres 16 now"),
    ("Tests run in the GitHub CI", "Tests now run in the Buildkite CI"),
    ("Run `make lint` before pushing", "Always run make lint before you push changes"),
]
"""Corrections: each later line hides every earlier one (a pair, or a chain of three in one file)."""


CTX11_MUST_HIDE: list[tuple[str, str, str, str]] = [
    ("C1", "tune", "Always use spaces for indentation", "Use tabs for indentation from now on"),
    ("C1", "tune", "I use spaces for indentation", "From now on I use tabs for indentation"),
    ("C1", "tune", "I write tests with Jest", "I write tests with Vitest now"),
    ("C1", "tune", "Format Python code with Black", "Format Python code with Ruff from now on"),
    ("C1", "held", "Use npm for installs", "From now on, use pnpm for installs"),
    ("C1", "held", "I take notes in Notion", "I take notes in Obsidian now"),
    ("C1", "tune", "Always write commit messages in English", "Write commit messages in German going forward"),
    ("C1", "held", "Always squash commits when merging", "Rebase commits when merging from now on"),
    ("C2", "tune", "Deploys to prod need one approval", "Deploys to prod now need two approvals"),
    ("C2", "held", "PRs to main need one review", "PRs to main now need two reviews"),
    ("C3", "tune", "I use Vim", "I switched from Vim to Helix"),
    ("C3", "tune", "We use Stripe for payments", "We switched from Stripe to Adyen"),
    ("C3", "held", "We use Jenkins for CI", "We moved from Jenkins to GitHub Actions"),
    ("C5", "tune", "I live in Lyon", "I've moved to Paris"),
    ("C5", "tune", "I live in Lyon", "I have moved to Paris"),
    ("C5", "held", "I live in Berlin", "I've relocated to Munich"),
    ("C5", "tune", "The website runs on Next.js 13", "The site now runs on Next.js 14"),
    ("C6", "tune", "Alice owns billing", "Bob now owns billing"),
    ("C6", "tune", "Priya leads the mobile team", "Marcus now leads the mobile team"),
    ("C6", "held", "Dana manages the infra budget", "Luis now manages the infra budget"),
    ("C6", "held", "Sam owns the release process", "Kim now owns the release process"),
    ("C4", "tune", "DB: Postgres 14", "We upgraded to Postgres 16"),
    ("C4", "held", "Runtime: Node 18", "We upgraded to Node 20"),
]
"""ctx11 (round 11), written before the code changed, by class (C1 a rule's value swapped "from now on", C2 a
scoped line changed in its scope, C3 a "switched from" that happened now, C4 a labelled version bumped, C5 a
perfect-tense move or a short name, C6 a single-holder role passed on): (class, part, older, newer). Part "held"
(a third) was kept aside while the rule was written and is reported apart."""

CTX11_MUST_NOT_HIDE: list[tuple[str, str, str, str]] = [
    ("C1", "tune", "Always use spaces for indentation", "Use tabs for Makefiles from now on"),
    ("C1", "tune", "Use spaces for indentation in Python", "Use tabs for indentation in Go from now on"),
    ("C1", "tune", "I write tests with Jest", "My team writes tests with Vitest now"),
    ("C1", "held", "I write tests with Jest", "I write docs in Markdown now"),
    ("C1", "tune", "Log errors in JSON", "Log errors to Sentry now"),
    ("C1", "held", "Use npm for installs", "From now on, use pnpm for the docs site"),
    ("C1", "held", "I take notes in Notion", "My wife takes notes in Obsidian now"),
    ("C2", "tune", "Deploys need one approval", "Deploys to prod now need two approvals"),
    ("C2", "tune", "PRs need one review", "PRs to main now need two reviews"),
    ("C2", "held", "Releases need a changelog entry", "Releases to the app store now need a QA sign-off"),
    ("C2", "tune", "Deploys to staging need one approval", "Deploys to prod now need two approvals"),
    ("C3", "tune", "I use Vim", "I switched from Vim to Emacs for a week in 2019"),
    ("C3", "tune", "I live in Lyon", "I moved from Lyon to Paris in 2015"),
    ("C3", "tune", "We use Stripe for payments", "We switched from Stripe to Adyen for refunds"),
    ("C3", "tune", "I use Vim", "I nearly switched from Vim to Emacs"),
    ("C3", "held", "We use Stripe for payments", "We almost switched from Stripe to Adyen"),
    ("C3", "held", "We use Jenkins for CI", "We moved from Jenkins to GitHub Actions for the docs repo"),
    ("C3", "held", "I use Vim", "I switched from Vim to Emacs once"),
    ("C5", "tune", "I live in Lyon", "We've moved to Linear"),
    ("C5", "held", "I live in Lyon", "I've moved to the platform team"),
    ("C6", "tune", "Bob is on the payments team", "Alice is now on the payments team"),
    ("C6", "tune", "Bob is on the payments team", "Alice is not on the payments team anymore"),
    ("C6", "held", "Bob uses the billing dashboard", "Alice now uses the billing dashboard"),
    ("C6", "held", "Alice owns billing", "Bob now owns the billing dashboard"),
    ("C4", "tune", "worker: Python 3.11", "We moved to Python 3.13"),
    ("C4", "held", "api: Node 18", "The web app upgraded to Node 20"),
]
"""ctx11's counterparts of the same classes: another scope, owner or attribute, a narrower subject, a past, scoped or
missed switch, a move of another thing, a membership many hold."""

CTX12_MUST_NOT_HIDE: list[tuple[str, str, str, str]] = [
    ("M", "tune", "I live in Lyon", "I've moved to Neovim"),
    ("M", "tune", "I live in Lyon", "I've moved to Zsh"),
    ("M", "tune", "I live in Lyon", "I've moved to Mac"),
    ("M", "tune", "I live in Lyon", "I've moved to Team Platform"),
    ("M", "tune", "I live in Lyon", "I've moved to Helix"),
    ("M", "tune", "I live in Lyon", "I've moved to Firefox"),
    ("M", "held", "I live in Lyon", "I've moved to Obsidian"),
    ("M", "held", "I live in Lyon", "I've moved to Fish"),
    ("M", "held", "I live in Lyon", "I've moved to Ubuntu"),
    ("M", "held", "I live in Lyon", "I've moved to Emacs"),
    ("M", "held", "I live in Lyon", "I've moved to Squad Payments"),
    ("T", "tune", "I live in Lyon during the week", "I now live in Annecy on weekends"),
    ("T", "tune", "I work from home on Fridays", "I now work from the office on Mondays"),
    ("T", "held", "I work from the office on Tuesdays", "I now work from home on Thursdays"),
    ("T", "held", "I'm in Paris during the week", "I'm now in Lyon at weekends"),
    ("L", "tune", "DB: Postgres 14", "The analytics service upgraded to Postgres 16"),
    ("L", "tune", "Staging DB: Postgres 14", "We upgraded to Postgres 16"),
    ("L", "tune", "worker: Python 3.11", "We upgraded to Python 3.13"),
    ("L", "held", "Cache: Redis 6", "The search team upgraded to Redis 7"),
    ("L", "held", "Billing DB: MySQL 5.7", "We upgraded to MySQL 8.0"),
    ("R", "tune", "Alice owns a Tesla", "Bob owns a Tesla now"),
    ("R", "tune", "Alice manages the budget", "Bob manages the roadmap now"),
    ("R", "held", "Alice leads two projects", "Bob leads two projects now"),
    ("E", "tune", "The staging database is Postgres 14", "The database is now Postgres 16"),
    ("E", "tune", "The dev cluster runs Kubernetes 1.27", "The cluster now runs Kubernetes 1.29"),
    ("E", "held", "The sandbox API key rotates monthly", "The API key now rotates weekly"),
]
"""ctx12's (round 12, written before the code changed): a move to a tool, a system or a team named like a place
(breaker19 B19-3's residue), two places or ways at two times of the week (B19-15), a labelled line of one component
or another's bump (the L class, B15-36's counterparts), a line about one environment ("staging", "dev") under a newer
line that names none (E, breaker19 B19-10)."""

CTX12_MUST_HIDE: list[tuple[str, str, str, str]] = [
    ("M", "tune", "I live in Lyon", "I've moved to Berlin"),
    ("M", "tune", "I live in Lyon", "I've moved to Nice"),
    ("M", "tune", "I live in Lyon", "I've moved to Bath"),
    ("M", "tune", "I live in Lyon", "I've moved to Montreal"),
    ("M", "held", "I live in Lyon", "I've moved to Cork"),
    ("M", "held", "I live in Lyon", "I've moved to São Paulo"),
    ("M", "held", "I live in Lyon", "I've moved to New York"),
    ("T", "tune", "I live in Lyon", "I now live in Annecy"),
    ("T", "tune", "I work from home on Fridays", "I now work from the office on Fridays"),
    ("T", "held", "I work from the office on Tuesdays", "I now work from home on Tuesdays"),
    ("L", "tune", "DB: Postgres 14", "We upgraded to Postgres 16"),
    ("L", "tune", "Database: MySQL 5.7", "We upgraded to MySQL 8.0"),
    ("L", "tune", "Runtime: Python 3.11", "We moved to Python 3.13"),
    ("L", "held", "Cache: Redis 6", "We upgraded to Redis 7"),
    ("L", "held", "Language: Go 1.21", "We upgraded to Go 1.22"),
    ("R", "tune", "Alice manages the budget", "Bob manages the budget now"),
    ("R", "tune", "Sarah owns billing", "Tom owns billing now"),
    ("R", "held", "Priya leads the mobile team", "Omar leads the mobile team now"),
    ("E", "tune", "The staging database is Postgres 14", "The staging database is now Postgres 16"),
    ("E", "tune", "The web deploy window is Tuesday", "The deploy window is now Thursday"),
    ("E", "held", "The prod cluster runs Kubernetes 1.27", "The prod cluster now runs Kubernetes 1.29"),
]
"""ctx12's controls: a move to a place, however it is named, a change of the same time's place or way, and a line
labelled by the kind of thing it names ("DB:", "Runtime:") bumped by "We upgraded to <it> <higher>" (B15-36)."""

_FILLER = "Prefers tea over coffee"


def _hidden(lines: list[str]) -> dict[int, int]:
    from memrepo.engine.format.entries import Entry
    from memrepo.engine.read.contextselect import candidates, replaced

    meta = {"by": "user", "added": "2026-12-05"}
    return replaced(candidates([(n, Entry("", "-", text, dict(meta))) for n, text in enumerate(lines, start=1)]))


def pair_hides(old: str, new: str) -> bool:
    """Whether ``new`` hides ``old`` in a file of the two with an unrelated line between."""
    return _hidden([old, _FILLER, new]).get(1) == 3


def chain_hides(lines: tuple[str, ...]) -> bool:
    """Whether every line of ``lines`` but the last is hidden, and the last is not (a pair: the older hidden)."""
    if len(lines) == 2:
        return pair_hides(*lines)
    gone = _hidden(list(lines))
    return all(n in gone for n in range(1, len(lines))) and len(lines) not in gone


def cross_hides() -> list[tuple[str, str]]:
    """Hides between lines of two different ``MUST_NOT_HIDE`` pairs, all its lines in one file (the older lines
    first): (hidden, hider). Informative, not all false: "api: Node 20 now" may well replace "The api service
    runs on Node 18"."""
    lines = [old for _n, old, _new in MUST_NOT_HIDE] + [new for _n, _old, new in MUST_NOT_HIDE]
    pair_of = list(range(len(MUST_NOT_HIDE))) * 2
    gone = _hidden(lines)
    return [(lines[o - 1], lines[n - 1]) for o, n in sorted(gone.items()) if pair_of[o - 1] != pair_of[n - 1]]


def report() -> dict[str, object]:
    """The two lists' scores, their wrong pairs and the cross-pair hides."""
    false_hides = [name for name, old, new in MUST_NOT_HIDE if pair_hides(old, new)]
    missed = [lines[-1] for lines in MUST_HIDE if not chain_hides(lines)]
    cross = cross_hides()
    return {
        "must_not_hide": len(MUST_NOT_HIDE),
        "kept": len(MUST_NOT_HIDE) - len(false_hides),
        "false_hides": false_hides,
        "must_hide": len(MUST_HIDE),
        "hidden": len(MUST_HIDE) - len(missed),
        "missed": missed,
        "cross_pair_hides": len(cross),
        "cross": [f"{old} <- {new}" for old, new in cross],
        "ctx11": {part: _ctx11(part) for part in ("tune", "held")},
        "ctx12": {part: _ctx11(part, CTX12_MUST_HIDE, CTX12_MUST_NOT_HIDE) for part in ("tune", "held")},
    }


def _ctx11(
    part: str,
    must_hide: list[tuple[str, str, str, str]] | None = None,
    must_not_hide: list[tuple[str, str, str, str]] | None = None,
) -> dict[str, object]:
    """ctx11's classes' scores (or ctx12's, given its lists) for one part ("tune" or "held") and the wrong pairs."""
    hide = [row for row in (CTX11_MUST_HIDE if must_hide is None else must_hide) if row[1] == part]
    keep = [row for row in (CTX11_MUST_NOT_HIDE if must_not_hide is None else must_not_hide) if row[1] == part]
    missed = [f"{c}: {new}" for c, _p, old, new in hide if not pair_hides(old, new)]
    false = [f"{c}: {new}" for c, _p, old, new in keep if pair_hides(old, new)]
    return {
        "hidden": f"{len(hide) - len(missed)}/{len(hide)}",
        "kept": f"{len(keep) - len(false)}/{len(keep)}",
        "missed": missed,
        "false_hides": false,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    got = report()
    if args.json:
        print(json.dumps(got, indent=2, ensure_ascii=False))
        return
    print(
        f"must not hide: {got['kept']}/{got['must_not_hide']} kept   must hide: {got['hidden']}/{got['must_hide']}"
        f"   cross-pair hides (must-not-hide lines in one file): {got['cross_pair_hides']}"
    )
    for name in got["false_hides"]:  # type: ignore[union-attr]
        print(f"  false hide: {name}")
    for new in got["missed"]:  # type: ignore[union-attr]
        print(f"  missed: {new}")
    for line in got["cross"]:  # type: ignore[union-attr]
        print(f"  cross: {line}")
    for name in ("ctx11", "ctx12"):
        for part, score in got[name].items():  # type: ignore[union-attr]
            print(f"{name} {part}: must hide {score['hidden']} hidden   must not hide {score['kept']} kept")
            for line in score["missed"] + score["false_hides"]:
                print(f"  wrong: {line}")


if __name__ == "__main__":
    main()
