"""``secrets check`` shows what every way out shows, the allow list kept; two lines are two values (breaker31 B31-9).

Before: ``memrepo secrets check`` in a process of its own consulted no allow list, so a value the user had allowed
still printed redacted; and ``secrets allow`` of a key id and a token on two lines took the two for one value.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.repo_helpers import plain_settings

from memrepo.cli.main import main
from memrepo.engine.redaction import allow, allow_found, find
from memrepo.engine.repo.store import MemoryStore

KEY_ID = "AKIAZ7QK3M5N8P2R4T6W"
TOKEN = "glpat-Zq8Xw7Cv6Bn5Mm4Lk3Jh"


def test_check_in_a_new_process_keeps_a_value_the_repo_allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "m"
    MemoryStore.open(root, plain_settings())
    runner = CliRunner()
    monkeypatch.setattr(allow, "_active", {})  # the allow below activates this repo's list only in this test
    assert runner.invoke(main, ["--repo", str(root), "secrets", "allow", KEY_ID]).exit_code == 0
    monkeypatch.setattr(allow, "_active", {})  # what a new process starts with: no repo's list consulted yet
    checked = runner.invoke(main, ["--repo", str(root), "secrets", "check", f"the build id is {KEY_ID} here"])
    assert checked.exit_code == 0 and KEY_ID in checked.output and "nothing redacted" in checked.output


def test_check_outside_any_repo_still_redacts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allow, "_active", {})
    checked = CliRunner().invoke(main, ["--repo", str(tmp_path / "none"), "secrets", "check", f"key {KEY_ID}"])
    assert checked.exit_code == 0 and KEY_ID not in checked.output


def test_allow_refuses_two_values_on_two_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allow, "_active", {})  # no other test's allowed values
    state = tmp_path / "state"
    state.mkdir()
    text = f"{KEY_ID}\n{TOKEN}"
    assert len({text[s:e] for s, e, _ in find(text)}) <= 1  # read whole, the two can look like one finding
    with pytest.raises(ValueError, match="one value at a time"):
        allow_found(state, text)
    assert allow.entries(state) == []
