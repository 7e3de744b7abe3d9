"""Build ``shapes.json``: secrets in the SHAPES modern keys take, with random values and no vendor's name.

Issue 32, round 10 (a tuning source, built by us: its misses may be read). Each
sample puts one freshly random value in one structural place a key sits in
memory text: a ``<prefix>_<random>`` key with or without a word before it, an
env-var assignment (``NAME_KEY=``, ``NAME_TOKEN=``, ``NAME_PAT=``, ``NAME_AUTH=``),
a JSON or YAML field, URL userinfo and query parameters, an HTTP header, a
connection string and a command-line flag. Values come from :mod:`secrets` in
the alphabets vendors document (base62, hex, base64url, UUID v4). Nothing is
copied from any rule set or test suite; the seed makes a run repeatable.

Run::

    python benchmarks/secrets_corpus/build_shapes.py --out /tmp/shapes.json [--seed 7]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import string
import uuid
from pathlib import Path

B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64URL = B62 + "-_"


def _draw(rng: random.Random, alphabet: str, n: int) -> str:
    while True:
        v = "".join(rng.choice(alphabet) for _ in range(n))
        if alphabet != B62 or (
            any(c.isdigit() for c in v) and any(c.isupper() for c in v) and any(c.islower() for c in v)
        ):
            return v


def values(rng: random.Random) -> dict[str, str]:
    """One random value of each alphabet and length vendors use."""
    return {
        "b62-24": _draw(rng, B62, 24),
        "b62-32": _draw(rng, B62, 32),
        "b62-40": _draw(rng, B62, 40),
        "hex-32": _draw(rng, HEX, 32),
        "hex-40": _draw(rng, HEX, 40),
        "hex-64": _draw(rng, HEX, 64),
        "b64url-43": _draw(rng, B64URL, 43),
        "b64-40": base64.b64encode(rng.randbytes(30)).decode(),
        "uuid": str(uuid.UUID(bytes=rng.randbytes(16), version=4)),
        "lower-32": _draw(rng, string.ascii_lowercase + string.digits, 32),
    }


PREFIXES = ("zq_", "acme_", "nx1_", "tok_live_", "qp-api-", "vk-", "brx_prod_", "lmn_sk_", "sk-proj-", "pat_")
PREFIX_PLACES = (
    "remember: {v}",
    "the key is {v}",
    "key for the billing service: {v}",
    "{v}",
    "use `{v}` in staging",
    "rotated to {v} yesterday",
)
ENV_NAMES = (
    "ACME_API_KEY",
    "BILLING_TOKEN",
    "ZORBLY_SECRET",
    "GH_PAT",
    "WEBHOOK_AUTH",
    "PAYMENTS_ACCESS_TOKEN",
    "FOO_CLIENT_SECRET",
    "SEARCH_ADMIN_KEY",
    "MAPS_KEY",
    "SLACKBOT_AUTH_TOKEN",
)
ENV_PLACES = ("{n}={v}", "export {n}={v}", 'export {n}="{v}"', "{n}: {v}", "  - {n}={v}", "set {n}={v}", "{n} = '{v}'")
FIELD_NAMES = (
    "apiKey",
    "api_key",
    "access_token",
    "client_secret",
    "authToken",
    "secretKey",
    "token",
    "x-api-key",
    "privateKey",
)
FIELD_PLACES = ('{{"{n}": "{v}"}}', '"{n}": "{v}",', "{n}: {v}", "{n}: '{v}'", '  {n}: "{v}"')
URL_PLACES = (
    "https://api.example.io/v1/items?access_token={v}",
    "GET https://hooks.example.com/x?api_key={v}&limit=10",
    "curl 'https://example.net/feed?key={v}'",
    "https://example.org/export?format=csv&token={v}",
    "wss://stream.example.io/socket?auth={v}",
)
USER_PLACES = (
    "https://deploy:{v}@git.example.com/team/repo.git",
    "postgres://app:{v}@db.internal:5432/app",
    "mongodb+srv://svc:{v}@cluster0.example.net/prod",
    "redis://:{v}@cache.internal:6379/0",
    "amqp://worker:{v}@mq.internal/",
    "Server=db1;Database=app;User Id=svc;Password={v};",
)
HEADER_PLACES = (
    "Authorization: Bearer {v}",
    "Authorization: Token {v}",
    'curl -H "Authorization: Bearer {v}" https://api.example.io',
    "X-Api-Key: {v}",
    'curl -H "X-API-KEY: {v}" https://api.example.io',
    "X-Auth-Token: {v}",
    "headers = {{'Authorization': 'Bearer {v}'}}",
)
FLAG_PLACES = (
    "mytool login --token {v}",
    "deployer --api-key={v} --region eu",
    "cli auth --client-secret {v}",
    "uploader --access-token={v}",
    "run with --secret {v}",
)
PASSWORD_PLACES = (
    "DB_PASSWORD={v}",
    "password: {v}",
    '"password": "{v}"',
    "mysql -uroot -p{v} app",
    "PGPASSWORD={v} psql -h db -U app",
    "docker login -u deploy -p {v} registry.example.io",
    "curl -u admin:{v} https://ci.example.io/api",
    "machine api.example.io login deploy password {v}",
    "jdbc:mysql://db:3306/app?user=app&password={v}",
    "smtp://mailer:{v}@smtp.example.io:587",
)
MORE_PLACES = (
    "Proxy-Authorization: Basic {b64}",
    "Ocp-Apim-Subscription-Key: {hex32}",
    "api-key: {hex32}",
    "X-Goog-Api-Key: {b62}",
    "Cookie: session={b64url}",
    "https://example.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig={b64}",
    "https://fn.example.net/api/run?code={b64url}",
    "https://example.io/cb?client_secret={b62}",
    "https://gitlab.example.com/api/v4/projects?private_token={b62}",
    "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={b64};EndpointSuffix=core.windows.net",
    "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={b64}",
    "//registry.npmjs.org/:_authToken={b62}",
    "https://deploy:{b62}@github.com/team/repo.git",
    "https://{b62}@github.com/team/repo.git",
    '{{"auths": {{"registry.example.io": {{"auth": "{b64}"}}}}}}',
    "docker run -e API_KEY={b62} app",
    "helm upgrade app ./chart --set secrets.apiKey={b62}",
    "docker build --build-arg NPM_TOKEN={b62} .",
    'api_key = "{b62}"',
    "  token: >-\n    {b64url}",
    "mytool --apikey {hex32}",
    "mytool --private-key={b64url}",
    "set -x ACME_TOKEN {b62}",
    '$env:ACME_TOKEN = "{b62}"',
    "ACME_TOKEN := {b62}",
)
BARE_PLACES = ("acme {v}", "For the weather API: {v}", "nitrobox key {v}", "zorbly: {v}")


def build(seed: int) -> list[dict]:
    """Every sample, each ``{family, text, secrets}``."""
    rng = random.Random(seed)
    out: list[dict] = []

    def add(family: str, text: str, secret: str) -> None:
        out.append({"family": family, "text": text, "secrets": [secret]})

    for prefix in PREFIXES:
        for place in PREFIX_PLACES:
            v = values(rng)
            for kind in ("b62-32", "hex-40", "b64url-43"):
                add(f"prefix/{kind}", place.format(v=prefix + v[kind]), prefix + v[kind])
    for name in ENV_NAMES:
        for place in ENV_PLACES:
            v = values(rng)
            for kind in ("b62-24", "hex-32", "uuid", "b64-40"):
                add(f"env/{kind}", place.format(n=name, v=v[kind]), v[kind])
    for name in FIELD_NAMES:
        for place in FIELD_PLACES:
            v = values(rng)
            for kind in ("b62-32", "hex-64", "uuid", "lower-32"):
                add(f"field/{kind}", place.format(n=name, v=v[kind]), v[kind])
    for place in URL_PLACES:
        for _ in range(3):
            v = values(rng)
            for kind in ("b62-32", "hex-40", "b64url-43"):
                add(f"query/{kind}", place.format(v=v[kind]), v[kind])
    for place in USER_PLACES:
        for _ in range(3):
            v = values(rng)
            for kind in ("b62-24", "hex-32"):
                add(f"userinfo/{kind}", place.format(v=v[kind]), v[kind])
    for place in HEADER_PLACES:
        for _ in range(3):
            v = values(rng)
            for kind in ("b62-40", "hex-40", "b64url-43"):
                add(f"header/{kind}", place.format(v=v[kind]), v[kind])
    for place in FLAG_PLACES:
        for _ in range(3):
            v = values(rng)
            for kind in ("b62-32", "hex-40", "uuid"):
                add(f"flag/{kind}", place.format(v=v[kind]), v[kind])
    for place in PASSWORD_PLACES:
        for _ in range(3):
            pw = _draw(rng, B62, 10) + rng.choice("#!%*@^") + _draw(rng, B62, 3)
            add("password", place.format(v=pw), pw)
    for place in MORE_PLACES:
        for _ in range(3):
            v = values(rng)
            got = {"b64": v["b64-40"], "hex32": v["hex-32"], "b62": v["b62-32"], "b64url": v["b64url-43"]}
            key = next(k for k in got if "{" + k + "}" in place)
            add(f"more/{place.split('{')[0][:24].strip()}", place.format(**got), got[key])
    for place in BARE_PLACES:
        for _ in range(3):
            v = values(rng)
            for kind in ("b62-32", "b64-40", "b62-40"):
                add(f"bare/{kind}", place.format(v=v[kind]), v[kind])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    samples = build(args.seed)
    args.out.write_text(
        json.dumps({"source": "build_shapes.py (random values, our own shapes)", "samples": samples}, indent=1)
    )
    print(f"{len(samples)} samples -> {args.out}")


if __name__ == "__main__":
    main()
