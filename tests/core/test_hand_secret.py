"""A hand edit that adds a secret waits for the user's word (engine/write/handsecret.py, docs/architecture.md §3).

Before, a token typed into a memory file by hand was committed as written by
the next write or quiet period: into git's objects and on to every remote.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import HandEditQuestion, RefError
from memrepo.engine.models import Candidate, RepoState
from memrepo.engine.repo.store import MemoryStore

TOKEN = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12"
LINE = f"- The deploy bot's GitHub token is {TOKEN} [by: user]\n"
PLAIN = "- The deploy bot posts in #releases [by: user]\n"


def _in_objects(root: Path, text: str) -> bool:
    """True when any object git holds (every ref, the reflog, loose or packed) contains ``text``."""
    objects = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"], cwd=root, capture_output=True, check=True
    ).stdout
    return text.encode() in objects


def _store(repo_path: Path) -> MemoryStore:
    return MemoryStore.open(repo_path, plain_settings(), create=True)


def _add_by_hand(root: Path, *lines: str) -> bytes:
    memory = root / "MEMORY.md"
    memory.write_bytes(memory.read_bytes() + "".join(lines).encode())
    return memory.read_bytes()


def test_a_hand_edit_adding_a_token_is_held_and_never_reaches_git(repo_path: Path) -> None:
    store = _store(repo_path)
    head = store.head()
    _add_by_hand(repo_path, PLAIN, LINE)
    status = store.status()
    [q] = status.questions
    assert q.path == "MEMORY.md" and len(q.secrets) == 1 and "github-token" in q.secrets[0]
    assert TOKEN not in q.message and "--redact MEMORY.md" in q.message
    assert store.commit_hand_edits() is None  # the quiet-period commit and a write's scan leave it
    store.remember(Candidate(text="The release train leaves on Thursdays"))  # a write beside it
    assert store.head() != head
    assert not _in_objects(repo_path, TOKEN)
    assert TOKEN in (repo_path / "MEMORY.md").read_text()  # the user's text is kept on disk meanwhile


def test_redact_replaces_only_the_added_secret_and_commits(repo_path: Path) -> None:
    store = _store(repo_path)
    _add_by_hand(repo_path, PLAIN, LINE)
    [q] = store.status().questions
    commit = store.answer_hand_edit("MEMORY.md", q.seen, commit=False, redact=True)
    assert commit is not None and store.head() == commit
    shown = git(repo_path, "show", "HEAD:MEMORY.md")
    assert "[REDACTED:github-token]" in shown and PLAIN in shown
    assert (repo_path / "MEMORY.md").read_text() == shown
    assert not _in_objects(repo_path, TOKEN)
    status = store.status()
    assert status.state is RepoState.CLEAN and status.questions == []


def test_commit_as_written_keeps_the_value_and_is_not_asked_again(repo_path: Path) -> None:
    store = _store(repo_path)
    _add_by_hand(repo_path, LINE)
    [q] = store.status().questions
    assert store.answer_hand_edit("MEMORY.md", q.seen, commit=True) is not None
    assert TOKEN in git(repo_path, "show", "HEAD:MEMORY.md")
    _add_by_hand(repo_path, PLAIN)  # a later edit of the same file: the committed value asks nothing
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None


def test_a_new_file_with_a_secret_is_held(repo_path: Path) -> None:
    store = _store(repo_path)
    (repo_path / "notes.md").write_text("# Notes\n\n" + LINE)
    [q] = store.status().questions
    assert q.path == "notes.md" and q.secrets
    assert store.commit_hand_edits() is None
    assert not _in_objects(repo_path, TOKEN)


def test_redact_is_refused_for_a_question_about_deletions(repo_path: Path) -> None:
    store = _store(repo_path)
    _add_by_hand(repo_path, *(f"- kept fact number {i} [by: user]\n" for i in range(12)))
    assert store.commit_hand_edits() is not None
    (repo_path / "MEMORY.md").write_bytes(b"")
    [q] = store.status().questions
    with pytest.raises(RefError, match="adds no secret"):
        store.answer_hand_edit("MEMORY.md", q.seen, commit=False, redact=True)
    assert (repo_path / "MEMORY.md").read_bytes() == b""


def test_an_edit_without_secrets_is_committed_as_before(repo_path: Path) -> None:
    store = _store(repo_path)
    _add_by_hand(repo_path, PLAIN, "- Docker image sha256:" + "ab" * 32 + " is the base [by: user]\n")
    assert store.status().questions == []
    assert store.commit_hand_edits() is not None


def test_the_cli_redacts_and_commits(repo_path: Path) -> None:
    _store(repo_path)
    _add_by_hand(repo_path, PLAIN, LINE)
    shown = subprocess.run(["memrepo", "--repo", str(repo_path), "status"], capture_output=True, text=True, check=False)
    assert "looks like a secret" in shown.stdout and TOKEN not in shown.stdout + shown.stderr
    done = subprocess.run(
        ["memrepo", "--repo", str(repo_path), "commit-hand-edits", "--redact"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "redacted 1 line(s) of MEMORY.md" in done.stdout
    assert "[REDACTED:github-token]" in git(repo_path, "show", "HEAD:MEMORY.md")
    assert not _in_objects(repo_path, TOKEN)


def _ed25519_pem(tmp: Path) -> str:
    key = tmp / "id_test"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    return key.read_text()


def test_a_private_key_pasted_by_hand_is_redacted_on_every_line(repo_path: Path, tmp_path: Path) -> None:
    """Each line of a PEM body was looked at alone: the body lines that hold the key's seed reached git."""
    if subprocess.run(["which", "ssh-keygen"], capture_output=True).returncode:
        pytest.skip("ssh-keygen is not installed here (the CI image has it)")
    store = _store(repo_path)
    pem = _ed25519_pem(tmp_path)
    body = [line for line in pem.splitlines() if line and not line.startswith("-----")]
    _add_by_hand(repo_path, "- The deploy key:\n", pem)
    [q] = store.status().questions
    assert len(q.secrets) >= len(body)
    store.answer_hand_edit("MEMORY.md", q.seen, commit=False, redact=True)
    for line in body:
        assert not _in_objects(repo_path, line)


