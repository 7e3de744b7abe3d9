"""The wheel builds without a deprecation warning and carries what a user install needs (issue 34).

Before, the build warned that ``project.license`` as a TOML table (``{text = "MIT"}``) stops
working in February 2027; the current form is an SPDX expression string, which setuptools reads
from version 77 on and writes as ``License-Expression:``. The hooks schema ``setup claude-code
--check`` reads is package data, so a wheel install (pipx, uv tool) has it.
"""

from __future__ import annotations

import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from helpers.packaging_helpers import ROOT, run


@pytest.mark.slow
def test_the_wheel_builds_without_warnings_and_states_its_licence(source: Path, tmp_path: Path) -> None:
    done = run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", tmp_path, source)
    output = done.stdout + done.stderr
    assert "deprecat" not in output.casefold(), output[-3000:]
    (wheel,) = tmp_path.glob("memrepo-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        metadata = zf.read(next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))).decode()
        names = set(zf.namelist())
    assert "License-Expression: MIT" in metadata.splitlines()
    assert "memrepo/cli/claude_hooks_schema.json" in names


def test_pyproject_uses_the_spdx_string_and_a_setuptools_that_reads_it() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in data["project"].get("classifiers", []))
    assert "setuptools>=77" in data["build-system"]["requires"]
