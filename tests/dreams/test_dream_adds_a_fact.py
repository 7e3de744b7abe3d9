"""A line that adds a fact is no restatement of a shorter line sharing its words (breaker8 B8-14, docs/dreams.md:
restatements are "the same fact"). The repo is the breaker's me.md, MEMORY.md, lessons.md
and workspaces/lantern.md."""

from __future__ import annotations

from pathlib import Path

from helpers.dream_helpers import make_repo

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.dreams.same import adds_fact

_ME = (
    "# About me\n"
    "\n"
    "Identity, preferences and corrections.\n"
    "\n"
    "- My name is Mira Okafor; I go by Mira [by: user; added: 2026-12-05; kind: fact]\n"
    "- Prefers tabs over spaces in Go and Makefiles [by: user; added: 2026-12-05; kind: preference]\n"
    "- 나는 매주 금요일 저녁에 한국어 수업을 듣는다 [by: user; added: 2026-12-05; kind: fact]\n"
    "- 我的猫叫豆豆 [by: user; added: 2026-12-05; kind: fact]\n"
    "- I moved to Montreal in 2026; my timezone is now EST [by: user; added: 2026-12-05; kind: fact]\n"
    "- My editor is now Neovim [by: user; added: 2026-12-05; kind: preference; supersedes: My editor is Emacs]\n"
    "- The user prefers dark mode in every app [by: agent; added: 2026-12-05; kind: preference; task: mcp-1a47276fb6ada8b2]\n"
    "- The user is allergic to peanuts [by: agent; added: 2026-12-05; kind: fact; task: mcp-28c48545671dca84]\n"
    "- The user's partner Sam is vegetarian [by: agent; added: 2026-12-05; kind: fact; task: mcp-a835609ef3a308c5]\n"
    "- I take the train to work on Tuesdays [by: user; added: 2026-12-05; kind: fact]\n"
    "- The user drinks almond milk [by: agent; added: 2026-12-05; kind: preference; task: mcp-bc3b456b00d8ea80]\n"
    "- My favourite tea is genmaicha [by: user; added: 2026-12-05; kind: preference]\n"
    "- I am learning the cello [by: user; added: 2026-12-05; kind: fact]\n"
    "- The user moved to Vancouver; their timezone is now PST [by: agent; added: 2026-12-05; kind: fact; task: mcp-76b94034efa63167]\n"
    "- 나는 이제 매주 토요일 아침에 한국어 수업을 듣는다 [by: user; added: 2026-12-05; kind: fact]\n"
    "- The user's bike is a blue Brompton [by: agent; added: 2026-12-05; kind: fact; task: mcp-37b592f560d861c6]\n"
    "- My AWS access key is [REDACTED:aws-access-key] and the secret is [REDACTED:labelled-secret] [by: user; added: 2026-12-05; kind: fact]\n"
    "- My favourite colour is teal [by: user; added: 2026-12-05; kind: fact]\n"
    "- I run 10 km every Sunday morning [by: user; added: 2026-12-05; kind: fact]\n"
    "- I prefer meetings after 11:00 local time [by: user; added: 2026-12-05; kind: fact]\n"
    "- My laptop is a ThinkPad X1 Carbon running Fedora 41 [by: user; added: 2026-12-05; kind: fact]\n"
    "- I use fish as my shell [by: user; added: 2026-12-05; kind: fact]\n"
    "- My GitHub handle is miraokafor [by: user; added: 2026-12-05; kind: fact]\n"
    "- I speak English, French and some Korean [by: user; added: 2026-12-05; kind: fact]\n"
    "- My manager is Dana Whitfield [by: user; added: 2026-12-05; kind: fact]\n"
    "- I review pull requests on Tuesday and Thursday afternoons [by: user; added: 2026-12-05; kind: fact]\n"
    "- I dislike emoji in commit messages [by: user; added: 2026-12-05; kind: fact]\n"
    "- My phone is a Pixel 8 [by: user; added: 2026-12-05; kind: fact]\n"
    "- I keep my notes in Obsidian [by: user; added: 2026-12-05; kind: fact]\n"
    "- I drink my coffee black, no sugar (3) [by: user; added: 2026-12-05; kind: fact] (oat)\n"
    "- My home office has a standing desk [by: user; added: 2026-12-05; kind: fact]\n"
    "- I studied oceanography at McGill [by: user; added: 2026-12-05; kind: fact]\n"
    "- I am allergic to penicillin [by: user; added: 2026-12-05; kind: fact]\n"
    "- Correction: the user's daughter Ayo's birthday is 15 March, not 14 March [by: agent; added: 2026-12-05; kind: correction; task: mcp-cecc6cb697838775]\n"
    "- Correction: my GitHub handle is mira-okafor, not miraokafor [by: user; added: 2026-12-05; kind: correction]\n"
    "\n"
    "## Family\n"
    "\n"
    "- My daughter's name is Ayo; her birthday is 14 March [by: user; added: 2026-12-05; kind: fact]\n"
    "- My partner is called Sam\n"
)

