"""The secret detector (docs/architecture.md §3): the public corpus, issue 14's hard cases, the benign set.

Each case named after what issue 14 found passing (or wrongly redacted) with
detect-secrets alone; ``policy.redact`` is the function every way out calls.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memrepo.engine import redaction
from memrepo.engine.write.policy import redact

CORPUS = json.loads(
    (Path(__file__).parents[2] / "benchmarks" / "secrets_corpus" / "corpus.json").read_text(encoding="utf-8")
)

# Fake values in realistic shapes, built from pieces so no real key is pasted here.
TOKEN = "Zq8vR2mWx7pL" + "kT4nB9cD3fG6"
GH = "ghp_" + "Ab12Cd34Ef56Gh78Ij90" + "Kl12Mn34Op56Qr78St90"


def _gone(out: str, *pieces: str) -> bool:
    return not any(p in out for p in pieces)


def test_the_corpus_is_at_least_98_percent_redacted() -> None:
    samples = [s for name in ("vendor", "named", "hard") for s in CORPUS[name]]
    passed = [s for s in samples if not _gone(redact(s["text"])[0], *s["secrets"])]
    assert len(samples) > 700
    assert 1 - len(passed) / len(samples) >= 0.98, [s["text"][:80] for s in passed]


def test_no_false_alarm_on_the_benign_set() -> None:
    alarms = [(b, redact(b)[0]) for b in CORPUS["benign"] if redact(b)[0] != b]
    assert alarms == []


@pytest.mark.parametrize(
    "line",
    [
        "api_key_env = ANTHROPIC_API_KEY",
        "secret_name: prod-db-creds",
        'password: "********"',
        "export the key as $API_KEY before running",
        "the terraform module reads var.db_password",
        "python -m pip install detect-secrets==1.5.0",
    ],
)
def test_config_words_are_not_secrets(line: str) -> None:
    assert redact(line) == (line, [])


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"connect with postgres://:{TOKEN}@db.internal:5432/app", TOKEN),
        (f"the cache is redis://:{TOKEN}@cache.local:6379/0", TOKEN),
    ],
)
def test_url_credentials_with_an_empty_user_name(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and ("@db.internal" in out or "@cache.local" in out)
    assert types


@pytest.mark.parametrize("key", ["token", "key", "access_token", "sig", "password", "api_key"])
def test_query_string_credentials_keep_the_rest_of_the_query(key: str) -> None:
    text = f"call https://api.example.com/v1/items?{key}={TOKEN}&limit=10&q=berlin to list them"
    out, _ = redact(text)
    assert TOKEN not in out
    assert "&limit=10&q=berlin to list them" in out and f"?{key}=" in out


@pytest.mark.parametrize(
    "text",
    [
        f"Authorization: Bearer {TOKEN}",
        f'curl -H "Authorization: Bearer {TOKEN}" https://api.example.com/me',
        f'curl -H "X-Api-Key: {TOKEN}" https://api.example.com/v2/data',
        f"send X-Auth-Token: {TOKEN} with every request",
        f"the prod db password is {TOKEN[:9]}&3x",
        f"the api key for the weather service is {TOKEN}",
        f'the root password for the NAS is "{TOKEN[:8]} {TOKEN[8:14]}"',
    ],
)
def test_headers_and_labelled_secrets_in_plain_speech(text: str) -> None:
    out, types = redact(text)
    assert TOKEN[:9] not in out and TOKEN[8:] not in out, out
    assert types


def test_a_token_wrapped_over_two_lines() -> None:
    text = f"token {GH[:22]}\n{GH[22:]} for the bot"
    out, types = redact(text)
    assert GH[:22] not in out and GH[22:] not in out
    assert out.count("\n") == 1 and out.endswith(" for the bot") and types


@pytest.mark.parametrize("invisible", ["\u200b", "\u2060", "\ufeff", "\u00ad"])
def test_a_token_split_by_an_invisible_character(invisible: str) -> None:
    text = f"the token is {GH[:20]}{invisible}{GH[20:]} for ci"
    out, types = redact(text)
    assert GH[:20] not in out and GH[20:] not in out and out.endswith(" for ci")
    assert types == ["github-token"]


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("github_pat_" + "11AALKJEA0" + "4kc5Z9kNGzwK_zLv1venPjF9IFl5QvO2plAgKD9KWmCiq6seyWr9nftbTMABK664eCS9JYG2", ""),
        ("AIza" + "SyB3xK9mQ2vL7pR4tW8nZ1cF6hJ0dG5sY-a", ""),
        ("hf_" + "eKjFTrKCb0Tz8BbwTKx8EqwtHmcOJEZqgy", "huggingface-token"),
        ("npm_" + "gcmtbaLGsH7Zwqhc9jXmaoq3GqlpnMR6vsUW", ""),
        ("hvs." + "CAESIJ3kR9pQ2wLm7nTz8vX1yB4cD6eF0gH2iJ" + "k5lM8nO1pQ4rS7tU0vW3xY6zA9bC2dE", ""),
        ("glsa_" + "YMBqRW9AmYby3TEpy0HhWo0pmq23epYf_e1069de7", ""),
        ("dop_v1_" + "5b7bad30198596637c9e3c3e2716c624bf3227734ffac2b3a85ef3b1ea01c673", ""),
        ("shpat_" + "b58d152daf6d4d979653871646c83770", ""),
        ("sntrys_" + "eyJpYXQiOjE2OTQ2MjU5NjcuMjQ1NjQ3LCJ1cmwiOiJodHRwczovL3NlbnRyeS5pbyJ9_abc123XYZ", ""),
        ("sk_test_" + "51H8xK2mQ9vL7pR4tW8nZ1cF6hJ0dG5sY3bN", "stripe-key"),
    ],
)
def test_vendor_formats_named_in_the_issue(value: str, kind: str) -> None:
    out, types = redact(f"the deploy uses {value} since monday")
    assert value not in out and out.endswith(" since monday")
    assert types and (not kind or kind in types)


def test_a_private_key_body_spanning_lines_is_redacted_whole() -> None:
    body = "MIIEowIBAAKCAQEA7bq9Xk2Zf" + "akeKeyMaterialQwErTy123"
    text = f"deploy key:\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n{body[::-1]}\n-----END RSA PRIVATE KEY-----\nafter"
    out, types = redact(text)
    assert body not in out and body[::-1] not in out and out.endswith("\nafter") and types == ["private-key"]


def test_an_allowed_value_is_left_alone_and_kept_only_as_a_hash(tmp_path: Path) -> None:
    text = f"the staging api key is {TOKEN} for demos"
    assert TOKEN not in redact(text)[0]
    assert redaction.allow_found(tmp_path, text) == ["labelled-secret"]
    assert redact(text) == (text, [])
    assert TOKEN not in (tmp_path / "secrets-allow.json").read_text()
    # Another value next to it is still redacted.
    other = f"the staging api key is {TOKEN} and the old key is {TOKEN[::-1]}"
    assert TOKEN in redact(other)[0] and TOKEN[::-1] not in redact(other)[0]
    key = redaction.allow.entries(tmp_path)[0][0]
    assert redaction.allow.remove(tmp_path, key[:10])
    assert TOKEN not in redact(text)[0]


def test_the_vendor_rules_load_only_when_a_text_holds_a_token() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import memrepo.engine.write.policy, memrepo.engine.redaction.allow;"
        "print(any(m.startswith(('betterleaks', 'detect_secrets')) for m in sys.modules));"
        "from memrepo.engine.redaction import redact; redact('Prefers dark mode in every editor, since 2024');"
        "print('betterleaks' in sys.modules);"
        f"redact('the bot uses {GH}'); print('betterleaks' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # Importing costs nothing; prose never loads the vendor rules; a token does.
    assert out.split() == ["False", "False", "True"]
