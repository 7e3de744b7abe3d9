"""A realistic memory repo with planted pairs, for benchmarks/bench_dream_quality.py.

About 700 entries in 13 files (MEMORY.md, me.md, lessons.md, six workspace
files, four topic files): more than one dream's 48,000-character input, so
coverage over successive runs is measured too. Each planted pair is two
lines of one file (or of the core files) with a known relation:

* ``duplicate``: the same text, or the same in form only (case, punctuation,
  British/American spelling, a split compound); may be merged automatically.
* ``restatement``: the same fact in other words (a user's fact and an agent's
  paraphrase, or two agents'); to review, the user's (then the newer) kept.
* ``contradiction``: one line replaces the other (a negation, an antonym, a
  name, a place, a date, a number, a tool); never automatic; to review with
  the newer (or the user's) kept.
* ``distinct``: alike in wording but two facts; nothing should be proposed.

Pairs are split by their index: every third (``index % 3 == 2``) is held out,
never looked at while tuning the rules (docs/architecture.md §6).
The filler is built from sentence templates, each used once per file, so no
two filler lines of one file are the same sentence with a slot changed.
"""

from __future__ import annotations

import random
import subprocess
import zlib
from dataclasses import dataclass
from pathlib import Path

WORKSPACES = ("billing", "search", "mobile-app", "infra", "data-pipeline", "docs-site")
TOPICS = ("databases", "release-process", "security", "writing-style")


@dataclass(frozen=True, slots=True)
class Pair:
    """One planted pair: ``a`` comes first in its file; ``newer`` names the line that replaces (a or b)."""

    index: int
    kind: str
    path: str
    a: str
    a_by: str
    a_added: str
    b: str
    b_by: str
    b_added: str
    b_path: str = ""

    @property
    def held_out(self) -> bool:
        """Never looked at while tuning."""
        return self.index % 3 == 2

    @property
    def keeper(self) -> str:
        """The text that should stay: the user's, then the newer."""
        if (self.a_by == "user") != (self.b_by == "user"):
            return self.a if self.a_by == "user" else self.b
        return self.a if self.a_added > self.b_added else self.b


