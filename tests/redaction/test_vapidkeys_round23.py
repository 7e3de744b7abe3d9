"""A Web Push (VAPID) private key told by its size beside its public key (:mod:`memrepo.engine.redaction.vapidkeys`).

Issue 32 round 23: each case in our own phrasings and our own random keys, never a source's lines.
"""

from __future__ import annotations

from memrepo.engine import redaction
from memrepo.engine.redaction import vapidkeys

PUBLIC = "BCr8Wou84Sh35jj0Ff7_p-aHJ6JTRwLH-0ACMu_JzFN321a0yGEDUBaj6HeFITvhF0V4WhwLgJPcrzOGT0V-ICU"
"""87 base64url characters: a 65-byte uncompressed point (0x04 first), made for this test."""
PRIVATE = "HXuEY6wdATjBxePxoRPbKeMa_VTgo3exOMGdLS-0_uc"
"""43 base64url characters: 32 random bytes, made for this test."""


def test_a_private_key_paired_with_its_public_key_on_one_line_is_redacted() -> None:
    text = f"push keys for the staging box -> {PRIVATE}:{PUBLIC}"
    out, types = redaction.redact(text)
    assert PRIVATE not in out
    assert "vapid-private-key" in types
    assert [text[s:e] for s, e, _ in vapidkeys.spans(text)] == [PRIVATE]  # the public half is not this rule's


def test_the_short_key_is_the_private_one_whatever_the_labels_say() -> None:
    text = f'notify.Options{{\n  ServerPublic: "{PRIVATE}",\n  ServerPrivate: "{PUBLIC}",\n}}'
    assert PRIVATE not in redaction.redact(text)[0]
    assert [text[s:e] for s, e, _ in vapidkeys.spans(text)] == [PRIVATE]


def test_the_third_argument_of_a_web_push_setup_call_is_redacted() -> None:
    text = f"webPush.configure(\n  'mailto:ops@example.org',\n  '{PUBLIC}',\n  '{PRIVATE}'\n);"
    assert PRIVATE not in redaction.redact(text)[0]


def test_a_web_push_word_alone_is_sign_enough() -> None:
    spans = list(vapidkeys.spans(f"our vapid pair was rotated, old private half {PRIVATE}"))
    assert [(s, e) for s, e, _ in spans] == [(45, 88)]


def test_a_43_character_digest_without_any_web_push_sign_is_not_this_rule() -> None:
    assert list(vapidkeys.spans(f"artifact digest {PRIVATE} uploaded")) == []


def test_a_public_key_that_is_no_point_gives_no_sign() -> None:
    not_a_point = "A" + PUBLIC[1:]  # 0x00... first byte: not an uncompressed point
    assert list(vapidkeys.spans(f"{PRIVATE}:{not_a_point}")) == []


def test_a_43_character_run_of_one_case_is_no_key() -> None:
    words = "serviceworkerregistrationpushmanagersubscri"
    assert len(words) == 43
    assert list(vapidkeys.spans(f"vapid note {words}")) == []
