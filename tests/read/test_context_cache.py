"""The context block a new process rendered is kept for the next one (engine/read/contextcache.py): the
same text without a render while nothing it depends on moved, a render again as soon as anything
did, and nothing kept that forgetting removed (docs/architecture.md §4, §5)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import memrepo.engine.read.context as context_module
from memrepo.engine.models import Candidate
from memrepo.engine.read import contextcache
from memrepo.engine.read.coldread import context_text
from memrepo.engine.repo.store import MemoryStore


def kept_blocks(store: MemoryStore) -> list[Path]:
    folder = store.root / ".git" / "memrepo" / contextcache.FOLDER
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".")) if folder.is_dir() else []  # .wanted


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the renders of context blocks."""
    counted: list[int] = []
    real = context_module.render_context

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        counted.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(context_module, "render_context", counting)
    return counted


def test_a_second_process_prints_the_kept_block_without_rendering(store: MemoryStore, renders: list[int]) -> None:
    store.remember(Candidate(text="Prefers tabs over spaces", kind="preference", by="user"))
    first = context_text(str(store.root), None)
    again = context_text(str(store.root), None)
    assert first is not None and "Prefers tabs over spaces" in first
    assert len(renders) == 1
    assert again == first == store.context().text
    assert len(kept_blocks(store)) == 1


def test_an_edit_that_puts_the_old_mtime_and_size_back_renders_again(store: MemoryStore, renders: list[int]) -> None:
    memory = store.root / "MEMORY.md"
    before = context_text(str(store.root), None)
    assert before is not None
    st = memory.stat()
    text = memory.read_text()
    assert "[[me]]" in text
    memory.write_text(text.replace("[[me]]", "[[mx]]", 1))  # same size, by hand, in place
    os.utime(memory, ns=(st.st_atime_ns, st.st_mtime_ns))  # the old mtime back: only ctime moved
    after = context_text(str(store.root), None)
    assert after is not None and after != before
    assert len(renders) == 2


