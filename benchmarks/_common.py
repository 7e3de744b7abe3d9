"""What the benchmark scripts share: the git CLI's environment, a private copy of a corpus, a percentile, a CSV."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

GIT_ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}
"""Environment for the git command line baselines: a fixed identity, no system config."""


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest-rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def copy_corpus(corpus: Path, tmpdir: Path) -> tuple[Path, str]:
    """Copy a corpus repo to ``tmpdir/repo`` (the corpus is never changed).

    Returns:
        tuple[Path, str]: the copy, and its HEAD's short id (7 characters, as the app's header shows it).
    """
    repo = tmpdir / "repo"
    shutil.copytree(corpus.resolve(), repo, symlinks=True)
    head = subprocess.run(
        ["git", "rev-parse", "--short=7", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    return repo, head


def write_csv(path: Path, rows: list[dict[str, object]]) -> None:
    """Write ``rows`` (dicts sharing the first row's keys) to ``path`` as CSV with a header; nothing for no rows."""
    import csv

    if not rows:
        return
    with path.open("w", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=list(rows[0]))
        out.writeheader()
        out.writerows(rows)