_RAW: list[tuple[str, str, str, str, str, str, str, str]] = [
    # kind, file, a, a_by, a_added, b, b_by, b_added
    (
        "duplicate",
        "lessons.md",
        "Run ruff format before every commit",
        "agent",
        "2025-02-03",
        "Run ruff format before every commit",
        "agent",
        "2025-04-11",
    ),
    (
        "duplicate",
        "workspaces/billing.md",
        "Invoice PDFs are rendered with WeasyPrint",
        "agent",
        "2025-01-20",
        "invoice PDFs are rendered with WeasyPrint.",
        "agent",
        "2025-03-02",
    ),
    (
        "duplicate",
        "me.md",
        "Favourite editor colour scheme is Solarized Dark",
        "agent",
        "2025-02-14",
        "Favorite editor color scheme is Solarized Dark",
        "agent",
        "2025-05-01",
    ),
    (
        "duplicate",
        "workspaces/search.md",
        "The indexer uses vim key bindings in its TUI",
        "agent",
        "2025-01-09",
        "The indexer uses vim keybindings in its TUI",
        "agent",
        "2025-02-19",
    ),
    (
        "duplicate",
        "workspaces/infra.md",
        "Terraform state lives in the ops-state bucket",
        "user",
        "2025-01-05",
        "Terraform state lives in the ops-state bucket",
        "agent",
        "2025-03-15",
    ),
    (
        "duplicate",
        "topics/databases.md",
        "Analyse slow queries with pg_stat_statements first",
        "agent",
        "2025-02-02",
        "Analyze slow queries with pg_stat_statements first",
        "agent",
        "2025-02-27",
    ),
    (
        "duplicate",
        "workspaces/docs-site.md",
        "The docs site is built with MkDocs Material",
        "agent",
        "2025-01-12",
        "The docs site is built with MkDocs Material!",
        "agent",
        "2025-01-30",
    ),
    (
        "duplicate",
        "workspaces/mobile-app.md",
        "Crash reports go to the #mobile-crashes channel",
        "agent",
        "2025-03-03",
        "Crash reports go to the #mobile-crashes channel",
        "agent",
        "2025-03-21",
    ),
    (
        "duplicate",
        "workspaces/data-pipeline.md",
        "Airflow DAGs are organised by team folder",
        "user",
        "2025-01-08",
        "Airflow DAGs are organized by team folder",
        "agent",
        "2025-04-02",
    ),
    (
        "restatement",
        "lessons.md",
        "Use pnpm, not npm or yarn, in every JavaScript repo",
        "user",
        "2025-01-15",
        "Prefers pnpm over npm for JavaScript projects",
        "agent",
        "2025-03-10",
    ),
    (
        "restatement",
        "me.md",
        "I want short answers with the code first, explanations after",
        "user",
        "2025-01-03",
        "Prefers short answers that show code before the explanation",
        "agent",
        "2025-02-21",
    ),
    (
        "restatement",
        "workspaces/billing.md",
        "Amounts are stored as integer cents, never floats",
        "user",
        "2025-01-07",
        "Billing keeps money amounts in integer cents instead of floats",
        "agent",
        "2025-02-11",
    ),
    (
        "restatement",
        "workspaces/search.md",
        "Reindex with the bulk API, one batch of 500 documents at a time",
        "user",
        "2025-02-01",
        "Reindexing goes through the bulk API in batches of 500 documents",
        "agent",
        "2025-03-12",
    ),
    (
        "restatement",
        "lessons.md",
        "Squash commits before merging a pull request",
        "user",
        "2025-01-22",
        "User prefers squashing commits when merging pull requests",
        "agent",
        "2025-04-08",
    ),
    (
        "restatement",
        "workspaces/infra.md",
        "Every Kubernetes change goes through Argo CD, never kubectl apply",
        "user",
        "2025-02-06",
        "Kubernetes changes are deployed via Argo CD instead of kubectl apply",
        "agent",
        "2025-04-17",
    ),
    (
        "restatement",
        "topics/writing-style.md",
        "Write commit subjects in the imperative mood, under 72 characters",
        "user",
        "2025-01-11",
        "Commit subjects use imperative mood and stay under 72 characters",
        "agent",
        "2025-03-29",
    ),
    (
        "restatement",
        "workspaces/mobile-app.md",
        "Release builds are signed on the CI runner, not on laptops",
        "user",
        "2025-01-25",
        "Signing of release builds happens on the CI runner instead of developer laptops",
        "agent",
        "2025-05-06",
    ),
    (
        "restatement",
        "workspaces/data-pipeline.md",
        "Partition the events table by day, in UTC",
        "agent",
        "2025-01-14",
        "The events table is partitioned daily by UTC date",
        "agent",
        "2025-03-19",
    ),
    (
        "restatement",
        "topics/security.md",
        "Rotate the Stripe webhook secret every 90 days",
        "user",
        "2025-01-19",
        "Stripe webhook secret rotation happens every 90 days",
        "agent",
        "2025-02-25",
    ),
    (
        "restatement",
        "workspaces/docs-site.md",
        "Screenshots in the docs are PNG at 2x, under 300 KB",
        "user",
        "2025-02-09",
        "Docs screenshots should be 2x PNG files below 300 KB",
        "agent",
        "2025-04-21",
    ),
    (
        "restatement",
        "topics/release-process.md",
        "Tag releases from main only, after the changelog is updated",
        "user",
        "2025-01-28",
        "Releases get tagged on main once the changelog has been updated",
        "agent",
        "2025-03-08",
    ),
    (
        "restatement",
        "me.md",
        "Sam lives in Lisbon and works on Lisbon time",
        "user",
        "2025-01-02",
        "Sam is based in Lisbon (Lisbon time zone)",
        "agent",
        "2025-02-16",
    ),
    (
        "contradiction",
        "workspaces/infra.md",
        "Do not use the staging database for load tests",
        "agent",
        "2025-01-16",
        "Use the staging database for load tests",
        "agent",
        "2025-04-03",
    ),
    (
        "contradiction",
        "workspaces/data-pipeline.md",
        "The nightly export job is enabled",
        "agent",
        "2025-01-21",
        "The nightly export job is disabled",
        "agent",
        "2025-03-27",
    ),
    (
        "contradiction",
        "workspaces/billing.md",
        "The billing service is owned by Alice Martin",
        "agent",
        "2025-01-10",
        "The billing service is owned by Bruno Martin",
        "agent",
        "2025-04-14",
    ),
    (
        "contradiction",
        "workspaces/infra.md",
        "The staging cluster runs in eu-west-1",
        "agent",
        "2025-01-18",
        "The staging cluster runs in us-west-1",
        "agent",
        "2025-05-02",
    ),
    (
        "contradiction",
        "lessons.md",
        "Indent Makefiles with tabs in this repo",
        "agent",
        "2025-02-04",
        "Indent Makefiles with spaces in this repo",
        "agent",
        "2025-03-06",
    ),
    (
        "contradiction",
        "topics/release-process.md",
        "The release freeze starts on Thursday each week",
        "agent",
        "2025-01-23",
        "The release freeze starts on Friday each week",
        "agent",
        "2025-04-10",
    ),
    (
        "contradiction",
        "workspaces/search.md",
        "The search API listens on port 9200",
        "agent",
        "2025-02-12",
        "The search API listens on port 9300",
        "agent",
        "2025-03-24",
    ),
    (
        "contradiction",
        "workspaces/mobile-app.md",
        "The app targets iOS 16 and later",
        "agent",
        "2025-03-30",
        "The app targets iOS 17 and later",
        "agent",
        "2025-01-13",
    ),
    (
        "contradiction",
        "me.md",
        "Sam prefers light mode in every editor",
        "agent",
        "2025-01-06",
        "Sam prefers dark mode in every editor",
        "agent",
        "2025-02-28",
    ),
    (
        "contradiction",
        "topics/databases.md",
        "Postgres backups run before the nightly vacuum",
        "agent",
        "2025-01-26",
        "Postgres backups run after the nightly vacuum",
        "agent",
        "2025-04-19",
    ),
    (
        "contradiction",
        "workspaces/docs-site.md",
        "Preview deploys are public",
        "agent",
        "2025-02-17",
        "Preview deploys are private",
        "agent",
        "2025-03-14",
    ),
    (
        "contradiction",
        "workspaces/billing.md",
        "Refunds need approval from the finance lead",
        "agent",
        "2025-01-29",
        "Refunds do not need approval from the finance lead",
        "agent",
        "2025-05-05",
    ),
    (
        "contradiction",
        "topics/security.md",
        "Two-factor login is optional for contractors",
        "agent",
        "2025-02-10",
        "Two-factor login is required for contractors",
        "agent",
        "2025-04-24",
    ),
    (
        "contradiction",
        "workspaces/data-pipeline.md",
        "The warehouse is hosted on Snowflake",
        "agent",
        "2025-01-17",
        "The warehouse is hosted on BigQuery",
        "agent",
        "2025-03-31",
    ),
    (
        "contradiction",
        "lessons.md",
        "Merge feature branches with rebase",
        "agent",
        "2025-02-22",
        "Merge feature branches with squash",
        "agent",
        "2025-04-05",
    ),
    (
        "contradiction",
        "workspaces/search.md",
        "Relevance tuning meetings are on Mondays at 10:00",
        "agent",
        "2025-01-31",
        "Relevance tuning meetings are on Mondays at 14:00",
        "agent",
        "2025-03-17",
    ),
    (
        "contradiction",
        "workspaces/infra.md",
        "Production deploys are allowed on Fridays",
        "user",
        "2025-01-04",
        "Production deploys are never allowed on Fridays",
        "agent",
        "2025-04-26",
    ),
    (
        "contradiction",
        "topics/writing-style.md",
        "Headings in the docs use sentence case",
        "agent",
        "2025-02-18",
        "Headings in the docs use title case",
        "agent",
        "2025-03-26",
    ),
    (
        "distinct",
        "workspaces/billing.md",
        "Invoices are emailed on the first of the month",
        "agent",
        "2025-01-27",
        "Payouts are sent to partners every second Tuesday",
        "agent",
        "2025-03-04",
    ),
    (
        "distinct",
        "workspaces/search.md",
        "Synonyms live in synonyms.txt in the config repo",
        "agent",
        "2025-02-13",
        "Stop words for German live in the analyzers module",
        "agent",
        "2025-03-22",
    ),
    (
        "distinct",
        "lessons.md",
        "Pin GitHub Actions to a commit SHA",
        "agent",
        "2025-01-24",
        "Pin Docker base images to a digest in production",
        "agent",
        "2025-04-12",
    ),
    (
        "distinct",
        "workspaces/infra.md",
        "The VPN config is kept in the netops repo",
        "agent",
        "2025-02-05",
        "The Grafana dashboards are kept in the observability repo",
        "agent",
        "2025-03-18",
    ),
    (
        "distinct",
        "me.md",
        "Sam drinks green tea in the morning",
        "agent",
        "2025-01-30",
        "Sam runs along the river on Sunday mornings",
        "agent",
        "2025-04-15",
    ),
    (
        "distinct",
        "workspaces/mobile-app.md",
        "The Android build uses Gradle 8 with the Kotlin DSL",
        "agent",
        "2025-02-20",
        "The iOS build uses Xcode Cloud with a custom workflow",
        "agent",
        "2025-03-28",
    ),
    (
        "distinct",
        "topics/databases.md",
        "Use read replicas for analytics queries",
        "agent",
        "2025-01-15",
        "Use connection pooling through PgBouncer for the API",
        "agent",
        "2025-03-09",
    ),
    (
        "distinct",
        "workspaces/data-pipeline.md",
        "The orders DAG runs hourly",
        "agent",
        "2025-02-08",
        "The users DAG runs nightly at 02:00 UTC",
        "agent",
        "2025-04-07",
    ),
    (
        "distinct",
        "workspaces/docs-site.md",
        "API reference pages are generated from the OpenAPI spec",
        "agent",
        "2025-01-19",
        "Tutorial pages are written by hand in Markdown",
        "agent",
        "2025-03-13",
    ),
]

