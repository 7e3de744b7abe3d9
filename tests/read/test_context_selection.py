"""The context block's selection rule (docs/architecture.md §4): what is current first, the user's rules and pins,
the newest first past a budget, no silent loss."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import git

from memrepo.engine.format.entries import parse
from memrepo.engine.models import Candidate
from memrepo.engine.read.context import ContextFile, build_context
from memrepo.engine.read.contextbudget import budget_misses
from memrepo.engine.read.contextselect import candidates, replaced
from memrepo.engine.repo.store import MemoryStore


def block_of(text: str, budget: int = 300, **kw: object) -> str:
    return build_context("abc1234", [ContextFile("workspaces/w.md", text.encode(), budget, **kw)]).text  # type: ignore[arg-type]


def replaced_texts(text: str) -> dict[str, str]:
    parsed = parse(text.encode())
    lines = dict(parsed.entries())
    return {lines[old].text: lines[new].text for old, new in replaced(candidates(parsed.entries())).items()}


def test_a_newer_line_with_a_change_word_replaces_the_older_one_and_the_file_keeps_it() -> None:
    text = (
        "# w\n\n"
        "- The api service runs on Node 18 [by: user; added: 2026-01-02]\n"
        "- Staging lives at staging.example.internal [by: user; added: 2026-01-03]\n"
        "- Moved the api service to Node 20 LTS [by: user; added: 2026-03-01]\n"
    )
    shown = block_of(text)
    assert "Moved the api service to Node 20 LTS" in shown and "Staging lives" in shown
    assert "runs on Node 18" not in shown
    assert "(1 more entry in workspaces/w.md not shown (1 replaced by newer lines)" in shown
    assert "memory_read" in shown


def test_the_same_words_without_a_change_word_and_other_numbers_both_stay() -> None:
    """Control: two lines about Node with different versions and no change word are two facts."""
    text = "# w\n\n- Tests run on Node 18 in CI [by: user]\n- Tests run on Node 20 on laptops [by: user]\n"
    assert replaced_texts(text) == {}
    shown = block_of(text)
    assert "Node 18 in CI" in shown and "Node 20 on laptops" in shown


def test_a_hand_typed_line_with_the_same_subject_replaces_the_older_one() -> None:
    text = (
        "# w\n\n- Code freeze is on Thursdays [by: user; added: 2026-01-05; subject: code freeze]\n"
        "- Unrelated [by: user; added: 2026-02-01]\n- Code freeze is on Wednesdays [subject: Code Freeze]\n"
    )
    assert replaced_texts(text) == {"Code freeze is on Thursdays": "Code freeze is on Wednesdays"}


def test_supersedes_names_the_older_line() -> None:
    text = (
        "# w\n\n- Deploy with the old shell script deploy.sh [by: user; added: 2026-01-05]\n"
        "- Use the Makefile target release [by: user; added: 2026-02-05; supersedes: the old shell script]\n"
    )
    assert replaced_texts(text) == {"Deploy with the old shell script deploy.sh": "Use the Makefile target release"}


def test_supersedes_names_a_same_day_line_above_it_whatever_change_words_that_line_holds() -> None:
    """A chain said in one day (heldout5 h5-chain-python): "moved ... to 3.11" says it changed, "on 3.12 as of today"
    does not, yet the later line's ``supersedes:`` names the earlier one: the 3.11 line is replaced, and never
    replaces back the line that names it."""
    text = (
        "# w\n\n- Saffron runs on Python 3.10 [by: user; added: 2026-12-04]\n"
        "- We finally moved saffron to Python 3.11 this morning [by: user; added: 2026-12-05; supersedes: Python 3.10]\n"
        "- Saffron is on Python 3.12 as of today [by: user; added: 2026-12-05; supersedes: Python 3.11]\n"
    )
    gone = replaced_texts(text)
    assert gone["We finally moved saffron to Python 3.11 this morning"] == "Saffron is on Python 3.12 as of today"
    assert "Saffron is on Python 3.12 as of today" not in gone
    shown = block_of(text)
    assert "Python 3.12" in shown and "Python 3.11" not in shown and "Python 3.10" not in shown


def test_switched_from_names_the_older_line_most_like_it() -> None:
    text = (
        "# w\n\n- The project uses npm as its package manager [by: user; added: 2026-01-01]\n"
        "- Bob says npm audit output is noisy [by: user; added: 2026-01-02]\n"
        "- Switched from npm to pnpm [by: user; added: 2026-02-01]\n"
    )
    assert replaced_texts(text) == {"The project uses npm as its package manager": "Switched from npm to pnpm"}


def test_an_agent_never_replaces_the_user_and_a_fact_never_replaces_a_rule() -> None:
    text = (
        "# w\n\n- The api service runs on Node 18 [by: user; added: 2026-01-02]\n"
        "- Moved the api service to Node 20 LTS [by: agent; added: 2026-03-01]\n"
        "- Never deploy the api service on Fridays [by: user; kind: rule; added: 2026-01-02]\n"
        "- The api service now deploys on Fridays too [by: user; added: 2026-03-02]\n"
    )
    assert replaced_texts(text) == {}


def test_cjk_lines_replace_by_their_bigrams() -> None:
    text = "# w\n\n- 管理画面のデプロイは毎週金曜日 [by: user; added: 2026-01-02]\n- 管理画面のデプロイは毎週火曜日に変更 [by: user; added: 2026-03-01]\n"
    assert replaced_texts(text) == {"管理画面のデプロイは毎週金曜日": "管理画面のデプロイは毎週火曜日に変更"}


def test_past_the_budget_the_newest_lines_are_shown_in_file_order() -> None:
    lines = "".join(
        f"- Fact {i:02d} about topic {chr(97 + i % 26)}x{i} [by: user; added: 2026-01-{i:02d}]\n" for i in range(1, 29)
    )
    shown = block_of("# w\n\n" + lines, budget=60)
    numbers = [int(row.split()[2]) for row in shown.splitlines() if row.startswith("L") and "Fact" in row]
    assert numbers and numbers == sorted(numbers)  # file order
    assert numbers[-1] == 28 and 1 not in numbers  # the newest in, the oldest out
    assert numbers == list(range(28 - len(numbers) + 1, 29))


def test_when_everything_fits_the_file_is_shown_as_it_is() -> None:
    text = "# w\n\n- Zeta fact [by: agent; added: 2026-03-01]\n## Part\n- Alpha fact [by: user; added: 2026-01-01]\n"
    shown = block_of(text)
    assert shown.index("Zeta fact") < shown.index("## Part") < shown.index("Alpha fact")
    assert "not shown" not in shown


def test_the_users_rules_outrank_newer_agent_notes_in_a_workspace_file() -> None:
    notes = "".join(f"- Agent note {i} on build step x{i} [by: agent; added: 2026-02-{i:02d}]\n" for i in range(1, 28))
    text = "# w\n\n- Never push to the release branch [by: user; kind: rule; added: 2026-01-01]\n" + notes
    shown = block_of(text, budget=40)
    assert "Never push to the release branch" in shown


def test_a_pin_naming_the_workspace_ranks_first_in_its_block() -> None:
    pins = "".join(f"- Pin {i} about thing y{i} [by: user; added: 2026-02-{i:02d}]\n" for i in range(1, 28))
    memory = "# Memory\n\n- Current focus on billing-api: invoices [by: user; added: 2026-01-01]\n" + pins
    files = [
        ContextFile("MEMORY.md", memory.encode(), 60, user_first=True),
        ContextFile("workspaces/billing-api.md", b"# b\n", 300, "workspace ws-12345678"),
    ]
    assert "Current focus on billing-api" in build_context("abc1234", files, "ws-12345678").text
    assert "Current focus on billing-api" not in build_context("abc1234", files[:1]).text  # no workspace: oldest out


def test_lessons_md_shows_the_users_rules_only_and_counts_the_agents(store: MemoryStore) -> None:
    assert "## lessons.md" not in store.context().text  # no rule of the user's yet: no section
    store.remember(Candidate(text="Never force-push to main", kind="rule", by="user"))
    store.remember(Candidate(text="pip needs PIP_INDEX_URL behind the proxy", kind="lesson", by="agent"))
    block = store.context()
    assert "## lessons.md" in block.text and "Never force-push to main" in block.text
    assert "PIP_INDEX_URL" not in block.text and "1 by agents" in block.text
    section = next(s for s in block.sections if s.path == "lessons.md")
    assert section.budget == 250 and section.shown == 1 and section.omitted == 1
    assert block.tokens >= sum(s.tokens for s in block.sections)  # counted in the total


def _fill_memory(store: MemoryStore, n: int) -> None:
    memory = store.root / "MEMORY.md"
    pins = "".join(
        f"- Pinned line {i:02d} about the release train of project p{i} [by: user; added: 2026-{1 + i // 28:02d}-{1 + i % 28:02d}]\n"
        for i in range(1, n + 1)
    )
    memory.write_text(memory.read_text().replace("## Index", pins + "\n## Index", 1))
    store.commit_hand_edits()


def test_a_pin_past_the_budget_is_said_by_the_write_and_by_health(store: MemoryStore) -> None:
    from memrepo.engine.repo.health import check

    result = store.remember(Candidate(text="A first pin that fits", pin=True, by="user"))
    assert result.warning is None
    row = next(r for r in check(store) if r.name == "context budget")
    assert row.status == "OK"
    _fill_memory(store, 40)
    result = store.remember(Candidate(text="The newest pin of all", pin=True, by="user"))
    assert result.warning is not None and "MEMORY.md is past its 500-token context budget" in result.warning
    missed = budget_misses("MEMORY.md", (store.root / "MEMORY.md").read_bytes())
    assert missed and all(f"L{n}" in result.warning for n in missed[:5])
    assert "The newest pin of all" in store.context().text  # the newest pin is never the first dropped
    row = next(r for r in check(store) if r.name == "context budget")
    assert row.status == "WARN" and "MEMORY.md" in row.reason and "topic file" in row.reason


def test_health_names_the_cut_lines_of_every_file_the_block_draws_from(store: MemoryStore) -> None:
    from memrepo.engine.repo.health import check

    store.remember(Candidate(text="Deploys go through the blue-green script", scope="workspace", workspace="api"))
    row = next(r for r in check(store) if r.name == "context budget")
    assert row.status == "OK"
    me = store.root / "me.md"  # breaker4 F7: me.md's cut lines were in no Health row
    prefs = "".join(f"- Prefers the tool number {i} for chore {i} of the week [by: user]\n" for i in range(60))
    me.write_text(me.read_text() + prefs)
    ws = store.root / "workspaces" / "api.md"
    rules = "".join(f"- Never skip review step {i} of the api release [by: user; kind: rule]\n" for i in range(60))
    ws.write_text(ws.read_text() + rules)
    store.commit_hand_edits()
    row = next(r for r in check(store) if r.name == "context budget")
    assert row.status == "WARN" and "me.md " in row.reason and "workspaces/api.md " in row.reason
    assert "MEMORY.md" not in row.reason and "lessons.md" not in row.reason  # those still fit
    named = re.search(r"\bme\.md \d+ \(L(\d+)", row.reason)
    assert named is not None
    me_section = store.context().text.split("## me.md", 1)[1].split("\n## ", 1)[0]
    assert f"\nL{named.group(1)} " not in me_section  # a line Health names is one the block leaves out
    off = store.settings.model_copy(update={"context": store.settings.context.model_copy(update={"me_md": False})})
    row = next(r for r in check(store, settings=off) if r.name == "context budget")
    assert "me.md" not in row.reason and "workspaces/api.md" in row.reason  # me.md in no block: nothing cut


def test_the_cli_says_so_in_text_and_json(store: MemoryStore) -> None:
    from memrepo.cli.main import main

    _fill_memory(store, 40)
    runner = CliRunner()
    text = runner.invoke(main, ["--repo", str(store.root), "remember", "--pin", "One more pinned line"])
    assert text.exit_code == 0 and "added repo:MEMORY.md#L" in text.stdout
    assert "warning: MEMORY.md is past its 500-token context budget" in text.stderr
    out = runner.invoke(main, ["--repo", str(store.root), "remember", "--pin", "--json", "And another pinned line"])
    assert out.exit_code == 0
    assert "context budget" in json.loads(out.stdout)["warning"]
    plain = runner.invoke(main, ["--repo", str(store.root), "remember", "--json", "A preference of the user"])
    assert json.loads(plain.stdout)["warning"] is None  # me.md: no pin to lose


def test_the_block_is_the_same_from_every_reader(store: MemoryStore, tmp_path: Path) -> None:
    from memrepo.engine.read.coldread import context_text

    store.remember(Candidate(text="Never force-push to main", kind="rule", by="user"))
    store.remember(Candidate(text="The api runs on Node 18", scope="workspace", workspace="api", by="user"))
    store.remember(Candidate(text="Moved the api to Node 20 LTS", scope="workspace", workspace="api", by="user"))
    git(store.root, "status")
    cold = context_text(str(store.root), "api")
    assert cold is not None and cold == store.context("api").text
    assert "Node 20 LTS" in cold and "Never force-push to main" in cold


def test_a_kept_block_is_rendered_again_when_lessons_md_changes(store: MemoryStore) -> None:
    """lessons.md is read by every block now: a hand edit of it reaches the next new process's block."""
    import os

    from memrepo.engine.read.coldread import context_text

    first = context_text(str(store.root), None)
    assert first is not None and "Never rebase the release branch" not in first
    lessons = store.root / "lessons.md"
    st = lessons.stat()
    lessons.write_text(lessons.read_text() + "- Never rebase the release branch [by: user; kind: rule]\n")
    os.utime(lessons, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    again = context_text(str(store.root), None)
    assert again is not None and "Never rebase the release branch" in again


def test_remember_supersedes_keeps_the_named_line_out_of_the_block(store: MemoryStore, tmp_path: Path) -> None:
    import subprocess
    import sys

    from memrepo.cli.main import main

    runner = CliRunner()
    repo = ["--repo", str(store.root)]
    base = [*repo, "remember", "--workspace", "api"]
    assert runner.invoke(main, [*base, "Release notes are written in the wiki"]).exit_code == 0
    assert runner.invoke(main, [*base, "Deploys use the staging bastion"]).exit_code == 0
    assert "Release notes are written in the wiki" in store.context("api").text  # control: shown before
    out = runner.invoke(main, [*base, "--supersedes", "written in the wiki", "Release notes live in docs/"])
    assert out.exit_code == 0
    assert "supersedes: written in the wiki" in (store.root / "workspaces/api.md").read_text()
    block = store.context("api").text
    assert "Release notes live in docs/" in block and "written in the wiki" not in block
    assert "Deploys use the staging bastion" in block
    # the console script's quick path takes the option too
    script = [sys.executable, "-c", "from memrepo.cli.quick import script; script()"]
    done = subprocess.run(
        [*script, *base, "--supersedes", "staging bastion", "Deploys go through the new VPN"],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "MEMREPO_WRITE_SERVER": "0"},
    )
    assert done.returncode == 0, done.stderr
    block = MemoryStore.open(store.root, store.settings).context("api").text
    assert "Deploys go through the new VPN" in block and "staging bastion" not in block


