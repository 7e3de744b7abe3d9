"""A running dream says what it does and how far it is, in its record and on ``memrepo dream``'s stderr (B20-11).

A rules dream on 2,000 files ran 8.5 minutes (a loaded machine) while the app said only that it was running and
the CLI said nothing. The rules provider now reports each step with a count (``n of N``); the dreamer keeps the
last line in the running record, which the app's Dreams pane follows, and ``memrepo dream`` prints each on
stderr. A finished record holds no progress line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.dream_helpers import make_repo

from memrepo.cli.main import main
from memrepo.engine.dreams import progress as progress_mod
from memrepo.engine.dreams.dreamer import Dreamer
from memrepo.engine.dreams.progress import Progress

FILES = {
    f"topics/t{n}.md": f"# Topic {n}\n\n"
    + "".join(f"- Service {n} line {k} runs on port {8000 + k} [by: agent]\n" for k in range(6))
    + f"- Service {n} line 0 runs on port 8000 [by: agent]\n"  # a duplicate in each file
    for n in range(12)
}


@pytest.fixture(autouse=True)
def every_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_mod, "EVERY_S", 0.0)  # every report said: the count is tested, not the pace


def test_the_running_record_holds_the_step_and_its_count_and_the_finished_one_none(repo_path: Path) -> None:
    store = make_repo(
        repo_path, {**FILES, "MEMORY.md": "# Memory\n\n" + "".join(f"- [[topics/t{n}]]\n" for n in range(12))}
    )
    dreamer = Dreamer(store)
    seen: list[tuple[str, str | None, str]] = []

    def told(line: str) -> None:
        running = dreamer.list()[0]  # the record as the app reads it from disk, while the dream runs
        seen.append((line, running.progress, running.status))

    dreamer.on_progress = told
    record = dreamer.run(provider="rules")
    assert seen, "no progress line"
    assert all(line == kept and status == "running" for line, kept, status in seen)
    lines = [line for line, _, _ in seen]
    files = len(record.examined)
    assert any(
        line.startswith("duplicates among ") and f" lines of {files} files, scope: 0 of " in line for line in lines
    )
    assert any(line.startswith("facts a newer line of the same file changed, file: ") for line in lines), lines
    assert any(line.startswith("lines that say the same or replace one another, among ") for line in lines), lines
    last, count = lines[-1].rsplit(": ", 1)
    assert last.startswith("the rules checked ") and last.endswith(f" lines of {files} files, scope"), lines[-1]
    done, total = count.split(" of ")
    assert done == total  # the whole folder checked
    assert record.status != "running" and record.progress is None
    assert dreamer.list()[0].progress is None


def test_memrepo_dream_prints_progress_on_stderr_and_the_result_on_stdout(repo_path: Path) -> None:
    make_repo(repo_path, FILES)
    done = CliRunner().invoke(main, ["--repo", str(repo_path), "dream", "--provider", "rules"])
    assert done.exit_code == 0, done.output
    said = [line for line in done.stderr.splitlines() if line.startswith("dreaming: ")]
    assert said and any(" of " in line for line in said), done.stderr
    assert "dreaming:" not in done.stdout
    assert "rules" in done.stdout.splitlines()[0]


def test_progress_is_throttled_and_never_fails_the_dream() -> None:
    now = [0.0]
    said: list[str] = []
    p = Progress(said.append, every_s=2.0, clock=lambda: now[0])
    for n in range(100):
        now[0] = n * 0.1  # 10 s in all
        p("step", n, 100)
    assert said == ["step: 0 of 100", "step: 20 of 100", "step: 40 of 100", "step: 60 of 100", "step: 80 of 100"]

    def broken(line: str) -> None:
        raise OSError("disk full")

    Progress(broken, every_s=0.0)("step", 1, 2)  # no exception
