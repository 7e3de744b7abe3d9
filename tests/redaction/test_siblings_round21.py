"""A value whose name/value pair's ``name`` sibling names a secret is redacted (issue 32, round 21).

Round 17 made a run after a name naming nothing (``value: <run>``) need evidence; a name/value pair's value (an ECS
or Kubernetes env entry, Terraform's ``env {}``, an SSM parameter, a key/value store) has its evidence in a sibling
key of its block, which :mod:`engine.redaction.siblings` reads (either order, comments between, a numbered pair to
its own number). A sibling naming something else, or naming a secret in another block, is no evidence.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction.siblings import named_by_sibling

RUN = "Zo5Zhexnf9TUggdn+zBKGEkmUUvuKzVN+/fKPaMBA4zVyef4irH5H5YfwoC4IqAX0DNoMD12yIF67nIdIMg13atW4WM33eNMfXlE"


@pytest.mark.parametrize(
    "text",
    [
        f'"environment": [\n  {{\n    "value": "{RUN}",\n    "name": "DB_PASSWORD"\n  }}\n]',  # ECS, value first
        f'"environment": [{{"value": "{RUN}", "name": "DB_PASSWORD"}}]',  # one line
        f'"appSettings": [\n  {{\n    "value": "{RUN}",\n    "name": "STORAGE_ACCOUNT_KEY"\n  }}\n]',
        f"env:\n  - {{value: {RUN}, name: DB_PASSWORD}}\n",  # YAML flow mapping
        f"env:\n  - value: {RUN}  # rotated\n    name: DB_PASSWORD\n",  # Kubernetes env entry, value first
        f'env {{\n  name  = "TEST_PASSWORD_3"\n  // comment\n  value = "{RUN}"\n}}',  # Terraform, comment between
        f'env {{\n  value = "{RUN}"\n  # comment\n  name  = "TEST_PASSWORD_4"\n}}',
        f'{{\n  "Value": "{RUN}",\n  "Type": "SecureString",\n  "Name": "/prod/db/password"\n}}',  # SSM
        f'[\n  {{\n    "Value": "{RUN}",\n    "Key": "DBPassword"\n  }}\n]',  # a key/value store, camel case
    ],
)
def test_a_value_whose_sibling_names_a_secret_is_redacted(text: str) -> None:
    assert RUN not in redaction.redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        f'"environment": [\n  {{\n    "value": "{RUN}",\n    "name": "IMAGE_DIGEST"\n  }}\n]',
        f'"environment": [\n  {{\n    "value": "{RUN}",\n    "name": "DB_PASSWORD_FILE"\n  }}\n]',
        f'"environment": [\n  {{\n    "value": "{RUN}",\n    "name": "PUBLIC_KEY"\n  }}\n]',
        f'{{\n  "name1": "TEST_PASSWORD_2",\n  "value": "{RUN}",\n  "name": "LOG_FORMAT"\n}}',  # another pair's name
        f'[\n  {{\n    "name": "DB_PASSWORD",\n    "valueFrom": "ssm"\n  }},\n  {{\n    "value": "{RUN}",\n'
        '    "name": "BUILD_HASH"\n  }\n]',  # a secret's name in the block before
    ],
)
def test_a_sibling_naming_no_secret_is_no_evidence(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize(
    "text",
    [
        f'[\n  {{\n    "ParameterKey": "MasterUserPassword",\n    "ParameterValue": "{RUN}"\n  }}\n]',
        f"Parameters:\n  - ParameterValue: {RUN}\n    ParameterKey: DBPassword\n",
        f'{{"name1": "TEST_PASSWORD_2", "value1": "{RUN}"}}',
    ],
)
def test_a_cloudformation_parameter_or_numbered_pair_is_read(text: str) -> None:
    assert named_by_sibling(text, text.index(RUN))
    assert not named_by_sibling(text.replace("Password", "Digest").replace("PASSWORD", "DIGEST"), text.index(RUN))


def test_a_secret_name_in_another_object_on_the_line_is_no_evidence() -> None:
    text = f'[{{"name": "DB_PASSWORD", "value": "hunter2"}}, {{"value": "{RUN}", "name": "BUILD_HASH"}}]'
    assert not named_by_sibling(text, text.index(RUN))
    assert not named_by_sibling(f'"some_value": "{RUN}", "name": "DB_PASSWORD"', len('"some_value": "'))


@pytest.mark.parametrize(
    ("text", "password"),
    [
        ('env {\n  name  = "TEST_PASSWORD_no_password"\n  value = "RandomP@ssw0rd"\n}', "RandomP@ssw0rd"),
        ('"environment": [\n  {\n    "value": "hunter2hunter",\n    "name": "DB_PASSWORD"\n  }\n]', "hunter2hunter"),
        ('env:\n  - name: SMTP_PASS\n    # from the vault\n    value: "Sunshine77!"\n', "Sunshine77!"),
    ],
)
def test_a_plain_password_under_a_sibling_naming_a_password_is_redacted(text: str, password: str) -> None:
    assert password not in redaction.redact(text)[0]


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "DB_PASSWORD", "value": "changeme"}',
        '{"name": "PASSWORD_MIN_LENGTH", "value": "12"}',
        'env:\n  - name: PASSWORD_AUTH_ENABLED\n    value: "true"\n',
        "env:\n  - name: DB_PASSWORD_FILE\n    value: /run/secrets/db\n",
        '{"name": "DB_PASSWORD", "value": "${DB_PASSWORD}"}',
        '{"name": "PASSWORD_HASHER", "value": "argon2"}',
        '{"name": "API_TOKEN", "value": "enabled-for-ci"}',
    ],
)
def test_a_word_about_a_password_or_a_token_name_over_a_word_stays(text: str) -> None:
    assert redaction.redact(text)[0] == text
