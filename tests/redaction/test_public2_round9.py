"""Public ids from real docs and fixtures stay verbatim; the secrets beside them do not (issue 32, round 9).

Each look-alike below is in a shape ``build_public2.py``'s harvest found
redacted: a published port after ``docker run -p`` (Docker's ``--publish``
grammar), a resource name a tool made unique with a UUID (AWS Access
Analyzer's archive rules, Auto Scaling's policies), API Gateway's integration
URI (an ARN whose account field names the service), an ARN with a docs
placeholder for the account, a Lambda function in camel case, EC2's long
resource ids (a lower-case prefix and 17 hex digits), an LEI under its full
name, a KSUID after its command's options and Stripe objects whose prefix
Stripe's OpenAPI fixtures print (``person_``, ``cnli_``, ``fee_`` ...). Values are made here (random
UUIDs and hex, an LEI given its ISO 17442 check digits) except the KSUID,
segmentio/ksuid's README example. ``test_each_was_a_false_alarm`` pins what
the round changed: with its rules off, every look-alike is altered again.
"""

from __future__ import annotations

import re

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import (
    context,
    formats,
    identifiers,
    idshapes,
    public,
    publicids,
    publicnumbers,
    shapelabels,
    speech,
    valueparts,
)


def lei(prefix18: str) -> str:
    """``prefix18`` with the two ISO 17442 (ISO 7064 mod 97-10) check digits that make it a valid LEI."""
    n = int("".join(str(int(c, 36)) for c in prefix18 + "00"))
    return f"{prefix18}{98 - n % 97:02d}"


LOOK_ALIKES = [
    # docker/podman run -p: a published port
    "docker run -d --name web -p 8080:80 nginx:1.27",
    "podman run --rm -p 127.0.0.1:5432:5432/tcp docker.io/library/postgres:16",
    "docker run -p 9000-9010:9000-9010 -p 53:53/udp minio/minio server /data",
    "CID=$(docker run -dit --name hsm -v $(pwd):/work -p 2345:2345 ghcr.io/acme/softhsm:latest)",
    # a name a tool made unique with a UUID
    '"ruleName": "ArchiveRule-3f0c2a9e-58d1-4b7e-a6c4-91e2d7b05f38",',
    '"PolicyName": "AutoScaling-web-asg-c7d1e2f3-0a4b-4c5d-8e6f-7a8b9c0d1e2f"',
    # ARNs: API Gateway's integration URI, a placeholder account, a camel-case function name
    "--uri 'arn:aws:apigateway:eu-west-1:lambda:path/2015-03-31/functions/"
    "arn:aws:lambda:eu-west-1:210987654321:function:orderWebhookHandler/invocations'",
    "--certificate-authority-arn arn:aws:acm-pca:us-east-1:accountid:certificate-authority/"
    "5b2e8c1d-7a3f-4e6b-9d0c-1f2a3b4c5d6e",
    # EC2's long resource ids
    "aws ec2 describe-import-image-tasks --import-task-ids import-ami-0c3f1e9a7b2d4f6e8",
    "ipam pool ipam-pool-0a9b8c7d6e5f4a3b2 in scope ipam-scope-01f2e3d4c5b6a7980",
    "attached tgw-attach-0d1e2f3a4b5c6d7e8 to the spoke, vpn endpoint cvpn-endpoint-0a1b2c3d4e5f6a7b8",
    # Stripe objects whose prefixes Stripe's OpenAPI fixtures print
    '"id": "person_1Qx7aZC2hT9kLm4nPq8rSt3V",',
    "credit note line cnli_1Rb2cDe3Fg4Hi5Jk6Lm7No8P, fee fee_1Sc3dEf4Gh5Ij6Kl7Mn8Op9Q",
    # an LEI under its full name; a KSUID after its command's options
    f"their legal entity identifier: {lei('7ZW8QJWVPR4P1J1KQY')}",
    "$ ksuid -f inspect 0ujtsYcgvSTl8PAuAdqWYSMnLOv",
]

