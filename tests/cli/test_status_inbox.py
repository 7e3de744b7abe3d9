"""``memrepo status`` counts the inbox entries waiting for review (cli/handedits.py).

Found by breaker3 in a new user's first ten minutes: two agent entries waited in the inbox and
``status`` said only "clean", while its help said exit 0 means "nothing waits for you". The count is a
last line; the exit code is unchanged (nothing is blocked), and an empty inbox adds nothing.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def test_status_counts_the_inbox_and_keeps_exit_0(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    store = MemoryStore.open(root, plain_settings())
    repo = ["--repo", str(root), "status"]
    assert CliRunner().invoke(main, repo).stdout == "clean\n"
    for text in ("The deploy host is build-7", "Release train leaves on Tuesdays"):
        assert store.remember(Candidate(text=text, by="agent", untrusted=True)).action.value == "inboxed"
    result = CliRunner().invoke(main, repo)
    assert result.exit_code == 0
    assert result.stdout == "clean\n2 inbox entries wait for review: `memrepo inbox`\n"
