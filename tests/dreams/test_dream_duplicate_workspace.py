"""Two files naming one workspace: the dream never moves a header, Health reports the split (B7-23, loss8).

breaker7 split a project's memory into shop.md and shop-2.md, both headed "Workspace shop [workspace:
ws-...]". The rules dream proposed moving shop.md's header line into shop-2.md: accepted, shop.md's entries
were left in a file naming no workspace, out of the project's block for good. Each file's own header now
stays where it is (the dream's header rule covers both), and Health names the duplicate for the user.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers.dream_helpers import make_repo
from helpers.repo_helpers import plain_settings

from memrepo.engine.dreams.input import build_input
from memrepo.engine.dreams.providers import RulesProvider
from memrepo.engine.repo.health import HealthStatus, check
from memrepo.engine.repo.store import MemoryStore

WS = "ws-8161c006"
SHOP = (
    "# shop\n\n"
    f"- Workspace shop [workspace: {WS}; path: /nonexistent/proj/shop; by: user]\n"
    "- Staging DB host is pg-stage-9 [by: user]\n"
    "- The double charge bug is SHOP-4417 [by: user]\n"
    "- Code freeze starts Dec 20 [by: user]\n"
)
SHOP_2 = (
    "# shop-2\n\n"
    f"- Workspace shop [workspace: {WS}; path: /nonexistent/proj/shop; by: user]\n"
    "- The payments team lead is Dana [by: user]\n"
)


def _ops(repo_path: Path) -> tuple[object, list[dict]]:
    store = make_repo(repo_path, {"workspaces/shop.md": SHOP, "workspaces/shop-2.md": SHOP_2})
    din = build_input(repo_path, [p for p, _ in store.list_files()], [])
    return din, json.loads(RulesProvider().propose(din).text)["operations"]


def test_the_rules_dream_never_moves_a_duplicate_workspace_header(repo_path: Path) -> None:
    din, ops = _ops(repo_path)
    headers = {alias for alias, ref in din.lines.items() if ref.meta.get("workspace")}  # type: ignore[attr-defined]
    assert len(headers) == 2
    assert not [op for op in ops if op["op"] == "move"], ops  # it proposed moving shop.md's header
    used = {op.get("line") for op in ops} | {op.get("keep") for op in ops}
    assert not used & headers, ops
    assert all(din.lines[alias].header for alias in headers)  # type: ignore[attr-defined]


def test_health_names_a_workspace_split_across_two_files(repo_path: Path) -> None:
    _ops(repo_path)
    rows = check(MemoryStore.open(repo_path, plain_settings()))
    (split,) = [r for r in rows if r.name == "workspaces"]
    assert split.status is HealthStatus.WARN
    assert WS in split.reason and "workspaces/shop-2.md and workspaces/shop.md" in split.reason
    assert "sessions read only workspaces/shop-2.md" in split.reason


def test_health_has_no_workspaces_row_when_each_workspace_has_one_file(repo_path: Path) -> None:
    make_repo(repo_path, {"workspaces/shop.md": SHOP})
    rows = check(MemoryStore.open(repo_path, plain_settings()))
    assert [r for r in rows if r.name == "workspaces"] == []
