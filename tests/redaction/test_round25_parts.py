"""Issue 32 round 25: which part of a value is the secret, values said around their name, public ids by shape.

Our own phrasings and values (not the blind corpus's lines); each class read on a tune half
(:mod:`memrepo.engine.redaction.valueparts`, ``.urltokens``, ``.saidaround``, ``.publicids``).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

# (text, secret that must go, context that must stay)
PARTS = [
    ("curl -u reporting:Qv7tLm2xWp9z https://api.example.net/v2/items", "Qv7tLm2xWp9z", "reporting"),
    ('curl --user "deploy:Hx4!kPq92mZr" https://git.internal/api', "Hx4!kPq92mZr", "deploy"),
    (
        "curl https://api.acme.io/v1 -u bq73lmx0pd2kf8ra:0c5d9e7a3b1f4c6d8e2a9b7c5d3f1e0a",
        "0c5d9e7a3b1f4c6d",
        "bq73lmx0pd2kf8ra",
    ),
    (
        "machine registry.example.org\nlogin ci-bot\npassword Rk3vP9qLm2Tz8xWc",
        "Rk3vP9qLm2Tz8xWc",
        "registry.example.org",
    ),
    ("vault login -method=userpass username=backup password=Tide2Lamp9", "Tide2Lamp9", "username=backup"),
    ("cmdkey /add:nas.home.lan /user:marta /pass:Gq8#vLr2Zm!x", "Gq8#vLr2Zm!x", "/add:nas.home.lan"),
    ('wpa_passphrase "Attic AP 5G" "plum-otter-canvas-velvet"', "plum-otter-canvas-velvet", "Attic AP 5G"),
    (
        "curl -H 'Authorization: svc7k2mq9x:tk_Lm8Qz2Vx7Rp4Tn9Wc3Yb6Hd1' https://api.example.com",
        "tk_Lm8Qz2Vx",
        "svc7k2mq9x",
    ),
    (
        "https://discord.com/api/webhooks/1123581321345589144/Zq8Lm3Vx7Rp4Tn9Wc3Yb6Hd1Kf5Gj2Ps8Ua0Ee4Ii7Oo",
        "Zq8Lm3Vx7Rp4Tn9Wc3Yb6Hd1Kf5Gj2Ps8Ua0Ee4Ii7Oo",
        "webhooks/1123581321345589144/",
    ),
]


@pytest.mark.parametrize(("text", "secret", "kept"), PARTS)
def test_the_secret_part_goes_and_the_account_beside_it_stays(text: str, secret: str, kept: str) -> None:
    out, _ = redaction.redact(text)
    assert secret not in out
    assert kept in out


@pytest.mark.parametrize(
    "text",
    [
        "curl -u Wq8Lm3Vx7Rp4Tn9Wc3Yb:X https://acme.freshdesk.example/api/v2/tickets",  # the key as the user
        'curl --user "9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c:1e3d5f7a9c0b2d4f6e8a1c3e5d7f9b0a" https://api.mailer.example',
    ],
)
def test_a_user_that_is_the_key_itself_is_redacted(text: str) -> None:
    out, _ = redaction.redact(text)
    user = text.split("-u ")[-1].split("--user ")[-1].strip('"').split(":")[0]
    assert user not in out


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("https://rk_live_Zq8Lm3Vx7Rp4Tn9Wc3Yb6H:@api.payments.example/v1/charges", "rk_live_Zq8Lm3Vx7Rp4Tn9Wc3Yb6H"),
        ("https://abcd1234EFGH5678ijkl90:@api.example.com/v1", "abcd1234EFGH5678ijkl90"),
        ("POST events to https://in.hookrelay.example/h/4b9e2c7d1a8f3e6b5c0d9a2e7f4b1c8d3e6a9f2b", "4b9e2c7d1a8f3e6b"),
        ("client = acme.Client('ak.live.Rz7Qm2Lx9Vp4Tn8W.Kc3Yb6Hd1Jf5Gs2Pu')", "Rz7Qm2Lx9Vp4Tn8W"),
        ("| Orbitbase | prod | OB2.Hq7Lm2Xx9Vp4Tn8WKc3Yb6Hd1Jf5Gs2PuR0aE4i | rotated 2026-10-01 |", "Hq7Lm2Xx9Vp4Tn8W"),
    ],
)
def test_tokens_in_a_url_or_with_dots_are_redacted(text: str, secret: str) -> None:
    out, _ = redaction.redact(text)
    assert secret not in out


@pytest.mark.parametrize(
    "text",
    [
        "git clone https://git@github.com/acme/widgets.git",
        "see https://github.com/acme/widgets/settings/hooks/482913377 for the hook",
        "read https://docs.example.com/hooks/how-to-add-a-webhook-in-2024 first",
        "the class is com.example.billing.InvoiceRenderer2024 in the jar",
        "api.eu-west-1.amazonaws.com answers slowly",
    ],
)
def test_urls_and_dotted_names_that_hold_no_token_are_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text


SAID_AROUND = [
    ('"Mq7=tr9Lx!" — that\'s the Hulu login, keep it', "Mq7=tr9Lx!"),
    ("Note: Fjord#42 doesn't work anymore, the new router password is on the sticker", "Fjord#42"),
    ("what's the Plex password again? oh right: WinterPine2033!", "WinterPine2033!"),
    ("actually the wifi one is MapleHarbor1999 — not the guest network", "MapleHarbor1999"),
    ("security answer for the credit union: Mrs. Okafor", "Mrs. Okafor"),
    ("memorable word for the pension line is tangerine", "tangerine"),
    ("mother's maiden name: Lindqvist", "Lindqvist"),
    ("Rappelle-toi que le digicode de l'entrepôt est 5183", "5183"),
    ("the wall safe in the office — I set it to 7390 yesterday", "7390"),
]


@pytest.mark.parametrize(("text", "secret"), SAID_AROUND)
def test_values_said_around_their_name_are_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        "the secret answer is stored in the family vault",
        '"Settings" — that\'s the menu with the login options',
        "version2 doesn't work anymore on the new server",
        "what's the password policy again? oh right: twelve characters",
        "the wifi one is slower than the wired one",
    ],
)
def test_talk_around_credentials_without_one_is_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text


PUBLIC = [
    "Mailgun public validation key: pubkey-3f8a1c9e7b5d2f4a6c8e0b1d3f5a7c9e",
    "Square application id: sq0idp-Lm8Qz2Vx7Rp4Tn9Wc3Yb6H",
    "welcome mail uses template `d-4c9e2a7f1b8d3e6a5c0f9b2d7e4a1c8f`",
    "braintree.dropin.create({ authorization: 'sandbox_k3m9q2x7_v4p8t1w6z0c5y2b9', container: '#pay' })",
    "- KMS key id: 6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f (arn:aws:kms:eu-west-1:123456789012:key/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f)",
    "xcrun altool --upload-app -f App.ipa --apiKey Q7WZ2LX9PK --apiIssuer 0b6e3a9c-5d2f-4e7a-b1c8-9d4f6a2e7c3b",
    "key id: Vq3-Lm8Qz2Vx7Rp4Tn9Wc3Yb6Hd1Kf5Gj2Ps8Ua0Ee\npublic key (x): 11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
    "- Program id on devnet: 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    "Verify deliveries with `BwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSY=` (webhook public key).",
]


@pytest.mark.parametrize("text", PUBLIC)
def test_public_ids_vendors_document_as_public_are_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Square access token: sq0atp-Lm8Qz2Vx7Rp4Tn9Wc3Yb6H", "sq0atp-Lm8Qz2Vx7Rp4Tn9Wc3Yb6H"),
        ("Square app secret sq0csp-Lm8Qz2Vx7Rp4Tn9Wc3Yb6Hd1Kf5Gj2Ps8Ua0Ee4Ii7O", "sq0csp-Lm8Qz2Vx7Rp4Tn9Wc3Yb6Hd1"),
        ("AWS access key id: AKIAZ7QW3LM9XP2KT4RB", "AKIAZ7QW3LM9XP2KT4RB"),
        ("key id: Vq3Lm8Qz2Vx7Rp4Tn9Wc3Yb6 and its secret: Hd1Kf5Gj2Ps8Ua0Ee4Ii7Oo9Rr", "Hd1Kf5Gj2Ps8Ua0Ee4Ii7Oo9Rr"),
    ],
)
def test_secrets_beside_the_public_shapes_are_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]
