"""A workspace's name scopes a question, never answers it; the header entry is no hit (engine/read/recallnames.py;
breaker30 B30-8, B30-9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.engine.models import Candidate
from memrepo.engine.read import coldrecall
from memrepo.engine.read.promptblock import recall_block
from memrepo.engine.read.recallnames import is_workspace_head, name_only, name_terms, named_terms
from memrepo.engine.repo.store import MemoryStore

MSRV = "lantern's MSRV is Rust 1.74"
MIGRATIONS = "lantern's migrations live in db/migrations"
BUILDS = "lantern release builds use cargo dist"


@pytest.fixture
def lantern(store: MemoryStore, tmp_path: Path) -> tuple[Path, str]:
    """B30-8's repo: lantern's file holds its MSRV, migrations and release builds, no deploy line; me.md a pnpm line."""
    folder = tmp_path / "lantern"
    folder.mkdir()
    for text in (MSRV, MIGRATIONS, BUILDS):
        store.remember(Candidate(text=text, scope="workspace", workspace=str(folder)))
    store.remember(
        Candidate(text="The MSRV is Rust 1.74, so no newer syntax", scope="workspace", workspace=str(folder))
    )
    for text in (
        "Prefers pnpm over npm for JavaScript projects",
        "On vacation until Friday 11 December; no deploys before then",
        "Uses Vim as the editor",
    ):
        store.remember(Candidate(text=text, kind="preference"))
    return store.root, str(folder)


def hook(root: Path, folder: str, prompt: str) -> list[str]:
    """The prompt hook's hit texts for ``prompt`` asked in ``folder`` (cli/quickhook.py's call)."""
    return [h.text for h in coldrecall.recall(root, prompt, workspace=folder, limit=3, max_bytes=1200, quick=True)]


def test_naming_the_project_is_no_answer(lantern: tuple[Path, str]) -> None:
    root, folder = lantern
    # B30-8: lantern's own lines came with the vacation line, for the word "lantern"; the vacation line may answer
    assert set(hook(root, folder, "How do we deploy lantern?")) <= {
        "On vacation until Friday 11 December; no deploys before then"
    }
    assert hook(root, folder, "Which Kubernetes namespace does lantern use?") == []


def test_the_rest_of_the_question_still_answers(lantern: tuple[Path, str]) -> None:
    root, folder = lantern
    assert hook(root, folder, "What's lantern's MSRV?")[0] == MSRV
    assert hook(root, folder, "How are lantern release builds made?") == [BUILDS]  # the MSRV lines held only the name
    assert set(hook(root, folder, "lantern")) == {MSRV, MIGRATIONS, BUILDS}  # a name alone still finds its lines
    unscoped = [h.text for h in coldrecall.recall(root, "Where do lantern's migrations live?", limit=3)]
    assert unscoped[0] == MIGRATIONS


def test_the_workspace_header_entry_is_never_a_hit(lantern: tuple[Path, str]) -> None:
    root, folder = lantern
    head = (root / "workspaces" / "lantern.md").read_text(encoding="utf-8")
    assert "- Workspace lantern [workspace: ws-" in head  # the entry memrepo writes
    for query in ("Workspace lantern", "What is the workspace?", "lantern"):
        assert not any(t.startswith("Workspace lantern") for t in hook(root, folder, query)), query
        full = coldrecall.recall(root, query, workspace=folder, related=True)
        assert not any(h.text.startswith("Workspace lantern") for h in full), query
    assert recall_block(coldrecall.recall(root, "What is the workspace?", workspace=folder, quick=True), 1200) == ""


def test_name_terms_and_named_terms() -> None:
    paths = ["workspaces/lantern.md", "workspaces/api.md", "workspaces/api-2.md", "workspaces/mobile-app.md", "me.md"]
    names = name_terms([*paths, "workspaces/project-0001.md", "workspaces/old/x.md"])
    assert names == {
        frozenset({"lantern"}): {"workspaces/lantern.md"},
        frozenset({"api"}): {"workspaces/api.md", "workspaces/api-2.md"},
        frozenset({"mobil", "app"}): {"workspaces/mobile-app.md"},
        frozenset({"project", "0001"}): {"workspaces/project-0001.md"},  # no project.md: a name of its own
    }
    assert named_terms(["deploy", "lantern"], names) == ({"lantern"}, {"workspaces/lantern.md"})
    assert named_terms(["mobil", "app", "build"], names)[0] == {"mobil", "app"}
    assert named_terms(["app", "build"], names) == (frozenset(), frozenset())  # one word of a longer name is no name
    only = name_only(["deploy", "lantern"], names, ["deploy", "lantern"])
    assert only({"lantern": 1.0}) and not only({"deploy": 1.0}) and not only({"deploy": 1.0, "lantern": 1.0})
    assert not name_only(["lantern"], names, ["lantern"])({"lantern": 1.0})  # the name alone asked: it answers
    assert not name_only(["deploy", "shop"], names, ["deploy", "shop"])({"shop": 1.0})  # no workspace "shop"
    assert is_workspace_head("workspaces/x.md", {"workspace": "ws-1"})
    assert not is_workspace_head("me.md", {"workspace": "ws-1"})  # a global line about the workspace is content


def test_a_workspace_made_after_a_search_is_a_name_at_once(store: MemoryStore, tmp_path: Path) -> None:
    """The names are read once and kept with the index (2 ms CPU a ranking at 998 workspaces) until a file changes:
    lantern's file, made after a search of this same index, makes "lantern" a name for the next one."""
    shop = tmp_path / "shop"
    shop.mkdir()
    store.remember(Candidate(text="The shop deploys with make ship", scope="workspace", workspace=str(shop)))
    assert [h.text for h in store.recall("How do we deploy the shop?")] == ["The shop deploys with make ship"]
    index = store.reads.recall_index_built
    assert index is not None
    assert list(index.memo["workspace_names"]) == [frozenset({"shop"})]  # kept
    folder = tmp_path / "lantern"
    folder.mkdir()
    store.remember(Candidate(text=MSRV, scope="workspace", workspace=str(folder)))
    assert store.reads.recall_index_built is index
    assert [h.text for h in store.recall("lantern's MSRV")] == [MSRV]
    assert frozenset({"lantern"}) in index.memo["workspace_names"]
    assert store.recall("Which Kubernetes namespace does lantern use?") == []  # the name alone answers nothing
