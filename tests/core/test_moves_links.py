"""A rename moves MEMORY.md's index line with it; the user's own links are left as written (B7-5, loss8).

After `mv topics/lessons.md topics/learned.md` the context block's index still said
"[[topics/lessons]] (topics/lessons.md)", sending the agent to a file that was gone. The rename's
"Move" commit now changes the index line too. A link inside a sentence, and every link while MEMORY.md
is itself edited by hand in the same look, stay as the user wrote them.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.repo_helpers import commit_by_hand, git, plain_settings

from memrepo.engine.repo.store import MemoryStore


def _repo(repo_path: Path) -> MemoryStore:
    store = MemoryStore.open(repo_path, plain_settings(), create=True)
    (repo_path / "topics").mkdir()
    (repo_path / "topics" / "lessons.md").write_text(
        "# Lessons\n\n" + "".join(f"- Lesson {i} about retries [by: user]\n" for i in range(5))
    )
    index = repo_path / "MEMORY.md"
    index.write_text(index.read_text() + "- [[topics/lessons]]\n\nSee [[topics/lessons]] before a release.\n")
    commit_by_hand(repo_path)
    return store


def test_the_index_line_follows_a_rename_and_a_sentence_link_stays(repo_path: Path) -> None:
    store = _repo(repo_path)
    subprocess.run(["mv", "topics/lessons.md", "topics/learned.md"], cwd=repo_path, check=True)
    assert store.status().questions == [] and store.commit_hand_edits() is not None
    index = git(repo_path, "show", "HEAD:MEMORY.md")
    assert "- [[topics/learned]]\n" in index and "See [[topics/lessons]] before a release." in index
    assert git(repo_path, "log", "-1", "--format=%s") == "Move topics/lessons.md -> topics/learned.md\n"
    assert git(repo_path, "status", "--porcelain") == ""
    block = store.context(None).text
    assert "[[topics/learned]] (topics/learned.md)" in block and "(topics/lessons.md)" not in block


def test_links_stay_as_written_while_memory_md_is_edited_by_hand(repo_path: Path) -> None:
    store = _repo(repo_path)
    index = repo_path / "MEMORY.md"
    index.write_text(index.read_text() + "- Typed into the index by hand [by: user]\n")
    subprocess.run(["mv", "topics/lessons.md", "topics/learned.md"], cwd=repo_path, check=True)
    assert store.commit_hand_edits() is not None
    head = git(repo_path, "show", "HEAD:MEMORY.md")
    assert "- [[topics/lessons]]\n" in head and "Typed into the index by hand" in head
    assert "still links to topics/lessons.md" in git(repo_path, "log", "--format=%b")
