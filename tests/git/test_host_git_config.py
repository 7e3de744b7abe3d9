"""Tests never read the developer's git config through libgit2 (helpers/gitconfig.py says how).

libgit2 freezes its config search path when pygit2 is imported and ignores
GIT_CONFIG_GLOBAL; the subprocess cases show that on a poisoned home, and show that the
session's isolation (the same helper tests/conftest.py calls) keeps the poison out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygit2
import pytest
from helpers.gitconfig import LEVELS, search_paths

from memrepo.engine.repo.store import MemoryStore

TESTS = Path(__file__).resolve().parents[1]

POISON = "[user]\n\tname = Poisoned Developer\n\temail = poison@example.invalid\n[memrepo]\n\tpoisoned = true\n"

# Run in a fresh interpreter whose HOME is poisoned before pygit2 loads: opens a memory
# repo with the engine and reports what libgit2's config shows.
PROBE = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
mode, empty, root = sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
import pygit2
from helpers.gitconfig import isolate_libgit2
if mode == "isolated":
    isolate_libgit2(empty)
from memrepo.engine.config import Settings
from memrepo.engine.repo.store import MemoryStore
store = MemoryStore.open(root, Settings())
config = pygit2.Repository(str(root)).config
seen = {key: config[key] if key in config else None for key in ("user.name", "memrepo.poisoned")}
print(json.dumps(seen))
"""


def test_every_config_level_points_at_an_empty_folder(empty_git_config_dir: Path) -> None:
    assert search_paths() == dict.fromkeys(LEVELS, str(empty_git_config_dir))
    assert empty_git_config_dir.is_dir() and not any(empty_git_config_dir.iterdir())


def test_a_repo_opened_in_a_test_sees_no_global_config(store: MemoryStore, isolated_home: Path) -> None:
    """Even ~/.gitconfig of the test's own home is not read: libgit2 finds no global config at all."""
    (isolated_home / ".gitconfig").write_text(POISON)
    config = pygit2.Repository(str(store.root)).config
    assert "user.name" not in config and "memrepo.poisoned" not in config
    with pytest.raises((OSError, KeyError, pygit2.GitError)):
        pygit2.Config.get_global_config()


def _probe(mode: str, home: Path, empty: Path, root: Path) -> dict[str, str | None]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "XDG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), GIT_CONFIG_GLOBAL=os.devnull)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(TESTS), mode, str(empty), str(root)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_poisoned_developer_gitconfig_is_not_read(tmp_path: Path) -> None:
    home = tmp_path / "developer"
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".gitconfig").write_text(POISON)
    (home / ".config" / "git" / "config").write_text(POISON)
    empty = tmp_path / "empty"
    empty.mkdir()
    # Without the isolation libgit2 reads the poisoned ~/.gitconfig, GIT_CONFIG_GLOBAL notwithstanding:
    exposed = _probe("plain", home, empty, tmp_path / "exposed")
    assert exposed == {"user.name": "Poisoned Developer", "memrepo.poisoned": "true"}
    # With it, nothing of the developer's config reaches the repo the engine opens.
    isolated = _probe("isolated", home, empty, tmp_path / "isolated")
    assert isolated == {"user.name": None, "memrepo.poisoned": None}
