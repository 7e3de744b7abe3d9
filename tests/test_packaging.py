"""Packaging and layering: themes ship in the wheel; the engine never imports Textual."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_importing_every_engine_module_never_imports_textual() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        "import engine\n"
        "for mod in pkgutil.iter_modules(engine.__path__):\n"
        "    importlib.import_module('engine.' + mod.name)\n"
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
    code = "import sys, tui.cli\nassert 'textual' not in sys.modules, 'textual imported'\n"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_wheel_ships_builtin_themes_and_packages(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    wheels = list(tmp_path.glob("memrepo-*.whl"))
    assert len(wheels) == 1
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    themes = sorted(n for n in names if n.startswith("themes/") and n.endswith(".toml"))
    assert "themes/memrepo-dark.toml" in themes
    assert "themes/memrepo-light.toml" in themes
    for module in ("engine/__init__.py", "engine/store.py", "engine/gitstore.py", "tui/cli.py", "tui/app.py"):
        assert module in names, module
    shipped = sorted(p.name for p in (ROOT / "engine" / "evalcases").glob("*.toml"))
    assert shipped and sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("engine/evalcases/")) == shipped
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "memrepo = tui.cli:run" in zipfile.ZipFile(wheels[0]).read(entry_points).decode()
