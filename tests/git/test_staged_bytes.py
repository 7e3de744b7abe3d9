"""Every commit and index entry memrepo makes holds the bytes it staged, never a save begun since (loss8).

race7 made memrepo's own "Remember" commit use the bytes it wrote. The same gap sat in three more places that
read the work tree after memrepo's write: the index update after a commit, the index stat refresh after a slow
scan, and the dream's review branch. An editor truncating or saving the file in between must leave its change
as an unstaged hand edit (judged at the next look), never staged or committed as memrepo's. The fallback blob
of a write goes through git's filters (a ``.gitattributes`` eol rule), as ``git add`` would.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.git import dream as dream_module
from memrepo.engine.git import store as store_module
from memrepo.engine.git.dream import DreamGit
from memrepo.engine.git.store import GitStore
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

HALF_SAVE = b"# About me\n- half a sa"


def _blob(root: Path, rev: str) -> bytes:
    """``git cat-file blob`` as bytes (a text-mode read would turn CRLF into LF)."""
    return subprocess.run(["git", "cat-file", "blob", rev], cwd=root, capture_output=True, check=True).stdout


def _store(root: Path) -> MemoryStore:
    store = MemoryStore.open(root, plain_settings(), create=True)
    for i in range(3):
        store.remember(Candidate(text=f"Acknowledged preference {i} about llamas", kind="preference"))
    return store


def test_the_index_update_after_a_commit_never_stages_a_save_begun_since(repo_path: Path) -> None:
    """The commit made its blob from the work tree, then an editor truncated the file before the index was
    brought in step: the index took the half save (``git commit`` by hand would commit it). It now holds
    what was committed, and the save shows as an unstaged change."""
    _store(repo_path).close()
    gs = GitStore(repo_path)
    me = repo_path / "me.md"
    me.write_bytes(me.read_bytes() + b"- A line memrepo writes about tapirs\n")
    committed = me.read_bytes()
    assert gs.commit_paths(["me.md"], "Remember fact: tapirs\n", sync_index=False) is not None
    me.write_bytes(HALF_SAVE)  # the editor's truncate and first half land before the index update
    gs.sync_index()
    gs.close()
    assert git(repo_path, "diff", "--cached", "--name-only") == ""
    assert git(repo_path, "status", "--porcelain") == " M me.md\n"
    assert _blob(repo_path, "HEAD:me.md") == committed


def test_the_index_stat_refresh_never_stages_a_save_begun_after_the_scan(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a slow scan memrepo refreshes the stat data of the files the scan found unchanged. A save landing
    between the scan and the refresh was staged by ``index.add``; the refresh now keeps the entry it checked."""
    _store(repo_path).close()
    gs = GitStore(repo_path)
    me = repo_path / "me.md"
    real = GitStore._scan

    def scan_then_an_editor_saves(self: GitStore) -> dict[str, int]:
        flags = real(self)
        me.write_bytes(HALF_SAVE)
        return flags

    monkeypatch.setattr(GitStore, "_scan", scan_then_an_editor_saves)
    monkeypatch.setattr(store_module, "STALE_INDEX_S", -1.0)  # every scan counts as slow
    monkeypatch.setattr(store_module, "index_looks_stale", lambda *_a: True)
    gs.status(refresh=True)
    monkeypatch.undo()
    gs.close()
    assert git(repo_path, "diff", "--cached", "--name-only") == ""
    assert git(repo_path, "status", "--porcelain") == " M me.md\n"


def test_a_review_branch_commits_the_bytes_the_dream_wrote(repo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The dream's review commit was built from its temporary worktree after writing it; whatever touched the
    file in between was committed as the dream's change. It now commits the bytes it was given."""
    _store(repo_path).close()
    base = git(repo_path, "rev-parse", "HEAD").strip()
    want = b"# About me\n- Acknowledged preference 0 about llamas [by: user]\n"
    real = dream_module.atomic_write

    def written_then_changed(path: Path, data: bytes, root: Path) -> None:
        real(path, data, root)
        path.write_bytes(data[: len(data) // 2])  # another writer in that folder, after the dream's write

    monkeypatch.setattr(dream_module, "atomic_write", written_then_changed)
    DreamGit(repo_path).commit_on_branch(base, "dream/test", {"me.md": want}, "Dream: test\n")
    monkeypatch.undo()
    assert _blob(repo_path, "dream/test:me.md") == want


def test_the_fallback_blob_of_a_write_goes_through_git_eol_filters(repo_path: Path) -> None:
    """``* text eol=crlf``: the work tree holds CRLF, git stores LF. When a save began between memrepo's write
    and its commit, the commit is made from memrepo's bytes; that blob skipped git's filters and stored CRLF,
    so HEAD disagreed with ``git add`` of the same text and every line showed as changed."""
    _store(repo_path).close()
    (repo_path / ".gitattributes").write_text("* text eol=crlf\n")
    git(repo_path, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "add", ".gitattributes")
    git(repo_path, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qm", "eol rule")
    me = repo_path / "me.md"
    me.unlink()
    git(repo_path, "checkout", "--", "me.md")  # git writes it with CRLF
    assert b"\r\n" in me.read_bytes()
    gs = GitStore(repo_path)
    written = me.read_bytes() + b"- A line memrepo writes about tapirs\r\n"
    me.write_bytes(written)
    me_after_save = HALF_SAVE.replace(b"\n", b"\r\n")
    me.write_bytes(me_after_save)  # an editor's save began before the commit: the commit uses `written`
    assert gs.commit_paths(["me.md"], "Remember fact: tapirs\n", written={"me.md": written}) is not None
    gs.close()
    me.write_bytes(written)  # the editor's save ends with memrepo's text: git must see no change
    stored = _blob(repo_path, "HEAD:me.md")
    assert b"\r" not in stored and stored == written.replace(b"\r\n", b"\n")
    assert git(repo_path, "status", "--porcelain") == ""
