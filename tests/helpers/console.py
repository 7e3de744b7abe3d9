"""Run ``memrepo`` through the console script's quick path in a new process, and see what it imported."""

from __future__ import annotations

import subprocess
import sys

QUICK = """
import sys
sys.argv = ["memrepo", *sys.argv[1:]]
from memrepo.cli import quick
try:
    quick.run()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print("imported:", "pydantic" in sys.modules, "click" in sys.modules, file=sys.stderr)
sys.exit(code)
"""


def console(*argv: str) -> tuple[str, str, int, bool]:
    """``memrepo ARGV`` in a new process: out, err, exit code, and whether click or pydantic was imported
    (neither, when the quick path answered)."""
    done = subprocess.run([sys.executable, "-c", QUICK, *argv], capture_output=True, text=True)
    err, _, imported = done.stderr.rpartition("imported: ")
    return done.stdout, err, done.returncode, imported.strip() != "False False"
