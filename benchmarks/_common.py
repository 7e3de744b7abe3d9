"""What the benchmark scripts share: the git CLI's environment and a percentile."""

from __future__ import annotations

import os

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
