"""The phrasings of the labelled benchmark repo (:mod:`generate`), in two variants that share no sentence.

``tune`` is what the context block's selection rule was developed on; ``heldout`` is never looked at
while tuning: other projects, other people, other words for the same kinds of change.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """One variant's sentence pools ({p} project, {person}, {n}, {a}/{b} versions, {x}/{y} people)."""

    projects: list[str]
    people: list[str]
    versions: list[int]
    static_facts: list[str]
    changes: list[tuple[str, str]]
    subject_changes: list[tuple[str, str, str]]
    restatements: list[tuple[str, str]]
    decisions: list[str]
    project_rules: list[str]
    agent_notes: list[str]
    cjk_facts: tuple[list[str], list[str]]
    cjk_changes: tuple[tuple[str, str], tuple[str, str]]
    focus: list[str]
    preferences: list[str]
    person_facts: list[str]
    preference_changes: list[tuple[str, str]]
    preference_restatements: list[tuple[str, str]]
    me_agent_notes: list[str]
    user_rules: list[str]
    agent_lessons: list[str]
    global_pins: list[str]
    newest_pin: str
    side_projects: list[str]
    """Older projects with one line each: their index lines in MEMORY.md compete with its pins (the entry
    point of a user with many projects, as in make_corpus's 200-file repo)."""
    side_fact: str
    """The one line of a side project ({p})."""


