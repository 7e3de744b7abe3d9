"""Values in a project's own notes stay verbatim; secrets in the same places do not (issue 32, round 11).

Each look-alike below is in a shape ``build_memnotes.py``'s set (changelogs,
``CLAUDE.md``/``AGENTS.md`` memory files, runbooks, docs quoting ``kubectl``)
found redacted: file names and paths (task notes, screenshots with a time stamp,
a download with a version and ``${ARCH}``, an image with a size and a content
hash), Prisma/CUID row ids, a Go ``package.Type`` in a comment, Kubernetes'
at-rest encryption prefix, a JWK thumbprint ``kid``, a tiktoken encoding name,
a hash of a ``<placeholder>``, an image reference with a registry port, a
provisioned volume's ``pvc-<uid>``, a masked AWS security-group rule id and a
bucket ``aws s3 mb`` made.
Values are made here. ``test_each_was_a_false_alarm`` pins what the round
changed: with :mod:`.notevalues` off, every look-alike is altered again.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import (
    codeforms,
    codenames,
    evidence,
    notevalues,
    placeholders,
    pubformats,
    rules,
    valueparts,
)

GHP = "ghp_" + "Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd4Hs6Jf1Ga0Ue"

LOOK_ALIKES = [
    "- [x] task031_wire_billing_webhooks_to_queue.md (Completed on 2025-06-02 10:11:12)",
    "- task007_release_branch_policy.md",
    "- `captures/checkout_20251104_091532.png` - Checkout page",
    "tar -xzf downloads/kubectl-v1.33.2-linux-${ARCH}.tar.gz",
    "banner: static/img/covers/Stock-2207513384-2400x1350-a1c9e0b.png",
    "Next: [Setting up the Kubernetes Configuration Files](07-kubernetes-configuration-files.md)",
    "- Northside clinic: `cm9x2k4q10003p7rt2hv81jzc`",
    "// newTokenSource wraps an oauth2.TokenSource with a cache.",
    "The etcd key is prefixed with `k8s:enc:secretbox:v1:key1`, so the secretbox provider wrote it.",
    '"kid": "q0Yv3hJc1zWl8_rTn4pXa6KdE2sGm9BfU7oLiN5yHw-",',
    'Encoder(tiktoken_encoding_name="o200k_base"),',
    "refreshToken2CacheKey=sha256(<cache-key-for-refresh-token-2>)",
    "image: local-registry:5001/acme-tools/nightly-runner",
    'Warning  FailedMount  2m (x4 over 9m)  kubelet  MountVolume.SetUp failed for volume "pvc-3e1f0a92-7c4d-4b8e-a1f3-'
    '9d2c6b7e8f01" : timed out',
    '"SecurityGroupRuleId": "sgr-0a9b8c7d6e5fxxxxx",',
    "make_bucket: shop-nightly-exports-1733402211",
]

SECRETS = [
    # the same places holding a secret are still redacted
    (f"- `uploads/{GHP}.png` from the bot", GHP),
    ("attach assets/Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd4Hs6Jf1Ga0Ue.json to the report", "Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd4Hs6Jf1Ga0Ue"),
    ("k8s:enc:aescbc:v1:key1:c2VjcmV0IGtleSBtYXRlcmlhbCAzMiBieXRlcyE=", "c2VjcmV0IGtleSBtYXRlcmlhbCAzMiBieXRlcyE="),
    (f"image: registry.acme.test/tools:{GHP}", GHP),
    (f"GITHUB_TOKEN={GHP}", GHP),
    ("the token is in token-3f9a1c7e5b2d8f40.txt", "3f9a1c7e5b2d8f40"),
    (f"make_bucket: {GHP}", GHP),
    ("aws key sg-Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd", "Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd"),
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_note_value_stays_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secret_in_the_same_place_is_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_each_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With :mod:`.notevalues` off (the code before this round), the look-alike is altered: the test above is not idle."""
    monkeypatch.setattr(evidence, "keep_bare", lambda _text, spans, _found: spans)  # round 15 keeps bare runs too
    monkeypatch.setattr(notevalues, "spans", lambda text: iter(()))
    monkeypatch.setattr(codenames, "spans", lambda text: iter(()))  # round 14 keeps some of these names too
    monkeypatch.setattr(pubformats, "spans", lambda text: iter(()))  # round 22 keeps words ending in a Unix time too
    monkeypatch.setattr(codeforms, "spans", lambda _text: iter(()))  # round 23 keeps names in code's places too
    monkeypatch.setattr(placeholders, "shown_masked", lambda _text: iter(()))  # round 24 keeps <words> placeholders
    monkeypatch.setattr(valueparts, "not_a_secret_value", lambda _value: False)  # round 26 keeps paths and dated names
    monkeypatch.setattr(
        rules, "_NOT_SECRET_LABELS", tuple(w for w in rules._NOT_SECRET_LABELS if w != "bucket")
    )  # round 26
    redaction.flush_clean_memo()
    assert redaction.redact(text)[0] != text


def test_a_file_name_with_a_random_piece_is_no_file_name() -> None:
    """Every piece must be a word, number, version, size, short hash or variable: one random piece and it is not kept."""
    assert list(notevalues.spans("captures/checkout_20251104_091532.png")) == [(0, 37)]
    assert not list(notevalues.spans("captures/checkout_Xq3Lm9Pz0Rt7Wv2Yb5Nc.png"))
    assert not list(notevalues.spans("captures/checkout_20251104_091532.pngx"))
    assert not list(notevalues.spans("deploy/secrets/token-3f9a1c7e5b2d8f40.txt"))


def test_a_cuid_needs_its_time_block() -> None:
    """A CUID's 8 characters after ``c`` are its time in ms, base 36: 2015-2034 passes, another time does not."""
    assert notevalues._cuid_ok("cm9x2k4q10003p7rt2hv81jzc")
    assert not notevalues._cuid_ok("czzzzzzzz0003p7rt2hv81jzc")  # the year 2059
    assert not notevalues._cuid_ok("c0000000a0003p7rt2hv81jzc")  # 1970


def test_only_a_thumbprint_length_kid_and_a_lower_case_image_reference() -> None:
    assert not list(notevalues.spans('"kid": "q0Yv3hJc1zWl8_rTn4pXa6KdE2sGm9BfU7oLiN5yHw-abc",'))
    assert not list(notevalues.spans("image: Registry.Acme.test/Xq3Lm9Pz0Rt7Wv2Yb5Nc"))
    assert not list(notevalues.spans("// uses pkg.Xq3Lm9Pz0Rt for the driver"))
