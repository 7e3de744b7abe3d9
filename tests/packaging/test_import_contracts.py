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

SUB_PACKAGES = {
    f"memrepo.engine.{name}"
    for name in (
        "agents",
        "checkpoints",
        "dreams",
        "files",
        "format",
        "git",
        "history",
        "read",
        "repo",
        "state",
        "sync",
        "write",
    )
}
"""The engine's sub-packages: containers with a docstring and nothing else, so importing one exposes nothing."""

PUBLIC = SUB_PACKAGES | {
    "memrepo.engine",
    "memrepo.engine.repo.autosync",
    "memrepo.engine.checkpoints.checkpoint",
    "memrepo.engine.checkpoints.flow",
    "memrepo.engine.checkpoints.types",
    "memrepo.engine.checkpoints.waiting",
    "memrepo.engine.format.cleantext",
    "memrepo.engine.read.coldrecall",
    "memrepo.engine.read.coldread",
    "memrepo.engine.history.compact",
    "memrepo.engine.config",
    "memrepo.engine.configpath",
    "memrepo.engine.dreams.dreamer",
    "memrepo.engine.dreams.gate",
    "memrepo.engine.format.entries",
    "memrepo.engine.format.terms",
    "memrepo.engine.files.regularfile",
    "memrepo.engine.agents.confinedread",
    "memrepo.engine.agents.codexturns",
    "memrepo.engine.agents.sessionrepos",
    "memrepo.engine.errors",
    "memrepo.engine.repo.health",
    "memrepo.engine.importers",
    "memrepo.engine.format.layout",
    "memrepo.engine.models",
    "memrepo.engine.models.base",
    "memrepo.engine.models.history",
    "memrepo.engine.format.paths",
    "memrepo.engine.read.readcount",
    "memrepo.engine.read.recalldoor",
    "memrepo.engine.read.modeline",
    "memrepo.engine.read.conflictnote",
    "memrepo.engine.read.heldread",
    "memrepo.engine.read.keptnote",
    "memrepo.engine.redaction",
    "memrepo.engine.redaction.allow",
    "memrepo.engine.repo.repo",
    "memrepo.engine.files.sourcestamp",
    "memrepo.engine.history.stats",
    "memrepo.engine.repo.store",
    "memrepo.engine.state.registry",
    "memrepo.engine.sync.sync",
    "memrepo.engine.agents.transcripts",
    "memrepo.engine.history.workspaces",
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
    git_layer = {m for m in _engine_modules() if m == "memrepo.engine.git" or m.startswith("memrepo.engine.git.")}
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


def test_sub_packages_hold_nothing_but_a_docstring() -> None:
    """A sub-package's ``__init__`` imports nothing: the public API stays the modules listed above."""
    for name in SUB_PACKAGES:
        init = ROOT / "engine" / name.rsplit(".", 1)[1] / "__init__.py"
        body = ast.parse(init.read_text()).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr), f"{init} holds more than its docstring"


def test_the_source_stamp_covers_every_engine_folder() -> None:
    """Kept blocks and the write server are keyed by the source stamp: an edit in any sub-package must change it."""
    from memrepo.engine.files import sourcestamp

    folders = {p.name for p in (ROOT / "engine").iterdir() if (p / "__init__.py").exists()}
    assert set(sourcestamp.SUB_PACKAGES) == folders
    named = {part.split(":", 1)[0] for part in sourcestamp.stamp().split("|")}
    assert "read/context.py" in named and "git/store.py" in named and "engine/__init__.py" in named


def test_the_redaction_epoch_names_files_that_exist() -> None:
    """The epoch stamps the detectors' sources by path; a path that no longer exists would never change it."""
    from memrepo.engine.read import redactionepoch

    assert all(path.is_file() for path in redactionepoch._DETECTOR_SOURCES)


NOT_DETECTORS = {"allow.py", "memo.py", "logs.py", "detectsecrets.py"}
"""Redaction modules that decide nothing about a text: the allow-list (stamped apart), the clean memo, the logging
filter that calls :func:`redact`, and detect-secrets' patterns (the benchmark's only)."""


def test_the_redaction_epoch_names_every_detector_source() -> None:
    """A rule added in a module the epoch does not stamp would leave kept texts redacted the old way."""
    from memrepo.engine.read import redactionepoch

    stamped = {path.name for path in redactionepoch._DETECTOR_SOURCES if path.parent.name == "redaction"}
    sources = {p.name for p in (ROOT / "engine" / "redaction").iterdir() if p.suffix in (".py", ".json")}
    assert sources - NOT_DETECTORS <= stamped
