"""Keys where config files put them, and config files' public values (issue 32 round 15; breaker18 B18-8, B18-14).

Most "is taken" cases leaked before this round (the value on the line after its
name, or in a password manager's CSV export); each "stays" case is a public value
from a config file that was redacted before. The values are made for this file.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction

PW = "TigerDBAdmin2024Secure"
KEY = "hP8qr9F0nvVkzDjHafKE2wXTEhc8K9Qp"


def _gone(text: str, value: str) -> None:
    out = redaction.redact(text)[0]
    assert value not in out, out
    assert "[REDACTED:" in out


def _stays(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    "text",
    [
        f"db:\n  password: >-\n    {PW}\n",
        f"stringData:\n  password: |-\n    {PW}",
        f"snyk:\n  auth_token: >-\n    {KEY}\n  timeout: 30",
        f"<password>\n  {PW}\n</password>",
        f'"password": [\n  "{PW}"\n]',
        f"export DB_PASSWORD=$(cat <<EOF\n{PW}\nEOF\n)",
        f'variable "db_password" {{\n  default = "{PW}"\n}}',
    ],
)
def test_a_value_on_the_line_after_its_name_is_taken(text: str) -> None:
    _gone(text, PW if PW in text else KEY)


@pytest.mark.parametrize(
    "text",
    [
        f"Password\n--------\n{PW}",
        f"stripe secret key (prod)\n{KEY}",
    ],
)
def test_a_label_line_with_an_underline_or_a_note_in_brackets_marks_the_next_line(text: str) -> None:
    _gone(text, PW if PW in text else KEY)


@pytest.mark.parametrize(
    "text",
    [
        f"name,url,username,password\nexample.com,https://example.com/,bob,{PW}",
        f"url,username,password,totp,extra,name,grouping,fav\nhttps://db,root,{PW},,,prod,,0",
        f'"Account","Login Name","Password","Web Site","Comments"\n"prod","root","{PW}","https://db",""',
        f"host\tuser\tpassword\ndb01\troot\t{PW}",
        f"host;user;password\ndb01;root;{PW}\ndb02;root;{PW}x",
    ],
)
def test_a_password_managers_csv_export_has_its_password_column_taken(text: str) -> None:
    _gone(text, PW)


def test_a_csv_whose_header_names_no_secret_stays() -> None:
    _stays("host,user,region\ndb01,admin,eu-west-1a")


@pytest.mark.parametrize(
    "text",
    [
        "key: |\n  just some words here",
        "description: >-\n  Runs the nightly build\n  and uploads it",
        "<description>\n  The nightly build\n</description>",
        'variable "region" {\n  default = "eu-west-1"\n}',
    ],
)
def test_a_block_without_a_secret_stays(text: str) -> None:
    _stays(text)


@pytest.mark.parametrize(
    "text",
    [
        "FROM --platform=$BUILDPLATFORM node:17.0.1-bullseye-slim as builder",
        "FROM maven:3.8.5-eclipse-temurin-17 AS builder",
        "    google-protobuf (4.35.1-x86_64-darwin)",
        "        workload_identity_provider: 'projects/816257685787/locations/global/workloadIdentityPools/"
        "github-actions-pool/providers/github-provider'",
        '          content: --acme-http01-solver-runtime-class-name="something"',
        '"expr": "system_cpu_load_average_15m{k8s_cluster_name=~\\"$k8s_cluster_name\\"} ",',
        "- url: http://localhost:8080/grafana/d/W2gX2zHVk/demo-dashboard?orgId=1&var-service=All",
        "# ssl_ciphers ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305",
        "CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc \\",
        '"id": "tooluse_04UDMefto7ItLbtUrmIdTM", "index": 1',
    ],
)
def test_a_config_files_public_value_stays(text: str) -> None:
    _stays(text)


@pytest.mark.parametrize(
    "text",
    [
        f"--db-password={PW}",
        f"FROM node:18 AS builder\nENV API_TOKEN={KEY}",
        f"- url: https://admin:{PW}@grafana.example.com/d/W2gX2zHVk/demo-dashboard",
    ],
)
def test_a_secret_beside_a_config_value_is_still_taken(text: str) -> None:
    _gone(text, PW if PW in text else KEY)


@pytest.mark.parametrize("label", ["the box's key ", "secret ", "token: "])
def test_a_long_labelled_base64_run_is_taken_to_its_end(label: str) -> None:
    import base64
    import hashlib

    body = base64.b64encode(b"".join(hashlib.sha256(bytes([i])).digest() for i in range(30))).decode()
    assert len(body) > 900
    out = redaction.redact(f"{label}{body} and more")[0]
    assert body[-200:] not in out, out
    assert out.endswith(" and more")


@pytest.mark.parametrize(
    "text",
    [
        "      - name: 42Crunch REST API Static Security Testing\n"
        "        uses: 42Crunch/api-security-audit-action@fc01ea7a89e6268875868f9d89598af7a9899ae0",
        "          path: spec.scaleTargetRef.apiVersion\n          value: argoproj.io/v1alpha1",
        "- name: Create the GPG key for EPEL\n  copy: src=RPM-GPG-KEY-EPEL-7 dest=/etc/pki/rpm-gpg",
    ],
)
def test_a_workflow_or_playbooks_public_value_stays(text: str) -> None:
    _stays(text)


@pytest.mark.parametrize(
    "text",
    [
        "kylas:\n  token: |\n    c55dbac4-e0e8-4a06-b892-75cac2387ce5",
        "heroku secret (prod)\nc55dbac4-e0e8-4a06-b892-75cac2387ce5",
    ],
)
def test_a_uuid_key_under_its_name_on_the_line_above_is_taken(text: str) -> None:
    _gone(text, "c55dbac4-e0e8-4a06-b892-75cac2387ce5")


def test_a_uuid_in_a_block_scalar_without_a_secret_name_stays() -> None:
    _stays("description: |\n  c55dbac4-e0e8-4a06-b892-75cac2387ce5")


@pytest.mark.parametrize(
    "text", [f"echo -n {PW} | base64", f"echo -n '{PW}' | base64", f"printf '%s' '{PW}' | base64 -w0"]
)
def test_a_value_piped_into_base64_for_a_secret_is_taken(text: str) -> None:
    _gone(text, PW)


@pytest.mark.parametrize(
    "text", ["echo -n 'admin' | base64", "echo -n $DB_PASSWORD | base64", "echo -n dGVzdA== | base64 -d"]
)
def test_a_name_a_variable_or_a_decoding_piped_to_base64_stays(text: str) -> None:
    _stays(text)


@pytest.mark.parametrize(
    "text",
    [
        "image: node:17.0.1-bullseye-slim",
        "docker pull maven:3.8.5-eclipse-temurin-17",
        "docker run --rm -it python:3.12.1-slim-bookworm bash",
        "the base image is FROM node:17.0.1-bullseye-slim",
    ],
)
def test_an_image_reference_where_images_are_named_stays(text: str) -> None:
    _stays(text)


def test_a_capitalised_password_in_an_image_references_place_is_taken() -> None:
    _gone("image: admin:TigerDBAdmin2024Secure", "TigerDBAdmin2024Secure")


def test_base64_of_words_in_a_urls_password_place_is_taken() -> None:
    value = "dXNlcjp7Y29uZmlybWVkOnRydWUsImt1cmEiOiJlbGVuaXZlIERlZlo6ZGJ0OnRydWU9YWJjZGVmZ2hpamtsbW5v"
    _gone(f"https://fullstory:{value}@api.example.com/v1", value)


def test_base64_of_words_outside_a_urls_password_place_stays() -> None:
    _stays(
        "the fixture decodes dXNlcjp7Y29uZmlybWVkOnRydWUsImt1cmEiOiJlbGVuaXZlIERlZlo6ZGJ0OnRydWU9YWJjZGVmZ2hpamtsbW5v"
    )
