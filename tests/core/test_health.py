"""Health rows (docs/architecture.md §9): each test puts the repo in a row's failing state and checks that row."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memrepo.engine.config import Settings
from memrepo.engine.errors import BlockedError
from memrepo.engine.git.store import libgit2_version
from memrepo.engine.models import Candidate
from memrepo.engine.repo.health import HealthRow, HealthStatus, check, check_path, has_failure
from memrepo.engine.repo.store import MemoryStore

OK, WARN, FAIL = HealthStatus.OK, HealthStatus.WARN, HealthStatus.FAIL
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def row(rows: list[HealthRow], name: str) -> HealthRow:
    found = [r for r in rows if r.name == name]
    assert len(found) == 1, [r.name for r in rows]
    return found[0]


def rows_of(store: MemoryStore, **kwargs: object) -> list[HealthRow]:
    return check(store, now=NOW, **kwargs)  # type: ignore[arg-type]


def test_a_fresh_repo_is_all_ok_and_every_design_row_is_there(store: MemoryStore) -> None:
    rows = rows_of(store)
    assert [r for r in rows if r.status is not OK] == []
    names = [r.name for r in rows]
    for name in (
        "memory repo",
        "libgit2",
        "work tree",
        "pending writes",
        "MEMORY.md size",
        "files",
        "largest file",
        "long entries",
        "metadata",
        "unclosed blocks",
        "links",
        "orphan files",
        "inbox",
        "lock",
        "watcher",
        "last write error",
        "history",
        ".git size",
        "last dream",
        "failed dreams",
        "dream reviews",
        "dream budget",
    ):
        assert name in names
    assert row(rows, "libgit2").reason == f"libgit2 {libgit2_version()}"
    assert row(rows, "last dream").reason == "never dreamed"
    assert not has_failure(rows)


def test_memory_repo_row_fails_for_a_folder_that_is_not_one(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "notes.txt").write_text("not memory")
    rows = check_path(folder, settings=Settings())
    assert row(rows, "memory repo").status is FAIL and has_failure(rows)
    assert row(check_path(tmp_path / "missing", settings=Settings()), "memory repo").status is FAIL


def test_work_tree_row_warns_for_hand_edits_and_a_block(store: MemoryStore) -> None:
    (store.root / "me.md").write_text("# About me\n\n- Typed by hand\n")
    r = row(rows_of(store), "work tree")
    assert r.status is WARN and "me.md" in r.reason and "by hand" in r.reason
    (store.root / ".git" / "index.lock").write_text("")
    r = row(rows_of(store), "work tree")
    assert r.status is WARN and r.reason.startswith("blocked: the git index is locked")


def test_pending_writes_row_warns_while_writes_are_kept(store: MemoryStore) -> None:
    (store.root / ".git" / "index.lock").write_text("")
    with pytest.raises(BlockedError):
        store.remember(Candidate(text="Kept while blocked", by="user"))
    r = row(rows_of(store), "pending writes")
    assert r.status is WARN and r.reason == "1 write kept while blocked, applied once the block is gone"
    (store.root / ".git" / "index.lock").unlink()  # the block is gone, no write yet: the row names the command
    r = row(rows_of(store), "pending writes")
    assert r.status is WARN and r.reason == (
        "1 write kept while blocked, not applied yet: `memrepo commit-hand-edits` applies them (so does the next write)"
    )


def test_memory_md_size_row_warns_near_and_fails_over_the_limit_or_missing(store: MemoryStore) -> None:
    memory = store.root / "MEMORY.md"
    memory.write_text("# Memory\n\n" + "x" * 3800 + "\n")
    assert row(rows_of(store), "MEMORY.md size").status is WARN
    memory.write_text("# Memory\n\n" + "x" * 4200 + "\n")
    r = row(rows_of(store), "MEMORY.md size")
    assert r.status is FAIL and "over the limit" in r.reason and has_failure(rows_of(store))
    memory.unlink()
    assert row(rows_of(store), "MEMORY.md size").status is FAIL


def test_files_row_fails_over_2000_files(store: MemoryStore) -> None:
    folder = store.root / "many"
    folder.mkdir()
    for i in range(1800):
        (folder / f"f{i}.md").write_text("- x\n")
    assert row(rows_of(store), "files").status is WARN
    for i in range(1800, 2000):
        (folder / f"f{i}.md").write_text("- x\n")
    r = row(rows_of(store), "files")
    assert r.status is FAIL and r.reason.startswith("2,004 of 2,000")


def test_largest_file_row_fails_over_64_kb(store: MemoryStore) -> None:
    (store.root / "big.md").write_text("- " + "y" * (65 * 1024) + "\n")
    r = row(rows_of(store), "largest file")
    assert r.status is FAIL and r.reason.startswith("big.md, 65.0 KB of 64.0 KB")


def test_long_entries_row_warns_over_500_characters(store: MemoryStore) -> None:
    with (store.root / "me.md").open("a") as fh:
        fh.write("- " + "z" * 600 + " [by: user]\n")
    r = row(rows_of(store), "long entries")
    assert r.status is WARN and "me.md#L5 (600 characters)" in r.reason


@pytest.mark.parametrize(
    "line, why",
    [
        ("- Likes tea [by: robot]", "neither user nor agent"),
        ("- Likes tea [by: user; added: yesterday]", "not a YYYY-MM-DD date"),
        ("- Likes tea [by user: x]", "is not valid metadata"),
        ("- Likes tea [by: user; added: 2025-01-01", "not closed"),
    ],
)
def test_metadata_row_warns_for_malformed_metadata(store: MemoryStore, line: str, why: str) -> None:
    with (store.root / "me.md").open("a") as fh:
        fh.write(line + "\n")
    r = row(rows_of(store), "metadata")
    assert r.status is WARN and "me.md#L5" in r.reason and why in r.reason


@pytest.mark.parametrize("opener", ["```", "<!-- todo"])
def test_unclosed_blocks_row_warns_for_an_opener_never_closed(store: MemoryStore, opener: str) -> None:
    path = store.root / "me.md"
    path.write_text(path.read_text().replace("\n\n", f"\n\n{opener}\n", 1))
    number = path.read_text().splitlines().index(opener) + 1
    r = row(rows_of(store), "unclosed blocks")
    assert r.status is WARN
    assert r.reason.startswith(f"1 block: me.md#L{number} ({opener[:4]!r}) opened and never closed")
    path.write_text(path.read_text() + ("```" if opener == "```" else "-->") + "\n")
    assert row(rows_of(store), "unclosed blocks").status is OK


def test_links_row_warns_for_a_broken_link(store: MemoryStore) -> None:
    with (store.root / "lessons.md").open("a") as fh:
        fh.write("- See [[topics/nowhere]] for more\n")
    r = row(rows_of(store), "links")
    assert r.status is WARN and r.reason == "1 broken link: [[topics/nowhere]] in lessons.md"


def test_orphan_row_follows_links_transitively(store: MemoryStore) -> None:
    (store.root / "topics").mkdir()
    (store.root / "topics" / "db.md").write_text("# DB\n\n- See [[topics/deep]]\n")
    (store.root / "topics" / "deep.md").write_text("# Deep\n")
    r = row(rows_of(store), "orphan files")
    assert r.status is WARN and r.reason.startswith("2 files: topics/db.md")
    with (store.root / "me.md").open("a") as fh:
        fh.write("- Database notes are in [[topics/db]]\n")
    assert row(rows_of(store), "orphan files").status is OK  # me.md <- MEMORY.md, db <- me, deep <- db


def test_inbox_row_warns_over_20_entries_with_the_inbox_key(store: MemoryStore) -> None:
    for i in range(21):
        store.remember(Candidate(text=f"Untrusted fact number {i}", untrusted=True))
    r = row(rows_of(store), "inbox")
    assert r.status is WARN and r.reason == "21 entries waiting for triage" and r.fix_key == "2"


def test_lock_row_names_the_holder(store: MemoryStore) -> None:
    script = (
        "import sys, time\nfrom memrepo.engine.config import Settings\nfrom memrepo.engine.repo.store import MemoryStore\n"
        "s = MemoryStore.open(sys.argv[1], Settings(), create=False)\n"
        "with s.lock.hold('a long write'):\n    print('held', flush=True)\n    time.sleep(30)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(store.root)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        r = row(rows_of(store), "lock")
        assert r.reason.startswith(f"held by pid {proc.pid} (a long write)")
    finally:
        proc.kill()
        proc.wait()
    assert row(rows_of(store), "lock").reason == "free"


def test_watcher_and_last_write_error_rows_take_the_apps_word(store: MemoryStore) -> None:
    assert row(rows_of(store), "watcher").reason.startswith("not applicable")
    assert row(rows_of(store, watcher_running=True), "watcher").status is OK
    r = row(rows_of(store, watcher_running=False), "watcher")
    assert r.status is WARN and r.fix_key == "r"
    r = row(rows_of(store, last_write_error="memory repo is busy"), "last write error")
    assert r.status is WARN and r.reason == "memory repo is busy"


def test_history_row_names_a_forget_until_compacted_and_fails_when_interrupted(store: MemoryStore) -> None:
    ref = store.remember(Candidate(text="Soon forgotten", by="user")).ref
    assert ref is not None
    store.forget(ref)
    r = row(rows_of(store), "history")  # one new removal: said, not a WARN (tests/core/test_health_history_age.py)
    assert r.status is OK and "1 removed text that is still in the history" in r.reason and r.fix_key == "c"
    store.compact()
    r = row(rows_of(store), "history")
    assert r.status is OK and r.reason == "0 commits since the last compaction"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (store.state_dir / "compact.json").write_text(json.dumps({"pid": int(dead.stdout), "started": 0, "step": 5}))
    r = row(rows_of(store), "history")
    assert r.status is FAIL and "interrupted" in r.reason and r.fix_key == "c"


def test_git_size_row_warns_for_a_huge_git_folder(store: MemoryStore) -> None:
    with (store.root / ".git" / "huge.tmp").open("wb") as fh:
        fh.truncate(300 * 1024 * 1024)  # sparse: no disk used, 300 MB in size
    r = row(rows_of(store), ".git size")
    assert r.status is WARN and r.reason.startswith("300.") and r.fix_key == "c"


def _record(store: MemoryStore, name: str, status: str, started: datetime, tokens: int = 0, **extra: object) -> None:
    folder = store.state_dir / "dreams"
    folder.mkdir(exist_ok=True)
    data = {
        "id": name,
        "trigger": "manual",
        "started": started.isoformat().replace("+00:00", "Z"),
        "finished": None,
        "status": status,
        "reason": extra.pop("reason", None),
        "tokens": {"input": tokens // 2, "output": tokens - tokens // 2},
        "branch": None,
        "base": None,
        "auto_commit": None,
        "operations": [],
        **extra,
    }
    (folder / f"{name}.json").write_text(json.dumps(data))


def test_dream_rows_from_records(store: MemoryStore) -> None:
    _record(store, "a", "accepted", NOW - timedelta(days=3), 1000)
    rows = rows_of(store)
    assert row(rows, "last dream").reason == "2026-03-07 12:00 UTC, accepted"
    assert row(rows, "failed dreams").status is OK and row(rows, "dream reviews").status is OK
    assert row(rows, "dream budget").reason == "0 of 50,000 tokens in the last 24 h"
    _record(store, "b", "failed", NOW - timedelta(days=2), reason="provider timed out")
    _record(store, "c", "failed", NOW - timedelta(days=9))
    _record(store, "d", "pending_review", NOW - timedelta(hours=2), 46_000)
    rows = rows_of(store)
    assert row(rows, "last dream").status is OK  # the newest run is the pending one
    r = row(rows, "failed dreams")
    assert r.status is WARN and r.reason == "1 failed in the last 7 days" and r.fix_key == "6"
    r = row(rows, "dream reviews")
    assert r.status is WARN and r.reason == "1 dream waiting for review"
    r = row(rows, "dream budget")
    assert r.status is WARN and r.reason == "46,000 of 50,000 tokens in the last 24 h: nearly spent"
    _record(store, "e", "failed", NOW - timedelta(hours=1), 5000, reason="bad JSON from the model")
    rows = rows_of(store)
    r = row(rows, "last dream")
    assert r.status is WARN and r.reason == "failed 2026-03-10 11:00 UTC: bad JSON from the model"
    assert row(rows, "dream budget").reason.endswith("spent; dreaming waits")
    small = Settings.model_validate({"dream": {"daily_token_budget": 100_000}})
    assert row(rows_of(store, settings=small), "dream budget").status is OK


def test_health_never_creates_a_repo(tmp_path: Path) -> None:
    rows = check_path(tmp_path / "nothing-here", settings=Settings())
    assert row(rows, "memory repo").status is FAIL
    assert not (tmp_path / "nothing-here").exists()
    assert os.listdir(tmp_path) == []