def test_korean_change_words_replace_the_older_line() -> None:
    # breaker8 B8-12: 이제 "now", 더 이상 "no longer", 옮겼 "moved", 바뀌었 "changed" were never read as a correction
    pairs = [
        ("kimchi-bot 배포는 매일 새벽 3시에 한다", "kimchi-bot 배포는 이제 매일 새벽 5시에 한다"),
        ("나는 매주 금요일 저녁에 한국어 수업을 듣는다", "나는 이제 매주 토요일 아침에 한국어 수업을 듣는다"),
        ("팀 채팅은 슬랙 채널에서 한다", "팀 채팅은 더 이상 슬랙 채널에서 하지 않는다"),
        ("운영 서버는 도쿄 리전에 있다", "운영 서버는 서울 리전으로 옮겼다"),
        ("주간 회의는 월요일 오전에 한다", "주간 회의는 화요일 오전에 하는 것으로 바뀌었다"),
    ]
    for old, new in pairs:
        text = f"# w\n\n- {old} [by: user; added: 2026-12-05]\n- {new} [by: user; added: 2026-12-05]\n"
        assert replaced_texts(text) == {old: new}
        shown = block_of(text)
        assert new in shown and old not in shown


def test_korean_more_than_is_no_change_word() -> None:
    # 이상 alone is "more than": two lines about the same thing, neither says it changed
    text = (
        "# w\n\n- 배포 승인은 리뷰어 두 명 이상이 한다 [by: user; added: 2026-12-05]\n"
        "- 배포 승인은 리뷰어 두 명이 슬랙에서 한다 [by: user; added: 2026-12-05]\n"
    )
    assert replaced_texts(text) == {}