TUNE = Variant(
    projects=[
        "billing-api",
        "mobile-app",
        "data-pipeline",
        "docs-site",
        "infra",
        "ml-ranker",
        "admin-portal",
        "cli-tool",
    ],
    people=["Alice Chen", "Bob Okafor", "Carla Ruiz", "Dmitri Volkov", "Emma Lindqvist", "Farid Haddad"],
    versions=[14, 15, 16, 18, 20, 22],
    static_facts=[
        "The {p} repo is a monorepo managed with Turborepo",
        "Tests for {p} run with `make test`; the integration suite needs Docker running",
        "CI for {p} runs on GitHub Actions, the workflow file is ci.yml",
        "{person} owns code review for the {p} payments module",
        "Staging for {p} lives at staging.{p}.internal",
        "Feature flags in {p} come from LaunchDarkly",
        "Logs from {p} ship to Datadog under the service tag {p}",
        "Release branches of {p} are cut every {n} weeks on Monday",
        "The legacy importer in {p} is frozen: no refactors without a ticket",
        "Secrets for {p} are in 1Password, vault Engineering",
        "{p} uses conventional commits; the changelog is generated from them",
        "Database migrations in {p} live in db/migrations and run with alembic",
        "The {p} API is documented in openapi.yaml at the repo root",
        "Local dev for {p} starts with `docker compose up` and seeds with `make seed`",
        "Error budgets for {p} are reviewed in the monthly ops meeting",
        "{person} is the product manager for {p}",
    ],
    changes=[
        ("The {p} service runs on Node {a}", "Moved the {p} service to Node {b} LTS"),
        ("Deploys of {p} go through Heroku", "Deploys of {p} now go through Fly.io"),
        ("The {p} database is Postgres {a}", "Upgraded the {p} database to Postgres {b}"),
        ("{p} uses npm as its package manager", "Switched {p} from npm to pnpm"),
        ("Unit tests in {p} run with jest", "Unit tests in {p} now run with vitest; jest is gone"),
        ("The on-call contact for {p} is {x}", "{y} took over on-call for {p} from {x}"),
        (
            "The {p} API base URL is https://api.example.com/v1",
            "The {p} API base URL changed to https://api.example.com/v2",
        ),
        ("{p} is hosted in us-east-1", "{p} was migrated from us-east-1 to eu-west-1"),
    ],
    subject_changes=[
        (
            "The {p} test database is SQLite in memory",
            "The {p} test database is a throwaway Postgres container",
            "test database",
        ),
        ("Code freeze for {p} is on Thursdays", "Code freeze for {p} is on Wednesdays", "code freeze"),
        ("The {p} linter is flake8", "The {p} linter is ruff", "linter"),
    ],
    restatements=[
        ("Run `make lint` before pushing to {p}", "Always run make lint before you push {p} changes"),
        ("{p} PRs need two approvals", "Two approvals are required on every {p} pull request"),
        ("The {p} staging database is reset every night", "Staging data for {p} gets wiped nightly"),
    ],
    decisions=[
        "Decided to keep {p} on REST instead of moving to GraphQL this year",
        "Decided {p} stores money as integer cents, never floats",
        "Decided to drop IE11 support in {p}",
        "Decided {p} background jobs use the Postgres queue, not Redis",
    ],
    project_rules=[
        "Never push directly to the {p} release branch",
        "Ask before changing the public API of {p}",
        "Do not bump {p} dependencies during a release week",
        "Keep {p} feature flags out of the domain layer",
    ],
    agent_notes=[
        "The {p} build prints a harmless warning about peer dependencies",
        "Running the full {p} test suite takes about 6 minutes",
        "The {p} Makefile target `dev` expects a .env file",
        "{p} has flaky test test_retry_backoff on CI",
        "The {p} lockfile must be regenerated after editing workspace packages",
        "In {p}, the fixtures folder is generated; edit the factories instead",
        "The {p} docs build fails without graphviz installed",
    ],
    cjk_facts=(
        ["数据管道每天凌晨两点运行", "数据表的负责人是王磊", "原始数据保存在对象存储中三十天"],
        ["管理画面のログイン画面は来月リニューアル予定", "管理画面の権限はロールで管理する"],
    ),
    cjk_changes=(
        ("部署使用 Jenkins 流水线", "部署现在改用 GitHub Actions 流水线"),
        ("管理画面のデプロイは毎週金曜日", "管理画面のデプロイは毎週火曜日に変更"),
    ),
    focus=[
        "Current focus on {p}: finishing the invoicing rewrite",
        "Current focus on {p}: cutting p95 latency below 200 ms",
        "Current focus on {p}: the migration to the new auth provider",
        "Current focus on {p}: getting the test suite green on CI",
    ],
    preferences=[
        "Prefers concise answers without preamble",
        "Likes code examples in Python over pseudo-code",
        "Uses macOS with zsh and iTerm2",
        "Writes commit messages in the imperative mood",
        "Prefers small pull requests, under 300 lines",
        "Works in the Europe/Berlin time zone",
        "Prefers tabs for Go and 4 spaces for Python",
        "Wants tests written before the fix for every bug",
        "Reads long explanations as bullet lists",
        "Prefers type hints on all new Python functions",
        "Dislikes emojis in commit messages",
        "Uses Firefox for web debugging",
        "Prefers dark themes in editors",
        "Likes diagrams in mermaid syntax",
        "Wants error messages quoted verbatim when debugging",
        "Prefers pytest over unittest",
        "Usually starts work at 8:30",
        "Likes links to official docs rather than blog posts",
        "Prefers SQL written in lowercase",
        "Wants shell commands that work on both macOS and Linux",
        "Speaks German and English",
        "Prefers metric units",
        "Uses a split keyboard and prefers few chords in shortcuts",
        "Prefers async code with asyncio over threads",
        "Likes to review diffs before anything is committed",
        "Wants dependency changes explained before they are made",
        "Prefers ISO dates in everything written",
        "Reads the changelog of every dependency bump",
        "Prefers explicit imports over star imports",
        "Likes short variable names only in comprehensions",
    ],
    person_facts=[
        "Alice Chen is the engineering manager and approves hiring",
        "Bob Okafor is the SRE lead; page him for production incidents",
        "Carla Ruiz designs the mobile app and owns Figma files",
        "Dmitri Volkov maintains the data platform",
        "Emma Lindqvist runs the weekly architecture review",
        "Farid Haddad is the security contact for all projects",
        "The user's manager is Alice Chen",
        "Bob Okafor prefers Slack over email",
    ],
    preference_changes=[
        ("Edits code in vim", "Switched from vim to Helix as the main editor"),
        ("Prefers black for Python formatting", "Now formats Python with ruff format instead of black"),
        ("Uses Poetry for Python projects", "Moved from Poetry to uv for Python projects"),
        ("The weekly planning call is on Mondays at 10", "The weekly planning call moved to Tuesdays at 9"),
        ("喜欢用中文写注释", "现在改为用英文写注释"),
    ],
    preference_restatements=[
        ("Prefers British spelling in docs", "Use British English spelling in documentation"),
        ("Likes answers that lead with the command to run", "Put the command to run first in an answer"),
    ],
    me_agent_notes=[
        "The user often works on two projects in parallel",
        "The user asks for benchmarks before accepting performance changes",
        "The user reviews PRs in the morning",
        "The user tends to paste full stack traces",
        "The user keeps a scratch folder at ~/scratch",
        "The user's laptop has 16 GB of RAM",
        "The user prefers gh over the GitHub web UI",
        "The user mentioned a trip in the second week of May",
    ],
    user_rules=[
        "Never force-push to main",
        "Ask before running migrations against production",
        "Never commit secrets or .env files",
        "Do not delete branches other people created",
        "Ask before installing global packages",
        "Never run destructive SQL without a WHERE clause preview first",
        "Do not rewrite published git history",
        "Ask before sending anything to external services",
        "Never disable tests to make CI pass",
        "Keep changes to one concern per commit",
        "Do not change CI configuration without saying so",
        "Always show the diff before committing",
        "Never store personal data in logs",
        "Ask before upgrading a major version of a dependency",
        "Do not use sudo in scripts",
        "Never touch the production database from a laptop",
        "Run the linters before proposing a commit",
        "Do not add new dependencies for one small helper",
    ],
    agent_lessons=[
        "pnpm needs `--frozen-lockfile` in CI or the install rewrites the lockfile",
        "The GitHub CLI needs `gh auth refresh -s workflow` before editing workflows",
        "Docker on this machine needs colima started first",
        "alembic autogenerate misses server defaults; check the migration by hand",
        "pytest-xdist breaks tests that share a temp folder name",
        "The corporate proxy breaks pip unless PIP_INDEX_URL is set",
        "Homebrew python and pyenv python conflict on PATH",
        "Large git clones of the monorepo need --filter=blob:none",
        "mypy needs the pydantic plugin enabled in this setup",
        "The VPN drops SSH sessions after 30 minutes idle",
    ],
    global_pins=[
        "Always answer in English unless I write in German",
        "My GitHub handle is jdoe-dev and my work email is jdoe at example.com",
        "Projects live under ~/code; each has its own workspace file",
        "I am the tech lead for billing-api and infra",
        "Quarterly planning is in the first week of each quarter",
        "When unsure, ask one question instead of guessing",
        "Production access goes through the bastion host only",
        "Use the team's RFC template for any design change",
        "Vacation: out from the 12th to the 23rd of August, no deploys that week",
        "The shared staging cluster is booked through the #staging channel",
        "Customer names never go into commit messages or branch names",
        "The company VPN must be on for anything under *.internal",
        "Prefer the billing-api patterns when starting a new service",
    ],
    newest_pin="From now on the release train is every second Wednesday",
    side_projects=[
        f"{a}-{b}"
        for a in ("legacy", "intern", "hack", "poc")
        for b in ("crm", "wiki", "bot", "scraper", "dashboard", "sdk", "exporter", "theme")
    ],
    side_fact="{p} is archived; its README says how to run it locally",
)


