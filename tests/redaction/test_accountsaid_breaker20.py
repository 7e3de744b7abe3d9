"""Passwords said as the wifi, account or tool login they open (breaker20 B20-5, :mod:`.accountsaid`).

The look-alikes come first: a wifi's name, a state of the wifi, an admin's
name, a root cause or path, a tool's setting after a colon must come out
unchanged. Then the breaker's phrasings and others of their class.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

PW = "CafeLatte" + "#77"
PW2 = "Tq8!vR2" + "_pLm"

LOOK_ALIKES = [
    "the office wifi is down again",
    "wifi: 5 GHz only",
    "the wifi is eduroam",
    "wifi: Office-Guest",
    "the wifi is TP-Link_5G3A",
    "the guest wifi is Vodafone-A1B2C3.",
    "wifi is WPA2-PSK",
    "wifi: 2.4GHz+5GHz",
    "the wifi at home is Zyxel_2A3F.",
    "the root CA is ISRG-Root-X1",
    "the admin account for grafana: admin",
    "the wifi is FRITZ!Box 7590 XY",
    "wlan0: 192.168.1.20",
    "the hotel wifi is slow, use the hotspot",
    "the wifi SSID is CoffeeShop_Guest",
    "the admin is Bob",
    "the root is /srv/www/html",
    "the root cause is the OOM-Killer",
    "the admin is ops@example.com",
    "the admin for staging is jdoe",
    "root: true",
    "the sa is DB-Team-2",
    "jenkins: admin console at https://ci.example.com",
    "jenkins: admin access only",
    "Note: admin rights needed",
    "build: root 3.2.1",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_stay_verbatim(text: str) -> None:
    assert redact(text) == (text, [])


SAID = [
    (f"Remember that the office wifi is {PW}.", PW),
    (f"wifi: {PW}", PW),
    (f"the office wifi is {PW}", PW),
    (f"guest network: Office-Guest / {PW}", PW),
    (f"the wifi at the cabin: {PW2}", PW2),
    (f"the mysql root is {PW}", PW),
    (f"Remember that the mysql root on the staging box is {PW2}.", PW2),
    (f"the admin account for grafana: {PW2}", PW2),
    (f"jenkins: admin {PW}", PW),
    (f"staging db: postgres {PW2}", PW2),
]


@pytest.mark.parametrize(("text", "secret"), SAID)
def test_a_password_said_as_what_it_opens_is_redacted(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and "password" in types, out


def test_only_the_value_goes() -> None:
    assert (
        redact(f"Remember that the office wifi is {PW}.")[0] == "Remember that the office wifi is [REDACTED:password]."
    )
    assert redact(f"guest network: Office-Guest / {PW}")[0] == "guest network: Office-Guest / [REDACTED:password]"
