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


KEY = "-----BEGIN RSA PRIVATE KEY-----\n" + ("MIIEowIBAAKCAQEA" * 200) + "\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize(
    "text",
    [
        "Prefers dark mode " + "and more " * 70,  # 648 characters: over the entry limit
        "x" * (policy.RAW_MAX_CHARS + 1),  # over the raw limit
        f"The old deploy key was {KEY}",  # over 500 until the key is redacted: taken
        "ok thanks",  # filler
        "see [[../outside]] for the notes",  # an unsafe link
        "keep this <no-memory> please",
        "Prefers dark mode in every editor",  # taken
    ],
    ids=["entry-limit", "raw-limit", "redacted-under", "filler", "unsafe-link", "no-memory", "ok"],
)
def test_text_refusal_says_what_the_write_policy_says(text: str) -> None:
    """The edit box asks text_refusal before it writes; it must refuse exactly what the writer refuses."""
    from memrepo.engine import text_refusal
    from memrepo.engine.format.entrytext import clean_text

    decision = policy.decide(Candidate(text=text, by="user"), clean_text)
    assert text_refusal(text) == decision.reason


def test_text_refusal_names_the_entry_limit_for_a_650_character_text() -> None:
    from memrepo.engine import text_refusal

    text = "Prefers dark mode " + "and more " * 70
    reason = text_refusal(text) or ""
    assert reason.startswith(f"entry is {len(text.strip())} characters, over the {ENTRY_MAX_CHARS}-character limit")
