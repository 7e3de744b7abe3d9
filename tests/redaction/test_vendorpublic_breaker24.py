"""Values their vendors document as public stay verbatim; the secret beside them does not (breaker24 B24-4).

:mod:`.vendorpublic`: a Tailscale node key, a reCAPTCHA site key, a Datadog client
token, a Mixpanel project token and a CI cache key are kept; the same shapes
labelled as the vendor's secret (reCAPTCHA's secret key, Mixpanel's API secret,
Tailscale's ``privkey:``) or a random value after "cache key" are still redacted.
"""

from __future__ import annotations

import pytest

from memrepo.engine.redaction import redact

HEX32 = "4f9a8b7c6d5e4f3a" + "2b1c0d9e8f7a6b5c"
SITE = "6LcXk9mQAAAAAB2vL7p" + "RtYh5NbQwErTyUiOpAs12"
RANDOM = "Xk9mQ2vL7pRtYh5N" + "bQwErTyUiOpAs12Df"

PUBLIC = [
    f"the cache key is v3-deps-{HEX32}",
    f"Tailscale node key nodekey:{HEX32}{HEX32}",
    f"the reCAPTCHA site key is {SITE}",
    f"NEXT_PUBLIC_RECAPTCHA_SITE_KEY={SITE}",
    f'<div class="g-recaptcha" data-sitekey="{SITE}"></div>',
    f"the datadog RUM client token is pub{HEX32}",
    f"the mixpanel project token is {HEX32}",
    f'mixpanel.init("{HEX32}")',
]


@pytest.mark.parametrize("text", PUBLIC)
def test_a_public_value_stays_verbatim(text: str) -> None:
    assert redact(text) == (text, [])


SECRETS = [
    (f"the reCAPTCHA secret key is {SITE}", SITE),
    (f"RECAPTCHA_SECRET_KEY={SITE}", SITE),
    (f"the mixpanel api secret is {HEX32}", HEX32),
    (f"tailscale private key privkey:{HEX32}{HEX32}", HEX32),
    (f"the cache key is {RANDOM}", RANDOM),
    (f"redis cache key: {RANDOM}", RANDOM),
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_the_secret_of_the_same_shape_is_redacted(text: str, secret: str) -> None:
    out, types = redact(text)
    assert secret not in out and types, out
