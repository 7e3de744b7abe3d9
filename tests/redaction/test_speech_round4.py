"""Passwords said in other phrasings (issue 32, round 4): each rule finds its case and keeps its look-alike."""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import speech


def _found(text: str) -> list[str]:
    return [text[s:e] for s, e, *_ in speech.spans(text)]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # a password word, what it opens, a link, a value, in nine languages
        ("my password for the payroll site is Gr4nite!77", "Gr4nite!77"),
        ("Kennwort für den Drucker: Amsel2024#", "Amsel2024#"),
        ("le mot de passe de la box est k9Vq2mZr", "k9Vq2mZr"),
        ("la contraseña del portal es Lince_4412", "Lince_4412"),
        ("ルーターのパスワードはTq8vR2m#wです", "Tq8vR2m#w"),
        ("邮箱密码是Hx72kqPz", "Hx72kqPz"),
        ("пароль: Volga8812", "Volga8812"),
        ("WLAN-Passwort: Fuchs_9931", "Fuchs_9931"),
        ("das Datenbankpasswort ist Reh#7731", "Reh#7731"),
        ("カードの暗証番号は4417", "4417"),
        # a passphrase of dashed words after a password word and a link
        ("the passphrase is amber-otter-clinic-sail", "amber-otter-clinic-sail"),
        ("PGPASSWORD='amber-otter-clinic' pg_restore -d app dump", "amber-otter-clinic"),
        # a PIN with a link
        ("garage PIN is 7305", "7305"),
        ("passcode: 01928374", "01928374"),
        # use <pw> to log in
        ("use Rk7!wq2Lz to sign in to the console", "Rk7!wq2Lz"),
        # any *_PASSWORD environment variable
        ("export LDAP_BIND_PASSWORD=Qz81vLmw0", "Qz81vLmw0"),
        # htpasswd -nb and net use's password operand
        ("htpasswd -nbB carol Mx4!rT9q", "Mx4!rT9q"),
        ("net use Y: \\\\files\\eng Pq7#wz81 /user:CORP\\dan", "Pq7#wz81"),
        # tools that take a password in a flag or a fixed operand
        ("psexec \\\\app02 -u CORP\\ops -p Lq8#vz2Ta cmd", "Lq8#vz2Ta"),
        ("cmdkey /add:app02 /user:CORP\\ops /pass:Lq8#vz2Ta", "Lq8#vz2Ta"),
        ("schtasks /create /tn sync /ru CORP\\ops /RP Lq8#vz2Ta /tr sync.cmd", "Lq8#vz2Ta"),
        ("ssh-keygen -p -N Lq8#vz2Ta -f id_ed25519", "Lq8#vz2Ta"),
        ("az login -u ops@corp.example -p Lq8#vz2Ta", "Lq8#vz2Ta"),
        ("net user ops Lq8#vz2Ta /add", "Lq8#vz2Ta"),
        ("wpa_passphrase 'Cafe Net' Lq8#vz2Ta", "Lq8#vz2Ta"),
        ("$p = ConvertTo-SecureString 'Lq8#vz2Ta' -AsPlainText -Force", "Lq8#vz2Ta"),
        ("echo 'Lq8#vz2Ta' | sudo -S systemctl restart app", "Lq8#vz2Ta"),
        ("echo 'ops:Lq8#vz2Ta' | sudo chpasswd", "Lq8#vz2Ta"),
        ("nmcli dev wifi connect CafeNet password Lq8#vz2Ta", "Lq8#vz2Ta"),
        ("java -Dspring.datasource.password=Lq8#vz2Ta -jar app.jar", "Lq8#vz2Ta"),
        ("sqlplus scott/Lq8#vz2Ta@PROD", "Lq8#vz2Ta"),
        # a quoted flag value holding a lone &
        ("mongorestore -u ops -p 'Tide&Moon42' /srv/dump", "Tide&Moon42"),
    ],
)
def test_a_password_said_in_another_phrasing_is_found(text: str, secret: str) -> None:
    assert secret in _found(text)
    assert secret not in redaction.redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        "my password for the VPN expired, IT resets it tomorrow",
        "Kennwort vergessen? Link auf der Anmeldeseite",
        "le mot de passe doit contenir 14 caractères",
        "la contraseña es obligatoria",
        "パスワードは12文字以上にしてください",
        "密码是必填项",
        "the password for staging is the same as for prod",
        "lint pass: ruff-format-check",
        "the passphrase should be four or more words",
        "PIN length is 6 digits",
        "pin numpy to 1.26.4",
        "PIN reset takes 24 hours",
        "use the passphrase from KeePass to unlock",
        "use git-lfs to access the assets",
        "export PASSWORD_HASHERS=argon2",
        "export DB_PASSWORD=<password>",
        "export DB_PASSWORD=$DB_PASS",
        "htpasswd -bn carol",
        "net use Z: \\\\fs01\\share /user:CORP\\svc *",
        "net use Z: \\\\fs01\\share /persistent:yes",
        "mongo -u admin -p --authenticationDatabase admin",
        "password is stored in 1Password under 'Prod DB'",
        "psexec \\\\app02 -s cmd",
        "net user ops /delete",
        "net user ops * /add",
        "echo $SUDO_PASS | sudo -S systemctl restart app",
        "nmcli dev wifi connect CafeNet --ask",
        "java -Dspring.datasource.password=${DB_PASSWORD} -jar app.jar",
        "sqlplus / as sysdba",
        "ssh-keygen -t ed25519 -N '' -C ci@example.com",
        "kubectl create secret generic db --from-file=password=./pw.txt",
        "the default password is changeme, change it on first login",
    ],
)
def test_a_look_alike_in_the_same_style_is_kept(text: str) -> None:
    assert _found(text) == []
    assert redaction.redact(text)[0] == text
