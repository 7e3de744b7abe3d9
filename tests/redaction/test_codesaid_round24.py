"""Codes, PINs and passwords said in the shapes speech.py lacks (:mod:`.codesaid`, issue 32 round 24). Our phrasings,
not the blind corpus's lines."""

from __future__ import annotations

import re

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import codesaid

SAID = [
    ("Portkoden till gården är 1402", "1402"),
    ("the bike lock combo — 0719", "0719"),
    ("le digicode du bâtiment B est 2718", "2718"),
    ("Il codice del portone è 5532", "5532"),
    ("El código de acceso del garaje es 9171", "9171"),
    ("Dörrkoden till förrådet är 8254", "8254"),
    ("Код от подъезда 7742", "7742"),
    ("카드 비밀번호 4417", "4417"),
    ("Kartın şifresi 6620", "6620"),
    ("mã PIN của thẻ tín dụng: 3182", "3182"),
    ("PIN 8803 for the work phone", "8803"),
    ("alarm panel: disarm 6401", "6401"),
    ("Yeni parola: kavun7-Limon!", "kavun7-Limon!"),
    ("Lösenordet till routern är Grus-Fjord-Lykta", "Grus-Fjord-Lykta"),
    ("Heslo k NAS: modrinA-vlak-22", "modrinA-vlak-22"),
    ("数据库账号 ops，密码 copper-lantern-fig", "copper-lantern-fig"),
    ("vpn pass -> marble-otter-cinnamon", "marble-otter-cinnamon"),
    ("Passwords: Plex – tundra-pixel-77; Unifi – Harbor#5519", "tundra-pixel-77"),
    ("Passwords: Plex – tundra-pixel-77; Unifi – Harbor#5519", "Harbor#5519"),
    ("* **Database**: `reporter` / `walnut-comet-gravel` on db-2", "walnut-comet-gravel"),
    ("the root password on build-3.ci.example.org is saffron-quiver-lemon", "saffron-quiver-lemon"),
    ('expect "Password:"; send "Tq9!vv2Lrm\\r"', "Tq9!vv2Lrm"),
    ("Authenticator secret for the bank, just in case: mf3q zx7p ktr4 wq2n", "mf3q zx7p ktr4 wq2n"),
    ("backup codes for Proton (one use each):\n4821 7730, 1290 5561, 3375 0082", "4821 7730"),
    ("backup codes for Proton (one use each):\n4821 7730, 1290 5561, 3375 0082", "1290 5561"),
    ("backup codes for Proton (one use each):\n4821 7730, 1290 5561, 3375 0082", "3375 0082"),
    (
        "wallet recovery phrase (12 words, paper copy in the safe):\n"
        "orbit salad tunnel frost mango civil velvet ozone pilot brisk anchor lyric",
        "orbit salad tunnel frost mango civil velvet ozone pilot brisk anchor lyric",
    ),
]

KEPT = [
    "building code 2021 requires sprinklers",
    "combination lock model 7700",
    "Delivery address PIN code: 411007 (Pune)",
    "pin numpy to 1.26.4 until the upgrade",
    "the PIN is 6 digits long",
    "error code 5012 again from the printer",
    "Passwords: we keep them in Bitwarden now",
    "the password for the staging box is in the vault",
    "`src` / `dist` hold the sources and the build",
    "2FA is on for every account: use the authenticator app",
    "recovery phrase (24 words) is on steel in the bank box",
    "Код ошибки 4004 при входе",
]


@pytest.mark.parametrize(("text", "secret"), SAID)
def test_a_said_code_or_password_is_redacted(text: str, secret: str) -> None:
    """The value and nothing but the value goes: not a trailing ``!`` of the password, not the words around it."""
    out, _types = redaction.redact(text)
    values = sorted({s for t, s in SAID if t == text} | {secret}, key=text.index)  # a list's values all go
    pattern, pos = "", 0
    for value in values:
        at = text.index(value, pos)
        pattern += re.escape(text[pos:at]) + r"\[REDACTED:[a-z0-9-]+\]"
        pos = at + len(value)
    assert re.fullmatch(pattern + re.escape(text[pos:]), out), out


@pytest.mark.parametrize(("text", "secret"), SAID)
def test_each_was_a_miss_before(text: str, secret: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With :mod:`.codesaid` off (the code before this round) the value stays: the test above is not idle."""
    monkeypatch.setattr(codesaid, "spans", lambda _text: iter(()))
    redaction.flush_clean_memo()
    later = ("codesaid", "saidlists", "saidplain", "saidaround")  # round 25 finds some of these too, in lists
    detectors = redaction._build(tuple(d for d in redaction.DETECTORS if d not in later))
    monkeypatch.setattr(redaction, "_detectors", detectors)
    assert secret in redaction.redact(text)[0]


@pytest.mark.parametrize("text", KEPT)
def test_talk_about_codes_stays_verbatim(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "thing", "secret"),
    [
        ("password for db7.internal: Xk29!pq7LL", "db7.internal", "Xk29!pq7LL"),
        ("the root password on build-3.ci.example.org is saffron-quiver-lemon", "build-3.ci.example.org", "saffron"),
        ("the pw at vault-2.lan was Rq7-Lm2-Zx9-Pt4", "vault-2.lan", "Rq7-Lm2"),
    ],
)
def test_the_thing_a_password_is_for_stays_and_its_value_goes(text: str, thing: str, secret: str) -> None:
    """Round 24: the label rule read the host after "password for" as the password and left the password itself."""
    out, _types = redaction.redact(text)
    assert thing in out, out
    assert secret not in out, out
