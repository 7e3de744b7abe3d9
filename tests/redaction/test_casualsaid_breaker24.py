"""Passwords, wifi keys and codes said casually (breaker24 B24-2, B24-3, B24-9; :mod:`.casualsaid`, :mod:`.phrases`).

Look-alikes first: remarks about a password, a wifi key or a code that hold none
(where it is, how long it is, that it changed, a file's path after パス, a building
code or an area code) must come out unchanged. Then the breaker's repros and the
others of their class, in English, Japanese and Spanish.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

LOOK_ALIKES = [
    "my wifi password is on the fridge",
    "my wifi password is written on the router",
    "the luks passphrase is stored in bitwarden",
    "my wifi password is the same as before",
    "the password is too long to type",
    "the password is pretty much random",
    "the password is available upon request",
    "the new password is twelve characters long",
    "my wifi password is working again today",
    "the password is printed inside lid",
    "the password is definitely not secure",
    "your password is incorrect please retry",
    "the wifi password is the usual one",
    "the password is case sensitive",
    "I like apple banana cherry smoothies",
    "wifi key rotation is monthly",
    "the wifi key is on the router",
    "the network key is printed on the sticker",
    "the guest wifi code is in the welcome email",
    "I took the network key from the router sticker",
    "パスワードは忘れた",
    "パスは忘れた",
    "ファイルのパスは /usr/local/bin/tool",
    "パス、通りました",
    "鍵の番号は忘れた",
    "el NIP de la tarjeta es obligatorio",
    "mi NIP es el mismo de siempre",
    "la contra del wifi es la misma de siempre",
    "the door code changed last week",
    "door code changes every month",
    "the garage code is on the fridge",
    "the garage code is 4 digits",
    "the safe combination is in the envelope",
    "the winning combination is red and blue",
    "building code 2021 requires sprinklers",
    "area code 415 is San Francisco",
    "the combination lock on the gym locker is broken",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_stay_verbatim(text: str) -> None:
    assert redact(text) == (text, [])


SAID = [
    ("my wifi password is apple banana cherry", "apple banana cherry"),
    ("the luks passphrase is purple monkey dishwasher", "purple monkey dishwasher"),
    ("the bitwarden master password is purple monkey dishwasher", "purple monkey dishwasher"),
    ("my wifi password is happy blue whale", "happy blue whale"),
    ("my wifi password is silver kettle morning", "silver kettle morning"),
    ("my wifi password is red car fast", "red car fast"),
    ("contraseña del wifi: girasol montaña cuarenta", "girasol montaña cuarenta"),
    ("The guest wifi key is lobby-hunter-22", "lobby-hunter-22"),
    ("the network key for HomeNet is sunflower-river-42", "sunflower-river-42"),
    ("wifi code: sunflower-river-42", "sunflower-river-42"),
    ("the wifi key is apple banana cherry", "apple banana cherry"),
    ("ルーターのパスワード、Vx9qLm2Tz8Rpだよ", "Vx9qLm2Tz8Rp"),
    ("NASのパスワード→Qw7Lp2Zr9xKa", "Qw7Lp2Zr9xKa"),
    ("Wi-Fiのパスワード→kumo-sora-77", "kumo-sora-77"),
    ("パスは hana-yama-42", "hana-yama-42"),
    ("鍵の番号は4821", "4821"),
    ("暗証番号 4821", "4821"),
    ("la contra del wifi es girasol-montaña-42", "girasol-montaña-42"),
    ("mi NIP es 4821", "4821"),
    ("el NIP de mi tarjeta es 4821", "4821"),
    ("door code 4821#", "4821"),
    ("garage code 4821", "4821"),
    ("front door code 4821", "4821"),
    ("the safe combination is 12-34-56", "12-34-56"),
    ("the bike lock combo is 3-7-1-9", "3-7-1-9"),
]


@pytest.mark.parametrize(("text", "secret"), SAID)
def test_a_casually_said_password_is_redacted(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and types, out


def test_only_the_value_goes() -> None:
    assert redact("my wifi password is apple banana cherry")[0] == "my wifi password is [REDACTED:password]"
    assert redact("ルーターのパスワード、Vx9qLm2Tz8Rpだよ")[0] == "ルーターのパスワード、[REDACTED:password]だよ"
    assert redact("door code 4821#")[0] == "door code [REDACTED:pin]"
    quoted = "`The guest wifi key is lobby-hunter-22`, then `wifi code: sunflower-river-42`;"
    assert redact(quoted)[0] == "`The guest wifi key is [REDACTED:password]`, then `wifi code: [REDACTED:password]`;"
