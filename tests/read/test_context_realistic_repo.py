"""On a grown repo the block shows the newest pin, the user's rule and each fact's current line (issue 30; docs/
architecture.md §4).

Three complaints about the block were checked as a user on make_corpus repos of 200, 2,000 and 20,000 files (ctx13,
round 13): each project's oldest entries shown with their replacements cut, the user's rules never reaching it, the
newest pin dropped silently. None held there; this test keeps them from coming back. It builds its own repo the way
the corpus does (files of many dated entries, about a tenth by hand in CJK, a MEMORY.md index, one commit), a project
whose workspace file already holds three facts, then acts through the CLI: supersede the three facts and where the user
lives, pin a line, add a rule "from now on", and reads ``memrepo context`` and Claude Code's SessionStart hook.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
from datetime import date, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from memrepo.cli.main import main
from memrepo.engine.format.paths import normalize_workspace

SUBJECTS = ["deploy", "tests", "release", "database", "billing", "auth", "logging", "ci", "docs", "api", "cache"]
VERBS = ["prefers", "uses", "avoids", "requires", "runs", "keeps", "rejects", "owns"]
OBJECTS = ["pnpm over npm", "pytest -x before pushing", "rebase instead of merge", "UTC timestamps in logs",
           "feature flags for risky changes", "ruff format on save", "squash merges", "weekly dependency bumps"]  # fmt: skip
CJK = ["用户喜欢简洁的回答", "部署前必须运行全部测试", "日志时间统一使用UTC", "テストは並列で実行する"]
OLD = [
    "The shop API deploys to Fly.io from the main branch",
    "The shop database is Postgres 14",
    "CI for the shop runs on Travis CI",
]
NEW = [
    "We moved the shop API deploys to Render, not Fly.io",
    "We upgraded the shop database to Postgres 16",
    "CI for the shop now runs on GitHub Actions",
]
PIN = "Never push to main without a review, open a pull request"
RULE = "From now on, run make lint before every commit"


def _lines(rng: random.Random, count: int, start: int) -> list[str]:
    out = []
    for n in range(start, start + count):
        day = (date(2025, 1, 1) + timedelta(days=rng.randint(0, 600))).isoformat()
        by = rng.choice(["user", "agent"])
        if rng.random() < 0.1:
            text = f"{rng.choice(CJK)}（{rng.choice(SUBJECTS)}-{n}）"
        else:
            text = f"Team {rng.choice(VERBS)} {rng.choice(OBJECTS)} for {rng.choice(SUBJECTS)} (item {n})"
        out.append(f"- {text} [by: {by}; added: {day}]")
    return out


def _grown_repo(root: Path, project: Path) -> None:
    """A memory repo of many dated entries, committed once, whose project-0001 file is ``project``'s."""
    rng = random.Random(7)
    root.mkdir()
    files: dict[str, list[str]] = {"me.md": ["# me", "", *_lines(rng, 60, 1)]}
    files["me.md"].insert(30, "- I live in Lyon [by: user; added: 2025-03-01]")
    files["lessons.md"] = ["# lessons", "", *_lines(rng, 60, 100)]
    for i in range(6):
        name = f"project-{i:04d}"
        ws = normalize_workspace(str(project))[0] if i == 1 else f"ws-{i:08d}"
        body = _lines(rng, 150, 1000 + 200 * i)
        if i == 1:
            body[70:70] = [f"- {t} [by: user; added: 2025-06-0{k + 1}]" for k, t in enumerate(OLD)]
        files[f"workspaces/{name}.md"] = [f"# {name}", "", f"- {name} workspace [workspace: {ws}; by: user]", *body]
    index = [f"- [[workspaces/project-{i:04d}]]" for i in range(6)]
    files["MEMORY.md"] = [
        "# Memory: Sample User",
        "",
        "- Prefers concise answers with bullet points [by: user; added: 2025-01-02]",
        "- Answer in English unless asked otherwise [by: user; added: 2025-01-02]",
        "",
        "## Index",
        "- [[me]]",
        "- [[lessons]]",
        *index,
    ]
    files["inbox.md"] = ["# Inbox", ""]
    for path, lines in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    git = ["git", "-C", str(root), "-c", "user.name=U", "-c", "user.email=u@example.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "Create memory repo"], check=True)


def _shown(block: str, needle: str) -> bool:
    return any(needle in line for line in block.splitlines() if re.match(r"L\d+ ", line))


@pytest.mark.slow
def test_the_block_of_a_grown_repo_holds_the_newest_pin_the_rule_and_current_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMREPO_CONFIG", str(tmp_path / "none.toml"))
    repo, project = tmp_path / "memory", tmp_path / "shop"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    _grown_repo(repo, project)
    runner = CliRunner()

    def mr(*args: str, stdin: str | None = None) -> str:
        done = runner.invoke(main, ["--repo", str(repo), *args], input=stdin)
        assert done.exit_code == 0, (args, done.output)
        return done.stdout

    for text in NEW:
        mr("remember", "--workspace", str(project), text)
    mr("remember", "I moved to Paris")
    mr("remember", "--pin", PIN)
    mr("remember", RULE)
    block = mr("context", "--workspace", str(project))
    payload = {"session_id": "s2", "transcript_path": str(tmp_path / "s2.jsonl"), "cwd": str(project)}
    payload |= {"hook_event_name": "SessionStart", "source": "startup"}
    hook = json.loads(mr("hook", "session-start", stdin=json.dumps(payload)))["hookSpecificOutput"]
    for text in (block, hook["additionalContext"]):
        assert _shown(text, PIN), "the newest pin"
        assert _shown(text, "run make lint before every commit"), "the user's rule"
        for old, new in zip([*OLD, "I live in Lyon"], [*NEW, "I moved to Paris"], strict=True):
            assert _shown(text, new), new
            assert not _shown(text, old), old
