"""What a break-it tester found in redaction after round 4 (issue 32, round 5).

Each test fails on the code before this round: a byte that was not UTF-8 that
turned Betterleaks off for the rest of the process, passwords holding ``@``
and ``.`` kept as if they were e-mail addresses, guillemets and quotes inside a
quoted password, and shapes of speech the said-password rule did not read.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Iterator

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction.vendors import _base62


def _github_token(body: str) -> str:
    """A GitHub token whose checksum holds (30 base62 characters, then their CRC32 in base62)."""
    return "ghp_" + body + _base62(zlib.crc32(body.encode()), 6)


@pytest.fixture
def betterleaks_alone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Betterleaks as the only detector, in a process where it has not failed; the shipped union after."""
    monkeypatch.setattr(redaction, "_betterleaks_failed", False)
    redaction.use_detectors(("betterleaks",))
    try:
        yield
    finally:
        redaction.use_detectors(redaction.DETECTORS)


def test_a_byte_that_was_not_utf8_leaves_betterleaks_on(
    betterleaks_alone: None, caplog: pytest.LogCaptureFixture
) -> None:
    """A hand edit read with ``surrogateescape`` (``caf\\xe9``) is scanned, with its spans in place, and the next
    text is scanned too: one text's encoding never turns the detector off for the process."""
    token = _github_token("Xk9Qm2Lp7Rt4Vb8Nc3Hd6Jf1Gs5Wy0")
    text = b"- caf\xe9 token ".decode("utf-8", "surrogateescape") + token + " and caf\udce9 again"
    with caplog.at_level(logging.WARNING, logger="memrepo"):
        out, types = redaction.redact(text)
        assert out == "- caf\udce9 token [REDACTED:github-token] and caf\udce9 again"
        assert types == ["github-token"]
        assert redaction._betterleaks_failed is False
        later = _github_token("Pq7Wm3Zx8Rk2Lt5Vn9Bc4Hd1Jf6Gs0")
        out, _types = redaction.redact(f"- the deploy token is {later}")
        assert out == "- the deploy token is [REDACTED:github-token]"
    assert not [r for r in caplog.records if "betterleaks" in r.getMessage()]


def test_a_nul_and_a_surrogate_keep_every_span_in_place(betterleaks_alone: None) -> None:
    """Each character Betterleaks cannot take is replaced one for one, so a span after several lands right."""
    token = _github_token("Zt6Qm2Lp7Rt4Vb8Nc3Hd6Jf1Gs5Wy9")
    text = "\udce9\x00\udcff x \udc80 " + token + "\udce9"
    out, _types = redaction.redact(text)
    assert out == "\udce9\x00\udcff x \udc80 [REDACTED:github-token]\udce9"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("The admin password is P@ssw0rd.2024", "P@ssw0rd.2024"),
        ("password: Ch@t-Noir.88", "Ch@t-Noir.88"),
        ("senha: Ch@t-Noir.88", "Ch@t-Noir.88"),
        ("пароль: Ch@t-Noir.88", "Ch@t-Noir.88"),
        ("비밀번호: Ch@t-Noir.88", "Ch@t-Noir.88"),
        ("mot de passe : Ch@t-Noir.88", "Ch@t-Noir.88"),
        ("the vpn pw is s3cr3t@home.42", "s3cr3t@home.42"),
        ("Passwort für das NAS: Gr@u.Zone.7", "Gr@u.Zone.7"),
    ],
)
def test_a_password_holding_at_and_dot_is_not_taken_for_an_email(text: str, secret: str) -> None:
    """An ``@`` and a ``.`` do not make an e-mail address: its domain ends in a TLD of letters (``.88`` is not one)."""
    out, types = redaction.redact(text)
    assert secret not in out, out
    assert types


