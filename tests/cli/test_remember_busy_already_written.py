"""A remember that finds the repo busy but its line already written says so, not "busy, retry" (breaker26 B26-7).

Twelve ``memrepo remember`` beside a write server SIGKILLed after it committed one of them: that client fell
back to writing itself, met the write lock another client held for 5 s and said "memory repo is busy ...
retry" (exit 1) though its line was in the repo. A busy write now looks for its line first.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore

HOLD = """
import sys, time
from pathlib import Path
from memrepo.engine.files.lock import WriteLock
with WriteLock(Path(sys.argv[1])).hold("remember"):
    Path(sys.argv[2]).touch()
    time.sleep(120)
"""


def test_a_busy_remember_of_a_line_already_written_names_it(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    root = store.root
    written = store.remember(Candidate(text="Batch fact number B1-5 here", kind="fact"))
    store.close()
    ready = tmp_path / "held"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(root / ".git"), str(ready)])
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert holder.poll() is None and time.monotonic() < deadline, "the other writer never took the lock"
        time.sleep(0.05)
    try:
        done = CliRunner().invoke(main, ["--repo", str(root), "remember", "Batch fact number B1-5 here"])
        assert done.exit_code == 0, done.output
        assert f"already written {written.ref}" in done.output and "busy" in done.output
        other = CliRunner().invoke(main, ["--repo", str(root), "remember", "Batch fact number B1-6 here"])
        assert other.exit_code == 1 and "memory repo is busy" in other.output  # not written: still busy
    finally:
        holder.kill()
        holder.wait(timeout=60)
