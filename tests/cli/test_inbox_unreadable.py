"""``memrepo inbox`` on an inbox.md it cannot read says so (cli/main.py).

Found by breaker3: an inbox.md that is not UTF-8 (or, since read_file's bound, over 1 MB) was listed as "inbox is
empty: nothing waits for review", exit 0, though entries may wait in it.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.repo.store import MemoryStore


def test_an_unreadable_inbox_is_not_called_empty(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    (store.root / "inbox.md").write_bytes(b"# Inbox\n\n- caf\xe9 latte [by: agent]\n")
    result = CliRunner().invoke(main, ["--repo", str(store.root), "inbox"])
    assert result.exit_code == 1
    assert "cannot list the inbox: inbox.md is not UTF-8 text" in result.stderr
    assert "inbox is empty" not in result.output
