"""Requests to keep said at a sentence's end, in more languages, and the sentence around a pasted secret (issue 30,
sess15).

Before: "X，记一下。" / "X, merk dir das." (the request at the END), Swedish "Kom ihåg att X", Dutch "Onthoud dat X",
Polish "Pamiętaj, że X" kept nothing; a request after a double dash ("curl ... -- remember it's the v2 path") was not
heard; "remember how I reach the db: psql ..." kept nothing; a clause whose redacted secret sits inside a pasted
command or URL was dropped whole, so "postgres://app:[REDACTED]@db.internal:5432" lost its host too. The wordings are
invented, none from a benchmark set.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.remembering import user_statements
from memrepo.engine.format.secretclauses import without_secrets


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("前端的构建脚本放在 tools/build 目录下，记一下。", "前端的构建脚本放在 tools/build 目录下"),
        ("Die Staging-DB heißt pg-stage-4, merk dir das.", "Die Staging-DB heißt pg-stage-4"),
        ("La base de staging s'appelle pg-stage-4, retiens-le.", "La base de staging s'appelle pg-stage-4"),
        (
            "The release branch is cut on Thursdays, keep that in mind for anything you plan.",
            "The release branch is cut on Thursdays",
        ),
        ("Kom ihåg att vi bygger allt med Gradle 8.", "vi bygger allt med Gradle 8"),
        ("Onthoud dat de nachtelijke build om 02:00 draait.", "de nachtelijke build om 02:00 draait"),
        ("Pamiętaj, że wdrażamy tylko we wtorki.", "wdrażamy tylko we wtorki"),
        ("记一下：图片都传到 S3 桶 assets-prod。", "图片都传到 S3 桶 assets-prod"),
    ],
)
def test_a_request_to_keep_at_the_end_or_in_another_language_is_heard(said: str, kept: str) -> None:
    assert user_statements([said]) == [kept]


def test_a_request_after_a_double_dash_that_points_back_keeps_its_sentence() -> None:
    said = "the deploy script lives in tools/deploy.sh -- remember it's the bash 5 one, not the old sh"
    assert user_statements([said]) == [said]


def test_a_request_that_says_its_own_fact_after_a_dash_keeps_that_fact_only() -> None:
    assert user_statements(["ok that worked -- remember the cache host is redis-3.internal"]) == [
        "the cache host is redis-3.internal"
    ]


def test_remember_how_with_its_colon_keeps_the_how_and_what_follows() -> None:
    said = "remember how to reach the build box: ssh ops@bastion-2 then hop to ci-7"
    assert user_statements([said]) == ["how to reach the build box: ssh ops@bastion-2 then hop to ci-7"]


def test_a_reminder_of_what_was_said_is_no_request() -> None:
    assert user_statements(["The test failed, remember how I told you to run it: pytest -k api"]) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "the orders db URL is postgres://orders:[REDACTED:url-password]@db-2.orders.internal:5432/orders",
            "the orders db URL is postgres://orders:[REDACTED:url-password]@db-2.orders.internal:5432/orders",
        ),
        (
            "the job clones https://[REDACTED:github-token]@github.com/acme/assets.git every night",
            "the job clones https://[REDACTED:github-token]@github.com/acme/assets.git every night",
        ),
        (
            "the staging host is stage-3.internal, its password is [REDACTED:password]",
            "the staging host is stage-3.internal",
        ),
        ("测试服务器是 test-09.lan，登录密码是 [REDACTED:password]", "测试服务器是 test-09.lan"),
    ],
)
def test_a_pasted_secret_inside_a_command_keeps_its_clause_redacted(text: str, kept: str) -> None:
    assert without_secrets(text) == kept


@pytest.mark.parametrize(
    "text",
    [
        "the stripe test key is [REDACTED:stripe-key]",
        "AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key] AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret]",
        "use [REDACTED:a] / [REDACTED:b] for the bucket",
    ],
)
def test_a_clause_whose_value_is_the_secret_is_still_dropped(text: str) -> None:
    assert without_secrets(text) == ""