@pytest.mark.parametrize(
    "text",
    [
        "password reset goes to alice@example.com",
        "password reset emails go to it-support@corp.example.co.uk.",
        "password: alice@example.com",
        "the password manager login is ops.team+vault@mail.example.org",
        "пароль сбрасывается на ivan.petrov@yandex.ru",
        "mot de passe oublié : écrire à jürgen@münchen.de",
    ],
)
def test_an_email_address_after_a_password_word_stays(text: str) -> None:
    out, types = redaction.redact(text)
    assert out == text and types == []


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        ("Le mot de passe du wifi est « Soleil#2024 »", "Soleil#2024", "« [REDACTED:password] »"),
        ("mot de passe : « Soleil#2024 »", "Soleil#2024", "»"),
        ("Le mot de passe est «\u202fSoleil#2024\u202f».", "Soleil#2024", "\u202f»."),
        ("le mdp du NAS est ‹ Lune#77x ›", "Lune#77x", " ›"),
        ("Passwort: „Sommer#2024“", "Sommer#2024", "“"),
    ],
)
def test_a_password_in_guillemets_is_redacted_and_its_quotes_stay(text: str, secret: str, kept: str) -> None:
    out, _types = redaction.redact(text)
    assert secret not in out, out
    assert out.endswith(kept), out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pw = 'He said \"hi\"!'", "pw = '[REDACTED:password]'"),
        ("mysql -u root -p'He said \"hi\"!' db", "mysql -u root -p'[REDACTED:password]' db"),
        ('sshpass -p "it\'s-Kx9#" ssh host', 'sshpass -p "[REDACTED:password]" ssh host'),
        ("pw = \"a 'b' c9Z\" and pw = 'other#Pass9'", "pw = \"[REDACTED:password]\" and pw = '[REDACTED:password]'"),
    ],
)
def test_a_quoted_password_ends_at_its_matching_closing_quote(text: str, expected: str) -> None:
    """The other kind of quote inside a quoted value is the value's own (``"hi"!`` was stored as written)."""
    assert redaction.redact(text)[0] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Le mot de passe est « trop court » selon la règle",
        "mot de passe : « voir le coffre »",
        "il a dit « le mot de passe, c'est pour demain »",
    ],
)
def test_words_in_guillemets_after_a_password_word_stay(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("пароль от вайфая podsolnuh77", "podsolnuh77"),
        ("пароль от почты Xk93mQz7, а от роутера другой", "Xk93mQz7"),
        ("새 비번 Hangang!2024", "Hangang!2024"),
        ("contraseña del wifi Sol2024maya", "Sol2024maya"),
        ("Passwort für den Server Sommer2024!\nDanach neu starten.", "Sommer2024!"),
    ],
)
def test_a_password_said_without_a_link_at_the_end_of_its_clause_is_redacted(text: str, secret: str) -> None:
    out, types = redaction.redact(text)
    assert secret not in out, out
    assert types == ["password"]


@pytest.mark.parametrize(
    "text",
    [
        "Пароль от вайфая поменяли вчера",
        "password for user admin2 expired yesterday",
        "비번 바꿨어요",
        "새 비번 8자리 이상",
        "the recovery code is 404 not found",
        "backup codes: 10 left, regenerate soon",
        "recovery codes stored in 1Password",
        "backup code generation v2 shipped",
        "the TOTP secret is stored in vault",
        "TOTP key rotation policy",
        "mfa key abcdefghijklmnop",
    ],
)
def test_talk_about_passwords_codes_and_seeds_stays(text: str) -> None:
    assert redaction.redact(text) == (text, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2FA backup code 48213957", "2FA backup code [REDACTED:backup-code]"),
        (
            "Recovery codes: 8f3k-2m9q, 7h2k-9x4p, 3m8d-1q7z",
            "Recovery codes: [REDACTED:backup-code], [REDACTED:backup-code], [REDACTED:backup-code]",
        ),
        (
            "Google backup codes: 4821 3957, 1093 5528",
            "Google backup codes: [REDACTED:backup-code], [REDACTED:backup-code]",
        ),
        (
            "GitHub recovery codes: a1b2c-3d4e5 f6a7b-8c9d0 then done",
            "GitHub recovery codes: [REDACTED:backup-code] [REDACTED:backup-code] then done",
        ),
        ("TOTP seed JBSWY3DPEHPK3PXP", "TOTP seed [REDACTED:totp-seed]"),
        ("2FA secret key: jbsw y3dp ehpk 3pxp", "2FA secret key: [REDACTED:totp-seed]"),
        ("authenticator setup key: JBSW Y3DP EHPK 3PXP.", "authenticator setup key: [REDACTED:totp-seed]."),
    ],
)
def test_backup_codes_and_totp_seeds_are_redacted(text: str, expected: str) -> None:
    assert redaction.redact(text)[0] == expected
