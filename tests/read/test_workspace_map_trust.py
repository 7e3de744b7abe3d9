"""A new ``memrepo context`` does not stat every workspace file (engine/read/workspacemap.py,
docs/architecture.md §4): with the ``workspaces/`` folder unchanged since a full check a moment ago, a
look-up lists no folder; a file added, removed or saved by a rename, or the answered file edited in
place, is still seen at once."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers.repo_helpers import plain_settings

from memrepo.engine.read import workspacemap
from memrepo.engine.read.coldread import context_text
from memrepo.engine.repo.store import MemoryStore


def ws_file(root: Path, name: str, ws_id: str, line: str = "- Uses tox [by: user]") -> Path:
    path = root / "workspaces" / f"{name}.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"# {name}\n\n- workspace {name} [workspace: {ws_id}; path: /src/{name}]\n{line}\n")
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = MemoryStore.open(tmp_path / "memory", plain_settings()).root
    for n in range(30):
        ws_file(root, f"project-{n:02d}", f"ws-{n:08x}")
    return root


@pytest.fixture
def listings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The listings of a ``workspaces/`` folder (the map's check stats every file it lists)."""
    seen: list[str] = []
    real = os.scandir

    def counting(path: object = ".") -> object:
        if str(path).endswith("/workspaces"):
            seen.append(str(path))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(workspacemap.os, "scandir", counting)
    return seen


def test_a_second_context_lists_no_folder(root: Path, listings: list[str]) -> None:
    first = context_text(str(root), "ws-00000007")
    assert first is not None and "Uses tox" in first
    assert listings  # the first look-up checks every file
    listings.clear()
    assert context_text(str(root), "ws-00000007") == first
    assert listings == []


def test_what_changes_the_folder_or_the_answered_file_is_seen_at_once(root: Path, listings: list[str]) -> None:
    context_text(str(root), "ws-00000007")
    # The answered file edited in place (nano, an appending script): the folder is unchanged.
    path = root / "workspaces" / "project-07.md"
    with path.open("a") as fh:
        fh.write("- Appended in place [by: user]\n")
    assert "Appended in place" in (context_text(str(root), "ws-00000007") or "")
    # Another file saved by a rename now names a workspace of its own: the folder changed.
    tmp = ws_file(root, "tmp-save", "ws-000000ff", "- Saved by rename [by: user]")
    os.replace(tmp, root / "workspaces" / "project-03.md")
    listings.clear()
    assert "Saved by rename" in (context_text(str(root), "ws-000000ff") or "")
    assert listings  # checked again


def test_the_trust_lasts_a_minute_at_most(root: Path, listings: list[str], monkeypatch) -> None:
    context_text(str(root), "ws-00000007")
    later = time.time() + workspacemap.FULL_CHECK_S + 1
    monkeypatch.setattr(workspacemap.time, "time", lambda: later)
    listings.clear()
    context_text(str(root), "ws-00000007")
    assert listings


def test_an_append_to_the_answered_file_reads_that_file_alone(root: Path, listings: list[str]) -> None:
    """A hook's context right after the agent's session wrote to its workspace's file: the file is read
    again, no folder is listed (before: every workspace file statted and the map rewritten)."""
    context_text(str(root), "ws-00000007")
    path = root / "workspaces" / "project-07.md"
    for n in range(3):
        with path.open("a") as fh:
            fh.write(f"- Appended in place {n} [by: user]\n")
        listings.clear()
        assert f"Appended in place {n}" in (context_text(str(root), "ws-00000007") or "")
        assert listings == []


def test_an_edit_of_the_answered_files_head_checks_every_file(root: Path, listings: list[str]) -> None:
    context_text(str(root), "ws-00000007")
    path = root / "workspaces" / "project-07.md"
    path.write_text(path.read_text().replace("ws-00000007", "ws-000000aa"))  # in place: the folder is unchanged
    listings.clear()
    old = context_text(str(root), "ws-00000007") or ""
    assert listings  # the head no longer names the workspace its row says: a full check
    assert "Uses tox" not in old  # the file is no longer that workspace's
    assert "Uses tox" in (context_text(str(root), "ws-000000aa") or "")
