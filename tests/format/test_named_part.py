"""A request to remember only the part of a message it names keeps that part, not the secret beside it (sess20).

Our own phrasings: Chinese, English, German, French; the secrets are made up.
"""

from __future__ import annotations

import pytest

from memrepo.engine.format.namedpart import named_part
from memrepo.engine.format.remembering import user_statements

HOOK = "https://hooks.slack.com/services/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"


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            f"kiosk 的报警都发到 #ops-pager 频道，webhook 地址是 {HOOK} ，记一下报警频道就行。",
            "kiosk 的报警都发到 #ops-pager 频道",
        ),
        (
            f"Pager alerts for kiosk land in #ops-pager, the webhook is {HOOK}, just note the alert channel.",
            "Pager alerts for kiosk land in #ops-pager",
        ),
        (
            "Die Alarme von kiosk landen im Kanal #ops-pager, das Token ist tk_9f8e7d, merk dir nur den Kanal.",
            "Die Alarme von kiosk landen im Kanal #ops-pager",
        ),
        (
            "Les previews passent par le workflow preview.yml, mon jeton est tk_9f8e7d, retiens juste le workflow.",
            "Les previews passent par le workflow preview.yml",
        ),
    ],
)
def test_the_named_part_is_kept_without_the_rest(said: str, kept: str) -> None:
    assert named_part(said) == kept
    assert user_statements([said]) == [kept]


@pytest.mark.parametrize(
    "said",
    [
        "Deploys go out on Fridays, just note the weather.",  # no clause names it
        "Just note the alert channel.",  # nothing before it
        "Alerts land in #ops-pager, I just noted the alert channel.",  # no request
        "报警都发到 #ops-pager 频道，记一下天气就行。",
    ],
)
def test_a_request_naming_no_said_part_keeps_nothing(said: str) -> None:
    assert named_part(said) is None
    assert user_statements([said]) == []
