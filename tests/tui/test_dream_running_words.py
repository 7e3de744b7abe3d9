"""A running dream's detail says what runs: a rules dream asks no model (breaker20 B20-11)."""

from __future__ import annotations

from memrepo.engine.dreams.record import DreamRecord
from memrepo.tui.panes.dreamview import operations_content


def _running(provider: str) -> DreamRecord:
    return DreamRecord(
        id="20261206-055910-b46f",
        trigger="manual",
        provider=provider,
        started="2026-12-06T05:59:10Z",
        examined=[f"topics/t{n}.md" for n in range(1999)],
        folder_files=1999,
    )


def test_a_running_rules_dream_names_the_rules_and_the_files() -> None:
    record = _running("rules")
    assert record.status == "running"
    text = str(operations_content(record))
    assert "model" not in text.replace("no model", "")  # there is no model in a rules dream
    assert "Running: the rules check every line of 1,999 files (offline, no model)" in text
    assert "started 05:59 UTC" in text


def test_a_running_model_dream_still_waits_for_its_model() -> None:
    text = str(operations_content(_running("openai")))
    assert "Running: 1,999 files sent, the model (openai) has not answered yet" in text
