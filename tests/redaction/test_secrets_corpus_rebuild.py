"""The secrets benchmark's local parts: the rebuild manifest agrees with its script.

benchmarks/secrets_corpus/SOURCES.md lists every locally built part's source repository and snapshot commit;
rebuild.sh runs the builders at those commits (docs/benchmarks.md, "Secret redaction by source").
"""

from __future__ import annotations

import re
from pathlib import Path

CORPUS = Path(__file__).parents[2] / "benchmarks" / "secrets_corpus"


def _rebuild_snapshots() -> dict[str, str]:
    """owner/name -> commit of every snapshot rebuild.sh names."""
    text = (CORPUS / "rebuild.sh").read_text(encoding="utf-8")
    pairs = re.findall(r'"([\w.-]+/[\w.-]+) ([0-9a-f]{7,40})"', text)
    return dict(pairs)


def test_every_snapshot_of_the_rebuild_script_is_in_the_manifest_with_the_same_commit() -> None:
    """SOURCES.md and rebuild.sh name the same repositories at the same commits (one manifest, not two drifting)."""
    script = _rebuild_snapshots()
    manifest = dict(
        re.findall(r"^\| `([\w.-]+/[\w.-]+)` \| `([0-9a-f]{7,40})` \|", (CORPUS / "SOURCES.md").read_text(), re.M)
    )
    assert len(script) > 100
    assert script == manifest


def test_every_part_the_script_scores_has_a_row_in_the_manifest() -> None:
    """Each part name rebuild.sh writes into ALL_ARGS is a row of SOURCES.md's parts table."""
    text = (CORPUS / "rebuild.sh").read_text(encoding="utf-8")
    named = set()
    for var in ("SECRET_PARTS", "BENIGN_PARTS"):
        block = re.search(rf'^{var}="([^"]*)"', text, re.M)
        assert block is not None
        named |= set(block.group(1).split())
    manifest = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([\w-]+)` \|", manifest, re.M))
    assert named <= rows, sorted(named - rows)
