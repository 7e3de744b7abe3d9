"""A secret a hand edit added never sits in clear in a derived file (breaker31 B31-8; docs/architecture.md §4).

Before, the context cache's memo was keyed by each line's raw text (the secret in clear beside its redacted
form), and after ``commit-hand-edits --redact`` (or the committed text put back) the file's old inode, linked under
``.git/memrepo/oldinodes/`` by the replace, held the secret until some later write.
"""

from __future__ import annotations

import os
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.read import coldread
from memrepo.engine.repo.store import MemoryStore

TOKEN = "ghp_Q8wErTy7UiOp6AsDfGh5JkLz4XcVbN3mQw21"
LINE = f"- The release bot's GitHub token is {TOKEN} [by: user]\n"


def _holding(state: Path, text: str) -> list[str]:
    """The files under ``state`` (``.git/memrepo``) whose bytes hold ``text``."""
    found = []
    for folder, _dirs, files in os.walk(state):
        for name in files:
            path = Path(folder) / name
            try:
                if text.encode() in path.read_bytes():
                    found.append(str(path.relative_to(state)))
            except OSError:
                continue
    return found


def _edited(repo_path: Path) -> MemoryStore:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    me = repo_path / "me.md"
    me.write_text((me.read_text() if me.exists() else "# Me\n\n") + LINE)
    return store


def test_the_context_cache_keeps_no_raw_line_of_a_hand_edit(repo_path: Path) -> None:
    store = _edited(repo_path)
    block = store.context()
    assert TOKEN not in block.text
    got = coldread.context_of(str(repo_path), None, None)  # the hook's path: renders through the kept sections
    assert got is not None and TOKEN not in got[0]
    assert (store.state_dir / "context-cache").is_dir()
    assert _holding(store.state_dir, TOKEN) == []


def test_redacting_the_edit_leaves_no_clear_copy_under_the_state_folder(repo_path: Path) -> None:
    store = _edited(repo_path)
    [q] = store.status().questions
    assert store.answer_hand_edit(q.path, q.seen, commit=False, redact=True) is not None
    assert TOKEN not in (repo_path / q.path).read_text()
    assert _holding(store.state_dir, TOKEN) == []


def test_putting_the_committed_text_back_leaves_no_clear_copy(repo_path: Path) -> None:
    store = _edited(repo_path)
    [q] = store.status().questions
    assert store.answer_hand_edit(q.path, q.seen, commit=False) is None
    assert TOKEN not in (repo_path / q.path).read_text()
    assert _holding(store.state_dir, TOKEN) == []
