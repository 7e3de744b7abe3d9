"""An editor's save that recreates the file ``clear workspace`` deleted is asked about, never committed silently
(breaker24 B24-13; engine/write/stalerevived.py ``revived_entries``, docs/architecture.md §3).

nano or vim open on ``workspaces/<name>.md`` when the workspace is cleared writes its whole buffer back to the
path: the file comes back with every cleared entry. With no file in HEAD the save read as a new hand-written
file and the next write committed it (the cleared text back in context and recall). It is now judged like a
stale save after ``forget`` or ``clear global``: a question names the entries it brings back; "put back" keeps
only the person's new lines; "commit" commits the save as it is.
"""

from __future__ import annotations

from helpers.repo_helpers import git

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

CLEARED = "Shop deploys with fly deploy from main"
NEW = "I like green tea"


def _recreate(store: MemoryStore) -> str:
    """Clear the workspace under an open editor, then save the editor's buffer with one new line."""
    store.remember(Candidate(text=CLEARED, scope="workspace", workspace="shop"))
    rel = "workspaces/shop.md"
    buffer = (store.root / rel).read_text()
    assert store.clear_workspace("shop").commit
    assert not (store.root / rel).exists()
    (store.root / rel).write_text(buffer + f"- {NEW}\n")  # the editor writes its buffer back to the path
    return rel


def test_a_save_recreating_a_cleared_workspace_is_asked_and_put_back_keeps_only_new_lines(store: MemoryStore) -> None:
    rel = _recreate(store)
    questions = [q for q in store.status().questions if q.path == rel]
    assert len(questions) == 1
    assert any(CLEARED in line for line in questions[0].revived) and not questions[0].dropped
    store.remember(Candidate(text="Another fact written meanwhile", by="user"))  # never commits the held save
    assert rel not in git(store.root, "ls-tree", "-r", "--name-only", "HEAD").split()
    store.answer_hand_edit(rel, questions[0].seen, commit=False)  # --put-back
    head = git(store.root, "show", f"HEAD:{rel}")
    assert NEW in head and CLEARED not in head
    assert CLEARED not in (store.root / rel).read_text()
    assert not store.status().questions


def test_commit_keeps_the_recreated_file_as_saved(store: MemoryStore) -> None:
    rel = _recreate(store)
    (question,) = [q for q in store.status().questions if q.path == rel]
    store.answer_hand_edit(rel, question.seen, commit=True)  # --yes
    head = git(store.root, "show", f"HEAD:{rel}")
    assert NEW in head and CLEARED in head
