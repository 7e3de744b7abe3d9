"""``[semantic] provider = "off"`` turns the checkpoint's meaning match off too (:func:`.meaningmatch.follow`).

A user who turned semantic recall off in config.toml had the embedding model loaded anyway by the session's
checkpoint: corrections read only ``MEMREPO_SEMANTIC``. Each claimed batch now follows the settings it runs with.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from helpers.dream_helpers import settings

from memrepo.engine.checkpoints import meaningmatch
from memrepo.engine.checkpoints.checkpoint import Checkpointer
from memrepo.engine.checkpoints.flow import run_checkpoint
from memrepo.engine.config import Settings
from memrepo.engine.repo.store import MemoryStore


class Flat:
    """A stand-in model: every text the same vector (what it answers does not matter here)."""

    model_id = "test:flat"

    def embed(self, texts: Sequence[str], query: bool) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    meaningmatch.reset()
    yield
    meaningmatch.reset()


def with_provider(home: Path, provider: str) -> Settings:
    data = settings(home).model_dump()
    data["semantic"]["provider"] = provider
    return Settings.model_validate(data)


def close_a_session(store: MemoryStore, cfg: Settings) -> None:
    turns = [
        {"id": "u1", "role": "user", "text": "Remember that my editor is Helix."},
        {"id": "a1", "role": "assistant", "text": "Noted."},
    ]
    result = run_checkpoint(store, Checkpointer(store.state_dir), cfg, "s1", None, turns, "session_close")
    assert result.status == "distilled", result


def test_a_checkpoint_with_semantic_off_uses_no_model(store: MemoryStore, tmp_path: Path) -> None:
    meaningmatch.use_model(Flat())
    close_a_session(store, with_provider(tmp_path, "off"))
    assert meaningmatch._model() is None


def test_a_checkpoint_with_semantic_on_keeps_the_model(store: MemoryStore, tmp_path: Path) -> None:
    model = Flat()
    meaningmatch.use_model(model)
    close_a_session(store, with_provider(tmp_path, "auto"))
    assert meaningmatch._model() is model


def test_turned_on_again_the_next_match_may_load_a_model() -> None:
    meaningmatch.follow("off")
    assert meaningmatch._model() is None
    meaningmatch.follow("auto")
    assert "off" not in meaningmatch._state or meaningmatch._state["off"] != meaningmatch.OFF_BY_SETTINGS
