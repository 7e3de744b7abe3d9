"""Secrets and references where infrastructure files put them (issue 32 round 17, KICS' secrets tests).

KICS (Checkmarx, Apache-2.0) tests its "Passwords And Secrets" query on Terraform, Kubernetes, CloudFormation and
Ansible files; the shapes below are those files' documented places, the values made for this file. Each "is
taken" case leaked before :mod:`.iacsecrets`; each "stays" case was redacted before :mod:`.iacvalues`.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction


def _gone(text: str, value: str) -> None:
    out = redaction.redact(text)[0]
    assert value not in out, out
    assert "[REDACTED:" in out


def _stays(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('        - name: DB_PASS_BD\n          value: "Pw4-orbit"', "Pw4-orbit"),
        ("  - name: MYSQL_PASSWORD_ROOT\n    value: hunter22x", "hunter22x"),
        ('{"name": "REDIS_PASSWORD_PRIMARY", "value": "tulip-Nine-7"}', "tulip-Nine-7"),
        ("    mock-proxy-password:\n      value: testpwd9", "testpwd9"),
        ("variables:\n  db_password:\n    value: 'quartz88Lm'", "quartz88Lm"),
    ],
)
def test_a_password_under_its_name_in_an_env_entry_or_a_value_map_is_taken(text: str, value: str) -> None:
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        '        - name: DB_PASSWORD_FILE\n          value: "/run/secrets/db"',
        '        - name: PASSWORD_MIN_LENGTH\n          value: "12"',
        '        - name: DB_PASS_POLICY\n          value: "strict"',
        "    proxy_password:\n      value: required",
        "    proxy_password:\n      value: ${PROXY_PW}",
        "    proxy_password:\n    value: sibling-not-child",
    ],
)
def test_a_name_about_the_password_or_a_reference_under_it_stays(text: str) -> None:
    _stays(text)


PRIVATE = ("AAABAGz/5fQZ9zSxbIzamCW6YYutTXgo9aaZw1kauv3C/AbD8Ll0YsUCj4d3Eiyp", "mtxU3GiMr/qiLUwh9C7Lgo+ZmsbY")


def test_a_putty_key_files_private_lines_are_taken_its_mac_and_header_stay() -> None:
    text = (
        "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key-20200108\nPrivate-Lines: 2\n"
        f"{PRIVATE[0]}\n{PRIVATE[1]}\nPrivate-MAC: 8d9cbf92b0e8f23309a9ebea525aae27d4fdbbdd"
    )
    out = redaction.redact(text)[0]
    assert all(p not in out for p in PRIVATE), out
    assert "Private-Lines: 2\n[REDACTED:private-key]\n[REDACTED:private-key]\nPrivate-MAC:" in out
    assert out.startswith("PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key-20200108\n")


@pytest.mark.parametrize(
    "text",
    [
        "      config:\n        access-token: '{.credential.access_token}'",
        "        token-key: '{.credential.oauth_access_token_}'",
        "        encryption_key: 'arn:aws:kms:{{ aws_region }}:{{ aws_account_id }}:alias/aws/s3'",
        "                - :secretsmanager:eu-west-1:111111111111:secret:/test/docdb:SecretString:password::}}",
        "                - :secretsmanager:*:111111111111:secret:/test/docdb:SecretString:endpoint::}}/test",
        "    private_key = file(var.private_key_path)",
        '            return {"username": userPass[1], "password": userPass[2]}',
        "          PASSWORD:\n            Fn::Join:",
        "      AuthToken: '{{resolve:secretsmanager:MyRedisSecret:SecretString:password}}'",
        '    update_password: "on_create"',
    ],
)
def test_references_infrastructure_files_write_where_a_secret_could_stand_stay(text: str) -> None:
    _stays(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("token-key: '{.credential.x}' token = 'kT9vQ2mZ8xL4pR7wN3sB6yH1'", "kT9vQ2mZ8xL4pR7wN3sB6yH1"),
        ("secret: arn-like:Zp8Kq2Lm9Xv4Rt7Wn3Bs6Yh1Jd5Fg0Qc", "Zp8Kq2Lm9Xv4Rt7Wn3Bs6Yh1Jd5Fg0Qc"),
        (
            'private_key = file(var.key_path)\napi_key = "sk_live_51HqLyjWDarjtT1zdp7dcXCt"',
            "sk_live_51HqLyjWDarjtT1zdp7dcXCt",
        ),
        ('password = "Fn::Join-is-not-this-9Kq"', "Fn::Join-is-not-this-9Kq"),
        ("update_password: hunter22Xq", "hunter22Xq"),
    ],
)
def test_a_literal_secret_beside_or_in_place_of_those_references_is_still_taken(text: str, value: str) -> None:
    _gone(text, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("amzn.mws.643a5678-8f9f-1a2b-5c3b-e3ea43f3f4b4", "643a5678-8f9f-1a2b-5c3b-e3ea43f3f4b4"),
        ("snyktoken=`9f1e45a8-22e4-4b1c-8e14-7d3e4a6f9012`", "9f1e45a8-22e4-4b1c-8e14-7d3e4a6f9012"),
        ('variable "onesignal_token" {\n  default = "5d3e1f2a-9b8c-4d7e-a6f5-0b1c2d3e4f5a"\n}', "5d3e1f2a-9b8c"),
    ],
)
def test_a_uuid_a_key_is_made_of_or_a_token_name_quotes_is_taken(text: str, value: str) -> None:
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        'variable "region_id" {\n  default = "5d3e1f2a-9b8c-4d7e-a6f5-0b1c2d3e4f5a"\n}',
        "run `uuidgen` -> `5d3e1f2a-9b8c-4d7e-a6f5-0b1c2d3e4f5a`",
        "see request `5d3e1f2a-9b8c-4d7e-a6f5-0b1c2d3e4f5a` in the logs",
    ],
)
def test_a_uuid_no_secret_word_names_stays_in_backticks_and_variables(text: str) -> None:
    _stays(text)


def test_a_random_value_after_a_label_is_taken_in_backticks_as_bare() -> None:
    _gone("here it is: `SKa7CF7acdcaf92Be4CCC52F4a2923BBB3`", "SKa7CF7acdcaf92Be4CCC52F4a2923BBB3")
    _gone("here it is: SKa7CF7acdcaf92Be4CCC52F4a2923BBB3", "SKa7CF7acdcaf92Be4CCC52F4a2923BBB3")


@pytest.mark.parametrize(
    "text",
    [
        "Destructive: `border-destructive/30`.",
        "Destructive: border-destructive/30",
        "path: `src/memrepo/engine/redaction/rules.py`",
        "model: `claude-3-5-sonnet-20241022`",
    ],
)
def test_a_name_of_words_after_a_label_stays_in_backticks_or_bare(text: str) -> None:
    _stays(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Parameters:\n  ParentMasterPassword:\n    Description: 'Password'\n    Type: String\n    Default: 'asDj73!x'",
            "asDj73!x",
        ),
        (
            '  "Parameters": {\n    "DbPassword": {\n      "Type": "String",\n      "Default": "asDj73!x"\n    }',
            "asDj73!x",
        ),
        ('    "adminPassword": {\n      "type": "securestring",\n      "defaultValue": "Kq8!zzLm2"', "Kq8!zzLm2"),
        ('"Password": "Summer2024Password"', "Summer2024Password"),
        ('password = "summerPassword"', "summerPassword"),
    ],
)
def test_a_template_parameters_default_under_a_password_name_is_taken(text: str, value: str) -> None:
    _gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        "Parameters:\n  ParentMasterPassword:\n    Type: String\n    NoEcho: true\n  InstanceType:\n    Default: t2.micro",
        "Parameters:\n  ApiToken:\n    Type: String\n    Default: 'none'",
        "resource sqlServer 'Microsoft.Sql/servers@2015-05-01-preview' = {",
        '  "apiProfile": "2019-03-01-hybrid",',
        '"administratorLoginPassword": "[parameters(\'adminPassword\')]",',
        '        "Password": "MasterMongoDBPassword",',
        "    administratorLoginPassword: secureParameter",
        '            SecretStringTemplate: \'{"username": "admin"}\'',
    ],
)
def test_arm_bicep_and_cloudformation_references_stay(text: str) -> None:
    _stays(text)


def test_a_quoted_name_like_value_of_an_environment_variable_is_still_taken() -> None:
    _gone("export HEROKU_API_KEY='sampleHerokuKey'", "sampleHerokuKey")


def test_a_long_run_of_capitals_after_a_label_costs_what_a_plain_line_costs() -> None:
    """A value naming its holder is read word by word: a run of capitals is not split every possible way.

    ``key=exampleABCD...`` (the corpus's appointedd line) took 2.5 minutes of CPU in ``_HOLDER_NAME_RE`` while a
    line as long without the run took milliseconds. Compared in CPU time against such a line (no absolute time):
    within 50 times, where the old pattern was over 10,000 times.
    """
    import time

    run = "ABCDEFGHIJKLMNOPQRSTUVWXYYZ" * 3
    hard = f"For appointedd, remember: appointedd_SECRET=examplevalidkey{run}="
    plain = f"For appointedd, remember: appointedd_SECRET=examplevalidkey{'a1b2c3' * 14}="

    def cpu(text: str) -> float:
        redaction.redact(text.replace("appointedd", "warmup"))  # the detectors load outside the measure
        start = time.process_time()
        out = redaction.redact(text)[0]
        assert "examplevalidkey" not in out, out
        return time.process_time() - start

    base = max(cpu(plain), 0.005)
    assert cpu(hard) < 50 * base
