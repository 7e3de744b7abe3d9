"""`git stash` beside a memrepo commit loses none of the user's lines (breaker28 B28-3).

`git stash` resets the work tree to HEAD. When it ran between memrepo's last look at a hand-edited file and
the "Hand edits" commit, HEAD got the user's lines while the work tree lost them; `git stash pop` then changed
nothing (both sides held the same lines) and the next look committed their removal: 22 lines gone from each
file, silently. memrepo now holds git's ``index.lock`` from that look to the commit (as git does), so the
stash runs wholly before or wholly after it. The stash is started at that very step, a real ``git`` process.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.git.store import GitStore
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore
from memrepo.engine.write.writer import Writer

USER_LINES = [f"- The user's own note {n} about the staging database" for n in range(22)]


def run_git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)


def stash_once(root: Path, stashed: list[subprocess.CompletedProcess[str]]) -> None:
    if not stashed:
        stashed.append(run_git(root, "stash"))


def pop_and_look(store: MemoryStore, stashed: list[subprocess.CompletedProcess[str]]) -> None:
    """The user's `git stash pop` (when the stash was made), then memrepo's next look."""
    root = store.root
    assert stashed, "the stash never ran"
    if run_git(root, "stash", "list").stdout:
        pop = run_git(root, "stash", "pop")
        assert pop.returncode == 0, pop.stdout + pop.stderr
    store.commit_hand_edits()


def held(root: Path, rel: str) -> tuple[int, int]:
    """How many of the user's lines the work tree and HEAD hold in ``rel``."""
    text = (root / rel).read_text()
    head = run_git(root, "show", f"HEAD:{rel}").stdout
    return sum(line in text for line in USER_LINES), sum(line in head for line in USER_LINES)


def test_a_stash_between_the_look_and_the_hand_edits_commit_loses_no_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Prefers short answers", kind="preference"))
    root = store.root
    with (root / "me.md").open("a") as out:
        out.write("\n".join(USER_LINES) + "\n")
    stashed: list[subprocess.CompletedProcess[str]] = []
    build = GitStore._build_tree

    def stash_then_build(self: GitStore, *args: object) -> object:
        stash_once(root, stashed)  # the files were read for the commit; the branch has not moved yet
        return build(self, *args)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(GitStore, "_build_tree", stash_then_build)
        store.commit_hand_edits()
    pop_and_look(store, stashed)
    assert held(root, "me.md") == (22, 22)
    assert "Prefers short answers" in (root / "me.md").read_text()


def test_a_stash_between_a_write_and_its_commit_loses_neither(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Prefers short answers", kind="preference"))
    root = store.root
    with (root / "me.md").open("a") as out:
        out.write("\n".join(USER_LINES) + "\n")
    stashed: list[subprocess.CompletedProcess[str]] = []
    replace = Writer.replace

    def replace_then_stash(self: Writer, *args: object) -> None:
        replace(self, *args)  # type: ignore[arg-type]
        stash_once(root, stashed)  # the new line is in the file; its commit has not been made

    with monkeypatch.context() as patch:
        patch.setattr(Writer, "replace", replace_then_stash)
        store.remember(Candidate(text="Prefers tabs over spaces", kind="preference"))
    pop_and_look(store, stashed)
    assert held(root, "me.md") == (22, 22)
    for line in ("Prefers short answers", "Prefers tabs over spaces"):
        assert line in (root / "me.md").read_text()
        assert line in run_git(root, "show", "HEAD:me.md").stdout
