"""Secrets in an image reference's place and in a CSV export's password column (breaker22 B22-1, B22-2, B22-9).

An image reference is kept only where one is written (a YAML ``image:`` key or a Dockerfile ``FROM`` at the start of
its line, the image argument of ``docker|podman|nerdctl pull|run|push``, past its flags and their values) and only
when its tag reads as a tag: a random run or a vendor key after ``name:`` is a secret. A CSV export's password column
is a password in every cell, whatever it looks like, and only that cell is taken. Each secret below was kept verbatim
before; each look-alike must stay verbatim.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

HEX = "9f3b2c7d1e8a4f60b5c2d9e7a1f3b8c4"
LOWER = "k7m2p9x4q8w3z6v1"
RUN = "fq7xkwo886vompzom75wbb"
DIGEST = "ghcr.io/org/app@sha256:" + "3f1a9c0b7e2d4f6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a"


def _gone(text: str, value: str) -> None:
    out = redaction.redact(text)[0]
    assert value not in out, out
    assert "[REDACTED:" in out, out


def _stays(text: str) -> None:
    assert redaction.redact(text) == (text, []), redaction.redact(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"podman pull --creds deploy:{HEX} quay.io/acme/api:1.4", HEX),
        (f"podman push --creds robot:{LOWER} quay.io/acme/api:1.4", LOWER),
        (f"docker pull --creds robot:{LOWER} registry.local/app:1.0", LOWER),
        (f"nerdctl run --creds robot:{LOWER} registry.local/app:1.0", LOWER),
        (f"podman run --creds robot:{RUN} registry.local/app:1.0", RUN),
        (f"docker login -u deploy -p {HEX} quay.io", HEX),
        (f"docker login --username deploy --password {LOWER} registry.example.com", LOWER),
        (f"podman login --password={RUN} quay.io", RUN),
    ],
)
def test_a_registry_password_given_to_a_flag_is_taken(text: str, value: str) -> None:
    _gone(text, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"registry login for the image: robot:{LOWER}", LOWER),
        (f"registry creds for the image: deploy:{HEX}", HEX),
        (f"image: registry.example.com/app:{LOWER}", LOWER),
        (f"image: app:{RUN}", RUN),
        (f"image: user:{RUN}", RUN),
        (f'image: "myrepo/app:{RUN}"', RUN),
        (f"docker pull deploy:{RUN}", RUN),
        (f"FROM deploy:{RUN}", RUN),
        ("image: x:hf_qrcmwpxkzt4n8v2b6d9f3h7j1l5", "hf_qrcmwpxkzt4n8v2b6d9f3h7j1l5"),
        ("image: x:pypi-ka52mq8x7v3n9p4w6z2r1t5y", "pypi-ka52mq8x7v3n9p4w6z2r1t5y"),
        (
            "image: x:sk-94g9dpmrcg629be2u66mr26846p7q9m2i0hz2uep1enthjxj",
            "sk-94g9dpmrcg629be2u66mr26846p7q9m2i0hz2uep1enthjxj",
        ),
    ],
)
def test_a_secret_in_an_image_tags_place_is_taken(text: str, value: str) -> None:
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        "image: nginx:1.27",
        "    image: nginx:1.27-alpine",
        "  - image: docker.io/library/postgres:16.2-bookworm",
        "FROM python:3.11-slim",
        "FROM --platform=linux/amd64 node:20-alpine3.19",
        f"image: {DIGEST}",
        f"docker pull {DIGEST}",
        "docker run --rm -it -e TZ=UTC python:3.12.1-slim-bookworm bash",
        "podman pull --creds deploy quay.io/acme/api:v1.4.2",
        "docker run --name web -p 8080:80 nginx:latest",
        "docker push registry.example.com/team/app:sha-7f3c2a1",
    ],
)
def test_a_real_image_reference_stays(text: str) -> None:
    _stays(text)


EXPORT = (
    "name,url,username,password\n"
    "github,https://github.com/login,ana,correct-horse-battery-staple\n"
    "mail,https://mail.example.com,ana,purple monkey dishwasher\n"
    "router,http://192.168.1.1,admin,correcthorsebatterystaple\n"
    "wifi,,guest,sunflower-mountain-river-42\n"
)


def test_every_cell_of_a_csv_password_column_is_taken_and_only_that_cell() -> None:
    out = redaction.redact(EXPORT)[0]
    for pw in ("correct-horse-battery-staple", "purple monkey dishwasher", "correcthorsebatterystaple", "sunflower"):
        assert pw not in out, out
    for kept in ("https://github.com/login,ana,", "https://mail.example.com,ana,", "http://192.168.1.1,admin,"):
        assert kept in out, out
    assert "\nwifi,,guest,[REDACTED:" in out, out


@pytest.mark.parametrize(
    "text",
    [
        "label,token\nfeature-flag,enable_new_checkout_flow_v2",
        "name,password\ndb,n/a\nweb,$DB_PASSWORD\napi,see vault",
        "name,url,username,password\nwiki,https://wiki.example.com,ana,\n",
    ],
)
def test_a_csv_name_or_placeholder_in_a_secret_column_stays(text: str) -> None:
    _stays(text)


@pytest.mark.parametrize(
    "text",
    [
        "password: RPM-GPG-KEY-Xk9mQ2vL7pR4tW8z",
        "the signing key is RPM-GPG-KEY-k7m2p9x4q8w3z6v1",
    ],
)
def test_a_random_run_named_like_an_rpm_key_is_redacted(text: str) -> None:
    """An RPM key file's name is kept only when it reads as a name (breaker22: a random run rode the keep)."""
    assert "REDACTED" in redaction.redact(text)[0], text


@pytest.mark.parametrize("name", ["RPM-GPG-KEY-EPEL-9", "RPM-GPG-KEY-fedora-39-x86_64", "RPM-GPG-KEY-CentOS-Official"])
def test_an_rpm_key_file_name_is_kept(name: str) -> None:
    text = f"gpgkey=file:///etc/pki/rpm-gpg/{name}"
    assert redaction.redact(text)[0] == text
