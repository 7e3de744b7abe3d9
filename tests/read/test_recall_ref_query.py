"""A query that is an entry ref gives that entry (breaker8 B8-8): "repo:workspaces/tidepool.md#L7" as a query found
"No entry answers" and an outdated pin as the nearest."""

from __future__ import annotations

from pathlib import Path

from helpers.repo_helpers import plain_settings

from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def test_a_ref_as_the_query_returns_that_line(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    store.remember(Candidate(text="Current focus: Tidepool 1.0 release", kind="fact", by="user", origin="cli"))
    made = store.remember(Candidate(text="Tidepool tide gauges report every 6 minutes", kind="fact", by="user"))
    ref = str(made.ref)
    for query in (ref, ref.removeprefix("repo:"), f"  {ref} "):
        hits = store.recall(query, related=True)
        assert [(h.ref, h.text, h.answer) for h in hits] == [
            (ref, "Tidepool tide gauges report every 6 minutes", True)
        ], query
    # a ref naming no entry (a heading, past the end) is searched as words, never an error
    path = ref.removeprefix("repo:").split("#")[0]
    assert all(h.ref != f"repo:{path}#L1" for h in store.recall(f"repo:{path}#L1", related=True))
    assert store.recall(f"repo:{path}#L999") is not None
    outside = tmp_path / "secret.md"
    outside.write_text("- The outside secret line [by: user]\n")
    assert all("outside secret" not in h.text for h in store.recall("repo:../secret.md#L1"))  # confined
