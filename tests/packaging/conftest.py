"""Wheels the packaging tests share, built once per worker from a copy of the sources
(so builds never write build/ or egg-info into the checkout, and never race each other)."""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest
from helpers.packaging_helpers import FOLDERS, GENERIC, ROOT, run


@pytest.fixture(scope="session")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project's sources: builds write their build/ and egg-info there, not in the checkout."""
    dest = tmp_path_factory.mktemp("memrepo-src")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in FOLDERS:
        shutil.copytree(ROOT / name, dest / name, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="session")
def memrepo_wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memrepo-wheel")
    run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", out, source)
    (wheel,) = out.glob("memrepo-*.whl")
    return wheel


@pytest.fixture(scope="session")
def dummy_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A distribution ``generic-names`` whose top-level packages are engine, tui and themes."""
    project = tmp_path_factory.mktemp("dummy")
    (project / "pyproject.toml").write_text(
        textwrap.dedent("""\
            [build-system]
            requires = ["setuptools>=69"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "generic-names"
            version = "1.0"

            [tool.setuptools]
            packages = ["engine", "tui", "themes"]

            [tool.setuptools.package-data]
            themes = ["*.toml"]
            """)
    )
    for name in GENERIC:
        (project / name).mkdir()
        (project / name / "__init__.py").write_text(f'WHO = "generic-names {name}"\n')
    (project / "themes" / "memrepo-dark.toml").write_text('owner = "generic-names"\n')  # a name memrepo ships too
    out = project / "dist"
    run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", out, project)
    (wheel,) = out.glob("generic_names-*.whl")
    return wheel
