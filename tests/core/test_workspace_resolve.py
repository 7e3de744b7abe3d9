"""One workspace resolver for remember, context, recall and clear: a folder path,
a ``ws-`` id, or a name matched case-insensitively against the workspace files
(file name or ``Workspace <name>`` line); ambiguous and unknown names are
clear one-line errors, never a second file for one project."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.errors import RefError
from memrepo.engine.format.paths import workspace_id
from memrepo.engine.models import Action, Candidate
from memrepo.engine.repo.store import MemoryStore


def run(repo: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--repo", str(repo), *args], catch_exceptions=True)


def ok(repo: Path, *args: str) -> str:
    result = run(repo, *args)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def one_line_error(result: Result, *words: str, code: int = 1) -> str:
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("memrepo: ")
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def workspace_files(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / "workspaces").glob("*.md"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder ``wsA`` that is also the current folder (as in the QA run)."""
    folder = tmp_path / "wsA"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def test_remember_by_name_goes_to_the_project_file_made_from_its_path(store: MemoryStore, project: Path) -> None:
    repo = store.root
    assert "workspaces/wsa.md" in ok(repo, "remember", "wsA uses make", "--workspace", ".")
    # The file's name and the name in its first entry, in any case.
    assert "workspaces/wsa.md" in ok(repo, "remember", "wsA name lower", "--workspace", "wsa")
    assert "workspaces/wsa.md" in ok(repo, "remember", "wsA uses ninja", "--workspace", "wsA")
    assert "workspaces/wsa.md" in ok(repo, "remember", "wsA uses bazel too", "--workspace", "WSA")
    assert workspace_files(repo) == ["wsa.md"]
    block = ok(repo, "context", "--workspace", "wsa")
    for text in ("wsA uses make", "wsA name lower", "wsA uses ninja", "wsA uses bazel too"):
        assert text in block
    assert f"workspace {workspace_id(str(project))}" in block
    listed = ok(repo, "workspaces")
    assert len(listed.splitlines()) == 1, listed
    # recall with the name keeps this workspace's file
    assert "wsA uses ninja" in ok(repo, "recall", "ninja", "--workspace", "Wsa")


def test_a_name_given_first_is_found_again_in_another_case(store: MemoryStore) -> None:
    first = store.remember(Candidate(text="Billing deploys on Fridays", scope="workspace", workspace="Billing"))
    assert first.path == "workspaces/billing.md"
    again = store.remember(Candidate(text="Billing uses Postgres", scope="workspace", workspace="billing"))
    assert again.path == "workspaces/billing.md"
    assert workspace_files(store.root) == ["billing.md"]
    assert "Billing uses Postgres" in store.context("BILLING").text
    # A name no workspace has yet still makes a new named workspace (docs/architecture.md §2).
    made = store.remember(Candidate(text="Search runs on Postgres", scope="workspace", workspace="search"))
    assert made.action is Action.ADDED and made.path == "workspaces/search.md"
    assert store.read_file("workspaces/search.md").entries[0].meta["workspace"] == workspace_id("search")
    assert store.clear_workspace("search").path == "workspaces/search.md"
    # clear takes the same names
    assert store.clear_workspace("BILLING").path == "workspaces/billing.md"
    assert workspace_files(store.root) == []


def test_an_ambiguous_name_is_an_error_listing_the_workspaces(store: MemoryStore, tmp_path: Path) -> None:
    for parent in ("a", "b"):
        folder = tmp_path / parent / "api"
        folder.mkdir(parents=True)
        store.remember(Candidate(text=f"api in {parent} uses go", scope="workspace", workspace=str(folder)))
    assert workspace_files(store.root) == ["api-2.md", "api.md"]
    with pytest.raises(RefError) as caught:
        store.remember(Candidate(text="api uses rust", scope="workspace", workspace="API"))
    message = str(caught.value)
    assert "workspaces/api.md" in message and "workspaces/api-2.md" in message
    assert workspace_files(store.root) == ["api-2.md", "api.md"]
    with pytest.raises(RefError, match=r"workspaces/api-2\.md"):
        store.context("api")
    with pytest.raises(RefError, match=r"workspaces/api-2\.md"):
        store.recall("go", workspace="api")
    # The file's own name (api-2) is no longer ambiguous, nor is the folder path.
    assert "api in b uses go" in store.context("api-2").text
    assert "api in a uses go" in store.context(str(tmp_path / "a" / "api")).text
    one_line_error(
        run(store.root, "remember", "api uses rust", "--workspace", "api"), "workspaces/api.md", "workspaces/api-2.md"
    )


