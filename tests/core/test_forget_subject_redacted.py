"""A forget's commit subject and ``log`` never carry a secret the forgotten line held; a task id holding one is
redacted too (breaker24 B24-5, B24-7; docs/architecture.md §3, "every way out redacts").

Forgetting is how a person removes a token committed by hand (or synced in raw): the "Forget: ..." subject
copied the line's raw text into a new commit, pushed by the next sync and printed by ``memrepo log``.
"""

from __future__ import annotations

from helpers.repo_helpers import USER, git

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

TOKEN = "ghp_Xk9mQ2vL7pRtYh5NbQwErTyUiOpAs12DfGhJk"
OPENAI = "sk-proj-Xk9mQ2vL7pRtYh5NbQwErTyUiOpAs12DfGhJkLmNoPq"


def test_forget_subject_and_log_are_redacted(store: MemoryStore) -> None:
    me = store.root / "me.md"
    me.write_text(me.read_text() + f"- github token {TOKEN}\n- my editor \x1b]0;pwned\x07is vim\n")
    git(store.root, "add", "me.md")
    git(store.root, *USER, "commit", "-q", "-m", f"by hand: github token {TOKEN}")  # an old raw subject
    for needle in ("github token", "my editor"):
        ref = next(e.ref for e in store.read_file("me.md").entries if needle in e.text)
        assert ref and store.forget(ref).commit
    subjects = git(store.root, "log", "-2", "--format=%s").splitlines()
    assert subjects[1].startswith("Forget: github token [REDACTED:") and TOKEN not in subjects[1]
    assert subjects[0] == "Forget: my editor ]0;pwnedis vim"  # controls dropped (the OSC never reaches a terminal)
    shown = store.log(5)
    assert all(TOKEN not in c.summary and TOKEN not in c.message for c in shown)
    assert any(c.summary.startswith("by hand: github token [REDACTED:") for c in shown)


def test_a_task_holding_a_secret_is_redacted_and_an_id_is_kept(store: MemoryStore) -> None:
    store.remember(Candidate(text="The deploy repo moved to the new git host", by="user", task=OPENAI))
    store.remember(Candidate(text="Tests run with pytest here", task="5973b6c0-94b8-487b-a530-2aeb6098ae0e"))
    text = (store.root / "me.md").read_text() + "".join(
        (store.root / p).read_text() for p in ("lessons.md",) if (store.root / p).exists()
    )
    body = git(store.root, "log", "--format=%B")
    assert OPENAI not in text and OPENAI not in body and "[REDACTED:" in body
    assert "5973b6c0-94b8-487b-a530-2aeb6098ae0e" in body
