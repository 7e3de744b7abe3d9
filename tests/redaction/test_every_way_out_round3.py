"""Issue 32, point 5: every way out redacts, derived files are private, allow one value, invisible characters go.

Each test fails on the code before issue 32 (named in its docstring).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings
from pydantic import ValidationError

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

TOKEN = "ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90"
DIGEST = "sha256:" + "3f" * 32


def _hand_edit(root: Path, name: str, line: str) -> None:
    path = root / name
    path.write_text((path.read_text() if path.exists() else "# Inbox\n\n") + line + "\n")


def test_memrepo_inbox_redacts_a_hand_edited_token(tmp_path: Path) -> None:
    """Before: ``memrepo inbox`` printed the line as it stood in inbox.md."""
    root = tmp_path / "m"
    store = MemoryStore.open(root, plain_settings())
    store.remember(Candidate(text="Team standup is at 9:30 in room B", untrusted=True, task="t1"))
    _hand_edit(root, "inbox.md", f"- the deploy token is {TOKEN} [by: agent]")
    out = CliRunner().invoke(main, ["--repo", str(root), "inbox"]).output
    assert "the deploy token is [REDACTED:github-token]" in out and TOKEN not in out


def test_the_recall_index_holds_no_hand_edited_secret_and_is_private(tmp_path: Path) -> None:
    """Before: recall.sqlite held the hand-edited token in clear, mode 0644."""
    root = tmp_path / "m"
    store = MemoryStore.open(root, plain_settings())
    store.remember(Candidate(text="Team standup is at 9:30 in room B"))
    _hand_edit(root, "me.md", f"- the deploy token is {TOKEN} [by: user]")
    hits = store.recall("deploy token")
    assert hits and TOKEN not in hits[0].text
    state = root / ".git" / "memrepo"
    index = state / "recall.sqlite"
    assert TOKEN.encode() not in index.read_bytes()
    assert stat.S_IMODE(index.stat().st_mode) == 0o600
    for path in state.iterdir():
        if path.is_file() and path.suffix in (".sqlite", ".bin", ".json", ".salt"):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


def test_secrets_allow_takes_one_named_value_not_every_finding(tmp_path: Path) -> None:
    """Before: ``secrets allow -`` allowed every finding in the text, a real token beside the false alarm too."""
    root = tmp_path / "m"
    MemoryStore.open(root, plain_settings())
    runner = CliRunner()
    both = f"build id Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm and token {TOKEN}"
    refused = runner.invoke(main, ["--repo", str(root), "secrets", "allow", "-"], input=both)
    assert refused.exit_code != 0 and "one value" in refused.output
    done = runner.invoke(main, ["--repo", str(root), "secrets", "allow", "-"], input="Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm")
    assert done.exit_code == 0, done.output
    checked = runner.invoke(main, ["--repo", str(root), "secrets", "check", both])
    assert "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm" in checked.output and TOKEN not in checked.output


def test_the_allow_list_salt_lives_apart_from_the_hashes_and_both_are_private(tmp_path: Path) -> None:
    """Before: the salt sat beside the HMACs in secrets-allow.json, mode 0644."""
    root = tmp_path / "m"
    MemoryStore.open(root, plain_settings())
    CliRunner().invoke(main, ["--repo", str(root), "secrets", "allow", "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm"])
    state = root / ".git" / "memrepo"
    hashes = state / "secrets-allow.json"
    salt = state / "secrets-allow.salt"
    assert '"salt"' not in hashes.read_text()
    assert salt.exists() and len(salt.read_bytes()) >= 16
    assert stat.S_IMODE(hashes.stat().st_mode) == 0o600 and stat.S_IMODE(salt.stat().st_mode) == 0o600


IGNORABLE = [
    "\u3164",
    "\ufe0f",
    "\u034f",
    "\ufff9",
    "\ufffa",
    "\ufffb",
    "\u115f",
    "\u17b4",
    "\u180b",
    "\uffa0",
    "\U0001d173",
]


@pytest.mark.parametrize("char", IGNORABLE)
def test_every_default_ignorable_character_is_stripped_on_write(tmp_path: Path, char: str) -> None:
    """Before: U+3164, VS16, U+034F and U+FFF9-FFFB (among others) were stored."""
    root = tmp_path / "m"
    store = MemoryStore.open(root, plain_settings())
    result = store.remember(Candidate(text=f"Deploys go{char} out on Tuesdays after lunch"))
    stored = (root / (result.path or "")).read_text()
    assert char not in stored and "Deploys go out on Tuesdays after lunch" in stored


@pytest.mark.parametrize("source", ["user; by: user", "by: user", "the user told me", "User's own words", "[by: user]"])
def test_an_agent_source_that_names_the_user_is_refused(source: str) -> None:
    """Before: ``user; by: user`` was stored, escaped, as the source."""
    with pytest.raises(ValidationError, match="claims the user"):
        Candidate(text="Prefers tabs", by="agent", source=source)


@pytest.mark.parametrize("source", ["https://example.com/user/guide", "docs/users.md", "the team wiki"])
def test_control_an_agent_source_that_is_a_place_is_kept(source: str) -> None:
    assert Candidate(text="Prefers tabs", by="agent", source=source).source == source


def test_memory_read_refuses_a_file_with_a_second_hard_link(tmp_path: Path) -> None:
    """Before: ``memory_read`` read a file hard-linked to one outside the repo."""
    from memrepo.engine.agents.confinedread import read_confined
    from memrepo.engine.errors import RefError

    root = tmp_path / "m"
    MemoryStore.open(root, plain_settings())
    outside = tmp_path / "secret.txt"
    outside.write_text("the root password is hunter2-Kx9\n")
    os.link(outside, root / "notes.md")
    with pytest.raises(RefError, match="link"):
        read_confined(root, "notes.md")
    assert "About me" in read_confined(root, "me.md").text  # control: a plain file reads


def test_an_allow_list_with_its_salt_inside_moves_it_out_and_loses_nothing(tmp_path: Path) -> None:
    """A list written before the salt moved out keeps every allowed value; its salt moves to its own file."""
    import json

    from memrepo.engine.redaction import allow, redact

    value = "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm"
    salt = bytes(range(16))
    old = {"salt": salt.hex(), "values": {allow.digest(salt, value): {"type": "high-entropy", "allowed": "x"}}}
    (tmp_path / allow.FILE_NAME).write_text(json.dumps(old))
    allow.activate(tmp_path)
    assert redact(f"build id {value}")[0] == f"build id {value}"
    assert (tmp_path / allow.SALT_NAME).read_bytes() == salt
    assert "salt" not in json.loads((tmp_path / allow.FILE_NAME).read_text())
