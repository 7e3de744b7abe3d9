"""``memrepo forget me.md#L6``: a ref without ``repo:`` is taken, as ``recall`` and ``memory_read`` take it
(breaker29 B29-15: it was refused with "not an entry ref (expected repo:<path>#L<n>)")."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.errors import RefError
from memrepo.engine.format.paths import entry_ref
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def test_forget_takes_a_ref_without_repo(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    ref = store.remember(Candidate(text="The billing job runs at 02:00 UTC", kind="fact")).ref
    assert ref is not None and ref.startswith("repo:")
    done = CliRunner().invoke(main, ["--repo", str(store.root), "forget", ref.removeprefix("repo:")])
    assert done.exit_code == 0, done.output
    assert done.output.startswith(f"forgot {ref} (")
    assert "billing job" not in (store.root / ref.removeprefix("repo:").partition("#")[0]).read_text()


@pytest.mark.parametrize(
    ("given", "taken"),
    [
        ("me.md#L6", "repo:me.md#L6"),
        (" workspaces/x.md#L11 ", "repo:workspaces/x.md#L11"),
        ("inbox.md#L5@0a1b", "repo:inbox.md#L5@0a1b"),
        ("repo:me.md#L6", "repo:me.md#L6"),
        ("me.md:3", "me.md:3"),  # not a ref: left for parse_ref to refuse
        ("me.md", "me.md"),
    ],
)
def test_entry_ref_adds_repo_to_a_bare_ref_only(given: str, taken: str) -> None:
    assert entry_ref(given) == taken


def test_a_bare_ref_that_climbs_out_is_still_refused(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    with pytest.raises(RefError, match=r"climbs out|outside"):
        store.forget("../x.md#L1")
