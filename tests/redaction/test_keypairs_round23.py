"""A cloud access key's secret printed right after its id (:mod:`.keypairs`, issue 32 round 23). Our phrasings."""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import keypairs

ALI_ID, ALI_SECRET = "LTAIq9Wm2Xr7Tz4K", "Vn3LqbZrcTxdWmeKpfJdgHbhFciYsj"  # 30: one digit group, low entropy
TENCENT_ID, TENCENT_SECRET = "AKIDq8Wm2Xr7Tz4Kp8Nb3Lq8Zr5Tx2Wm7Kpx", "Vn3Lq8Zr5Tx2Wm7Kp4Jd9Hb6Fc1Ys0aB"


@pytest.mark.parametrize(
    "text",
    [
        f"client = oss.Auth({ALI_ID}, {ALI_SECRET})",
        f"ak={ALI_ID} sk={ALI_SECRET}",
        f'cred = Credential("{TENCENT_ID}", "{TENCENT_SECRET}")',
        f"{TENCENT_ID},{TENCENT_SECRET}",
    ],
)
def test_the_secret_after_an_access_key_id_is_redacted_with_it(text: str) -> None:
    out, types = redaction.redact(text)
    secret = ALI_SECRET if ALI_ID in text else TENCENT_SECRET
    assert secret not in out
    assert "cloud-key-secret" in types


@pytest.mark.parametrize(
    "text",
    [
        f"{ALI_ID} then the docs say to rotate it yearly",  # no secret after it
        f"{ALI_ID}, {ALI_SECRET}XYZ",  # 33 characters: not an Alibaba secret's length
        f"{ALI_ID}, vnqlqbzrctxdwmekpfjdghbhfciysj",  # one case only: a word run
    ],
)
def test_no_secret_of_the_providers_shape_after_the_id_is_not_this_rule(text: str) -> None:
    assert [slug for *_, slug in keypairs.spans(text)] == []
