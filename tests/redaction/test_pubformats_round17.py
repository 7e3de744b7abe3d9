"""Public formats' own values stay verbatim (issue 32, round 17: ``build_pubformats.py``'s tune half).

Each look-alike below is a line of a public repository's committed file (a lock file, a workflow, a config, a
notebook, a doc) that redaction altered before this round; each secret beside it is the same format with a secret
in it, or the secret named before it, and must still be redacted.
"""

from __future__ import annotations

import base64

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import codeforms, evidence, formats, placeholders, pubformats

LOOK_ALIKES = [
    "// https://github.com/babel/babel/pull/7934/files#diff-a739835084910b0ee3ea649df5a4d223R67",
    "// https://github.com/vuejs/core/issues/12181#issue-2588232334",
    '"\\u001b[0;32m<ipython-input-13-8cac1d547906>\\u001b[0m in \\u001b[0;36m<module>\\u001b[0;34m",',
    "address: aHR0cHM6Ly9hcGkuZGF0YWRvZ2hxLmNvbQo= # https://api.datadoghq.com",
    '"node_modules/@astrojs/compiler-binding-darwin-x64": {',
    'resolution: "root-workspace-0b6124@workspace:."',
    "KexAlgorithms curve25519-sha256@libssh.org,diffie-hellman-group-exchange-sha256",
    "#wpa_key_mgmt=WPA-EAP-SHA256",
    "[![Slack](https://img.shields.io/badge/slack-%23argo--helm--charts-brightgreen.svg?logo=slack)](https://x.io)",
    "[quote-props-typescript]: https://www.typescriptlang.org/play?#code/DYUwLgBAhhC8EG8IEYBcKA0EBM7sQF8AoUSAIzkQgHJl"
    "r1ktrt6dCiiATEAY2CgBOICKWhR0AaxABPAPYAzCGGkAHEAugBuLr35CR4CGTKSZG5Wo1ltRKDHjHtQA",
    "[quote-props-flow]: https://flow.org/try/#0PQKgBAAgZgNg9gdzCYAoVBjOA7AzgFzAA8wBeMAb1TDAAYAuMARlQF8g",
    'command = "unzip backup.zip && aws s3 sync ${path.module}/backup s3://${module.import_s3_bucket.s3_bucket_id}"',
    '(mkPatch "0009-Already-set-by-SOC_SINGLE_RANGE_TLV-Speaker-Playback" "sha512-qBveCsmwezD13oWF5jBlUybdns5OsDDZji0y'
    '0smaKWi9GPAvhw/v66WUnEyC77UF1mvq+OyrWpA4yXwxAFza3Q==")',
    "nix build github:NixOS/nixos-hardware#packages.aarch64-linux.ucm-imx95-boot",
    'boardId = "Mac-B809C3757DA9BB8D";',
    "the snapshot ID you'd find in the RDS console, e.g: rds:production-2015-06-26-06-05",
    'defconfig = "compulab-mx95_defconfig";',
    "func BenchmarkLastIndexByteTwo_10(b *testing.B)   { benchLastIndexByteTwo(b, 10, 2) }",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_public_format_stays_verbatim(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_each_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With :mod:`.pubformats` off (the code before this round) each line is altered: the test above is not idle."""
    monkeypatch.setattr(evidence, "keep_bare", lambda _text, spans, _found: spans)  # round 15 keeps bare runs too
    monkeypatch.setattr(pubformats, "spans", lambda _text: iter(()))
    monkeypatch.setattr(codeforms, "spans", lambda _text: iter(()))  # round 23 keeps names in code's places too
    monkeypatch.setattr(placeholders, "shown_masked", lambda _text: iter(()))  # round 24 keeps <words> placeholders
    redaction.flush_clean_memo()
    assert redaction.redact(text)[0] != text


COMMIT_NODE_ID = "MDY6Q29tbWl0MTM3MDc4NDg3OmQxNTI3ZmJlZTQyMmM3MTcwZTU2ODQ1ZTU1YjQ5YzRmZDZkZTcyYTc="


def test_a_commit_node_id_is_kept_by_its_decoded_form(monkeypatch: pytest.MonkeyPatch) -> None:
    """``06:Commit<repository id>:<sha>``, GitHub's legacy node id of a commit (a GraphQL answer's ``id``)."""
    text = f"      '{COMMIT_NODE_ID}',"
    assert redaction.redact(text) == (text, [])
    monkeypatch.setattr(evidence, "keep_bare", lambda _text, spans, _found: spans)  # round 15 keeps bare runs too
    monkeypatch.setattr(formats, "spans", lambda _text: iter(()))
    redaction.flush_clean_memo()
    assert redaction.redact(text)[0] != text


@pytest.mark.parametrize(
    "text",
    [
        "# Ex: https://github.com/ljharb/array-includes/blob/ec8dd66bd7ace09e7bbbdd5a00d9c732a0993e6b/.github/node-4+.yml",
        "wget https://github.com/llvm/llvm-project/releases/download/llvmorg-11.0.1/clang+llvm-11.0.1-x86_64-linux.tar.xz",
    ],
)
def test_a_url_holding_a_plus_is_no_label_and_value(text: str) -> None:
    """``https:`` before ``//host/path`` is a scheme, not a label: a path with ``+`` was redacted whole."""
    assert redaction.redact(text) == (text, [])


TOKEN = "Zk9xQ2mP7vL4nR8tY3wBq1Xc7Hf2"
SLACK = "https://hooks.slack.com/services/T01ABCDEF/B01ABCDEF/Zk9xQ2mP7vL4nR8tY3wBq1Xc"

SECRETS = [
    (f"capability url https://files.example.net/s/{TOKEN}+/download", TOKEN),
    (f"see https://example.net/a+b/{TOKEN}", TOKEN),
    (
        "SLACK_URL=https://hooks.example.io/triggers/OZTvEncwL+ujIxqJK6YrO9gOOTs/NVGTTuvGPb97WXxocUBQEXZ",
        "NVGTTuvGPb97W",
    ),
    ("SLACK_URL=https://hooks.example.io/triggers/qZ4XxOvaTuNzgv+VXcB5NmTHi9tz2p+9NxgO1LZiW/vlF6/z", "vlF6/z"),
    (f"data: {base64.b64encode(SLACK.encode()).decode()}", base64.b64encode(SLACK.encode()).decode()[:40]),
    ("password: correct.horse.battery.com", "correct.horse.battery"),
    ("password: hunter2.example.com", "hunter2"),
    ("token: zk9xq2mp7vl4nr8ty3wbq1xc@workspace:.", "zk9xq2mp7vl4nr8ty3wbq1xc"),
    (f"KexAlgorithms {TOKEN}", TOKEN),
    ("Ciphers zk9xq2mp7vl4nr8ty3wbq1xc7hf2", "zk9xq2mp7vl4nr8ty3wbq1xc7hf2"),
    (f"key_mgmt={TOKEN}", TOKEN),
    (f"https://github.com/a/b/pull/1/files#diff-{TOKEN}aB3d", TOKEN),
    (f'password = "${{{TOKEN}.{TOKEN}}}"', TOKEN),
    (f'secret = "{TOKEN}_defconfig"', TOKEN),
    (f"nix build github:acme/infra#{TOKEN}", TOKEN),
    (f"password: 0001-{TOKEN}-aB3dE5gJ-x", TOKEN),
    (f"the func {TOKEN}( password", TOKEN),
    (f"def f(): return 'ghp_{TOKEN}aB3dE5gJ0sA2'", TOKEN),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_in_these_formats_places_is_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


def test_a_token_before_defconfig_is_redacted_in_a_new_process() -> None:
    """The ``_defconfig`` keep's word check ran only after its pattern compiled: the first line a process redacted
    kept a token named ``<token>_defconfig`` (the lazy pattern's module name is rebound on first use, so an
    identity test against it failed once). A new process redacts it on its first call."""
    import subprocess
    import sys

    code = f"from memrepo.engine import redaction\nprint(redaction.redact('secret = \"{TOKEN}_defconfig\"')[0])\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert TOKEN not in out, out
