"""Issue 32 round 26: what a hostile trial (breaker26) found, fixed (docs/architecture.md §3).

The trial wrote 642 lines against the code; 78 leaked and 38 came out altered. These are the ones this round fixed:
each leak's secret is gone and each look-alike comes out unchanged. Every value is invented.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

LEAKS = [
    ("Google backup codes:\n  4821 7730\n  1956 0042\n  8834 2210", ["4821 7730", "1956 0042", "8834 2210"]),
    ("- codes de secours Google : 7731-0294, 1188-5520, 6604-9931", ["7731-0294", "1188-5520", "6604-9931"]),
    ("Slack 2FA one-time codes → 83920174, 55102938, 10293847", ["83920174", "55102938", "10293847"]),
    ("- 复原码 (GitHub): 8f2a1-c93d0 7b6e4-12fa9", ["8f2a1-c93d0", "7b6e4-12fa9"]),
    ("- Yedek kodlar: 55812093 77102934 11029384", ["55812093", "77102934", "11029384"]),
    (
        "| service | recovery code |\n|---|---|\n| Proton | 9hx2-kq7m-4tz8 |\n| Dropbox | r7w3-p2v9-n6c1 |",
        ["9hx2-kq7m-4tz8", "r7w3-p2v9-n6c1"],
    ),
    ("MFA reset code for okta admin: 7H3K9Q2M", ["7H3K9Q2M"]),
    ("- garage keypad: 8203", ["8203"]),
    ("- bike lock combo 3-7-1-9", ["3-7-1-9"]),
    ("- Code d'accès immeuble : 52A19", ["52A19"]),
    ("- Mom's phone unlock: 280419", ["280419"]),
    ("- كلمة السر للراوتر هي Qm7!zPa92", ["Qm7!zPa92"]),
    ("- वाईफाई का पासवर्ड है Neela#Ghar88", ["Neela#Ghar88"]),
    ("- Parolă router: Brad#Verde31", ["Brad#Verde31"]),
    ("- รหัสผ่าน: Chang#Thai88", ["Chang#Thai88"]),
    ("- סיסמה: Shemesh!4410", ["Shemesh!4410"]),
    ("- κωδικός: Ilios#Thalassa9", ["Ilios#Thalassa9"]),
    ("machine ftp.example.net login deploy password Xk29!qpLm account billing7Q!z", ["Xk29!qpLm", "billing7Q!z"]),
    ("| Key | Value |\n|---|---|\n| DB_PASS | Gx7#mq2Lz! |\n| DB_HOST | db.internal |", ["Gx7#mq2Lz!"]),
    ("- vault unseal ⇒ 3nV!9qLp#2", ["3nV!9qLp#2"]),
    ("- pw for grafana => Gr4f!na_77", ["Gr4f!na_77"]),
    ("jdbc:oracle:thin:scott/Tg4#xQ8m@//ora01:1521/ORCL", ["Tg4#xQ8m"]),
    ("~/.pgpass: db.internal:5432:app:app_rw:Pg7!qZ2mX", ["Pg7!qZ2mX"]),
    ("snmp community string: Rt7Comm!nity", ["Rt7Comm!nity"]),
    ("WIFI:T:WPA;S:HomeNet;P:Sunflower88!;;", ["Sunflower88!"]),
    ("- Wi-Fi (Büro): Netz „Acme-5G“, Schlüssel Fichte!Tanne42", ["Fichte!Tanne42"]),
    ("- Recovery codes (Proton)\n  - 9hx2kq7m\n  - 4tz8r7w3\n  - p2v9n6c1", ["9hx2kq7m", "4tz8r7w3", "p2v9n6c1"]),
    ("- Wiederherstellungscodes Nextcloud: K7QZ-2M9P, X4LT-8W3R", ["K7QZ-2M9P", "X4LT-8W3R"]),
    ("- emergency kit codes for Twitter: ab12 cd34 ef56", ["ab12 cd34 ef56"]),
    ("- Steam Guard revocation code: R48213", ["R48213"]),
    ("- Kod zapasowy Google: 4829 1037", ["4829 1037"]),
    ("- バックアップコード 48291037", ["48291037"]),
    ("- Tresor-Kombination: 12-34-56", ["12-34-56"]),
    ("- padlock combination 0-4-7-1", ["0-4-7-1"]),
    ("- iPad unlock code 4471 (kids)", ["4471"]),
    ("- Schließfach Code 3391", ["3391"]),
    ("- Kartenpin 9021", ["9021"]),
    ("- WLAN-Schlüssel: Fichte!Tanne42", ["Fichte!Tanne42"]),
    ("- رمز عبور: Shahin!7781", ["Shahin!7781"]),
    ("- পাসওয়ার্ড: Nodi#Jol55", ["Nodi#Jol55"]),
    ("- கடவுச்சொல்: Malai#Kadal7", ["Malai#Kadal7"]),
    ("- kata laluan: Bunga!Raya88", ["Bunga!Raya88"]),
    ("machine smtp.gmail.com login me@gmail.com password abcdwxyzqrstlmno", ["abcdwxyzqrstlmno"]),
    ("| Name | Wert |\n|---|---|\n| WLAN-Passwort | Fichte!Tanne42 |", ["Fichte!Tanne42"]),
    ("- root password ➜ Rt5#kQ9zL", ["Rt5#kQ9zL"]),
    ("- new admin password: (Hx4!kQ9zL)", ["Hx4!kQ9zL"]),
    ("jdbc:oracle:thin:hr/Hr7!pQ2zL@ora01:1521:ORCL", ["Hr7!pQ2zL"]),
    ("WIFI:S:Cafe;T:WPA;P:Espresso2024;H:false;;", ["Espresso2024"]),
    ("- community: Pr1v4teC0mm (snmp v2c, RO)", ["Pr1v4teC0mm"]),
    ("- IPsec PSK Ip7#kQ2zLm", ["Ip7#kQ2zLm"]),
    ("printf 'Ds6#kQ2zL' | docker secret create db_pw -", ["Ds6#kQ2zL"]),
    ("iwconfig wlan0 essid Home key s:Iw3!kQ2zL", ["Iw3!kQ2zL"]),
    ("vncserver; echo Vn2#kQ9z | vncpasswd -f > ~/.vnc/passwd", ["Vn2#kQ9z"]),
    ("pulumi config set --secret dbPassword Pu4#kQ9zL", ["Pu4#kQ9zL"]),
]
"""(text, the secret pieces that must be gone)."""

KEPT = [
    "- GCP project: acme-analytics-412903; SA: ci-bot@acme-analytics-412903.iam.gserviceaccount.com",
    "- api_key_header: X-API-Key",
    "ERROR 401 Unauthorized: token expired at 2024-05-02T10:00:00Z (kid=2024-05-rsa)",
    "- S3 key: reports/2024/q1-summary.csv",
    "- Kennwort: abgelaufen",
    "- api_key: sk-...redacted...abcd",
    "secret = Secret(name='db', key='password')",
    "- contraseña: caducada",
    "- senha: expirada",
    "- Passwort: geändert",
    "- Passwort: unbekannt",
    "- password: unchanged",
    "- Passwort: zurückgesetzt",
    "api_key = APIKeyHeader(name='X-API-Key')",
    "password = PasswordField(label='Password')",
    "token = Token.objects.get(user=request.user)",
    "password = Password(hash=hashed)",
    "password = models.CharField(max_length=128)",
    "- token issued: 2024-05-02T10:00:00Z",
    "- bucket: acme-backups-20240502",
    "- key: reports/2024/q1.csv",
    "- storage key: tenants/4471/export.zip",
    "- nextPageToken: CgwIgICAgICAgICAARABGAE",
    "- page_token: eyJvZmZzZXQiOjEwMH0=",
    "- key: AKIA****************",
    "password = Column(String(128), nullable=False)",
    "api_key = db.Column(db.String(64), unique=True)",
    "token = serializers.CharField(write_only=True)",
    "secret_key = fields.Str(required=True)",
    "type User { id: ID!  password: String! }",
    "password VARCHAR(255) NOT NULL,",
    'Password string `json:"password" validate:"required,min=12"`',
    '{"password": "Passwort", "token_expired": "Ihr Token ist abgelaufen"}',
    '"api_key_label": "API-Schlüssel"',
    "API_KEY=\nDB_PASSWORD=\nSECRET_KEY=",
]
"""Look-alikes the trial saw altered: each must come out byte for byte."""


@pytest.mark.parametrize(("text", "secrets"), LEAKS)
def test_each_leak_of_the_trial_is_redacted(text: str, secrets: list[str]) -> None:
    out = redaction.redact(text)[0]
    assert not [s for s in secrets if s in out], out


@pytest.mark.parametrize("text", KEPT)
def test_each_false_alarm_of_the_trial_is_kept(text: str) -> None:
    assert redaction.redact(text)[0] == text
