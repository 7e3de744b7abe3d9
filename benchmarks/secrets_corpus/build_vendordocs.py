"""Build ``vendordocs.json``: keys of vendors no rule set names, in the shapes vendors' docs print them.

Issue 32 round 5 tunes generic rules, not vendor lists, so this set names no
real vendor: each vendor is an invented name, and a rule can only find its key
by the words and the value's shape around it. The shapes come from how API
documentation shows a key (an environment variable, a YAML or JSON config, a
header, a client constructor, an id and a secret together, prose). Written
before any rule of the round, in four parts:

- ``vendordocs-tune``: the even templates with the first half of the vendors;
  the rules may be tuned on it;
- ``vendordocs-held``: the odd templates with the other vendors, never looked at
  while writing rules (run once at the end);
- ``vendordocs-benign-tune`` / ``-held``: public ids, hashes and talk about keys
  beside the same vendor names; each text must come out unchanged.

Decisions it encodes (docs/architecture.md §3): an id printed beside its
secret (``CLIENT_ID`` with ``CLIENT_SECRET``, ``key_id`` with ``secret``) is
half of the credential and is redacted with it; a commit, digest, request,
trace or dashboard id beside a vendor's name is public. Values are random (fixed
seed). Run::

    python benchmarks/secrets_corpus/build_vendordocs.py > benchmarks/secrets_corpus/vendordocs.json
"""

from __future__ import annotations

import json
import random
import string
import uuid

RNG = random.Random(53)
VENDORS = [
    "Quillmark", "Ternfield", "Borelight", "Zephyrly", "Mossgate", "Cindral", "Plovera", "Ruskwell",
    "Vantoro", "Gildpath", "Hexaline", "Orvane", "Sablecast", "Tundrix", "Wexley", "Yarrowbit",
    "Kelpnet", "Lumora", "Nimbrel", "Pexfold", "Quorra", "Strivo", "Umberly", "Voxtrail",
]  # fmt: skip
HALF = len(VENDORS) // 2


def _alnum(n: int) -> str:
    while True:
        v = "".join(RNG.choice(string.ascii_letters + string.digits) for _ in range(n))
        if sum(c.isdigit() for c in v) >= 3 and any(c.isupper() for c in v) and any(c.islower() for c in v):
            return v


def _hex(n: int) -> str:
    return "".join(RNG.choice("0123456789abcdef") for _ in range(n))


def _b64(n: int) -> str:
    return "".join(RNG.choice(string.ascii_letters + string.digits + "+/") for _ in range(n - 1)) + "="


def _value() -> str:
    shape = RNG.choice(("hex32", "hex40", "hex64", "alnum32", "alnum40", "uuid", "b64", "prefixed", "dotted"))
    return {
        "hex32": lambda: _hex(32),
        "hex40": lambda: _hex(40),
        "hex64": lambda: _hex(64),
        "alnum32": lambda: _alnum(32),
        "alnum40": lambda: _alnum(40),
        "uuid": lambda: str(uuid.UUID(int=RNG.getrandbits(128), version=4)),
        "b64": lambda: _b64(44),
        "prefixed": lambda: RNG.choice(("live", "prod", "sk", "key")) + "_" + _alnum(32),
        "dotted": lambda: _alnum(12) + "." + _alnum(28),
    }[shape]()


# {V} vendor, {v} lower, {U} upper; {s} a secret value; {i} an id (20 alnum) printed beside a secret {s}
SECRET_TEMPLATES = [
    "{V} {s}",
    "{v}_token = '{s}'",
    "{V} API: {s}",
    "{V} api key (prod) -> {s}",
    "curl -H 'X-{V}-Auth: {s}' https://api.{v}.io/v1/items",
    "export {U}_SECRET={s}",
    "{v}:\n  api_token: {s}\n  region: eu",
    '{{"{v}": {{"apiKey": "{s}", "timeout": 30}}}}',
    "the {V} credentials are {i} / {s}",
    "{U}_CLIENT_ID={i}\n{U}_CLIENT_SECRET={s}",
    "client = {V}Client(key_id='{i}', secret='{s}')",
    "Authorization: {V} {s}",
    "{V} webhook signing secret is {s}",
    "here's the {V} key we use in staging: {s}",
    "{s} is the {V} api key for the nightly job",
    "{V} access key: {i}:{s}",
    "new {V} token: {s} (expires in 90 days)",
    "ping {V} with apikey={s}",
    '{v}.configure(api_key="{s}")',
    "{V} bearer {s}",
    "auth for {V} -> {s}",
    "{V} app id {i}, app secret {s}",
    '{v} = {{ key = "{s}" }}',
    "saved the {V} credential {s} in the deploy notes",
]
BENIGN_TEMPLATES = [
    "{V} commit {h40}",
    "{V} dashboard {uu}",
    "{V} request id {h32} failed with 502",
    "sha256 of the {V} release tarball: {h64}",
    "{V} build {h40} is green",
    "rotate the {V} api key every 90 days",
    "{V} api key is stored in vault at secret/{v}/api",
    "{V} docs: https://docs.{v}.io/api/authentication#tokens",
    "{V} trace {h32} took 340 ms",
    "md5 checksum {h32} for {v}-cli-2.4.1.tar.gz",
    "{V} etag {h32}",
    "{U}_API_KEY is read from the environment",
    "{V} api key: ${U}_API_KEY",
    "{V} plugin version 3.14.2 installed",
    "the {V} key rotation job ran at 03:00",
    "git checkout {h40} before the {V} upgrade",
    "{V} monitor {uu} is flapping",
    "{V} token limit is 4096 per request",
    "{V} account {uu} was moved to the EU region",
    "the {V} secret lives in 1Password under '{V} prod'",
]


def _fill(template: str, vendor: str) -> tuple[str, list[str]]:
    s, i = _value(), _alnum(20)
    text = template.format(V=vendor, v=vendor.lower(), U=vendor.upper(), s=s, i=i)
    return text, [s, i] if "{i}" in template else [s]


def _benign(template: str, vendor: str) -> str:
    return template.format(
        V=vendor,
        v=vendor.lower(),
        U=vendor.upper(),
        h32=_hex(32),
        h40=_hex(40),
        h64=_hex(64),
        uu=str(uuid.UUID(int=RNG.getrandbits(128), version=4)),
    )


def build() -> dict:
    out: dict = {"source": __doc__.splitlines()[0] + " (invented vendors, fixed seed 53)"}
    for part, parity, vendors in (("tune", 0, VENDORS[:HALF]), ("held", 1, VENDORS[HALF:])):
        secrets = []
        for n, template in enumerate(SECRET_TEMPLATES):
            if n % 2 != parity:
                continue
            for vendor in RNG.sample(vendors, 3):
                text, pieces = _fill(template, vendor)
                secrets.append({"family": f"t{n}", "text": text, "secrets": pieces})
        benign = [
            {"family": f"b{n}", "text": _benign(template, vendor)}
            for n, template in enumerate(BENIGN_TEMPLATES)
            if n % 2 == parity
            for vendor in RNG.sample(vendors, 3)
        ]
        out[f"vendordocs-{part}"] = secrets
        out[f"vendordocs-benign-{part}"] = benign
    return out


if __name__ == "__main__":
    print(json.dumps(build(), indent=1, ensure_ascii=False))
