"""The workspace map beside the recall index: a new process resolves a workspace without parsing every file."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.read import workspacemap as wsmap
from memrepo.engine.repo.store import MemoryStore


def _workspace(root: Path, name: str, ws_id: str) -> None:
    (root / "workspaces").mkdir(exist_ok=True)
    (root / "workspaces" / f"{name}.md").write_text(
        f"# {name}\n\n- Workspace {name} [workspace: {ws_id}; by: user]\n- {name} uses make [by: user]\n"
    )


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every workspace file the map reads (its first entries parsed)."""
    seen: list[str] = []
    real = wsmap.first_workspace_entry

    def counting(data: bytes, name: str) -> object:
        seen.append(name)
        return real(data, name)

    monkeypatch.setattr(wsmap, "first_workspace_entry", counting)
    return seen


def resolve_workspace(store: MemoryStore, workspace: str):
    return store.workspace_index.resolve(workspace)


def scan(store: MemoryStore, _folder: str) -> list:
    return store.workspace_index.scan()


def _new_process(root: Path) -> MemoryStore:
    wsmap._open_maps.clear()  # what a new process starts with: only the file under .git/memrepo
    return MemoryStore.open(root, plain_settings(), create=False)


def test_a_new_process_resolves_by_id_and_name_reading_no_file(store: MemoryStore, reads: list[str]) -> None:
    for i in range(30):
        _workspace(store.root, f"proj{i:02d}", f"ws-{i:08x}")
    assert resolve_workspace(_new_process(store.root), "ws-00000007").file == "workspaces/proj07.md"
    assert len(reads) == 30  # the first look-up ever reads each file once, into the map
    reads.clear()
    fresh = _new_process(store.root)
    assert resolve_workspace(fresh, "ws-0000000c").file == "workspaces/proj12.md"
    assert resolve_workspace(fresh, "PROJ03").file == "workspaces/proj03.md"  # by name, via the map's rows
    assert resolve_workspace(_new_process(store.root), "workspace proj04").file == "workspaces/proj04.md"
    assert reads == []


def test_a_hand_edit_or_a_new_file_is_read_again_and_seen(store: MemoryStore, reads: list[str]) -> None:
    _workspace(store.root, "alpha", "ws-0000000a")
    _workspace(store.root, "beta", "ws-0000000b")
    assert resolve_workspace(_new_process(store.root), "ws-0000000a").file == "workspaces/alpha.md"
    reads.clear()
    _workspace(store.root, "alpha", "ws-000000aa")  # its id changed by hand (the size too)
    _workspace(store.root, "gamma", "ws-0000000c")
    (store.root / "workspaces" / "beta.md").unlink()
    fresh = _new_process(store.root)
    assert resolve_workspace(fresh, "ws-000000aa").file == "workspaces/alpha.md"
    assert resolve_workspace(fresh, "ws-0000000b").file is None
    assert sorted(reads) == ["alpha.md", "gamma.md"]
    assert [(w.file, w.id) for w in scan(fresh, "workspaces")] == [
        ("workspaces/alpha.md", "ws-000000aa"),
        ("workspaces/gamma.md", "ws-0000000c"),
    ]


def test_the_map_is_kept_under_git_memrepo_and_compaction_empties_it(store: MemoryStore) -> None:
    _workspace(store.root, "alpha", "ws-0000000a")
    assert resolve_workspace(_new_process(store.root), "alpha").file == "workspaces/alpha.md"
    path = store.root / ".git" / "memrepo" / wsmap.MAP_FILE
    assert b"Workspace alpha" in path.read_bytes()
    store.compact()
    assert b"Workspace alpha" not in path.read_bytes()
    assert resolve_workspace(_new_process(store.root), "alpha").file == "workspaces/alpha.md"  # rebuilt


def test_a_look_up_with_no_file_changed_reads_no_row_and_a_change_is_still_seen(store: MemoryStore) -> None:
    for i in range(5):
        _workspace(store.root, f"proj{i}", f"ws-0000000{i}")
    assert resolve_workspace(_new_process(store.root), "ws-00000001").file == "workspaces/proj1.md"
    fresh = _new_process(store.root)
    statements: list[str] = []
    wsmap.workspace_map(store.root)._db.set_trace_callback(statements.append)
    assert resolve_workspace(fresh, "ws-00000002").file == "workspaces/proj2.md"
    assert not [s for s in statements if "FROM ws" in s and "WHERE id=" not in s]  # stamps equal: no row scanned
    assert sum("WHERE id=" in s for s in statements) == 1  # the one id asked for
    _workspace(store.root, "proj3", "ws-00000033")  # a hand edit: another id, same folder listing
    statements.clear()
    fresh = _new_process(store.root)
    wsmap.workspace_map(store.root)._db.set_trace_callback(statements.append)
    assert resolve_workspace(fresh, "ws-00000033").file == "workspaces/proj3.md"
    assert any("SELECT name, mtime, size, link FROM ws" in s for s in statements)
    assert resolve_workspace(fresh, "ws-00000003").file is None


def test_a_long_lived_store_loads_every_id_on_its_second_miss(store: MemoryStore) -> None:
    for i in range(3):
        _workspace(store.root, f"proj{i}", f"ws-0000000{i}")
    fresh = _new_process(store.root)
    index = fresh.workspace_index
    assert index.find_file("ws-00000000") == "workspaces/proj0.md"
    assert index._files == {"ws-00000000": "workspaces/proj0.md"}
    assert index.find_file("ws-00000001") == "workspaces/proj1.md"
    assert set(index._files) == {"ws-00000000", "ws-00000001", "ws-00000002"}


def test_workspace_files_lists_what_workspaces_lists_without_models(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "repo", plain_settings())
    _workspace(store.root, "billing", "ws-0000000b")
    _workspace(store.root, "admin", "ws-0000000a")
    (store.root / "workspaces" / "notes.md").write_text("# Notes\n\n- Not a workspace [by: user]\n")
    files = store.workspace_files()
    assert files == [("ws-0000000a", "workspaces/admin.md"), ("ws-0000000b", "workspaces/billing.md")]
    assert files == [(ws.id, ws.file) for ws in store.workspaces()]


def test_a_map_file_busy_in_another_process_is_never_deleted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that found the map's file locked past the timeout deleted it (and its journal) as "not a
    database": the holder's writes then went to an unlinked file. It now uses a map in memory."""
    import sqlite3

    root = tmp_path / "memory"
    root.mkdir()
    _workspace(root, "shop", "ws-0000abcd")
    first = wsmap.WorkspaceMap(root)
    assert first.file_of("ws-0000abcd") == "workspaces/shop.md"
    path = Path(first.path)
    inode = path.stat().st_ino
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process mid-write (a rebuild, a slow disk)
    monkeypatch.setattr(wsmap, "BUSY_TIMEOUT_S", 0.05)
    try:
        second = wsmap.WorkspaceMap(root)
        assert path.exists() and path.stat().st_ino == inode  # the file in use stays
        assert second.path == ":memory:"
        assert second.file_of("ws-0000abcd") == "workspaces/shop.md"  # this process still answers
        holder.execute("INSERT OR REPLACE INTO info VALUES('probe', 1)")
        holder.execute("COMMIT")
    finally:
        holder.close()
    check = sqlite3.connect(str(path))
    assert check.execute("SELECT v FROM info WHERE k='probe'").fetchone() == (1,)  # the holder's write landed
    check.close()
