"""Passwords said in the claimed languages' own shapes, and where a said password ends (issue 32, round 5).

The breaker's misses were single strings; each case here is a shape of its
language (a preposition or a bare noun for what the password opens, a particle,
a space before the colon), so a fix for one string alone would fail the rest.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # Korean: a topic or subject particle glued to the word, the value, then a copula after a space
        ("비밀번호는 Xk93mQz7 입니다", "Xk93mQz7"),
        ("서버 비밀번호는 Tq8vR2mw 예요", "Tq8vR2mw"),
        ("와이파이 비밀번호가 Hn4k!pQ2 이에요", "Hn4k!pQ2"),
        ("관리자 암호는 Vb72xLqe", "Vb72xLqe"),
        ("비밀번호 : Wd83kQzp", "Wd83kQzp"),
        # Portuguese: do/da/dos/das and "palavra-passe"
        ("senha do banco: Xk93mQz7", "Xk93mQz7"),
        ("a senha da impressora é Lm4q8Rzt", "Lm4q8Rzt"),
        ("senha dos servidores = Pq73vKzw", "Pq73vKzw"),
        ("a palavra-passe do router é Fz82qLmx", "Fz82qLmx"),
        # Russian: для/от/к, a genitive noun with no preposition, a dash as the link
        ("Пароль для сервера: Xk93mQz7", "Xk93mQz7"),
        ("пароль от почты: Nq72vLsd", "Nq72vLsd"),
        ("пароль администратора: Gz41kPqw", "Gz41kPqw"),
        ("пароль к базе — Rt82mXqz", "Rt82mXqz"),
        # French: a bare noun for what it opens, a space before the colon, "mdp"
        ("Mot de passe wifi : Xk93mQz7", "Xk93mQz7"),
        ("mot de passe pour le NAS : Jq72wLzx", "Jq72wLzx"),
        ("mot de passe d'administration : Kp83vQzm", "Kp83vQzm"),
        ("mdp du routeur : Bx62qWzl", "Bx62qWzl"),
        # Spanish and German: the same shapes
        ("contraseña del wifi : Cz91pLqm", "Cz91pLqm"),
        ("clave wifi: Dq73xMzp", "Dq73xMzp"),
        ("Passwort beim Router : Ey52kVqz", "Ey52kVqz"),
        ("Kennwort Drucker: Fr64mWqx", "Fr64mWqx"),
        # English: "password for/of/at <thing> : X", a bare noun, a dash
        ("password at the gym locker : Hq83zLmx", "Hq83zLmx"),
        ("password of the backup disk - Jw72kQzp", "Jw72kQzp"),
        ("root password : Kz81vQmx", "Kz81vQmx"),
    ],
)
def test_a_password_said_in_a_claimed_language_is_redacted(text: str, secret: str) -> None:
    out, types = redaction.redact(text)
    assert secret not in out, out
    assert "[REDACTED:" in out and types


@pytest.mark.parametrize(
    "text",
    [
        "비밀번호는 8자 이상이어야 합니다",
        "비밀번호를 바꿨어요",
        "senha do banco: trocar amanhã",
        "Пароль для сервера: см. хранилище",
        "Mot de passe oublié : cliquez ici",
        "mot de passe wifi : demander à Paul",
        "password policy: min-12-chars",
        "password length: 16chars",
        "password reset: step-2",
        "Passwort-Richtlinie: 12Zeichen",
        "the password field - required",
    ],
)
def test_talk_about_a_password_without_one_stays(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "secret", "after"),
    [
        # punctuation inside a said password belongs to it
        ("the password is x9k2;Qz", "x9k2;Qz", ""),
        ("password: x9k2;Qz", "x9k2;Qz", ""),
        ("pw is Ab3,9kLm", "Ab3,9kLm", ""),
        ("wifi password: q7|Zr&m2", "q7|Zr&m2", ""),
        # a final ! or ? is the password's: leaving it would leak a character
        ("the password is Sommer2024!", "Sommer2024!", ""),
        ("password: Sommer2024!", "Sommer2024!", ""),
        ("db_password: Sommer2024!", "Sommer2024!", ""),
        ("das Passwort ist Sommer2024!!", "Sommer2024!!", ""),
        # a final . , ; : ends the sentence, and a bracket closes one opened before
        ("the password is Sommer2024. Then log in.", "Sommer2024", ". Then log in."),
        ("password: Kq83!zLm, then press enter", "Kq83!zLm", ", then press enter"),
        ("(the password is Kq83!zLm)", "Kq83!zLm", ")"),
        # a connection string's next field is not the password's
        ("Server=db;User Id=sa;Password=Kq83!zLm;Database=app", "Kq83!zLm", ";Database=app"),
    ],
)
def test_a_said_password_ends_at_the_next_space(text: str, secret: str, after: str) -> None:
    out, _ = redaction.redact(text)
    assert secret not in out, out
    assert out.count("[REDACTED:") == 1, out  # one mark: no piece of the password is left between two
    assert out.endswith("]" + after), out  # nothing of the password after the mark, the sentence's rest kept
