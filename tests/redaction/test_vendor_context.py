"""Rules imported from maintained sets (issue 32, round 3): Kingfisher's rules by keyword, vendor context.

A hex string, a UUID or a key-shaped token is a vendor's key when the vendor's
name stands just before it on its line; a git id or a UUID with no vendor or
secret word before it, or with a word naming a public id between, stays verbatim.
"""

from __future__ import annotations

import time

import pytest

from memrepo.engine.redaction import context, kingfisher, redact

UUID = "c55dbac4-e0e8-4a06-b892-75cac2387ce5"
HEX32 = "4f91a6529ac3aa63c2d961b50816ed57"
GIT_ID = "e4a6526e2271998234913a6550369ede4289b017"


def _found(text: str) -> list[str]:
    return [text[s:e] for s, e, _slug in context.spans(text)]


@pytest.mark.parametrize(
    "text",
    [
        f"heroku {UUID}",
        f"HEROKU_API_KEY: {UUID}",
        f"the mailgun key is {HEX32}",
        f'sendgridToken = "{HEX32}"',
        f"sentry {'ab12' * 16}",
        "asana NBMgCsaANyWkdVjjQvxB",
    ],
)
def test_a_key_shaped_value_after_a_vendor_name_is_redacted(text: str) -> None:
    value = text.split()[-1].strip('"')
    assert _found(text) == [value]
    assert value not in redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        f"request {UUID} failed twice",  # no vendor, no secret word
        f"see commit {GIT_ID} for the fix",
        f"github {GIT_ID}",  # a git id after a git host's name is a commit
        f"github commit {GIT_ID} broke the build",
        f"azure tenant {UUID}",
        f"stripe customer {HEX32}",
        "slack ServiceAccountNameResolver",  # a camel-case name, not a key
        f"heroku\n{UUID}",  # the vendor name is on another line
        "The vault code is wombat-narwhal-42",  # words joined by dashes: a name
        "the stripe-webhook-handler-v2 service",
        "any OpenAI-compatible endpoint",
    ],
)
def test_a_git_id_or_uuid_without_a_vendor_naming_it_a_key_stays(text: str) -> None:
    assert _found(text) == []
    assert redact(text)[0] == text


def test_a_secret_word_after_a_public_label_wins() -> None:
    assert _found(f"github commit token {GIT_ID}") == [GIT_ID]
    assert _found(f"github token {GIT_ID}") == [GIT_ID]


def test_kingfisher_rules_run_only_on_a_text_holding_their_keyword() -> None:
    assert kingfisher.candidates("The deploy runs on Fridays after the standup.") == []
    token = "aio_" + "NrZCb67VvzSaM7fr3nMXrfZ1uMPH"
    text = f'#define IO_KEY "{token}"'
    rules = [kingfisher._rules[i]["id"] for i in kingfisher.candidates(text)]
    assert any(r.startswith("kingfisher.adafruitio") for r in rules)
    assert [text[s:e] for s, e, _ in kingfisher.spans(text)] == [token]


def test_every_kingfisher_rule_compiles_and_has_a_keyword() -> None:
    kingfisher._load()
    assert len(kingfisher._rules) > 500
    for i, rule in enumerate(kingfisher._rules):
        assert rule["keywords"] and all(len(k) >= 3 and k == k.lower() for k in rule["keywords"])
        assert kingfisher._regex(i) is not None, rule["id"]


def test_the_context_scan_takes_linear_time_on_a_long_camel_run() -> None:
    """A long run of capitals that ends in a non-letter once made the camel-case check backtrack for minutes."""
    short, long = "slack Ab" + "C" * 2000 + "+", "slack Ab" + "C" * 4000 + "+"

    def fastest(text: str) -> float:  # CPU time, the fastest of 5: a loaded machine's pauses are not the scan's cost
        runs = []
        for _ in range(5):
            t0 = time.thread_time()
            list(context.spans(text))
            runs.append(time.thread_time() - t0)
        return min(runs)

    assert fastest(long) < 20 * max(fastest(short), 1e-4)


def test_kingfisher_shares_the_clean_memo_and_a_finding_is_never_remembered(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text Betterleaks misses but Kingfisher's rules catch is not remembered clean, so it is caught every time;
    a text remembered clean skips Kingfisher's rules in the next process."""
    import memrepo.engine.redaction as red
    from memrepo.engine.redaction import memo as memomod

    fingerprint = memomod.library_fingerprint()
    if fingerprint is None:
        pytest.skip("Betterleaks' shared library is not installed: there is no memo to share")
    token = "aio_" + "NrZCb67VvzSaM7fr3nMXrfZ1uMPH"  # Adafruit IO: Betterleaks has no rule for it
    leaky = f'#define IO_KEY       "{token}"'
    clean = "deploy ran on runner ubuntu-22.04-x86_64-large with image ghcr9a8b7c6d5e4f3a2b"
    memo = memomod.CleanMemo(tmp_path / "clean.bin", fingerprint)
    monkeypatch.setattr(red, "_clean_memo", lambda: memo)
    for _ in range(2):
        assert token not in red.redact(leaky)[0]
    assert not memo.known_clean(memo.key(leaky))
    assert red.redact(clean)[0] == clean and memo.known_clean(memo.key(clean))
    calls: list[str] = []
    monkeypatch.setattr(kingfisher, "spans", lambda text: calls.append(text) or iter(()))
    assert red.redact(clean)[0] == clean and calls == []
