"""Packaging and layering: themes ship in the wheel; the engine never imports Textual."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_importing_every_engine_module_never_imports_textual() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        "import memrepo.engine as engine\n"
        "for mod in pkgutil.walk_packages(engine.__path__, 'memrepo.engine.'):\n"
        "    importlib.import_module(mod.name)\n"
        "for name in engine.__all__:\n"
        "    getattr(engine, name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print('loaded', len(sys.modules))\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "loaded" in result.stdout


def test_cli_module_import_stays_free_of_textual() -> None:
    """``memrepo remember`` must not pay for Textual: the CLI loads it only to open the app."""
    code = "import sys, memrepo.cli.main\nassert 'textual' not in sys.modules, 'textual imported'\n"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
@pytest.mark.xdist_group("packaging")  # the wheel is built once, on the worker of the other packaging tests
def test_wheel_ships_builtin_themes_and_packages(memrepo_wheel: Path) -> None:
    wheels = [memrepo_wheel]
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    themes = sorted(n for n in names if n.startswith("memrepo/themes/") and n.endswith(".toml"))
    assert "memrepo/themes/memrepo-dark.toml" in themes
    assert "memrepo/themes/memrepo-light.toml" in themes
    for module in (
        "memrepo/engine/__init__.py",
        "memrepo/engine/git/store.py",
        "memrepo/cli/main.py",
        "memrepo/tui/app.py",
        "memrepo/tui/app.tcss",
        "memrepo/mcpserver/server.py",
        "memrepo/evals/runner.py",
    ):
        assert module in names, module
    tops = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert tops == {"memrepo"}, tops  # nothing under a generic top-level name
    shipped = sorted(p.name for p in (ROOT / "evals" / "cases").glob("*.toml"))
    assert shipped and sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("memrepo/evals/cases/")) == shipped
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "memrepo = memrepo.cli.quick:script" in zipfile.ZipFile(wheels[0]).read(entry_points).decode()
