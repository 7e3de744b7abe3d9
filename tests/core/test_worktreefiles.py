"""What the file list says of a few paths without a walk (engine/files/worktreefiles.py) is what a walk says."""

from __future__ import annotations

import os
from pathlib import Path

from memrepo.engine.files.worktreefiles import file_sizes, list_files


def test_file_sizes_agrees_with_the_walk_for_every_kind_of_path(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "topics").mkdir()
    (root / "topics" / "a.md").write_text("- a [by: user]\n")
    (root / "me.md").write_text("- me [by: user]\n")
    (root / ".me.md.swp").write_bytes(b"vim")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.md").write_text("- x\n")
    (root / "linked").symlink_to(outside)  # a symlinked folder is listed as a link, never entered
    (root / "link.md").symlink_to(root / "me.md")
    os.mkfifo(root / "pipe.md")
    walked = dict(list_files(root))
    asked = [".git/HEAD", ".GIT/HEAD", "topics/a.md", "me.md", ".me.md.swp", "linked", "linked/x.md", "link.md",
             "pipe.md", "gone.md", "topics/gone.md", "../outside/x.md"]  # fmt: skip
    assert file_sizes(root, asked) == {path: walked.get(path) for path in asked}
    assert file_sizes(root, ["me.md", "topics"]) is None  # a folder: only a walk lists what it holds
