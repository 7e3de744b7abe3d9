"""Health does not parse a memory file over recall's 1 MB bound (engine/repo/healthscan.py).

Found by breaker3: a 50 MB topics/huge.md committed by hand made `memrepo health` take 10.6 s and 618 MB
(every line parsed) to say what its size alone says; recall and the context block skip such a file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repo_helpers import commit_by_hand, plain_settings

from memrepo.engine.repo import healthscan
from memrepo.engine.repo.health import HealthStatus, check
from memrepo.engine.repo.store import MemoryStore


def test_a_file_over_1_mb_is_named_not_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore.open(tmp_path / "memory", plain_settings())
    huge = store.root / "topics" / "huge.md"
    huge.parent.mkdir()
    line = "- A fact about rocket fuel logistics, one of very many [by: user; added: 2026-01-01]\n"
    huge.write_text("# Huge\n\n" + line * (1_100_000 // len(line) + 1))
    commit_by_hand(store.root, "a huge file by hand")
    real = healthscan.fmt.parse

    def parse(data: bytes, path: str):  # type: ignore[no-untyped-def]
        assert path != "topics/huge.md", "health parsed the 1 MB file"
        return real(data, path)

    monkeypatch.setattr(healthscan.fmt, "parse", parse)
    rows = {r.name: r for r in check(store)}
    assert rows["metadata"].status is HealthStatus.WARN
    assert "topics/huge.md: over 1 MB, not read (recall skips it too): split it" in rows["metadata"].reason
    assert rows["largest file"].status is HealthStatus.FAIL