PAIRS: list[Pair] = [Pair(i, *row) for i, row in enumerate(_RAW)]
"""Every planted pair."""

_SLOTS = {
    "port": ["8080", "8443", "9000", "5432", "6379", "3000", "4000", "7001"],
    "person": ["Priya", "Tomás", "Mei", "Jonas", "Aisha", "Kofi", "Elena", "Rafael", "Yuki", "Noah"],
    "tool": ["Sentry", "Datadog", "PagerDuty", "Honeycomb", "Grafana", "Linear", "Jira", "Opsgenie"],
    "lang": ["Python 3.12", "Go 1.22", "TypeScript 5.4", "Rust 1.78", "Kotlin 2.0", "Java 21"],
    "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
    "size": ["2 GB", "512 MB", "4 vCPU", "16 GB", "8 GB"],
    "pct": ["80%", "90%", "95%", "70%"],
    "minutes": ["5", "10", "15", "30", "45"],
    "region": ["eu-central-1", "us-east-1", "ap-southeast-2", "eu-north-1"],
}

FILLER_TEMPLATES = [
    "The {ws} service is written in {lang}",
    "{person} is the on-call lead for {ws} this quarter",
    "Alerts for {ws} are routed through {tool}",
    "Local development of {ws} uses docker compose with a seeded database",
    "The {ws} health check endpoint is /healthz on port {port}",
    "{ws} containers are limited to {size} of memory",
    "Unit test coverage for {ws} must stay above {pct}",
    "The {ws} team holds its planning meeting every {day}",
    "Feature flags for {ws} are managed in LaunchDarkly",
    "Secrets for {ws} are read from Vault at startup",
    "{ws} logs are kept for {minutes} days in the hot tier",
    "The {ws} CI pipeline caches dependencies between runs",
    "Database migrations for {ws} are written with Alembic",
    "The {ws} README explains how to run the integration suite",
    "{person} reviews every schema change in {ws}",
    "Canary releases of {ws} receive {pct} of traffic only after an hour",
    "The {ws} staging environment is reset every {day} night",
    "Error budgets for {ws} are tracked on a shared dashboard",
    "The {ws} codebase uses trunk-based development",
    "Dependency updates in {ws} are batched by Renovate",
    "Performance tests for {ws} run against a copy of production data",
    "The {ws} API is versioned in the URL path",
    "Rate limits in {ws} are enforced at the gateway",
    "The oldest supported client version of {ws} is documented in SUPPORT.md",
    "Background jobs in {ws} are processed by Celery workers",
    "Timeouts between {ws} and its upstreams are set to {minutes} seconds",
    "Incidents in {ws} get a written postmortem within a week",
    "{ws} runs in {region} with a warm standby",
    "The {ws} Makefile has a target that prints every available command",
    "Translations for {ws} are synced from Crowdin",
    "Access to the {ws} production console needs a ticket",
    "The {ws} load balancer terminates TLS",
    "Cron schedules in {ws} are written in UTC",
    "Static assets of {ws} are served from a CDN",
    "{ws} metrics are scraped by Prometheus every {minutes} seconds",
    "Code owners for {ws} are listed in the CODEOWNERS file",
    "The {ws} changelog follows Keep a Changelog",
    "Snapshot tests in {ws} are updated with a dedicated make target",
    "{person} wrote most of the original {ws} authentication code",
    "The {ws} search index is rebuilt weekly",
    "Long-running {ws} queries are cancelled after {minutes} minutes",
    "The {ws} mobile clients poll for config every {minutes} minutes",
    "Retries in {ws} use exponential backoff with jitter",
    "The {ws} design doc lives in the team wiki",
    "Pull requests in {ws} need two approvals",
    "The {ws} event schema is registered in the schema registry",
    "{ws} uses structured JSON logging",
    "The {ws} admin panel is only reachable over the VPN",
    "Data retention for {ws} follows the company policy of seven years",
    "The {ws} build produces a single static binary",
    "Benchmarks for {ws} are stored next to the code they measure",
    "The {ws} error pages are customised per locale",
    "Webhooks from {ws} are signed with HMAC SHA-256",
    "{ws} depends on the shared auth library",
    "The {ws} test fixtures are generated with factory_boy",
]
"""One sentence each; every file uses each template once at most."""

