"""Issue 32 round 25: a hostile trial of the round's rules (a helper's lines, written against the new modules).

Each line was a leak or a false alarm of round 25's first version (valueparts, urltokens, saidaround,
publicids): an ARN keep that swallowed a key glued on, ``wpa_passphrase=`` read as the tool, a Solana keep over a
password label, "(not the public key)", a Freshdesk key as the curl user, the new classes in other words; prose
about security answers, versions that stop working, a router's model, URL user names, CamelCase page names.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

LEAKS = [
    (
        "for CI: AWS_ROLE=arn:aws:iam::123456789012:role/gha,AWS_SECRET_ACCESS_KEY=wJ8rXUtnFEMI/K7MDENG/bPxRfiCYzq93kWs4Tb1",
        "wJ8rXUtnFEMI",
    ),
    ("hostapd.conf on the pi: ssid=GardenNet wpa_passphrase=Gr33nTomat0es!2024", "Gr33nTomat0es"),
    ("wallet password: DJ6y5ntJFn7bcsk6USSHe5TjcRzqVFGfA6oF8KXiJWpy", "DJ6y5ntJFn7b"),
    ("my Phantom wallet secret seed: FUduxvLmSGL1tKnDttrsWhxDoxHBhHL4ZSgpREbprQnZ", "FUduxvLmSGL1"),
    ("wireguard laptop PrivateKey = JY3kXuXDKoKrHVnG0WMxud09EYwIOMnLMopjxpcfhZs= (not the public key)", "JY3kXuXDKoKr"),
    ("curl -u q7hV2mN9pL4xR8tK3wY6:password https://acme.freshdesk.com/api/v2/tickets", "q7hV2mN9pL4x"),
    ('"Pl4typ0s#" is the router admin pass', "Pl4typ0s#"),
    ("`Pl4typ0s#` = our wifi password", "Pl4typ0s#"),
    ('"Pl4typ0s#" (that\'s the wifi password)', "Pl4typ0s#"),
    ('"4471" — that\'s the garage code', "4471"),
    ("Sparrow!88 is not working anymore for the bank login", "Sparrow!88"),
    ('"Sparrow!88" doesn\'t work any more for the login', "Sparrow!88"),
    ("what was the HBO password? ah yes — Velvet-Otter-77", "Velvet-Otter-77"),
    ("what's the wifi password again? it's Velvet-Otter-77", "Velvet-Otter-77"),
    ("the guest wifi one: LilyLobster1987", "LilyLobster1987"),
    ("the wifi one's LilyLobster1987", "LilyLobster1987"),
    ("the alarm one is 884213", "884213"),
    ("mothers maiden name: Kowalski", "Kowalski"),
    ("mom's maiden name is Kowalski", "Kowalski"),
    ("answer to my security question: Paddington Bear", "Paddington"),
    ("memorable word for Nationwide — ravioli", "ravioli"),
    ("memorable info is ravioli", "ravioli"),
    ('the memorable word for barclays is "ravioli"', "ravioli"),
    ("the hotel safe, set it to 4471", "4471"),
    ("the room safe, I set it to 4471", "4471"),
    ("le digicode de l'immeuble c'est 4172", "4172"),
    ("Authorization: 8f3a2b9c7d1e4f6a0b5c8d2e7f1a3b9c:Jk0NQp7Rt4Vw8Zy3Ab6CdEfGh1Lm2sU7i", "8f3a2b9c7d1e"),
    ("Authorization: Hunter2Winter:Jk0NQp7Rt4Vw8Zy3Ab6CdEfGh1Lm2sU7i", "Hunter2Winter"),
    ("curl https://Xk92LmQp7Rt4Vw8Zy3Ab6CdEf:@localhost:8080/v1/charges", "Xk92LmQp7Rt4"),
]
KEPT = [
    "memorable word requirements changed last year",
    "the secret answer feature was removed from Gmail",
    "node@18.19.0 doesn't work anymore with the login flow",
    "python3.12 doesn't work anymore, the password hashing lib needs 3.11",
    "the router one is TP-Link-AX3000",
    'click "SignIn2FA" — that\'s the login button',
    "'dev-portal-7' — that's our pw reset flow",
    '"SPRING2024" — that\'s the discount code for the conference',
    '"BA2490" — that\'s the flight code',
    "why does the password check fail? right: bcrypt-4.1.2 broke it",
    "what's the PIN policy? ok: min-6-digits",
    "password manager? here - Bitwarden2024 on all devices",
    "git clone https://contoso-platform-2024@dev.azure.com/contoso-platform-2024/Payments/_git/api",
    "git clone https://firstname.lastname2024@bitbucket.org/acme/api.git",
    "docs: https://docs.example.com/trigger/TriggerEventsReference2024v2",
    "https://app.example.com/ingest/Dataset20240612WeatherStations",
    "trace: https://otel.example.com/ingest/4bf92f3577b34da6a3ce929d0e0e4736",
    "- KMS key id: 6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f (arn:aws:kms:eu-west-1:123456789012:key/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f)",
]


@pytest.mark.parametrize(("text", "secret"), LEAKS)
def test_each_leak_of_the_trial_is_redacted(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


@pytest.mark.parametrize("text", KEPT)
def test_each_false_alarm_of_the_trial_is_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text
