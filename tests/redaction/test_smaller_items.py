"""Issue 14's smaller items, each pinned: unsafe links, metadata round trip, lenient model JSON, nested .git."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.format import entries as fmt
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


@pytest.mark.parametrize("link", ["../../.ssh/id_rsa", "/etc/passwd", "~/.aws/credentials", "sub/.git/config"])
def test_a_link_out_of_the_repo_is_refused_on_write(tmp_path: Path, link: str) -> None:
    store = MemoryStore.open(tmp_path / "m", plain_settings())
    result = store.remember(Candidate(text=f"The deploy notes are in [[{link}]] now"))
    assert result.action is Action.REFUSED and "unsafe link" in (result.reason or "")
    assert store.remember(Candidate(text="The deploy notes are in [[lessons]] now")).action is Action.ADDED


@pytest.mark.parametrize("value", ["a literal %3B here", "%5B and %5D", "%253B twice", "50% and a%20b", "x;y[z]"])
def test_metadata_values_round_trip(tmp_path: Path, value: str) -> None:
    assert fmt.decode_value(fmt.encode_value(value)) == value
    store = MemoryStore.open(tmp_path / "m", plain_settings())
    result = store.remember(Candidate(text="Prefers short answers always", subject=value))
    entry = next(e for e in store.read_file(result.path).entries if e.ref == result.ref)
    assert entry.meta["subject"] == value


ANSWER = {"operations": []}


@pytest.mark.parametrize(
    "raw",
    [
        "```JSON\n" + json.dumps(ANSWER) + "\n```",
        "```\n" + json.dumps(ANSWER) + "\n```",
        "Here is the plan:\n\n```json\n" + json.dumps(ANSWER) + "\n```\nDone.",
        "Sure! " + json.dumps(ANSWER) + " Let me know.",
    ],
)
def test_a_dream_answer_in_a_fence_or_prose_is_read(raw: str) -> None:
    from memrepo.engine.dreams.ops import parse_output

    assert parse_output(raw).operations == []


def test_a_distiller_answer_in_a_fence_or_prose_is_read() -> None:
    from memrepo.engine.checkpoints.distill import parse_output

    out = parse_output('I found nothing new.\n```JSON\n{"operations": []}\n```')
    assert out.operations == []


def test_an_unreadable_dream_answer_is_kept_in_the_record(tmp_path: Path) -> None:
    from helpers.dream_helpers import make_repo, run_with

    store = make_repo(tmp_path / "m")
    record = run_with(store, "I cannot do that, token ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90 aside.")
    assert record.status == "failed" and "not JSON" in (record.reason or "")
    on_disk = "".join(p.read_text() for p in (tmp_path / "m" / ".git" / "memrepo" / "dreams").glob("*.json"))
    assert "I cannot do that" in on_disk and "ghp_Ab12" not in on_disk


def test_memory_read_refuses_a_nested_repositorys_git_folder(tmp_path: Path) -> None:
    from memrepo.engine.agents.confinedread import read_confined
    from memrepo.engine.errors import RefError

    root = tmp_path / "m"
    MemoryStore.open(root, plain_settings())
    subprocess.run(["git", "init", "-q", str(root / "vendor" / "lib")], check=True)
    with pytest.raises(RefError, match=r"\.git"):
        read_confined(root, "vendor/lib/.git/config")
    with pytest.raises(RefError, match=r"\.git"):
        read_confined(root, "vendor/lib/.GIT/config")