HELDOUT = Variant(
    projects=[
        "checkout-web",
        "fleet-tracker",
        "search-service",
        "warehouse-etl",
        "notify-hub",
        "auth-gateway",
        "pricing-engine",
        "design-system",
    ],
    people=["Grace Hopper", "Hiro Tanaka", "Ines Moreau", "Jonas Berg", "Kemi Adeyemi", "Luca Romano"],
    versions=[3, 8, 10, 11, 12, 13],
    static_facts=[
        "{p} is written in Go and built with Bazel",
        "{person} is the tech lead of {p}",
        "{p} exposes metrics on port 9090 for Prometheus",
        "Integration tests of {p} use testcontainers",
        "The {p} README has the on-boarding checklist",
        "{p} reads its configuration from environment variables only",
        "Container images of {p} are pushed to ghcr.io",
        "{p} has a nightly load test at 02:00 UTC",
        "The {p} schema is owned by {person}",
        "{p} must keep backward compatibility for two minor versions",
        "The {p} frontend talks to the backend through a BFF layer",
        "{p} dashboards are in Grafana folder {p}",
        "{p} supports English, French and Japanese locales",
        "Incidents in {p} are written up within {n} days",
        "The {p} Helm chart lives in deploy/chart",
        "{p} rate limits are configured in limits.yaml",
    ],
    changes=[
        ("We deploy {p} on Kubernetes 1.2{a}", "As of this sprint {p} deploys on Kubernetes 1.2{b} instead"),
        ("{p} runs Python 3.{a}", "{p} was bumped to Python 3.{b}"),
        ("Frontend state in {p} is kept in Redux", "Replaced Redux with Zustand for frontend state in {p}"),
        (
            "Cron jobs of {p} run on the old VM",
            "Cron jobs of {p} no longer run on the old VM; they are Cloud Scheduler jobs now",
        ),
        ("The default branch of {p} is master", "Renamed the default branch of {p} from master to main"),
        ("The {p} weekly sync is on Tuesdays", "The {p} weekly sync moved to Thursdays"),
        ("{x} reviews all {p} schema changes", "Schema changes in {p} are reviewed by {y} now, not {x}"),
        ("{p} caches sessions in Memcached", "{p} caches sessions in Redis since the outage"),
    ],
    subject_changes=[
        ("{p} sends email through SendGrid", "{p} sends email through Amazon SES", "email provider"),
        ("The {p} search index is Elasticsearch 7", "The {p} search index is OpenSearch 2", "search index"),
        ("{p} error tracking is Rollbar", "{p} error tracking is Sentry", "error tracking"),
    ],
    restatements=[
        ("{p} merges need a green build", "Only merge {p} branches with a passing build"),
        ("Feature work on {p} happens behind flags", "New {p} features ship behind a feature flag"),
        ("The {p} API is versioned in the URL path", "{p} puts the API version in the path, like /v2/"),
    ],
    decisions=[
        "We chose gRPC for internal calls in {p}",
        "{p} will not support offline mode in this release",
        "{p} keeps all timestamps in UTC in storage",
        "{p} adopts OpenTelemetry for tracing",
    ],
    project_rules=[
        "Never run the {p} load test against production",
        "Check with the tech lead before adding a new {p} service",
        "No schema changes to {p} on Fridays",
        "Keep {p} secrets out of the Helm values files",
    ],
    agent_notes=[
        "{p} needs `go generate ./...` after editing the proto files",
        "The {p} e2e tests need a seeded database",
        "{p} lint warnings about unused params are known and ignored",
        "The {p} dev server hot-reloads only the frontend",
        "Building {p} images locally needs buildx",
        "{p} has a slow test tagged @slow that CI skips",
        "The {p} repo's pre-commit hooks need Node installed",
    ],
    cjk_facts=(
        ["搜索服务的索引每小时重建一次", "搜索日志保留七天"],
        ["倉庫ETLの実行は毎晩三時", "倉庫データの担当者は佐藤さん", "ETLの失敗はSlackに通知される"],
    ),
    cjk_changes=(
        ("搜索服务部署在北京机房", "搜索服务已迁移到上海机房"),
        ("倉庫ETLはcronで起動する", "倉庫ETLは現在Airflowで起動する"),
    ),
    focus=[
        "This month on {p} the goal is the checkout redesign",
        "This month on {p} the goal is halving the error rate",
        "This month on {p} the goal is the Kubernetes upgrade",
        "This month on {p} the goal is accessibility fixes",
    ],
    preferences=[
        "Wants the reasoning before the answer",
        "Writes Go with the standard library where possible",
        "Uses Linux with fish shell",
        "Keeps commits small and rebased",
        "Prefers table summaries for comparisons",
        "Is based in Tokyo time",
        "Likes property-based tests for parsers",
        "Prefers YAML over JSON for hand-edited config",
        "Wants the failing command shown with its output",
        "Prefers functional style in TypeScript",
        "Avoids ORMs for reporting queries",
        "Uses Neovim with LSP",
        "Prefers light themes for presentations",
        "Wants explanations with one worked example",
        "Prefers Makefiles as the entry point of a repo",
        "Likes code comments only for why, not what",
        "Starts the day with code review",
        "Prefers screenshots to be annotated",
        "Writes docs in Markdown, never in Word",
        "Prefers structured logging in JSON",
        "Speaks Japanese and English",
        "Wants the tradeoffs listed for every design choice",
        "Prefers Terraform over click-ops",
        "Likes to pair on tricky bugs",
        "Prefers feature branches that live less than a week",
        "Wants estimates given as ranges",
        "Prefers plain CSS over CSS-in-JS",
        "Reads release notes before upgrading tools",
        "Prefers pnpm for JavaScript projects",
        "Likes terse variable names in Go",
    ],
    person_facts=[
        "Grace Hopper leads the platform group",
        "Hiro Tanaka handles all customer escalations",
        "Ines Moreau is the designer for checkout",
        "Jonas Berg owns the data warehouse",
        "Kemi Adeyemi is the security champion",
        "Luca Romano manages releases",
        "The user reports to Grace Hopper",
        "Hiro Tanaka is off on Fridays",
    ],
    preference_changes=[
        ("Uses VS Code as the editor", "Moved to Zed as the main editor, VS Code only for notebooks"),
        ("Runs JavaScript with Node", "Now runs JavaScript tooling with Bun rather than Node"),
        ("Standup is at 9:30", "Standup is now at 10:00"),
        ("Takes notes in Notion", "Stopped using Notion; notes are in Obsidian"),
        ("メモは日本語で書く", "メモは英語で書くように変更した"),
    ],
    preference_restatements=[
        ("Prefers American spelling", "Use US English spelling everywhere"),
        ("Wants PR descriptions with a test plan", "Every pull request description needs a test plan section"),
    ],
    me_agent_notes=[
        "The user switches between Go and TypeScript daily",
        "The user likes to see benchmarks as tables",
        "The user's machine is an M2 MacBook Air",
        "The user reviews dependabot PRs on Mondays",
        "The user keeps dotfiles in a public repo",
        "The user is often in meetings after 15:00",
        "The user prefers to run tests in watch mode",
        "The user mentioned a conference talk in June",
    ],
    user_rules=[
        "Never merge your own pull request without review",
        "Confirm before deleting any cloud resource",
        "Never paste customer data into prompts or tickets",
        "Do not reformat files you did not change",
        "Check with me before rotating credentials",
        "Never bypass the pre-commit hooks",
        "Do not open pull requests against release branches",
        "Always write a rollback plan for infra changes",
        "Never hardcode hostnames; read them from config",
        "Do not commit generated files",
        "Check licenses before adding a dependency",
        "Never log request bodies",
        "Do not squash other people's commits",
        "Confirm the target cluster before any kubectl apply",
        "Keep TODOs linked to a ticket",
        "Never use latest tags for container images",
        "Stop and ask when a test fails for an unknown reason",
        "Do not edit vendored code",
    ],
    agent_lessons=[
        "Bazel caches go stale after switching Go versions; run bazel clean",
        "kubectl needs the right context; check `kubectl config current-context`",
        "The staging cluster rejects images without a digest",
        "Terraform state is locked if a previous plan was interrupted",
        "The Go proxy is blocked; set GOPROXY=direct for internal modules",
        "Playwright needs `npx playwright install` after upgrades",
        "golangci-lint needs more memory for the monorepo",
        "The CI cache key includes the lockfile hash",
        "SES sandbox only sends to verified addresses",
        "ETL jobs fail silently when the bucket policy changes",
    ],
    global_pins=[
        "Reply in the language I write in",
        "My handle is kemi-r and my on-call week is the last week of the month",
        "Repos are cloned under ~/src",
        "I own checkout-web and pricing-engine",
        "Design reviews happen on Wednesdays",
        "Prefer asking over assuming for anything irreversible",
        "All infra changes go through Terraform pull requests",
        "Use the incident template for postmortems",
        "Parental leave: away from the 3rd to the 28th of July, Luca covers releases",
        "Shared test accounts are listed in the team vault, entry qa-accounts",
        "Ticket numbers go in branch names, never customer names",
        "Office days are Tuesday and Thursday; expect slower replies otherwise",
        "New services start from the service-template repo",
    ],
    newest_pin="Starting this quarter every service needs an SLO document",
    side_projects=[
        f"{a}-{b}"
        for a in ("old", "spike", "demo", "lab")
        for b in ("portal", "mailer", "cron", "proxy", "metrics", "plugin", "importer", "widget")
    ],
    side_fact="{p} was handed over to another team last year",
)


VARIANTS = {"tune": TUNE, "heldout": HELDOUT}
