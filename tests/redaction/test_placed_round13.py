"""Keys found by where they sit (issue 32, round 13; breaker12 B12-9): :mod:`memrepo.engine.redaction.placed`.

A vendor key in its documented fixed shape inside a path or a URL's path, a token where a service documents
it in the URL's path, a JSON Web Key's private members of any length, an app-specific password after a
password word. Each secret below was kept verbatim before this module; each look-alike must stay verbatim.
"""

from __future__ import annotations

import pytest

from memrepo.engine import redaction
from memrepo.engine.redaction import placed

AKIA = "AKIADMEVZFBDOF34H3IU"
GHP = "ghp_R7pWq2LmZx9KdT4vNb8HsYc3FgJ1aE6uXo0i"
TOKEN16 = "Qx7vLm2pRt9wZk4N"
K128 = "Qx7vLm2pRt9wZk4NbY8sHd"

SECRETS = [
    (f"see /tmp/{AKIA}/x", AKIA),
    (f"https://files.example.com/{AKIA}/acme.txt", AKIA),
    (f"s3://bucket/{AKIA}/creds.csv", AKIA),
    (f"C:\\Users\\me\\keys\\{AKIA}\\creds.txt", AKIA),
    (f"backup.{AKIA}.csv", AKIA),
    (f"/backups/prod-{AKIA}/x", AKIA),
    (f"/backups/prod_{AKIA}.csv", AKIA),
    ("https://dl.cloudsmith.io/QxvLmpRtwZkNbYsH/acme/private/python/simple/", "QxvLmpRtwZkNbYsH"),
    (f'{{"k":"{K128}","alg":"A128KW"}}', K128),
    ("icloud: vbgt-fjkw-plmn-qrsx", "vbgt-fjkw-plmn-qrsx"),
    (f"https://host/raw/{GHP}", GHP),
    ("curl https://api.example.com/v1/sk_live_4eC39HqLyjWDarjtT1zdp7dc/charges", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    (f"pip install --index-url https://dl.cloudsmith.io/{TOKEN16}/acme/private/python/simple/ acme-lib", TOKEN16),
    (f"pip install -i https://pypi.fury.io/{TOKEN16}/acme/ acme-lib", TOKEN16),
    (
        "curl -X POST https://maker.ifttt.com/trigger/door_open/with/key/dQw4w9WgXcQ2kLmN8pRsTv",
        "dQw4w9WgXcQ2kLmN8pRsTv",
    ),
    (f'{{"kty":"oct","k":"{K128}","alg":"HS256"}}', K128),
    (f'{{"keys":[{{"kty":"oct","kid":"a1","k":"{K128}"}}]}}', K128),
    ("Apple app-specific password vbgt-fjkw-plmn-qrsx", "vbgt-fjkw-plmn-qrsx"),
    ("icloud mail password: vbgt-fjkw-plmn-qrsx", "vbgt-fjkw-plmn-qrsx"),
    ("my password is vbgt-fjkw-plmn-qrsx, don't share", "vbgt-fjkw-plmn-qrsx"),
    ("app password for Thunderbird is qwzt rvbn plmk hjgf", "qwzt rvbn plmk hjgf"),
    ("gmail app password: qwztrvbnplmkhjgf", "qwztrvbnplmkhjgf"),
    # round 13's tuning source (leakyrepo): credentials by position and by file format
    ("r = requests.get(url, auth=('admin', 'Tr0ub4dor3x'))", "Tr0ub4dor3x"),
    ('requests.post(u, auth=HTTPBasicAuth("svc", "N0tS0Secret!"))', "N0tS0Secret!"),
    ("conn.login('username@example.com', 'salesforcepassword', function(err, res) {", "salesforcepassword"),
    ('server.login("me@gmail.com", "hunter2hunter2")', "hunter2hunter2"),
    ("https://user@example.com:password!#@498@github.com", "password!#@498"),
    ("https://deploy:p@ss@git.example.com/repo.git", "p@ss"),
    ("_auth = YWRtaW46YWRtaW4=", "YWRtaW46YWRtaW4="),
    ('//registry.npmjs.org/:_auth="ZGVwbG95OlRyMHViNGRvcjN4"', "ZGVwbG95OlRyMHViNGRvcjN4"),
    ("define('AUTH_KEY', 'MW1pxMctoyA(>M%0Vl 2(#o0|2$cB+K|.G$hB~4`Juw@]:(5;oVUl<<W3^e_R-fg');", "Vl 2(#o0|2$cB+K"),
    ("define( 'DB_PASSWORD', 'Tr0ub4dor3x' );", "Tr0ub4dor3x"),
    ("localhost:5432:database:root:Tr0ub4dor3x", "Tr0ub4dor3x"),
    ("*:*:*:replicator:Tr0ub4dor3x", "Tr0ub4dor3x"),
    # semgrep-rules' generic/secrets tests (round 13's second tuning source)
    (
        "access_token$production$aaa722wk737379q3$afefae5za65de111123a72251111e065",
        "aaa722wk737379q3$afefae5za65de111123a72251111e065",
    ),
    ("api_live.abc123ABC-_.abc123ABC-_abc123ABC-_abc123ABC-", "abc123ABC-_abc123ABC-_abc123ABC-"),
    ("//somewhere-else.com/another:_auth=CorrectHorseBatteryStaple", "CorrectHorseBatteryStaple"),
]

LOOK_ALIKES = [
    "https://github.com/huggingface/hf_transfer/releases/download/v0.1.8/hf_transfer-0.1.8-cp38-abi3-manylinux_2_17_x86_64.whl",
    "/usr/lib/python3/dist-packages/sk_learn/skops/api_org_chart.py",
    "git clone https://github.com/acme/ghp_pages_tool.git",
    "https://example.com/docs/sk_live_and_test_keys_explained",
    "see /tmp/AKIAIOSFODNN7EXAMPLE/x",
    "https://dl.cloudsmith.io/public/acme/oss/python/simple/",
    "https://dl.cloudsmith.io/basic/acme/private/python/simple/",
    "pip install -i https://pypi.fury.io/acme/ acme-lib",
    "https://maker.ifttt.com/trigger/door_open/with/key/your_key_here",
    '{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tszdz4Tsp3Gk",'
    '"y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","kid":"Public key used in JWS spec Appendix A.3 example"}',
    "password rules: must-have-four-kind",
    "app password looks like qwzt-rvbn-plmk-hjgf",
    "Generate an app-specific password (format xxxx-xxxx-xxxx-xxxx) at appleid.apple.com",
    "app password with your main acct.",
    "I set a new app password then used it with mutt.",
    "docker pull ghcr.io/acme/api@sha256:3b8f9a2e1c4d4e5f9a8b7c6d5e4f3a2b3b8f9a2e1c4d4e5f9a8b7c6d5e4f3a2b",
    "https://example.com/users/3b8f9a2e-1c4d-4e5f-9a8b-7c6d5e4f3a2b/keys",
    "01ARZ3NDEKTSV4RRFFQ69G5FAV /objects/01ARZ3NDEKTSV4RRFFQ69G5FAV/",
    "define('CACHE_KEY', 'users_list');",
    'define("variable_password", "{placeholder}");',
    "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
    "r = requests.get(url, auth=(user, password))",
    "r = requests.get(url, auth=('admin', os.environ['PW']))",
    "smtp.login('me@example.com', '%s' % pw)",
    "ssh://git@github.com:22/acme/repo.git",
    "https://bob@example.com@evil.com/",
    "always-auth=true",
    "auth = SHA256withRSA",
    "meeting:10:30:00:15",
    "ERROR:8080:worker:main:timeout",
    "db.example.com:5432:app:appuser:*",
    "scp me@host.example.com:/tmp/a.txt .",
    "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    "the api_version.py file and api_live.md notes",
    "use_hf_abcdefghijklmnopqrstuvwxyzabcdefgh.py",
    "https://dl.cloudsmith.io/acmecorporation/x/",
    '{"alg":"HS256","typ":"JWT"}',
]

F_STRINGS = [
    'f"https://user123:{_github_pat(github_secret_name)}@github.com/"',
    'f"https://{get_user_name}:{token}@github.com/"',
]

HOSTS = [
    "host_base = s3.us-west-1.amazonaws.com",
    "host_bucket = dummy_bucket-9u3258hj.s3.us-west-1.amazonaws.com # Informative",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_key_where_it_sits_is_redacted(text: str, secret: str) -> None:
    out, types = redaction.redact(text)
    assert secret not in out, out
    assert types


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_the_placed_detector_finds_it(text: str, secret: str) -> None:
    """The module itself finds each (the others alone missed them: B12-9), on the secret's own characters."""
    found = [text[start:end] for start, end, _slug in placed.spans(text)]
    assert any(secret in value for value in found), found


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_stay_verbatim(text: str) -> None:
    assert redaction.redact(text)[0] == text


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_the_placed_detector_takes_no_look_alike(text: str) -> None:
    assert list(placed.spans(text)) == []


@pytest.mark.parametrize("text", HOSTS)
def test_a_host_name_or_a_bucket_assigned_is_kept(text: str) -> None:
    """An s3cmd config's host names (leakyrepo's look-alikes) are no assigned token."""
    assert redaction.redact(text)[0] == text


def test_a_token_assigned_beside_a_host_name_still_goes() -> None:
    out = redaction.redact("webhook_token = k3j4h5g6f7d8s9a0q1w2.e3r4t5y6.io")[0]
    assert "k3j4h5g6f7d8s9a0q1w2" not in out


@pytest.mark.parametrize("text", F_STRINGS)
def test_an_f_string_slot_in_a_url_is_code(text: str) -> None:
    """Python's f"https://{user}:{get_token()}@host": the password's place holds an expression, not a value."""
    assert redaction.redact(text)[0] == text


def test_a_public_span_holding_a_fixed_shape_key_is_not_public() -> None:
    """A kept shape (a file name, an identifier) never keeps a vendor key in its documented shape inside it."""
    from memrepo.engine.redaction import public

    text = f"/backups/prod_{AKIA}.csv"
    assert not any(start <= text.index(AKIA) < end for start, end in public.public_spans(text))
    assert placed.holds_key(text, 0, len(text))
    assert not placed.holds_key("/usr/lib/sk_learn/api_org_chart.py", 0, 34)


def test_a_constant_named_key_holding_a_name_is_not_taken_here() -> None:
    """Words, numbers and versions under a ``…_KEY`` constant are a name (the label rules judge the line alone)."""
    assert list(placed.spans("define('SESSION_KEY', 'user_session_identifier_v2_long_name_xx');")) == []
    assert list(placed.spans("define('STRIPE_KEY', 'Xq3Lm9Pz0Rt7Wv2Yb5Nc8Kd4');"))


def test_a_literal_password_in_an_f_string_url_still_goes() -> None:
    assert "Tr0ub4dor3x" not in redaction.redact('f"https://user123:Tr0ub4dor3x@github.com/"')[0]
    assert "Tr0ub4dor3x" not in redaction.redact('"https://user123:{Tr0ub4dor3x}@github.com/"')[0]
    assert "Tr0ub4dor3x" not in redaction.redact('f"https://user123:{Tr0ub4dor3x}@github.com/"')[0]