def test_context_and_recall_with_an_unknown_name_are_errors(store: MemoryStore) -> None:
    store.remember(Candidate(text="Name is Sam", kind="identity", by="user"))
    with pytest.raises(RefError, match="nonexist"):
        store.context("nonexist")
    with pytest.raises(RefError, match="nonexist"):
        store.recall("Sam", workspace="nonexist")
    line = one_line_error(run(store.root, "context", "--workspace", "nonexist"), "nonexist", "memrepo workspaces")
    assert "folder" in line
    one_line_error(run(store.root, "recall", "Sam", "--workspace", "nonexist"), "nonexist")


def test_context_for_a_folder_with_no_file_yet_has_a_proper_header(store: MemoryStore, tmp_path: Path) -> None:
    folder = tmp_path / "fresh"
    folder.mkdir()
    text = store.context(str(folder)).text
    ws_id = workspace_id(str(folder))
    assert f"## workspace {ws_id}, folder {folder}\n(no file for this workspace yet)" in text
    assert "## workspaces/ " not in text


def test_remember_global_with_a_workspace_is_a_usage_error(store: MemoryStore, project: Path) -> None:
    result = run(store.root, "remember", "wsA uses make", "--scope", "global", "--workspace", ".")
    one_line_error(result, "--scope global", "--workspace", code=2)
    assert workspace_files(store.root) == []
    assert "wsA uses make" not in (store.root / "me.md").read_text()


@pytest.mark.slow
async def test_mcp_cwd_given_as_a_name_uses_the_same_resolver(tmp_path: Path) -> None:
    from helpers.mcp_helpers import call, mcp_session

    mem = tmp_path / "memory"
    MemoryStore.open(mem, plain_settings())
    project = tmp_path / "Billing"
    project.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with mcp_session(mem, project) as here, mcp_session(mem, elsewhere) as there:
        err, text = await call(
            here, "memory_remember", content="Billing deploys with make ship", kind="fact", scope="workspace"
        )
        assert not err and text.startswith("added repo:workspaces/billing.md#L"), text
        # Another session names the workspace instead of being in its folder.
        err, text = await call(
            there,
            "memory_remember",
            content="Billing rolls back with make undo",
            kind="fact",
            scope="workspace",
            cwd="billing",
        )
        assert not err and text.startswith("added repo:workspaces/billing.md#L"), text
        err, text = await call(there, "memory_context", cwd="BILLING")
        assert not err and "make ship" in text and "make undo" in text, text
        err, text = await call(there, "memory_recall", query="rolls back", cwd="Billing")
        assert not err and "make undo" in text, text
        err, text = await call(there, "memory_context", cwd="nonexist")
        assert err and "no workspace is named 'nonexist'" in text and "\n" not in text.strip()
    assert workspace_files(mem) == ["billing.md"]


# -- more hostile names --------------------------------------------------


def test_an_upper_case_id_is_the_same_workspace(store: MemoryStore, project: Path) -> None:
    repo = store.root
    ok(repo, "remember", "wsA uses make", "--workspace", ".")
    upper = workspace_id(str(project)).upper()
    assert "workspaces/wsa.md" in ok(repo, "remember", "upper id fact", "--workspace", upper)
    assert "upper id fact" in ok(repo, "context", "--workspace", upper)
    assert workspace_files(repo) == ["wsa.md"]


def test_a_write_by_the_name_of_an_archived_workspace_keeps_its_id_so_restore_merges(store: MemoryStore) -> None:
    repo = store.root
    ok(repo, "remember", "before archive fact", "--workspace", "missing")
    ok(repo, "workspaces", "archive", "missing", "--force")
    ok(repo, "remember", "after archive fact", "--workspace", "MISSING")
    ok(repo, "workspaces", "restore", "missing")
    assert workspace_files(repo) == ["missing.md"]
    text = (repo / "workspaces" / "missing.md").read_text()
    assert "before archive fact" in text and "after archive fact" in text


def test_a_name_typed_in_nfd_is_the_workspace_typed_in_nfc(store: MemoryStore) -> None:
    import unicodedata

    repo = store.root
    ok(repo, "remember", "nfc fact", "--workspace", unicodedata.normalize("NFC", "Café Projet"))
    ok(repo, "remember", "nfd fact", "--workspace", unicodedata.normalize("NFD", "Café Projet"))
    assert workspace_files(repo) == ["cafe-projet.md"]


@pytest.mark.parametrize("command", [("remember", "some fact"), ("context",), ("recall", "fact")])
def test_an_empty_workspace_is_a_usage_error(store: MemoryStore, command: tuple[str, ...]) -> None:
    head = store.head()
    result = run(store.root, *command, "--workspace", "")
    assert result.exit_code == 2 and "is empty" in result.stderr
    assert store.head() == head
