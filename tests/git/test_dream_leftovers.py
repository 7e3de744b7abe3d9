"""What a killed dream leaves is cleaned up (docs/architecture.md §5, §6).

A SIGKILL while a dream builds its review branch leaves its temporary
worktree (a full copy of the memory in ``$TMPDIR``), the worktree's
registration, a half-made ``dream/`` branch and a record stuck at
``running``. The next dream removes all of it and marks the record failed;
compaction always removes the worktree; the record can be rejected.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from helpers.dream_helpers import kill_a_dream_mid_review, make_repo
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.git.dream import INTERRUPTED
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def tmpdir_for_dreams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tmpdir"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def _killed_dream(tmp_path: Path, tmpdir: Path) -> tuple[MemoryStore, str]:
    root = tmp_path / "memory"
    dream_id = kill_a_dream_mid_review(root)
    store = MemoryStore.open(root, plain_settings(), create=False)
    leftovers = list(tmpdir.glob("memrepo-dream-*"))
    assert leftovers and (leftovers[0] / "worktree" / "me.md").is_file()  # a full copy of the memory
    assert "memrepo-dream-" in git(root, "worktree", "list")
    assert git(root, "branch", "--list", "dream/*").split()
    return store, dream_id


def _no_leftovers(store: MemoryStore, tmpdir: Path) -> None:
    assert list(tmpdir.glob("memrepo-dream-*")) == []
    assert "memrepo-dream-" not in git(store.root, "worktree", "list")
    assert not (store.git.git_dir / "worktrees").exists() or not any((store.git.git_dir / "worktrees").iterdir())
    git(store.root, "fsck", "--strict", "--no-dangling")


def test_the_next_dream_removes_a_killed_dreams_worktree_branch_and_running_record(
    tmp_path: Path, tmpdir_for_dreams: Path
) -> None:
    store, dream_id = _killed_dream(tmp_path, tmpdir_for_dreams)
    dreamer = Dreamer(store)
    dreamer.run()
    _no_leftovers(store, tmpdir_for_dreams)
    old = dreamer.show(dream_id)
    assert old.status == "failed" and old.reason == INTERRUPTED
    assert f"dream/{dream_id}" not in git(store.root, "branch", "--list", "dream/*")


def test_compaction_always_removes_a_killed_dreams_temporary_worktree(tmp_path: Path, tmpdir_for_dreams: Path) -> None:
    store, _dream_id = _killed_dream(tmp_path, tmpdir_for_dreams)
    store.compact()
    _no_leftovers(store, tmpdir_for_dreams)
    # Nothing of the memory is left in $TMPDIR.
    assert not any(p.is_file() for p in tmpdir_for_dreams.rglob("*"))


def test_a_killed_dreams_running_record_can_be_rejected(tmp_path: Path, tmpdir_for_dreams: Path) -> None:
    store, dream_id = _killed_dream(tmp_path, tmpdir_for_dreams)
    record = Dreamer(store).reject(dream_id)
    assert record.status == "rejected"
    _no_leftovers(store, tmpdir_for_dreams)


def test_an_unlinked_worktree_folder_is_removed_too(tmp_path: Path, tmpdir_for_dreams: Path) -> None:
    store, _dream_id = _killed_dream(tmp_path, tmpdir_for_dreams)
    git(store.root, "worktree", "prune")  # the registration is gone (say, pruned by hand), the folder stays
    (store.git.git_dir / "worktrees").mkdir(exist_ok=True)
    for admin in (store.git.git_dir / "worktrees").iterdir():
        import shutil

        shutil.rmtree(admin)
    assert list(tmpdir_for_dreams.glob("memrepo-dream-*"))
    Dreamer(store).run()
    assert list(tmpdir_for_dreams.glob("memrepo-dream-*")) == []


def test_a_full_disk_while_a_dream_builds_its_review_leaves_no_damage(
    tmp_path: Path, tmpdir_for_dreams: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    import memrepo.engine.git.dream as gitdream
    from memrepo.engine.errors import MemrepoError

    root = tmp_path / "memory"
    store = make_repo(root)
    head = store.head()

    def no_space(path: Path, data: bytes, root: Path | None = None) -> None:
        raise MemrepoError(f"could not write {path}: {os.strerror(errno.ENOSPC)}")

    monkeypatch.setattr(gitdream, "atomic_write", no_space)
    dreamer = Dreamer(store)
    try:
        record = dreamer.run()
    except MemrepoError as exc:
        assert "No space left on device" in str(exc)
    else:
        assert record.status == "failed" and "No space left on device" in (record.reason or ""), record
    monkeypatch.undo()
    _no_leftovers(store, tmpdir_for_dreams)
    assert git(root, "branch", "--list", "dream/*").strip() == ""
    assert all(r.status != "running" for r in dreamer.records.all())
    # The next dream works.
    again = Dreamer(store).run()
    assert again.status in ("pending_review", "applied", "empty"), again
    assert store.head() != head or again.status == "empty"


def test_clean_up_removes_a_killed_dreams_leftovers_and_then_finds_nothing(
    tmp_path: Path, tmpdir_for_dreams: Path
) -> None:
    """Health's fix key calls Dreamer.clean_up: worktree, half-made branch and running record, without a dream."""
    store, dream_id = _killed_dream(tmp_path, tmpdir_for_dreams)
    head = store.head()
    done = Dreamer(store).clean_up()
    assert any("worktree" in line for line in done) and any(dream_id in line for line in done), done
    _no_leftovers(store, tmpdir_for_dreams)
    assert git(store.root, "branch", "--list", "dream/*").strip() == ""
    assert Dreamer(store).show(dream_id).status == "failed" and store.head() == head
    assert Dreamer(store).reject(dream_id).status == "rejected"
    assert Dreamer(store).clean_up() == []


