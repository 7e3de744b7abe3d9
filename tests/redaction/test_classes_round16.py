"""Secrets found by class, not by vendor (issue 32 round 16), from the misses of trufflehog's tests' tune half.

Each "is taken" case leaked before this round; each "stays" case was redacted before. The values are made for
this file (random shapes, no vendor's real key).
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

KEY = "Vx9qLm2Tz8RpKa7Wc3Yh5NbQ"


def _gone(text: str, value: str) -> str:
    out = redaction.redact(text)[0]
    assert value not in out, out
    assert "[REDACTED:" in out
    return out


UUID = "3f9c2a71-5b8e-4d06-9a1f-7c2e8b4d6a03"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"acme token = '{UUID}' | '{UUID}'", UUID),
        (f"acme_api_key: {UUID}\ncurl -H 'X-Acme: {UUID}' https://api.acme.test/v1", UUID),
    ],
)
def test_a_secret_found_once_is_redacted_where_it_stands_again(text: str, value: str) -> None:
    out = _gone(text, value)
    assert out.count("[REDACTED:") == 2


def test_a_repeated_value_inside_a_longer_token_is_not_added() -> None:
    from memrepo.engine.redaction import repeats

    text = f"acme token = '{KEY}' and the build id was x{KEY}y, again {KEY}."
    first = text.index(KEY)
    found = [(first, first + len(KEY), "assigned-token")]
    again = text.rindex(KEY)
    assert repeats.spans(text, found) == [*found, (again, again + len(KEY), "assigned-token")]


def test_a_short_password_is_not_redacted_as_a_word_elsewhere() -> None:
    out = redaction.redact("mysql password: admin\nthe admin panel is at /admin")[0]
    assert "the admin panel is at /admin" in out


@pytest.mark.parametrize(
    "text",
    [
        "<secret>{AQAAABAAAAAQk3Jd8f0Kq9xLm3nV7bR5tY1uW8eZ0cA4gH6jP2sD9fG=}</secret>",
        "<session>{AQAAABAAA " + "aSqfp/GTZbJP+tXPNCZ9GoveoM0vgxtlYXdz" * 20 + "}</session>",
        "<privateKeySource><privateKey>{AQAAABAAAAAwQk3Jd8f0Kq9xLm3nV7bR5tY1uW8eZ0}</privateKey>",
    ],
)
def test_a_jenkins_stored_secret_is_taken_whole(text: str) -> None:
    value = text[text.index("{") + 1 : text.index("}")]
    out = _gone(text, value[-12:])
    assert "{[REDACTED:jenkins-secret]}" in out


@pytest.mark.parametrize("text", ["aws id: ABIAS9L8MS5IPHTZPPUQ", "ACCAQ2X7MS5IPHTZPPUQ"])
def test_aws_sts_bearer_and_context_key_ids_are_taken(text: str) -> None:
    _gone(text, text[-20:])


@pytest.mark.parametrize(
    "text",
    [
        "bitbucket = https://git.company.com:7990/scm/proj/repo.git",
        "bitbucket server at https://git.company.com:7990/projects/PROJ/repos/app",
        "confluence: https://wiki.example.org:8443/display/TEAM2024/Runbook",
    ],
)
def test_a_url_port_and_path_are_not_a_label_and_value(text: str) -> None:
    assert redaction.redact(text)[0] == text


def test_a_password_in_a_url_with_a_port_is_still_taken() -> None:
    _gone("https://deploy:Xk9mQ2vL7pRt5Zw3@git.company.com:7990/scm", "Xk9mQ2vL7pRt5Zw3")


GOSUM_COLOURED = (
    "\x1b[38;2;248;248;242mgolang.org/x/mod\x1b[0m \x1b[38;2;230;219;116mv0.28.0\x1b[0m "
    "\x1b[38;2;166;226;46mh1\x1b[0m:\x1b[38;2;190;132;255mgQBtGhjxykdjY9YhZpSlZIsbnaE2+PgjfLWUQTnoZ1U=\x1b[0m"
)


def test_a_coloured_public_value_is_read_around_its_terminal_escapes() -> None:
    assert redaction.redact(GOSUM_COLOURED)[0] == GOSUM_COLOURED


def test_a_colour_code_whose_escape_a_writer_dropped_is_read_around_too() -> None:
    stored = GOSUM_COLOURED.replace("\x1b", "")  # what remember keeps of pasted coloured output
    assert redaction.redact(stored)[0] == stored


def test_a_secret_a_colour_code_splits_is_still_taken_whole() -> None:
    out = _gone("token: \x1b[31mVx9qLm2Tz8\x1b[0mRpKa7Wc3Yh5NbQwErTy done", "RpKa7Wc3Yh5NbQwErTy")
    assert "Vx9qLm2Tz8" not in out and out.endswith(" done")


@pytest.mark.parametrize(
    "text",
    [
        'the JWT header has kid "NjVBRjY5MDlCMUIwNzU4RTA2QzZFMDQ4QzQ2MDAyQjVDNjk1RTM2Qg"',
        '{"alg":"RS256","kid":"NjVBRjY5MDlCMUIwNzU4RTA2QzZFMDQ4QzQ2MDAyQjVDNjk1RTM2Qg","typ":"JWT"}',
        'JWKS entry x5t: "NjVBRjY5MDlCMUIwNzU4RTA2QzZFMDQ4QzQ2MDAyQjVDNjk1RTM2Qg"',
    ],
)
def test_a_jose_key_id_is_public(text: str) -> None:
    assert redaction.redact(text)[0] == text


def test_a_private_jwk_member_beside_a_key_id_is_still_taken() -> None:
    d = "jJ6Flys3zK9jUhnOHf6G49Dyp5hah6CNP84-gY-n9eo"
    out = _gone(f'{{"kid":"NjVBRjY5MDlC","alg":"ES256","d":"{d}"}}', d)
    assert '"kid":"NjVBRjY5MDlC"' in out


@pytest.mark.parametrize(
    "text",
    [
        'nixpkgs.url = "github:NixOS/nixpkgs/nixos-23.11";',
        'darwin.url = "github:LnL7/nix-darwin/nix-darwin-24.11";',
        "nix build github:NixOS/nixpkgs/nixos-23.11#hello",
    ],
)
def test_a_nix_flake_reference_is_public(text: str) -> None:
    assert redaction.redact(text)[0] == text


def test_a_token_in_a_flake_reference_is_still_taken() -> None:
    _gone(
        'url = "github:acme/app/ghp_Vx9qLm2Tz8RpKa7Wc3Yh5NbQwErTyUiOpAs12";',
        "ghp_Vx9qLm2Tz8RpKa7Wc3Yh5NbQwErTyUiOpAs12",
    )