def test_more_chinese_and_japanese_change_words() -> None:
    pairs = [
        ("团队的文档托管在语雀上", "团队的文档托管改成飞书了"),
        ("チームのチャットはSlackを使う", "チームのチャットはDiscordに乗り換えた"),
    ]
    for old, new in pairs:
        text = f"# w\n\n- {old} [by: user; added: 2026-12-05]\n- {new} [by: user; added: 2026-12-05]\n"
        assert replaced_texts(text) == {old: new}


def test_a_line_moved_below_its_correction_stays_replaced() -> None:
    # breaker8 B8-17: tidying a file by hand put the old line under the new one (both of one day): the line saying
    # it changed is the newer wherever it stands
    old, new = "Tidepool MSRV is Rust 1.74", "Tidepool MSRV is now Rust 1.79"
    text = f"# w\n\n## Build\n- {new} [by: user; added: 2026-12-05]\n- {old} [by: user; added: 2026-12-05]\n"
    assert replaced_texts(text) == {old: new}
    shown = block_of(text)
    assert new in shown and old not in shown
    # a later day still decides first: the older day's "now" line is the one replaced
    dated = (
        f"# w\n\n- {new} [by: user; added: 2026-12-01]\n- Tidepool MSRV is Rust 1.81 [by: user; added: 2026-12-05]\n"
    )
    assert replaced_texts(dated) == {}
