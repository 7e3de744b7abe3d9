"""Build ``publicapis.json`` and ``publicapis-benign.json``: keys of public APIs that take one (issue 32 round 12).

A tuning source for the vendor-context rule from two lists of public APIs, both
MIT-licensed: public-apis/public-apis (github.com/public-apis/public-apis,
``README.md``: ``| [Name](url) | description | auth | https | cors |``) and
marcelscruz/public-apis (github.com/marcelscruz/public-apis, ``db/resources.json``).
Every API whose listing's auth is ``apiKey``, ``OAuth`` or ``X-Mashape-Key`` is a
vendor that hands out a key; the listings name the vendor and its URL, never the
key's format, so the values are random (seed 12) in the shapes generic key
detectors meet most (32 or 40 hex digits, UUIDs, base62 of 20-40 characters,
16 upper-case letters and digits), one vendor a line, in the places such a key sits:

- ``publicapis``: for each vendor, one line of a template chosen at random: an
  environment variable, a config field in the vendor's name (``alphavantage_key:``),
  a client constructor, a request header, the API's own URL with ``?apikey=``, a
  note naming the vendor and then the key (``Alpha Vantage: <key>``), a sentence;
- ``publicapis-short`` (a second batch, added after the first rule): each vendor again, a value of 16-23
  base62, lower-case or upper-case letters and digits (keys shorter than most detectors' 24+), the same templates;
- ``publicapis-benign``: for every listing (with or without auth), its table row or
  entry as the list prints it (name, description, auth, URL: no secret), and, for
  one vendor in three, a line naming the vendor beside a public value (a request id,
  a commit, a version, an HTTP status).

Built locally from git snapshots of the two lists (the listings' text is their
authors', MIT; not shipped). Nothing in it was read from a held-out set. Run::

    git -C PUBLIC_APIS show HEAD:README.md > /tmp/public-apis.md
    git -C MARCELSCRUZ show HEAD:db/resources.json > /tmp/resources.json
    python benchmarks/secrets_corpus/build_publicapis.py /tmp/public-apis.md /tmp/resources.json OUT
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned publicapis --tuned publicapis-short \
        --tuned publicapis-benign --extra OUT/publicapis.json --extra OUT/publicapis-short.json \
        --extra-benign OUT/publicapis-benign.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import uuid
from pathlib import Path

RNG = random.Random(12)
SHORT_RNG = random.Random(1212)
"""The second batch draws from its own generator, so the first batch is the same lines as when first built."""
HEX = "0123456789abcdef"
B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
UPPER = string.ascii_uppercase + string.digits
AUTHS = {"apikey", "oauth", "x-mashape-key"}
_ROW_RE = re.compile(r"^\|\s*\[(?P<name>[^\]]+)\]\((?P<url>[^)]*)\)\s*\|(?P<desc>[^|]*)\|\s*`?(?P<auth>[^|`]*)`?\s*\|")
SOURCES = (
    "public-apis/public-apis README.md (MIT) at c045a2e; marcelscruz/public-apis db/resources.json (MIT) at be4f113"
)


def _rand(alphabet: str, n: int, rng: random.Random = RNG) -> str:
    while True:
        v = "".join(rng.choice(alphabet) for _ in range(n))
        mixed = any(c.isdigit() for c in v) and any(c.isalpha() for c in v)
        cases = alphabet != B62 or (any(c.isupper() for c in v) and any(c.islower() for c in v))
        if alphabet == HEX or (mixed and cases):
            return v


LOWER = string.ascii_lowercase + string.digits


def short_value() -> str:
    """A short key: 16-23 characters of base62, lower-case or upper-case letters and digits (second batch)."""
    alphabet = SHORT_RNG.choice((B62, LOWER, UPPER))
    return _rand(alphabet, SHORT_RNG.randrange(16, 24), SHORT_RNG)


def value() -> str:
    """A key in one of the generic shapes."""
    kind = RNG.choice(("hex32", "hex40", "uuid", "b62-32", "b62-24", "b62-40", "upper16", "hex24"))
    if kind == "uuid":
        return str(uuid.UUID(int=RNG.getrandbits(128), version=4))
    if kind.startswith("hex"):
        return _rand(HEX, int(kind[3:]))
    if kind == "upper16":
        return _rand(UPPER, 16)
    return _rand(B62, int(kind[4:]))


def _snake(name: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_")


def _joined(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _camel(name: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in re.findall(r"[A-Za-z0-9]+", name))


def _host(url: str) -> str:
    m = re.match(r"https?://(?:www\.)?([^/]+)", url)
    return m.group(1) if m else "api.example.com"


TEMPLATES = (
    lambda n, u, v: f"{_snake(n)}_API_KEY={v}",
    lambda n, u, v: f'export {_snake(n)}_KEY="{v}"',
    lambda n, u, v: f"{_joined(n)}_key: {v}",
    lambda n, u, v: f"{_joined(n)}: {v}",
    lambda n, u, v: f'client = {_camel(n)}Client(api_key="{v}")',
    lambda n, u, v: f'curl -H "X-Api-Key: {v}" https://{_host(u)}/v1/',
    lambda n, u, v: f"https://{_host(u)}/api?apikey={v}",
    lambda n, u, v: f"{n}: {v}",
    lambda n, u, v: f"The {n} API key for the staging app is {v}",
    lambda n, u, v: f"{_joined(n)} token {v}",
    lambda n, u, v: f'"{_joined(n)}": {{"key": "{v}"}}',
    lambda n, u, v: f"{n} secret = '{v}'",
)
BENIGN = (
    lambda n, u: f"{n} request id {uuid.UUID(int=RNG.getrandbits(128), version=4)}",
    lambda n, u: f"{n} returned HTTP 429 after 1000 calls; docs at {u}",
    lambda n, u: f"bumped the {_joined(n)} client to 2.{RNG.randrange(20)}.{RNG.randrange(10)}",
    lambda n, u: f"{n} integration landed in commit {_rand(HEX, 40)}",
    lambda n, u: f"{_snake(n)}_BASE_URL={u}",
)


def listings(readme: Path, resources: Path) -> list[dict]:
    """Every listing of both lists: name, url, description, auth, and the line as the list prints it."""
    out: list[dict] = []
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = _ROW_RE.match(line)
        if m:
            out.append(dict(name=m["name"], url=m["url"], desc=m["desc"].strip(), auth=m["auth"].strip(), line=line))
    for e in json.loads(resources.read_text(encoding="utf-8"))["entries"]:
        line = f"{e['API']} - {e.get('Description', '')} (auth: {e.get('Auth') or 'none'}) {e.get('Link', '')}"
        out.append(
            dict(name=e["API"], url=e.get("Link", ""), desc=e.get("Description", ""), auth=e.get("Auth", ""), line=line)
        )
    return out


def build(readme: Path, resources: Path) -> tuple[list[dict], list[dict], list[dict]]:
    """(secret samples, look-alikes, short secret samples)."""
    secret: list[dict] = []
    short: list[dict] = []
    benign: list[dict] = []
    seen: set[str] = set()
    for item in listings(readme, resources):
        benign.append({"family": "listing", "text": item["line"], "url": item["url"]})
        key = _joined(item["name"])
        if item["auth"].lower() not in AUTHS or key in seen or len(key) < 3:
            continue
        seen.add(key)
        v = value()
        template = RNG.randrange(len(TEMPLATES))
        secret.append(
            {
                "family": f"template-{template}",
                "text": TEMPLATES[template](item["name"], item["url"], v),
                "secrets": [v],
                "vendor": item["name"],
                "url": item["url"],
            }
        )
        v = short_value()
        template = SHORT_RNG.randrange(len(TEMPLATES))
        short.append(
            {
                "family": f"short-{template}",
                "text": TEMPLATES[template](item["name"], item["url"], v),
                "secrets": [v],
                "vendor": item["name"],
                "url": item["url"],
            }
        )
        if len(seen) % 3 == 0:
            b = RNG.randrange(len(BENIGN))
            benign.append({"family": f"vendor-public-{b}", "text": BENIGN[b](item["name"], item["url"])})
    return secret, benign, short


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("readme", type=Path, help="public-apis/public-apis README.md")
    parser.add_argument("resources", type=Path, help="marcelscruz/public-apis db/resources.json")
    parser.add_argument("out", type=Path, help="folder for publicapis.json and publicapis-benign.json")
    args = parser.parse_args()
    secret, benign, short = build(args.readme, args.resources)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "publicapis.json").write_text(json.dumps({"source": SOURCES, "samples": secret}, indent=1))
    (args.out / "publicapis-benign.json").write_text(json.dumps({"source": SOURCES, "samples": benign}, indent=1))
    (args.out / "publicapis-short.json").write_text(json.dumps({"source": SOURCES, "samples": short}, indent=1))
    print(f"{len(secret)} secret lines, {len(short)} short ones, {len(benign)} look-alikes")


if __name__ == "__main__":
    main()
