"""``memory_recall`` with no answer searches every file again only when a file it did not search exists.

The second, unscoped search names other workspaces' files that answer (breaker5 B5-4). When the scoped
search already covered every file (no workspace file but the session's own, or none at all), it found
nothing more and cost as much as the first search again.
"""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.repo import MemoryRepo
from memrepo.engine.repo.store import MemoryStore
from memrepo.mcpserver.tooling import elsewhere_line


def _counting(repo: MemoryRepo) -> list[str | None]:
    """Every recall the repo runs from now on, by its workspace argument."""
    calls: list[str | None] = []
    store = repo._store
    real = store.recall

    def recall(query, workspace=None, *args, **kwargs):
        calls.append(workspace)
        return real(query, workspace, *args, **kwargs)

    store.recall = recall  # type: ignore[method-assign]
    return calls


async def test_no_second_search_when_the_first_covered_every_file(tmp_path: Path) -> None:
    mem, shop = tmp_path / "memory", tmp_path / "shop"
    shop.mkdir()
    store = MemoryStore.open(mem, plain_settings())
    store.remember(Candidate(text="Shop deploys with make ship", scope="workspace", workspace=str(shop)))
    store.remember(Candidate(text="Answer in English", scope="global"))
    store.close()
    repo = await MemoryRepo.open(mem, plain_settings())
    try:
        calls = _counting(repo)
        assert await repo.other_workspace_files(str(shop)) is False  # its own file is the only one
        assert await elsewhere_line(repo, "quantum chromodynamics", str(shop)) == ""
        assert calls == []
        elsewhere = tmp_path / "elsewhere"  # a folder with no file of its own: the shop file is another's
        elsewhere.mkdir()
        assert await repo.other_workspace_files(str(elsewhere)) is True
        assert await elsewhere_line(repo, "make ship deploys", str(elsewhere)) != ""
        assert calls == [None]
    finally:
        await repo.close()


async def test_a_repo_without_workspace_files_runs_one_search(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    store = MemoryStore.open(mem, plain_settings())
    store.remember(Candidate(text="Answer in English", scope="global"))
    store.close()
    repo = await MemoryRepo.open(mem, plain_settings())
    try:
        calls = _counting(repo)
        assert await repo.other_workspace_files(str(tmp_path)) is False
        assert await elsewhere_line(repo, "make ship", str(tmp_path)) == ""
        assert calls == []
    finally:
        await repo.close()


async def test_another_workspace_file_is_still_searched_and_named(tmp_path: Path) -> None:
    mem, shop, billing = tmp_path / "memory", tmp_path / "shop", tmp_path / "billing"
    shop.mkdir()
    billing.mkdir()
    store = MemoryStore.open(mem, plain_settings())
    store.remember(Candidate(text="Shop deploys with make ship", scope="workspace", workspace=str(shop)))
    done = store.remember(
        Candidate(text="Invoice item 4041 is the yearly Zephyrion plan", scope="workspace", workspace=str(billing))
    )
    store.close()
    repo = await MemoryRepo.open(mem, plain_settings())
    try:
        calls = _counting(repo)
        line = await elsewhere_line(repo, "Zephyrion plan item 4041", str(shop))
        assert f"{done.path} (1 entry)" in line
        assert calls == [None]
    finally:
        await repo.close()
