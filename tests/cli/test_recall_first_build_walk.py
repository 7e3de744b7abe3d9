"""``memrepo recall`` while the index's first build runs elsewhere (issue 30 point 4, cost).

- The scan that answers walks the files once: the note on files over 1 MB comes from that walk
  (engine/read/coldrecall.py ``ScanHits``), where ``skipped_files`` walked them a second time.
- A query with no hit asked again with no byte budget (to tell "no match" from "no hit fits") scans again; it
  ran a whole first build in the recall's own process before (40.9 s at 2,000 make_corpus files, measured).

In process, with the build's starter recorded instead of run and the child-build threshold at one file, so a
small repo takes the path a repo of 400 files or more takes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.cli import quick
from memrepo.cli.quickbase import config_keys
from memrepo.engine.models import Candidate
from memrepo.engine.read import recall as recall_module
from memrepo.engine.read import recallkeys
from memrepo.engine.read.recallbuilding import build_state
from memrepo.engine.read.recallentries import MAX_INDEXED_FILE
from memrepo.engine.repo.store import MemoryStore

NOTE = "memrepo: not searched, over recall's 1 MB limit: topics/huge.md (1.1 MB); split it into smaller files"


@pytest.fixture
def unbuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[Path], list[int]]:
    """A repo with a file over 1 MB and no recall index; (root, builds started, walks made)."""
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Uses pnpm for installs", by="user"))
    root = store.root
    store.close()
    huge = root / "topics" / "huge.md"
    huge.parent.mkdir(exist_ok=True)
    huge.write_text(
        "# Huge\n\n" + "".join(f"- rocket fuel note {i:06d} with some padding text\n" for i in range(23_000))
    )
    assert huge.stat().st_size > MAX_INDEXED_FILE
    recallkeys.index_path(root).unlink(missing_ok=True)
    monkeypatch.setenv("MEMREPO_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setattr(recall_module, "CHILD_BUILD_FILES", 1)
    builds: list[Path] = []
    monkeypatch.setattr(quick, "start_index_build", builds.append)
    walks: list[int] = []
    real_walk = recallkeys.walk

    def counted(root: Path, folders: list[str] | None = None) -> dict:
        walks.append(1)
        return real_walk(root, folders)

    monkeypatch.setattr(recallkeys, "walk", counted)
    return root, builds, walks


def _recall(root: Path, word: str) -> int:
    args = quick.parse_recall(["--repo", str(root), "recall", word])
    keys = config_keys()
    assert args is not None and keys is not None
    try:
        quick.recall(args, keys)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_the_scan_that_answers_walks_once_and_names_the_large_file(
    unbuilt: tuple[Path, list[Path], list[int]], capsys: pytest.CaptureFixture[str]
) -> None:
    root, builds, walks = unbuilt
    assert _recall(root, "pnpm") == 0
    out, err = capsys.readouterr()
    assert "Uses pnpm for installs" in out
    assert err.splitlines()[0].startswith("memrepo: answered by a scan of the files")
    assert NOTE in err.splitlines()
    assert builds == [root], "the build was handed to its own process"
    assert len(walks) == 1, f"the files were walked {len(walks)} times"


def test_no_hit_while_the_index_builds_never_builds_it_here(
    unbuilt: tuple[Path, list[Path], list[int]], capsys: pytest.CaptureFixture[str]
) -> None:
    root, builds, _walks = unbuilt
    assert _recall(root, "zzqqxx") == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == "memrepo: no memory matches 'zzqqxx'"
    assert NOTE in err.splitlines()
    assert not build_state(root)[0], "the recall built the index in its own process"
    assert builds and set(builds) == {root}
