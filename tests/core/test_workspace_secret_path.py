"""A folder path holding a secret never reaches memory (breaker30 B30-22, docs/architecture.md §2).

An agent's ``cwd`` is free text: a folder named with a token put the token into the workspace file's name, its
header entry (``Workspace <name> [path: ...]``), the commit and the recall index, the one field redaction did
not read. Such a workspace is filed under its id alone; the same folder finds it again.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

TOKEN = "ghp_Zx8Kq2Lm9Np4Rt6Vw1Yb3Cd5Fg7Hj0Kl2Mn4"


def _everything(root: Path) -> bytes:
    """The work tree's files, every git object (loose and packed, inflated) and memrepo's derived files."""
    out = b""
    for path in root.rglob("*"):
        if path.is_file() and ".git" not in path.relative_to(root).parts:
            out += path.read_bytes()
    objects = subprocess.run(
        ["git", "-C", str(root), "cat-file", "--batch-all-objects", "--batch"], capture_output=True, check=True
    )
    out += objects.stdout
    for path in (root / ".git" / "memrepo").rglob("*"):
        if path.is_file():
            out += path.read_bytes()
    return out


def test_a_token_in_the_folder_path_is_written_nowhere(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    folder = str(tmp_path / "projects" / TOKEN)
    first = store.remember(Candidate(text="Staging cache is Redis", scope="workspace", workspace=folder))
    assert first.path is not None and first.path.startswith("workspaces/ws-"), first
    again = store.remember(Candidate(text="Deploys go out on Tuesdays", scope="workspace", workspace=folder))
    assert again.path == first.path  # the same folder finds its workspace by id
    hits = store.recall("staging cache", workspace=folder)
    assert hits and hits[0].text.startswith("Staging cache is Redis")
    everything = _everything(store.root)
    assert TOKEN.encode() not in everything and TOKEN.lower().encode() not in everything


def test_a_plain_folder_keeps_its_name_and_path(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    folder = str(tmp_path / "projects" / "billing")
    done = store.remember(Candidate(text="Invoices are in cents", scope="workspace", workspace=folder))
    assert done.path == "workspaces/billing.md"
    assert f"path: {folder}" in (store.root / done.path).read_text()
