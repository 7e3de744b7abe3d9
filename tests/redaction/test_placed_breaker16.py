"""Round 13's placed rules under a hostile trial (issue 32; breaker16's NEW findings; docs/benchmarks.md).

Each leak below was caused by :mod:`memrepo.engine.redaction.placed` (a real key kept that the rules before it
redacted), each look-alike was altered by it. All tokens are random fakes in their vendors' documented shapes.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import placed

GHP = "ghp_R4nd0mT0kenF0rBreaker16xYzAbCdEfGh12"
DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
WALLET = "0x5290849f3aa8b1c7d2e4f6a8b0c2d4e6f8a0b2c4"
GLPAT = "glpat-EyBPlxHCcnhbyLV5iWHh"

# B16-2 (HIGH): a long value a new rule took merged with a real key's finding and ran into a public digest or
# address; the merged finding was then dropped with the key inside it.
KEYS_BESIDE_PUBLIC = [
    (
        f"helm upgrade web ./chart --set _authToken={GHP},registry=https://npm.pkg.github.com/,"
        f"image=ghcr.io/acme/web@sha256:{DIGEST}",
        GHP,
    ),
    (
        f"npmrc: _authToken={GHP}\\n@acme:registry=https://npm.pkg.github.com/\\n#image=ghcr.io/acme/app@sha256:{DIGEST}",
        GHP,
    ),
    # breaker16's fuzz lines (label + key + public shape + separator) where the key was kept
    (f"_auth=/glpat-26Cybz2kQDLv10lC8MY9/sha256:{DIGEST}')", "glpat-26Cybz2kQDLv10lC8MY9"),
    (
        "smtp.login('me', ')/tmp/ AKIAY3JH7BRKUUNWMID6; https://pypi.fury.io/; file-H6V64gggbdchgJfi2YpOzoQn'",
        "AKIAY3JH7BRKUUNWMID6",
    ),
    (
        f"//registry.npmjs.org/:_authToken=@github.com/a/bs3://b/)dop_v1_{DIGEST}.req_GaHYJfDKN4QwhR0bYAdpHKML",
        f"dop_v1_{DIGEST}",
    ),
    (
        "//registry.npmjs.org/:_authToken=/file-ikH4j0IbTDrQiLlocMq8lONB.SG.aCA0cZaYBlPJssomLGgCho."
        "L77zuQlQBwLPlkGKTNgKUEE7GSxLS7oDIHlJVRgRtyI)s3://b/@github.com/a/b",
        "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",
    ),
    (
        "define('DB_PASSWORD', '/https://deploy: Dlc-7BHuZbnMpZmHPdgL_UndRpbbrZNf'...dad61de60660-_password=')",
        "Dlc-7BHuZbnMpZmHPdgL_UndRpbbrZNf",
    ),
]


@pytest.mark.parametrize(("text", "secret"), KEYS_BESIDE_PUBLIC)
def test_a_key_merged_with_a_long_value_beside_a_public_shape_is_redacted(text: str, secret: str) -> None:
    out, types = redaction.redact(text)
    assert secret not in out, out
    assert types


def test_an_npm_value_stops_where_npm_values_stop() -> None:
    """npm's value is one token: a ``,`` (helm's ``--set a=b,c=d``) ends it, and the text after it is kept."""
    text = f"--set _authToken={GHP},wallet={WALLET}"
    assert redaction.redact(text)[0] == f"--set _authToken=[REDACTED:github-token],wallet={WALLET}"


def test_a_define_value_ends_at_its_own_quote_before_a_concatenation() -> None:
    """``define('AUTH_KEY', '…' . PHP_EOL); … ('0x…')``: the key goes, the code after its quote stays."""
    text = f"define('AUTH_KEY', 'Xk9#q2Lm!pR7vT4w' . PHP_EOL); $owner = strtolower('{WALLET}');"
    out = redaction.redact(text)[0]
    assert "Xk9#q2Lm!pR7vT4w" not in out
    assert out.endswith(f"' . PHP_EOL); $owner = strtolower('{WALLET}');"), out


def test_a_public_digest_in_a_merged_finding_is_still_kept() -> None:
    """The fix keeps every finding that meets no public span; the digest beside it stays verbatim."""
    text = f"_authToken={GHP},image=ghcr.io/acme/web@sha256:{DIGEST}"
    assert DIGEST in redaction.redact(text)[0]


LOOK_ALIKES = [
    # B16-3 (MED): a JWK's private members only inside the JWK's own object, and not when they are words
    'JWT header {"alg":"HS256","typ":"JWT"}; payload {"sub":"42","p":"billing-admin","d":"dashboard-main"}',
    'search API: {"q":"invoice-overdue-march","page":2} (signed request, {"alg":"ES256"})',
    '{"jwks":[{"kty":"RSA","kid":"1","use":"sig","n":"abc","e":"AQAB"}],'
    '"config":{"p":"primary-datacenter","q":"queue-name-orders"}}',
    "kty docs note.\nd: deployment-staging-eu-west",
    # B16-4 (MED): "pass" the verb, the pwd command, "iCloud"/"Apple ID" not as a label, another clause
    "all tests pass on feat/user-role-sync-jobs",
    "pwd shows /srv/app; run make test-data-load-fast",
    "all tests pass after renaming the job to lint-type-unit-test",
    "apple id login uses sign-with-your-face",
    "icloud sync: keep-mail-sync-safe",
    "app password support added in v2; see docs page user-help-apps-mail",
    # B16-5 (LOW): Python, not an .npmrc line
    "    _auth = HTTPBasicAuth(user, pw)",
    # B16-6 (LOW): five colon fields that are no .pgpass line
    "10.0.0.5:6379:0:cache:primary",
    "api.example.com:443:TLSv1.3:ECDHE:AES256",
    "src.main.py:12:5:E501:line-too-long",
    # B16-8 (LOW): a file named with words after a vendor prefix
    "see docs/glpat-rotation-guide-v2-2024.md",
    # B16-9 (MED): Gemfury's public index (one path segment), an IFTTT placeholder
    "pip install --extra-index-url https://pypi.fury.io/acmecorp2024/ acme-cli",
    "npm config set registry https://npm.fury.io/team-data-2023/",
    "https://push.fury.io/acme-platform-team-01/",
    "https://maker.ifttt.com/trigger/door_open/with/key/YOUR_KEY_HERE_1234",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_look_alike_the_placed_rules_took_stays_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_the_placed_detector_takes_nothing_from_it(text: str) -> None:
    assert list(placed.spans(text)) == []


STILL_SECRETS = [
    # the rules the fixes narrowed still take what they were for
    ('{"kty":"oct","k":"Qx7vLm2pRt9wZk4NbY8sHd"} and {"p":"billing-admin"}', "Qx7vLm2pRt9wZk4NbY8sHd"),
    ("kty: RSA\nd: Qx7vLm2pRt9wZk4NbY8sHdQx7vLm2pRt9wZk4NbY8sHd", "Qx7vLm2pRt9wZk4NbY8sHdQx7vLm2pRt9wZk4NbY8sHd"),
    ("pw: vbgt-fjkw-plmn-qrsx", "vbgt-fjkw-plmn-qrsx"),
    ("apple id is me@icloud.com, pass: vbgt-fjkw-plmn-qrsx", "vbgt-fjkw-plmn-qrsx"),
    ("pip install -i https://pypi.fury.io/Qx7vLm2pRt9wZk4N/ acme-lib", "Qx7vLm2pRt9wZk4N"),
    ("db.acme.dev:5432:app:app:Tr0ub4dor3x", "Tr0ub4dor3x"),
    (f"see docs/{GLPAT}.md", GLPAT),
    # B16-7 (LOW): a capability host is the credential, whatever its label says
    ("WEBHOOK_ENDPOINT=eo8d3k2j1h4g5f6a9.m.pipedream.net", "eo8d3k2j1h4g5f6a9"),
    ("REQUESTBIN_ENDPOINT=en1a2b3c4d5e6f7g8.x.pipedream.net", "en1a2b3c4d5e6f7g8"),
]


@pytest.mark.parametrize(("text", "secret"), STILL_SECRETS)
def test_what_the_narrowed_rules_are_for_still_goes(text: str, secret: str) -> None:
    assert secret not in redaction.redact(text)[0]


def test_an_ordinary_endpoint_host_is_still_kept() -> None:
    """sec10's keep for host names under a host label holds for hosts whose first label is no random run."""
    for text in (
        "REDIS_ENDPOINT=my-cache-001.abc123.0001.use1.cache.amazonaws.com",
        "AUTH0_DOMAIN=dev-abc123xyz.us.auth0.com",
    ):
        assert redaction.redact(text)[0] == text
