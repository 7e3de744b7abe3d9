"""Megabytes of pasted text are refused before redaction runs (docs/architecture.md §3, the writer's policy)."""

from __future__ import annotations

import pytest

from memrepo.engine.format.limits import ENTRY_MAX_CHARS
from memrepo.engine.models import Candidate
from memrepo.engine.write import policy


def test_text_far_over_the_limit_is_refused_without_redacting_it(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = policy.redact

    def counting(text: str) -> tuple[str, list[str]]:
        calls.append(len(text))
        return real(text)

    monkeypatch.setattr(policy, "redact", counting)
    huge = "deploy notes " * (policy.RAW_MAX_CHARS // 13 + 10)
    decision = policy.decide(Candidate(text=huge, by="user"), lambda t: " ".join(t.split()))
    assert decision.candidate is None
    assert "too long" in (decision.reason or "")
    assert calls == []  # the paste of the breaker's app test (73 MB) held the write lock 80 s in redaction


def test_a_long_key_under_the_raw_limit_is_still_redacted_then_fits() -> None:
    key = "-----BEGIN RSA PRIVATE KEY-----\n" + ("MIIEowIBAAKCAQEA" * 200) + "\n-----END RSA PRIVATE KEY-----"
    assert ENTRY_MAX_CHARS < len(key) < policy.RAW_MAX_CHARS
    decision = policy.decide(Candidate(text=f"The old deploy key was {key}", by="user"), lambda t: " ".join(t.split()))
    assert decision.candidate is not None, decision.reason
    assert "MIIEowIBAAKCAQEA" not in decision.candidate.text
