"""What ``redact_text`` remembers is bounded by size (issue 33: a long-running process's memory must stay flat).

Before, it remembered the last 65,536 texts of any length: a long-running process redacting big texts (a
checkpoint's batch, log lines with tracebacks) kept every one of them.
"""

from __future__ import annotations

import random
import string
import tracemalloc
from collections.abc import Iterator

import pytest

from memrepo.engine import redaction

BOUND = 200_000
"""The cache's bound in characters for these tests (the product's is 8,000,000: the same rule, a quicker test)."""


def _texts(n: int, length: int, seed: int) -> Iterator[str]:
    """``n`` distinct texts of ``length`` characters, made one at a time (the caller keeps none)."""
    rng = random.Random(seed)
    words = ["valve", "pump", "deploy", "staging", "rowing", "kettle", "meadow", "lumen"]
    for k in range(n):
        body = " ".join(rng.choice(words) for _ in range(length // 6))
        yield f"Note {k} {''.join(rng.choices(string.ascii_lowercase, k=8))} {body}"[:length]


def _held_after(texts: Iterator[str]) -> int:
    """Bytes still allocated after redacting each of ``texts`` once and letting it go (what the cache keeps)."""
    redaction.redact_text("warm up the detectors")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for text in texts:
            redaction.redact_text(text)
        del text
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


@pytest.fixture
def small_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redaction, "CACHE_CHARS", BOUND, raising=False)


def test_many_memory_lines_keep_at_most_the_bound(small_cache) -> None:
    held = _held_after(_texts(1_200, 1_000, 1))  # 1,200,000 characters, six times the bound
    # Each kept text is held twice (the text and its redaction, ~1 byte a character) with some overhead:
    # bounded by a small multiple of the bound, where keeping them all holds ~1.4 MB.
    assert held < 3 * BOUND, held


def test_long_texts_are_redacted_but_not_kept(small_cache) -> None:
    held = _held_after(_texts(30, 20_000, 2))  # a checkpoint batch's size, each over the longest kept text
    assert held < 100_000, held  # keeping them held ~600 KB
    long = next(_texts(1, 20_000, 2))
    assert redaction.redact_text(long) == redaction.redact(long)[0]


def test_a_text_seen_again_is_answered_from_memory_and_stays(monkeypatch: pytest.MonkeyPatch, small_cache) -> None:
    calls: list[str] = []
    real = redaction.redact

    def counted(text: str, *args, **kwargs):
        calls.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(redaction, "redact", counted)
    keep = "Deploys go through the staging cluster first, token sk-live-notreal"
    first = redaction.redact_text(keep)
    for text in _texts(300, 1_000, 3):  # 300,000 characters pass through; keep is used now and then
        redaction.redact_text(text)
        assert redaction.redact_text(keep) == first
    assert calls.count(keep) == 1  # recently used: never dropped, never redacted again
    assert sum(1 for c in calls if c != keep) == 300
