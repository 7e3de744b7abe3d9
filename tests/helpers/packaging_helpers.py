"""Helpers of the packaging tests: the project's folders and a command runner."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout."""

FOLDERS = ("engine", "tui", "cli", "mcpserver", "evals", "themes")
"""The repository folders installed as ``memrepo.<folder>``."""

GENERIC = ("engine", "tui", "themes")
"""The generic top-level names memrepo must not claim (the dummy distribution ships them)."""


def run(*argv: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command; fail the test with its output when it fails."""
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{argv}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done