SECRETS = [
    # the same places holding a secret are still redacted
    ("docker login -u ci -p 'Vb7#kQ2!xLm9' registry.example.com", "Vb7#kQ2!xLm9"),
    ("docker login -u ci -p 8080:80xq registry.example.com", "8080:80xq"),
    ("mysql -u root -pTr0ub4dor3x shop", "Tr0ub4dor3x"),
    ("hubspot token pat-na1-3f0c2a9e-58d1-4b7e-a6c4-91e2d7b05f38", "3f0c2a9e-58d1-4b7e-a6c4-91e2d7b05f38"),
    ("arn:aws:s3:::backups/k8FjW2pQz9XvB3nLtR7yUe4M", "k8FjW2pQz9XvB3nLtR7yUe4M"),
    ("api token: ipam-pool-0a9b8c7d6e5f4a3b2", "0a9b8c7d6e5f4a3b2"),
    ("STRIPE_KEY=rk_live_51Qx7aZC2hT9kLm4nPq8rSt3VwXyZ", "rk_live_51Qx7aZC2hT9kLm4nPq8rSt3VwXyZ"),
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_public_id_stays_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secret_beside_it_is_still_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_each_was_a_false_alarm(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With this round's rules off (the code before it), the look-alike is altered: the test above is not idle."""
    never = re.compile(r"(?!x)x")
    monkeypatch.setattr(shapelabels, "countered", lambda *args: False)  # round 16's key-naming-a-public-value keep
    monkeypatch.setattr(speech, "_PUBLISH_RE", never)
    monkeypatch.setattr(context, "_NAMED_UUID_RE", never)
    monkeypatch.setattr(identifiers, "_CAMEL_WORDS_RE", never)
    monkeypatch.setattr(publicids, "spans", lambda _text: iter(()))  # round 25 keeps ARNs whole
    monkeypatch.setattr(publicnumbers, "spans", lambda _text: iter(()))  # and dates (2015-03-31)
    monkeypatch.setattr(valueparts, "not_a_secret_value", lambda _value: False)  # round 26 keeps paths too
    monkeypatch.setattr(idshapes, "_EC2_ID_RE", never)
    stripe_before = public._OBJECT_ID_RE.pattern.replace("|" + public._STRIPE_OBJECTS, "")
    monkeypatch.setattr(public, "_OBJECT_ID_RE", re.compile(stripe_before))
    monkeypatch.setattr(formats, "_LEI_WORD_RE", re.compile(r"\bLEI\b"))
    monkeypatch.setattr(
        idshapes, "_KSUID_RE", re.compile(r"(?i:\bksuid\b)[\w ]{0,16}?[\s:=\"']+(?P<v>[0-9A-Za-z]{27})(?!\w)")
    )
    monkeypatch.setattr(
        identifiers,
        "_ARN_RE",
        re.compile(
            r"(?<![\w])arn:aws(?:-cn|-us-gov|-iso(?:-[a-z])?)?:[a-z0-9-]+:[a-z0-9-]*:(?:\d{12})?:[^\s\"'<>,;)]+"
        ),
    )
    assert redaction.redact(text)[0] != text


def test_a_camel_case_name_in_an_arn_is_no_credential(monkeypatch: pytest.MonkeyPatch) -> None:
    """The function's name in API Gateway's URI reads as a credential without the camel-case test of this round."""
    text = LOOK_ALIKES[6]
    assert "orderWebhookHandler" in text and redaction.redact(text)[0] == text
    monkeypatch.setattr(identifiers, "_CAMEL_WORDS_RE", re.compile(r"(?!x)x"))
    monkeypatch.setattr(publicids, "spans", lambda _text: iter(()))  # round 25 keeps ARNs whole
    monkeypatch.setattr(publicnumbers, "spans", lambda _text: iter(()))  # and dates (2015-03-31)
    monkeypatch.setattr(valueparts, "not_a_secret_value", lambda _value: False)  # round 26 keeps paths too
    assert redaction.redact(text)[0] != text