def test_a_mass_deletion_that_adds_a_secret_names_both_and_redact_works(repo_path: Path) -> None:
    store = _store(repo_path)
    _add_by_hand(repo_path, *(f"- kept fact number {i} [by: user]\n" for i in range(12)))
    assert store.commit_hand_edits() is not None
    (repo_path / "MEMORY.md").write_text("# Memory\n\n" + LINE)
    [q] = store.status().questions
    assert q.secrets and q.entries_before >= 12 and "looks like a secret" in q.message
    store.answer_hand_edit("MEMORY.md", q.seen, commit=False, redact=True)
    assert "[REDACTED:github-token]" in git(repo_path, "show", "HEAD:MEMORY.md")
    assert not _in_objects(repo_path, TOKEN)


def test_put_back_of_a_stale_save_never_commits_a_secret_it_added(repo_path: Path) -> None:
    store = _store(repo_path)
    stale = (repo_path / "me.md").read_bytes()
    store.remember(Candidate(text="Prefers dark roast coffee", kind="preference"))
    assert b"dark roast" in (repo_path / "me.md").read_bytes()
    (repo_path / "me.md").write_bytes(stale + LINE.encode())  # an editor's stale copy, plus a token
    [q] = store.status().questions
    assert q.dropped and q.secrets
    assert store.answer_hand_edit("me.md", q.seen, commit=False) is None  # put back: written, not committed
    on_disk = (repo_path / "me.md").read_text()
    assert "dark roast" in on_disk and TOKEN in on_disk
    assert not _in_objects(repo_path, TOKEN)
    [again] = store.status().questions
    assert again.secrets and not again.dropped


def test_text_saved_into_an_old_inode_with_a_secret_is_held(repo_path: Path) -> None:
    store = _store(repo_path)
    store.remember(Candidate(text="Prefers tea in the afternoon", kind="preference"))
    with open(repo_path / "me.md", "ab") as held:  # an editor holding the file open across memrepo's write
        store.remember(Candidate(text="Prefers a standing desk", kind="preference"))  # renames a new me.md in
        held.write(LINE.encode())
        held.flush()
        with pytest.raises(HandEditQuestion, match="looks like a secret"):  # salvaged, held, so refused
            store.remember(Candidate(text="Prefers quiet mornings", kind="preference"))
    assert not _in_objects(repo_path, TOKEN)
    assert TOKEN in (repo_path / "me.md").read_text()  # kept in the file, asked about
    assert any(q.secrets for q in store.status().questions)


def test_a_killed_writers_file_is_committed_but_a_secret_added_by_hand_is_still_asked(
    repo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a SIGKILLed write, its files are committed as confirmed; a token typed into one meanwhile was too."""
    import memrepo.engine.files.lock as lock_module
    import memrepo.engine.write.writer as writer_module

    store = _store(repo_path)
    _add_by_hand(repo_path, LINE)
    # What the lock and undo.recover find when the last writer was SIGKILLed between its rename and commit.
    monkeypatch.setattr(lock_module, "killed_writer_at", lambda git_dir: 1.0)
    monkeypatch.setattr(writer_module, "recover", lambda root, committed: ["MEMORY.md"])
    store.commit_hand_edits()
    assert not _in_objects(repo_path, TOKEN)
    assert any(q.secrets for q in store.status().questions)
