"""Health names a memory file committed as a symlink (engine/repo/health.py, docs/architecture.md §3).

memrepo never reads through a symlink, so a MEMORY.md committed as one (a dotfile manager's link, a
clone of such a repo) gave agents no MEMORY.md at all while Health said OK and the context block said
"(no such file yet)". Found by breaker3; a symlink made by hand and not committed blocks writes instead.
"""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import commit_by_hand, plain_settings

from memrepo.engine.repo.health import HealthStatus, check
from memrepo.engine.repo.store import MemoryStore


def _symlinked(tmp_path: Path, name: str) -> MemoryStore:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    outside = tmp_path / "elsewhere.md"
    target = store.root / name
    outside.write_bytes(target.read_bytes() if target.exists() else b"# Topic\n\n- A fact [by: user]\n")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    target.symlink_to(outside)
    commit_by_hand(store.root, f"{name} as a symlink")
    return store


def test_a_committed_symlink_memory_md_fails_health(tmp_path: Path) -> None:
    store = _symlinked(tmp_path, "MEMORY.md")
    (row,) = [r for r in check(store) if r.name == "MEMORY.md size"]
    assert row.status is HealthStatus.FAIL
    assert "MEMORY.md is a symlink" in row.reason and "put the file itself there" in row.reason


def test_another_symlinked_memory_file_is_a_warning(tmp_path: Path) -> None:
    store = _symlinked(tmp_path, "topics/linked.md")
    (row,) = [r for r in check(store) if r.name == "metadata"]
    assert row.status is HealthStatus.WARN and "topics/linked.md: a symlink" in row.reason
    (size,) = [r for r in check(store) if r.name == "MEMORY.md size"]
    assert size.status is HealthStatus.OK