_MEMORY = (
    "# Memory\n"
    "\n"
    "Entries every session needs. Everything else is in the files below.\n"
    "\n"
    "- Current focus: Tidepool 1.0 release, due 2027-01-20 [by: user; added: 2026-12-05; kind: fact]\n"
    "- Current focus: Lantern security audit, due 2027-02-10 [by: user; added: 2026-12-05; kind: fact]\n"
    "\n"
    "## Index\n"
    "- [[me]]\n"
    "- [[lessons]]\n"
    "- [[topics/travel]]\n"
    "- [[topics/tools]]\n"
    "- [[workspaces/tidepool]]\n"
    "- [[workspaces/lantern]]\n"
    "- [[workspaces/kimchi-bot]]\n"
    "- [[workspaces/lantern-2]]\n"
    "- [[workspaces/home]]\n"
)

_LESSONS = (
    "# Lessons\n"
    "\n"
    "Cross-workspace lessons: commands, setup, pitfalls.\n"
    "\n"
    "- Always run the full test suite before pushing [by: user; added: 2026-12-05; kind: rule]\n"
    "- Never force-push to main [by: user; added: 2026-12-05; kind: rule]\n"
    "- Answer in British English spelling [by: user; added: 2026-12-05; kind: rule]\n"
)


_LANTERN = (
    "# lantern\n"
    "\n"
    "- Workspace lantern [workspace: ws-cc4f2671; path: /tmp/b8/home/proj/lantern; by: user]\n"
    "- Lantern is a Django 4.2 web app for library lending [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern deploys to Fly.io region ams [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern's database is Postgres 15 [by: user; added: 2026-12-05; kind: fact]\n"
    "- Ticket LAN-88: rate limiting on the /api/loans endpoint, owner Priya [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern's staging URL is https://staging.lantern.example.org [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern 的中文翻译由王芳负责 [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern's database was upgraded to Postgres 16 [by: agent; added: 2026-12-05; kind: fact; task: mcp-4939eedc50f4b22b]\n"
    "- The Lantern staging database password is [REDACTED:labelled-secret] [by: agent; added: 2026-12-05; kind: fact; task: mcp-cebe6b64b0abc6ce]\n"
    "- Lantern's search uses Meilisearch 1.8 [by: agent; added: 2026-12-05; kind: fact; task: mcp-974c8a7cc6814bbe]\n"
    "- Lantern uses Redis 7 for caching [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern's on-call rotation is in PagerDuty schedule LNT-ONCALL [by: agent; added: 2026-12-05; kind: fact; task: mcp-a2b4f2d75bed7d20]\n"
    "- Lantern's reverse proxy now runs nginx in production [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern emails go through the SendGrid transactional API [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern emails go through the Postmark transactional API [by: user; added: 2026-12-05; kind: fact; supersedes: SendGrid transactional]\n"
    "- Lantern 的中文翻译现在由李娜负责 [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern kept-write test 5: the loans API paginates by 125 [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern kept-write test 4: the loans API paginates by 100 [by: user; added: 2026-12-05; kind: fact]\n"
    "- Lantern kept-write test 1: the loans API paginates by 25 [by: agent; added: 2026-12-05; kind: fact; task: mcp-4ba79cdb756c2ec1]\n"
    "- Lantern kept-write test 3: the loans API paginates by 75 [by: agent; added: 2026-12-05; kind: fact; task: mcp-6d435ecd21f2825f]\n"
    "- Lantern kept-write test 2: the loans API paginates by 50 [by: agent; added: 2026-12-05; kind: fact; task: mcp-1bcac8feb22cec0e]\n"
)


def _ops(repo_path: Path) -> list[str]:
    # lantern.md is never compared with me.md, but its words weigh in how rare "partner" and "sam" are
    files = {"me.md": _ME, "MEMORY.md": _MEMORY, "lessons.md": _LESSONS, "workspaces/lantern.md": _LANTERN}
    store = make_repo(repo_path, files)
    return [op.reason for op in Dreamer(store).run().operations]


def test_the_partners_diet_is_not_a_restatement_of_the_partners_name(repo_path: Path) -> None:
    reasons = _ops(repo_path)
    assert not [r for r in reasons if "vegetarian" in r], reasons
    assert any("is replaced by the newer" in r and "Current focus" in r for r in reasons)  # the dream still runs


def test_the_users_name_is_not_a_restatement_of_their_github_handle(repo_path: Path) -> None:
    reasons = _ops(repo_path)
    assert not [r for r in reasons if "My name is Mira" in r], reasons


def test_adds_fact() -> None:
    assert adds_fact("My partner is called Sam", "The user's partner Sam is vegetarian") == "vegetarian"
    assert adds_fact("My name is Mira Okafor; I go by Mira", "my GitHub handle is mira-okafor, not miraokafor")
    # restatements in other words state nothing the other lacks (a passive verb names no value)
    assert (
        adds_fact("Amounts are stored as integer cents, never floats", "Billing keeps amounts in integer cents") == ""
    )
    assert adds_fact("Sam lives in Lisbon and works on Lisbon time", "Sam is based in Lisbon (Lisbon time zone)") == ""
    assert adds_fact("Screenshots in the docs are PNG at 2x", "Docs screenshots should be 2x PNG files") == ""
