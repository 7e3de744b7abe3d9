"""The import contracts (``[tool.importlinter]`` in pyproject.toml) cover every engine module: each one is either public
(listed here and in CONTRIBUTING.md) or internal (forbidden to the front ends there), so a new
module cannot slip past the public-API contract unclassified."""

from __future__ import annotations

import ast
import pkgutil
import tomllib
from pathlib import Path

import memrepo.engine

ROOT = Path(__file__).resolve().parents[2]

PUBLIC = {
    "memrepo.engine",
    "memrepo.engine.autosync",
    "memrepo.engine.checkpoint",
    "memrepo.engine.checkpointflow",
    "memrepo.engine.checkpointtypes",
    "memrepo.engine.cleantext",
    "memrepo.engine.coldrecall",
    "memrepo.engine.coldread",
    "memrepo.engine.compact",
    "memrepo.engine.config",
    "memrepo.engine.configpath",
    "memrepo.engine.dreamer",
    "memrepo.engine.dreamgate",
    "memrepo.engine.entryformat",
    "memrepo.engine.errors",
    "memrepo.engine.health",
    "memrepo.engine.importers",
    "memrepo.engine.layout",
    "memrepo.engine.models",
    "memrepo.engine.paths",
    "memrepo.engine.readcount",
    "memrepo.engine.redaction",
    "memrepo.engine.redaction.allow",
    "memrepo.engine.repo",
    "memrepo.engine.sourcestamp",
    "memrepo.engine.stats",
    "memrepo.engine.store",
    "memrepo.engine.sync",
    "memrepo.engine.transcripts",
    "memrepo.engine.workspaces",
}
"""The engine's public modules: what the app, the CLI and the MCP server may import."""


def _contract(cid: str) -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        contracts = tomllib.load(fh)["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["id"] == cid)


def _engine_modules() -> set[str]:
    found = {"memrepo.engine"}
    for mod in pkgutil.walk_packages(memrepo.engine.__path__, "memrepo.engine."):
        found.add(mod.name)
    return found


def test_every_engine_module_is_public_or_internal() -> None:
    internal = set(_contract("front-ends-use-the-public-api")["forbidden_modules"])  # type: ignore[call-overload]
    modules = _engine_modules()
    assert not PUBLIC & internal, f"both public and internal: {sorted(PUBLIC & internal)}"
    unclassified = modules - PUBLIC - internal
    assert not unclassified, (
        f"engine modules neither public nor internal: {sorted(unclassified)}; add each to PUBLIC here "
        "(and CONTRIBUTING.md) or to forbidden_modules of that contract in pyproject.toml"
    )
    gone = (PUBLIC | internal) - modules
    assert not gone, f"listed but not in the engine any more: {sorted(gone)}"


def test_only_git_modules_may_import_pygit2() -> None:
    allowed: list[str] = _contract("pygit2-in-the-git-layer")["allowed_importers"]  # type: ignore[assignment]
    assert allowed and all(name.startswith("memrepo.engine.git") for name in allowed)
    git_layer = {m for m in _engine_modules() if m.rsplit(".", 1)[1].startswith("git")}
    assert set(allowed) == git_layer


def test_type_checkers_see_every_lazy_export() -> None:
    """engine/__init__.py loads its names on first use; its TYPE_CHECKING block names the same ones."""
    tree = ast.parse((ROOT / "engine" / "__init__.py").read_text())
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.module
                typed.update({alias.name: imp.module for alias in imp.names})
    assert typed == memrepo.engine._EXPORTS
