"""A write to a workspace whose file waits on a hand-edit question is kept, never a second file (B7-21).

``: > workspaces/shop.md`` (or a save that drops its header line with most entries) leaves a question:
memrepo keeps the committed text until the user answers. The work tree's file no longer names the
workspace, but HEAD's does: a write for that workspace is kept in ``.git/memrepo/pending/`` and applied
to shop.md once the question is answered (docs/architecture.md §3), never written to a new shop-2.md
that claims the same workspace id.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import git, plain_settings

from memrepo.engine.errors import HandEditQuestion
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore.open(tmp_path / "memory", plain_settings(), create=True)


def _project(store: MemoryStore, tmp_path: Path) -> tuple[Path, str]:
    folder = tmp_path / "proj" / "shop"
    folder.mkdir(parents=True)
    for i in range(4):
        done = store.remember(
            Candidate(text=f"Shop fact {i} about pangolins", scope="workspace", workspace=str(folder))
        )
        assert done.path == "workspaces/shop.md", done
    return folder, (store.root / "workspaces" / "shop.md").read_text()


def _workspace_files(store: MemoryStore) -> list[str]:
    return sorted(p.name for p in (store.root / "workspaces").iterdir())


@pytest.mark.parametrize("edit", ["emptied", "header dropped"])
def test_a_write_while_the_workspace_file_waits_is_kept_then_applied(
    store: MemoryStore, tmp_path: Path, edit: str
) -> None:
    folder, committed = _project(store, tmp_path)
    shop = store.root / "workspaces" / "shop.md"
    if edit == "emptied":
        shop.write_text("")
    else:  # the header line (the workspace id) and most entries gone in one save
        shop.write_text("# shop\n\n" + next(ln for ln in committed.splitlines() if "pangolins" in ln) + "\n")
    [q] = store.status().questions
    assert q.path == "workspaces/shop.md"
    with pytest.raises(HandEditQuestion) as raised:
        store.remember(Candidate(text="The payments team lead is Dana", scope="workspace", workspace=str(folder)))
    assert raised.value.kept and "workspaces/shop.md" in str(raised.value)
    assert _workspace_files(store) == ["shop.md"]
    assert [c.text for c in store.pending()] == ["The payments team lead is Dana"]
    assert "shop-2" not in git(store.root, "show", "HEAD:MEMORY.md")
    # Put back: the committed text returns and the kept write lands in the workspace's one file.
    store.answer_hand_edit("workspaces/shop.md", q.seen, commit=False)
    assert store.pending() == []
    assert _workspace_files(store) == ["shop.md"]
    text = shop.read_text()
    assert "The payments team lead is Dana" in text and text.count("pangolins") == 4
    assert git(store.root, "status", "--porcelain") == ""


def test_a_write_after_the_header_was_dropped_on_purpose_goes_to_a_new_file(store: MemoryStore, tmp_path: Path) -> None:
    """Once the edit is committed ("yes"), the workspace has no file: the next write starts one, as before."""
    folder, _committed = _project(store, tmp_path)
    shop = store.root / "workspaces" / "shop.md"
    shop.write_text("# shop\n\n- Kept line about pangolins\n")
    [q] = store.status().questions
    store.answer_hand_edit("workspaces/shop.md", q.seen, commit=True)
    done = store.remember(Candidate(text="Starts a new file for the shop", scope="workspace", workspace=str(folder)))
    assert done.path == "workspaces/shop-2.md", done