CORE_FILLER = [
    "Sam works as a staff engineer on the platform team",
    "Sam's working hours are 09:00 to 17:30 Lisbon time",
    "Sam reads Portuguese and English, and some Spanish",
    "Sam's laptop is a MacBook Pro with 32 GB of memory",
    "Sam uses fish as the login shell",
    "Sam keeps personal notes in Obsidian",
    "Sam's GitHub handle is sam-costa",
    "Sam is on the incident commander rota in even weeks",
    "Sam mentors two junior engineers",
    "Sam likes diagrams drawn with Mermaid",
    "Sam asks for sources when a claim is not obvious",
    "Sam does code review in the afternoon",
    "A failing flaky test is quarantined with an issue link, never deleted",
    "Read the migration plan before touching a shared table",
    "Check the runbook before paging a second team",
    "Small pull requests get reviewed within a day",
    "Type hints are required in new Python modules",
    "Keep secrets out of shell history by using the password manager CLI",
    "Bisect with git bisect run when a regression has a test",
    "Profile before optimising a hot path",
    "Write the test that reproduces a bug before fixing it",
    "Avoid editing generated files by hand",
    "Leave a comment when a workaround depends on an upstream bug",
    "Lockfiles are committed in every repository",
    "Prefer composition over inheritance in new code",
    "Document every environment variable in the README",
    "Rename things in a separate commit from behaviour changes",
    "Use UTC in stored timestamps and convert only for display",
    "Run the linters locally before asking for review",
    "Name branches after the ticket they belong to",
]
"""Hand-written facts for me.md and lessons.md (one scope: they must not be planted pairs by accident)."""


