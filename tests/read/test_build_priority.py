"""The background index build lowers its priority before it imports anything (docs/architecture.md §4).

Its process used to import the engine and start reading files at the priority of the session that started it,
then lower it: on two shared cores that start competed with the session's own first recall, a scan of the files.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from memrepo.cli.quickbase import BUILD_CODE as CLI_BUILD_CODE
from memrepo.engine.read.recallfile import BUILD_CODE, BUILD_NICE, NICE_FIRST


def test_the_cli_and_the_engine_start_the_same_build() -> None:
    assert CLI_BUILD_CODE == BUILD_CODE
    assert BUILD_CODE.startswith(NICE_FIRST)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priority on this platform")
def test_the_priority_is_lowered_before_any_import() -> None:
    start = os.nice(0)
    probe = NICE_FIRST + "import sys; print(os.nice(0), sorted(m for m in sys.modules if m.startswith('memrepo')))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    nice, loaded = out.stdout.split(" ", 1)
    assert int(nice) == max(start, BUILD_NICE)
    assert loaded.strip() == "[]"  # nothing of memrepo loaded at the session's priority