def test_clean_up_refuses_while_a_dream_runs(tmp_path: Path) -> None:
    from memrepo.engine.errors import BusyError
    from memrepo.engine.files.lock import DreamLock

    store = make_repo(tmp_path / "memory")
    running = DreamLock(store.git.git_dir)
    running.acquire()
    try:
        with pytest.raises(BusyError):
            Dreamer(store).clean_up()
    finally:
        running.release()


KILLED_IN_ADD_WORKTREE = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    import pygit2
    from memrepo.engine.config import Settings
    from memrepo.engine.dreams.dreamer import Dreamer
    from memrepo.engine.repo.store import MemoryStore

    real = pygit2.Repository.add_worktree

    def dying(self, name, path, ref=None):
        real(self, name, path, ref)
        # As libgit2 leaves it when killed before it points the new worktree's HEAD at the branch.
        (Path(self.path) / "worktrees" / name / "HEAD").write_text("0" * 40 + "\\n")
        os.kill(os.getpid(), signal.SIGKILL)

    pygit2.Repository.add_worktree = dying
    Dreamer(MemoryStore.open(Path(sys.argv[1]), Settings(), create=False)).run()
    """
)


def test_the_next_write_removes_a_worktree_a_dream_killed_while_making_it(
    tmp_path: Path, tmpdir_for_dreams: Path
) -> None:
    """Found by the kill test: ``git fsck`` failed after such a kill until the next dream ran."""
    from memrepo.engine.models import Candidate

    root = tmp_path / "memory"
    make_repo(root)
    done = subprocess.run([sys.executable, "-c", KILLED_IN_ADD_WORKTREE, str(root)], capture_output=True, text=True)
    assert done.returncode == -9, done.stderr
    assert subprocess.run(["git", "fsck", "--strict"], cwd=root, capture_output=True).returncode != 0
    store = MemoryStore.open(root, plain_settings(), create=False)
    result = store.remember(Candidate(text="written after the killed dream", kind="preference", by="user"))
    assert result.commit == store.head()
    _no_leftovers(store, tmpdir_for_dreams)
    git(root, "fsck", "--strict")


def test_leftovers_are_listed_read_only_then_cleaned_and_shown_in_health(
    tmp_path: Path, tmpdir_for_dreams: Path
) -> None:
    """Health's row lists them (changing nothing); its fix (clean_leftovers) removes them; the record can be rejected."""
    from memrepo.engine.repo.health import FIX_DREAM_LEFTOVERS, HealthStatus, check

    store, dream_id = _killed_dream(tmp_path, tmpdir_for_dreams)
    dreamer = Dreamer(store)
    found = dreamer.leftovers()
    assert any("temporary worktree memrepo-dream-" in line for line in found), found
    assert any(f"half-made branch dream/{dream_id}" in line for line in found), found
    assert f"dream {dream_id} is marked running, but its process is gone" in found
    assert dreamer.show(dream_id).status == "running" and list(tmpdir_for_dreams.glob("memrepo-dream-*"))
    [row] = [r for r in check(store) if r.name == "killed dreams"]
    assert row.status is HealthStatus.WARN and row.fix_key == FIX_DREAM_LEFTOVERS and dream_id in row.reason
    done = dreamer.clean_leftovers()
    assert len(done) == len(found)
    _no_leftovers(store, tmpdir_for_dreams)
    assert dreamer.show(dream_id).status == "failed" and dreamer.show(dream_id).reason == INTERRUPTED
    assert dreamer.leftovers() == [] and dreamer.clean_leftovers() == []
    [row] = [r for r in check(store) if r.name == "killed dreams"]
    assert row.status is HealthStatus.OK and row.fix_key is None
    assert dreamer.reject(dream_id).status == "rejected"


def test_a_running_dream_is_no_leftover_and_cannot_be_rejected(tmp_path: Path, tmpdir_for_dreams: Path) -> None:
    """While a dream holds the dream lock, its record, worktree and branch are its own."""
    from memrepo.engine.errors import RefError
    from memrepo.engine.files.lock import DreamLock

    store, dream_id = _killed_dream(tmp_path, tmpdir_for_dreams)
    lock = DreamLock(store.git.git_dir)
    lock.acquire()  # as a dream running in another process would
    try:
        dreamer = Dreamer(store)
        assert dreamer.leftovers() == [] and dreamer.clean_leftovers() == []
        with pytest.raises(RefError, match="still running"):
            dreamer.reject(dream_id)
        assert dreamer.show(dream_id).status == "running"
    finally:
        lock.release()


def test_the_next_write_removes_a_registration_libgit2_does_not_list(tmp_path: Path, tmpdir_for_dreams: Path) -> None:
    """Found by the kill test (kill 40, a dream killed 70 ms in): `.git/worktrees/<name>` held a HEAD but not
    yet every file libgit2 needs to list it, so no cleanup saw it while `git fsck` failed on it."""
    from memrepo.engine.models import Candidate

    root = tmp_path / "memory"
    make_repo(root)
    admin = root / ".git" / "worktrees" / "memrepo-dream-20261202-071538-25a5"
    admin.mkdir(parents=True)
    # The folder as the kill left it: its gitdir and a zero HEAD, no commondir yet.
    (admin / "gitdir").write_text(f"{tmpdir_for_dreams / admin.name / 'worktree' / '.git'}\n")
    (admin / "HEAD").write_text("0" * 40 + "\n")
    assert subprocess.run(["git", "fsck", "--strict"], cwd=root, capture_output=True).returncode != 0
    store = MemoryStore.open(root, plain_settings(), create=False)
    store.remember(Candidate(text="written after the killed dream", kind="preference", by="user"))
    assert not admin.exists()
    _no_leftovers(store, tmpdir_for_dreams)