def _filler(rng: random.Random, name: str, count: int) -> list[str]:
    picked = rng.sample(FILLER_TEMPLATES, min(count, len(FILLER_TEMPLATES)))
    return [t.format(ws=name, **{k: rng.choice(v) for k, v in _SLOTS.items()}) for t in picked]


def _line(text: str, by: str, added: str) -> str:
    return f"- {text} [by: {by}; added: {added}]"


def build(root: Path, seed: int = 7) -> dict[str, str]:
    """Write the repo's files under ``root`` (no git): path -> text, and return them.

    Args:
        root: an empty folder.
        seed: the filler's random seed.

    Returns:
        dict[str, str]: every file written.
    """
    rng = random.Random(seed)
    files: dict[str, list[str]] = {}
    files["MEMORY.md"] = ["# Memory", "", _line("Answer in English unless asked otherwise", "user", "2025-01-01"), ""]
    files["me.md"] = ["# About me", ""] + [_line(t, "user", "2025-01-02") for t in CORE_FILLER[:12]]
    files["lessons.md"] = ["# Lessons", ""] + [_line(t, "agent", "2025-01-03") for t in CORE_FILLER[12:]]
    for ws in WORKSPACES:
        path = f"workspaces/{ws}.md"
        head = f"- Workspace {ws} [workspace: ws-{zlib.crc32(ws.encode()) % 10**8:08d}; path: /home/sam/src/{ws}; by: user]"
        files[path] = [f"# {ws}", "", head]
        files[path] += [_line(t, rng.choice(("agent", "agent", "user")), "2025-01-05") for t in _filler(rng, ws, 55)]
    for topic in TOPICS:
        path = f"topics/{topic}.md"
        files[path] = [f"# {topic}", ""]
        files[path] += [_line(t, "agent", "2025-01-06") for t in _filler(rng, topic.replace("-", " "), 50)]
    for pair in PAIRS:
        lines = files[pair.path]
        at = rng.randint(3, len(lines))
        lines.insert(at, _line(pair.a, pair.a_by, pair.a_added))
        lines.insert(rng.randint(at + 1, len(lines)), _line(pair.b, pair.b_by, pair.b_added))
    index = ["## Index"] + [f"- [[{p[:-3]}]]" for p in sorted(files) if p != "MEMORY.md"]
    files["MEMORY.md"] += index
    out = {p: "\n".join(lines) + "\n" for p, lines in files.items()}
    for path, text in out.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return out


def build_repo(root: Path, seed: int = 7) -> dict[str, str]:
    """:func:`build`, then one commit with the git command line (as a person's first import)."""
    files = build(root, seed)
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost.invalid", "-C", str(root)]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "Planted memory repo"], check=True)
    return files