def _git_commit(store: MemoryStore, rel: str, line: str) -> str:
    """A commit made by a real ``git`` beside us (an agent committing a file the block does not read)."""
    import subprocess

    path = store.root / rel
    path.write_text((path.read_text() if path.exists() else "") + line + "\n")
    env = dict(
        os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b", GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@b"
    )
    subprocess.run(["git", "add", rel], cwd=store.root, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", f"touch {rel}"], cwd=store.root, check=True, env=env)
    head = store.head()
    assert head is not None
    return head


def test_a_commit_that_touches_no_file_of_the_block_prints_the_kept_block_at_the_new_commit(
    store: MemoryStore, renders: list[int]
) -> None:
    """Issue 18: each `git commit` of a file the block does not read cost a new process a full render."""
    before = store.head()
    assert before is not None
    first = context_text(str(store.root), None)
    head = _git_commit(store, "notes.md", "- Lint before pushing [by: user]")
    again = context_text(str(store.root), None)
    assert len(renders) == 1  # no second render
    assert first is not None and again is not None
    assert f'commit="{head[:7]}"' in again and f"at commit {head[:7]}" in again
    assert before[:7] not in again and "\x00" not in again
    assert again == store.context().text  # the bytes the store renders at the new commit


def test_a_nul_in_a_file_cannot_take_heads_place_in_a_kept_block(store: MemoryStore, renders: list[int]) -> None:
    memory = store.root / "MEMORY.md"
    memory.write_text(memory.read_text() + "\n## Odd\x00heading\n\n- A fact with a NUL \x00 inside [by: user]\n")
    context_text(str(store.root), None)
    _git_commit(store, "notes.md", "- Another note [by: user]")
    again = context_text(str(store.root), None)
    assert len(renders) == 2  # a save that is not text is read from HEAD: never kept, rendered again (B14-7)
    assert again is not None and "\x00" not in again  # no NUL reaches the block
    assert "## MEMORY.md (a hand edit waits for an answer; shown as committed)" in again, again
    assert again == store.context().text


def test_a_change_to_memory_md_drops_every_kept_block(store: MemoryStore, tmp_path: Path) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    store.remember(Candidate(text="The shop deploys on Fridays", scope="workspace", workspace=str(project), by="user"))
    context_text(str(store.root), None)
    context_text(str(store.root), str(project))
    assert len(kept_blocks(store)) == 2
    _git_commit(store, "MEMORY.md", "- Answers in French on Mondays [by: user]")
    assert "French" in (context_text(str(store.root), None) or "")
    kept = kept_blocks(store)
    assert len(kept) == 1  # the shop's block held the old MEMORY.md: it could never be printed again
    assert b"French" in kept[0].read_bytes()


def test_a_changed_workspace_file_drops_only_that_workspaces_old_block(store: MemoryStore, tmp_path: Path) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    store.remember(Candidate(text="The shop deploys on Fridays", scope="workspace", workspace=str(project), by="user"))
    context_text(str(store.root), None)
    context_text(str(store.root), str(project))
    [ws_file] = (store.root / "workspaces").glob("*.md")
    _git_commit(store, f"workspaces/{ws_file.name}", "- The shop closes in August [by: user]")
    assert "August" in (context_text(str(store.root), str(project)) or "")
    kept = kept_blocks(store)
    assert len(kept) == 2  # MEMORY.md's own block, and the shop's new one
    assert sum(b"August" in path.read_bytes() for path in kept) == 1
    assert sum(b"Fridays" in path.read_bytes() for path in kept) == 1


def test_an_allowed_value_renders_again(store: MemoryStore, renders: list[int]) -> None:
    context_text(str(store.root), None)
    (store.root / ".git" / "memrepo" / "secrets-allow.json").write_text("{}")  # the allow-list changed
    context_text(str(store.root), None)
    assert len(renders) == 2


def test_forgetting_an_entry_leaves_it_in_no_kept_block(store: MemoryStore) -> None:
    result = store.remember(Candidate(text="The vault code is wombat-narwhal-42", by="user"))
    assert result.ref is not None
    assert "wombat-narwhal-42" in (context_text(str(store.root), None) or "")
    assert any(b"wombat-narwhal-42" in path.read_bytes() for path in kept_blocks(store))
    store.forget(result.ref)
    assert not any(b"wombat-narwhal-42" in path.read_bytes() for path in kept_blocks(store))
    assert "wombat-narwhal-42" not in (context_text(str(store.root), None) or "")


def test_a_forget_that_lands_while_a_block_renders_leaves_it_in_no_kept_block(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a helper: a `memrepo context` that read the old HEAD, then wrote its block after the forget
    had cleared the kept blocks, kept the forgotten text until some later render at the new HEAD."""
    result = store.remember(Candidate(text="The vault code is wombat-narwhal-42", by="user"))
    assert result.ref is not None
    real = context_module.render_context

    def forget_meanwhile(*args, **kwargs):  # type: ignore[no-untyped-def]
        rendered = real(*args, **kwargs)
        store.forget(result.ref)  # commits and clears the kept blocks before this block is kept
        return rendered

    monkeypatch.setattr(context_module, "render_context", forget_meanwhile)
    # The forget runs inside the render, on its thread: its clear cannot wait for the render's lock
    # (another process's render it would wait for); the block's own check must drop it.
    monkeypatch.setattr(contextcache, "CLEAR_WAIT_S", 0.05)
    assert "wombat-narwhal-42" in (context_text(str(store.root), None) or "")  # rendered at the old HEAD
    assert not any(b"wombat-narwhal-42" in path.read_bytes() for path in kept_blocks(store))


def test_a_commit_of_another_file_while_a_block_renders_keeps_the_block(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18: the write server renders the block after its write while the agent's own `git commit` lands;
    dropping the block whenever HEAD moved meant the next session hook rendered it again."""
    real = context_module.render_context
    renders: list[int] = []

    def commit_meanwhile(*args, **kwargs):  # type: ignore[no-untyped-def]
        renders.append(1)
        rendered = real(*args, **kwargs)
        if len(renders) == 1:
            _git_commit(store, "notes.md", "- Committed while the block rendered [by: user]")
        return rendered

    monkeypatch.setattr(context_module, "render_context", commit_meanwhile)
    context_text(str(store.root), None)
    again = context_text(str(store.root), None)
    assert len(renders) == 1
    head = store.head()
    assert head is not None and again is not None and f'commit="{head[:7]}"' in again


def test_an_allow_list_rewritten_at_its_size_and_old_mtime_renders_again(
    store: MemoryStore, renders: list[int]
) -> None:
    """Found by a helper: the allow-list was stamped by size and mtime only, so a same-size rewrite that put
    the old mtime back kept a block showing a value no longer allowed."""
    allowed = store.root / ".git" / "memrepo" / "secrets-allow.json"
    allowed.parent.mkdir(parents=True, exist_ok=True)
    allowed.write_text('{"a": 1}')
    context_text(str(store.root), None)
    st = allowed.stat()
    allowed.write_text('{"b": 2}')
    os.utime(allowed, ns=(st.st_atime_ns, st.st_mtime_ns))
    context_text(str(store.root), None)
    assert len(renders) == 2


def test_compaction_leaves_no_kept_block(store: MemoryStore) -> None:
    store.remember(Candidate(text="Kept for a while", by="user"))
    context_text(str(store.root), None)
    assert kept_blocks(store)
    store.compact()
    assert kept_blocks(store) == []


def test_a_kept_block_that_cannot_be_written_costs_only_a_render(store: MemoryStore, renders: list[int]) -> None:
    folder = store.root / ".git" / "memrepo" / contextcache.FOLDER
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("not a folder")  # mkdir and the write fail
    first = context_text(str(store.root), None)
    assert first == context_text(str(store.root), None)
    assert len(renders) == 2
    assert first == store.context().text


def test_a_kept_block_reaches_a_new_process_without_the_recall_index_or_the_entry_parser(
    store: MemoryStore, tmp_path: Path
) -> None:
    import subprocess
    import sys

    project = tmp_path / "shop"
    project.mkdir()
    store.remember(Candidate(text="The shop ships on Fridays", scope="workspace", workspace=str(project)))
    probe = (
        "import sys; from memrepo.engine.read.coldread import context_text;"
        f"text = context_text({str(store.root)!r}, 'shop');"
        "print('Fridays' in text, *(m in sys.modules for m in"
        " ('memrepo.engine.read.recall', 'memrepo.engine.format.entries', 'memrepo.engine.redaction', 'dataclasses')))"
    )
    env = dict(os.environ, MEMREPO_CONFIG=str(tmp_path / "none.toml"))
    run = [sys.executable, "-c", probe]
    first = subprocess.run(run, capture_output=True, text=True, env=env, timeout=120)
    assert first.stdout.split()[0] == "True", first.stderr  # rendered, and kept
    again = subprocess.run(run, capture_output=True, text=True, env=env, timeout=120)
    assert again.stdout.split() == ["True", "False", "False", "False", "False"], again.stderr


def test_a_render_killed_after_a_forget_leaves_no_file_with_the_forgotten_text(store: MemoryStore) -> None:
    """Found by a helper: a `memrepo context` that read a file before a forget rewrote it, then wrote its
    block (or its temporary file) after the forget had cleared the kept blocks, and died before dropping
    it, left the forgotten text in .git/memrepo/context-cache. A forget's clear now waits for such renders."""
    import subprocess
    import sys

    result = store.remember(Candidate(text="The vault code is wombat-narwhal-42", by="user"))
    assert result.ref is not None
    rel = result.ref.removeprefix("repo:").split("#")[0]
    state = store.root / ".git" / "memrepo"
    ready = state.parent.parent.parent / "render-ready"
    render = (
        "import os, signal, sys, time\n"
        "from pathlib import Path\n"
        "from memrepo.engine.read import contextcache\n"
        "state, rel, ready = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])\n"
        "with contextcache.rendering(state):\n"
        "    text = rel.read_text()\n"  # read before the forget's rewrite
        "    ready.write_text('1')\n"
        "    while b'wombat' in rel.read_bytes():\n"
        "        time.sleep(0.01)\n"  # the forget rewrote the file: without the lock its clear runs now
        "    time.sleep(0.5)\n"
        "    folder = state / contextcache.FOLDER\n"
        "    folder.mkdir(exist_ok=True)\n"
        "    (folder / '.block.tmp').write_text(text)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", render, str(state), str(store.root / rel), str(ready)])
    try:
        for _ in range(3000):  # hang guard, not a time
            if ready.exists() or child.poll() is not None:
                break
            import time

            time.sleep(0.01)
        assert ready.exists()
        store.forget(result.ref)  # its clear waits for the render's lock
        child.wait(timeout=60)
    finally:
        child.kill()
    folder = state / contextcache.FOLDER
    leftovers = [p for p in folder.iterdir() if b"wombat" in p.read_bytes()] if folder.is_dir() else []
    assert leftovers == []


def test_a_block_with_an_entry_scoped_to_a_folder_path_is_not_kept(store: MemoryStore, tmp_path: Path) -> None:
    """Found by a helper: an entry's `workspace: <path>` is matched through the git work tree above the
    folder (and the current folder, for a relative one), which no key covers: after a `git init` in the
    project the kept block still hid a line a render showed."""
    import subprocess

    project = tmp_path / "proj"
    (project / "sub").mkdir(parents=True)
    store.remember(
        Candidate(text="The project deploys on Fridays", scope="workspace", workspace=str(project), by="user")
    )
    memory = store.root / "MEMORY.md"
    memory.write_text(memory.read_text() + f"\n- Run the sub linter first [by: user; workspace: {project / 'sub'}]\n")
    before = context_text(str(store.root), str(project))
    assert before is not None and "sub linter" not in before  # sub is a workspace of its own
    assert kept_blocks(store) == []
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # now sub's work tree is the project's
    after = context_text(str(store.root), str(project))
    assert after is not None and "sub linter" in after
    assert after == store.context(str(project)).text


def test_a_full_disk_leaves_no_empty_wanted_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """breaker14 B14-5: the temp file was created, its write failed (ENOSPC) and it stayed, 0 bytes, for good."""
    import errno

    folder = tmp_path / contextcache.FOLDER
    folder.mkdir()
    real_write = Path.write_text

    def full(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.name.endswith(".tmp"):
            self.touch()  # the open succeeded, the write did not
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)
    contextcache.note_wanted(tmp_path, "ws-0123abcd")  # never raises
    assert list(folder.iterdir()) == []
