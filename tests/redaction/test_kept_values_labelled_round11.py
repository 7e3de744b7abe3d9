"""A kept shape never keeps a secret written under a credential's label (issue 32, round 11; breaker9 B9-10 to B9-14).

:mod:`.notevalues` keeps file names, CUIDs, ``package.TypeName``, ``pvc-`` names, ``sgr-`` ids, buckets after
``make_bucket:`` and ``kid`` values verbatim. breaker9 dressed secrets in those shapes and got them stored verbatim
through every way in. Each line below holds a value in a kept shape right after a label that names a secret: the
value must not survive. The look-alikes at the end are ordinary notes :mod:`.toolcreds`' quoted-password and
``.dockerconfigjson`` shapes altered.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

CUID = "clh3am0swp8ix4ea4q9om4894"  # a CUID whose time block decodes to 2023
UUID = "3e1f0a92-7c4d-4b8e-a1f3-9d2c6b7e8f01"
KEY44 = "nGm1RKBa2Jd7XTwFxdxZZz4DBOU9mJg6k9Lf5wq4pXEH"

UNDER_A_LABEL = [
    ("Authorization: Bearer " + CUID, CUID),
    ('"apiKey": "' + CUID + '"', CUID),
    ("API_TOKEN=" + CUID, CUID),
    ("export SECRET_KEY=" + CUID, CUID),
    ("the service token is " + CUID, CUID),
    ("token=" + CUID + " (queue API)", CUID),
    ("DB_PASS=Spring2025.yaml", "Spring2025"),
    ("export PGPASSWORD=Autumn2024.sql", "Autumn2024"),
    ('password: "hunter2.txt"', "hunter2"),
    ("root password: Dragon1.tar.gz", "Dragon1"),
    ("PGPASSWORD=release-notes.md", "release-notes"),
    ("the wifi password is home.PurpleMonkeyDishwasher", "PurpleMonkeyDishwasher"),
    ("mysql -u root -pCorrectHorseBatteryStaple.sql", "CorrectHorseBatteryStaple"),
    ("HEROKU_API_KEY=pvc-" + UUID, UUID),
    ("postgres password pvc-" + UUID, UUID),
    ("db password sgr-0a1b2c3d4e5f60718", "0a1b2c3d4e5f60718"),
    (
        'client_secret "kid": "q0Yv3hJc1zWl8_rTn4pXa6KdE2sGm9BfU7oLiN5yHw-"',
        "q0Yv3hJc1zWl8_rTn4pXa6KdE2sGm9BfU7oLiN5yHw-",
    ),
    ("DD_API_KEY make_bucket: 0a1b2c3d4e5f60718293a4b5c6d7e8f9", "0a1b2c3d4e5f60718293a4b5c6d7e8f9"),
]


@pytest.mark.parametrize(("line", "secret"), UNDER_A_LABEL)
def test_a_kept_shape_under_a_credential_label_is_redacted(line: str, secret: str) -> None:
    out, _kinds = redaction.redact(line)
    assert secret not in out, out


@pytest.mark.parametrize(
    "line",
    [
        "Encryption config key: k8s:enc:aescbc:v1:YtDtXbiufMdI8X2Y4rUmer/BH3M1XS0DRdJuPnBIKpi=",
        "k8s:enc:aescbc:v1:" + KEY44,
    ],
)
def test_key_material_after_the_encryption_prefix_is_no_key_name(line: str) -> None:
    out, _kinds = redaction.redact(line)
    assert "YtDtXbiufMdI8X2Y4rUmer" not in out and KEY44[:20] not in out, out


def test_a_hex_secret_cut_into_pieces_is_no_file_name() -> None:
    line = "wrote it to gho-0a1b2c3d4e5f607182-9a8b7c6d5e4f302112.txt"
    out, _kinds = redaction.redact(line)
    assert "0a1b2c3d4e5f607182" not in out, out


def test_a_random_bucket_name_is_not_kept() -> None:
    line = "make_bucket: key-0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p"
    out, _kinds = redaction.redact(line)
    assert "0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p" not in out, out


@pytest.mark.parametrize(
    "line",
    [
        "The etcd key is prefixed with `k8s:enc:secretbox:v1:key1`, so the secretbox provider wrote it.",
        "k8s:enc:aescbc:v1:key1:",
        "make_bucket: acme-release-artifacts",
        "- task007_release_branch_policy.md",
        "banner: static/img/covers/Stock-2207513384-2400x1350-a1c9e0b.png",
    ],
)
def test_the_kept_shapes_still_keep_plain_notes(line: str) -> None:
    assert redaction.redact(line)[0] == line


@pytest.mark.parametrize(
    "line",
    [
        'Error: the password is "wrong"',
        'The log line says the password is "incorrect"',
        'the password is "case-sensitive"',
        ".dockercfg: placeholder",
        '.dockerconfigjson: eyJhdXRocyI6e319 (that is just {"auths":{}})',
    ],
)
def test_words_about_a_password_and_empty_pull_secrets_are_kept(line: str) -> None:
    assert redaction.redact(line)[0] == line


def test_a_quoted_password_and_a_real_pull_secret_are_still_redacted() -> None:
    assert "centipede" not in redaction.redact('the password is "centipede"')[0]
    pull = "eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLmNvbSI6eyJhdXRoIjoiZFhObGNqcHdZWE56ZDI5eVpBPT0ifX19"
    assert pull not in redaction.redact(".dockerconfigjson: " + pull)[0]


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("the DB password is Spring2025.yaml", "Spring2025"),
        ("the admin password is Letmein2024.html", "Letmein2024"),
        ("wifi pwd: Home2024.txt", "Home2024"),
    ],
)
def test_a_password_that_ends_like_a_file_name_is_redacted(line: str, secret: str) -> None:
    assert secret not in redaction.redact(line)[0]


@pytest.mark.parametrize(
    "line",
    [
        "POSTGRES_PASSWORD_FILE=/run/secrets/db_password.txt",
        "the password is in secrets.yaml",
        "the password file is Config2024.yaml",
    ],
)
def test_a_password_file_named_after_a_password_label_is_kept(line: str) -> None:
    assert redaction.redact(line)[0] == line
