"""Build ``identifiers.json``: public identifiers people keep in notes, each made in its documented shape.

Issue 32 (round 6, false alarms): a tester found look-alikes users store in
memory on purpose (a YouTube playlist id, ``Ctrl+Shift+P``, a model name beside
"token limit", a GPG key id, a Bitcoin address, an IPFS CID). This set was
written and measured before any rule of the round. Every value is random (fixed
seed) and made from its format's specification, with the check digit or
checksum the format defines, so no line is picked for or against a rule:

- video and playlist ids (YouTube: 11 base64url characters, the last one of
  16; ``PL`` + 32; ``UC`` channels), Spotify URIs (22 base62);
- GPG fingerprints and long key ids, OpenSSH key fingerprints (``SHA256:``
  base64 of a digest, ``MD5`` colon hex), TLS certificate fingerprints;
- Bitcoin addresses (base58check ``1``/``3``, bech32 ``bc1q`` and bech32m
  ``bc1p``, BIP-173/350), Ethereum addresses with the EIP-55 checksum;
- IPFS CIDs v0 (``Qm``, base58btc multihash) and v1 (``bafy``/``bafk``, base32);
- ORCID iDs (ISO 7064 11,2), DOIs, ISBN-10/13, EAN-13, VINs (check digit), IBANs
  (ISO 13616 mod 97, per-country lengths);
- cloud ids: AWS ARNs, account ids and resource ids (``i-``, ``ami-``, ``vpc-`` ...),
  Azure resource ids, GCP project ids and service-account emails, Kubernetes
  UIDs, pod names (the documented ``bcdf…`` alphabet) and container ids;
- commit ids in the ways notes cite them (links, Gerrit ``Change-Id``, pip
  ``git+…@``), semver with build metadata, Go pseudo-versions, setuptools-scm;
- image digests and lockfile hashes (yarn ``#sha1``, poetry, uv, Cargo,
  composer, Gemfile.lock, pnpm, flake.lock);
- keys public by design: reCAPTCHA and Turnstile site keys, hCaptcha site keys,
  Google Analytics/Tag Manager ids, Sentry DSNs (public by Sentry's docs),
  PostHog ``phc_`` project keys, Algolia search-only keys. (A Firebase web
  ``AIza…`` key is left out: it has the shape of a Google Cloud API key, which
  Google documents as a credential.)
- keyboard shortcuts, model names with token counts, CSS colours, base64 of
  harmless text, JWT headers alone (no payload, no signature), trace ids,
  ULIDs, KSUIDs, Snowflake ids, MongoDB ObjectIds, magnet links.

Each family has four or more templates (how a memory entry would read); the
even templates make ``identifiers-tune`` (its alterations may be read while
writing rules) and the odd ones ``identifiers-held`` (never read; run before the
round's rules and once at the end). Every text must come out unchanged. Run::

    python benchmarks/secrets_corpus/build_identifiers.py > benchmarks/secrets_corpus/identifiers.json
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable

RNG = random.Random(6032)
PER_TEMPLATE = 3
B62 = string.ascii_uppercase + string.ascii_lowercase + string.digits
B64URL = B62 + "-_"
HEX = "0123456789abcdef"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
WORDS = ["billing", "search", "ingest", "reports", "gateway", "frontend", "worker", "auth", "media", "notify"]
Fields = dict[str, str]


def pick(alphabet: str, n: int) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def rbytes(n: int) -> bytes:
    return bytes(RNG.randrange(256) for _ in range(n))


def digits(n: int) -> str:
    return str(RNG.randint(1, 9)) + pick("0123456789", n - 1)


# --- encodings and checksums, from each format's specification --------------------------------------------------


def b58encode(raw: bytes) -> str:
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def base58check(version: int, payload: bytes) -> str:
    body = bytes([version]) + payload
    return b58encode(body + hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4])


def _polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk


def convertbits(data: bytes, frombits: int, tobits: int) -> list[int]:
    acc = bits = 0
    out = []
    for b in data:
        acc = (acc << frombits) | b
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & ((1 << tobits) - 1))
    if bits:
        out.append((acc << (tobits - bits)) & ((1 << tobits) - 1))
    return out


def segwit(version: int, program: bytes, hrp: str = "bc") -> str:
    """BIP-173 (version 0, bech32) and BIP-350 (version 1+, bech32m) address."""
    data = [version, *convertbits(program, 8, 5)]
    const = 1 if version == 0 else 0x2BC830A3
    expand = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    pm = _polymod(expand + data + [0] * 6) ^ const
    return hrp + "1" + "".join(BECH32[d] for d in data + [(pm >> 5 * (5 - i)) & 31 for i in range(6)])


_RC = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000, 0x000000000000808B,
    0x0000000080000001, 0x8000000080008081, 0x8000000000008009, 0x000000000000008A, 0x0000000000000088,
    0x0000000080008009, 0x000000008000000A, 0x000000008000808B, 0x800000000000008B, 0x8000000000008089,
    0x8000000000008003, 0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
]  # fmt: skip
_ROT = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]]
M64 = (1 << 64) - 1


def keccak256(data: bytes) -> bytes:
    """Keccak-256 as Ethereum uses it (original padding 0x01, not SHA3's 0x06)."""

    def rol(x: int, n: int) -> int:
        return ((x << n) | (x >> (64 - n))) & M64 if n else x

    rate = 136
    msg = bytearray(data) + b"\x01" + b"\0" * ((-len(data) - 1) % rate)
    msg[-1] |= 0x80
    a = [[0] * 5 for _ in range(5)]
    for off in range(0, len(msg), rate):
        for i in range(rate // 8):
            a[i % 5][i // 5] ^= int.from_bytes(msg[off + 8 * i : off + 8 * i + 8], "little")
        for rc in _RC:
            c = [a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4] for x in range(5)]
            d = [c[(x - 1) % 5] ^ rol(c[(x + 1) % 5], 1) for x in range(5)]
            a = [[a[x][y] ^ d[x] for y in range(5)] for x in range(5)]
            b = [[0] * 5 for _ in range(5)]
            for x in range(5):
                for y in range(5):
                    b[y][(2 * x + 3 * y) % 5] = rol(a[x][y], _ROT[x][y])
            a = [[b[x][y] ^ (~b[(x + 1) % 5][y] & b[(x + 2) % 5][y]) for y in range(5)] for x in range(5)]
            a[0][0] ^= rc
    return b"".join(a[i % 5][i // 5].to_bytes(8, "little") for i in range(4))


def eip55(addr_hex: str) -> str:
    h = keccak256(addr_hex.encode()).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(h[i], 16) >= 8 else c for i, c in enumerate(addr_hex))


assert eip55("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed") == "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


def ean_check(body: str) -> str:
    return str((10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(body)) % 10) % 10)


def isbn10_check(body: str) -> str:
    r = (11 - sum((10 - i) * int(d) for i, d in enumerate(body)) % 11) % 11
    return "X" if r == 10 else str(r)


def orcid_check(body: str) -> str:
    total = 0
    for d in body:
        total = (total + int(d)) * 2
    r = (12 - total % 11) % 11
    return "X" if r == 10 else str(r)


def iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    num = int("".join(str(int(c, 36)) for c in moved))
    return f"{country}{98 - num % 97:02d}{bban}"


_VIN_VALUE = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9), strict=True))}
_VIN_VALUE.update(dict(zip("JKLMN", range(1, 6), strict=True)) | {"P": 7, "R": 9})
_VIN_VALUE.update(dict(zip("STUVWXYZ", range(2, 10), strict=True)))
_VIN_WEIGHT = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]


def vin() -> str:
    chars = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    v = list(RNG.choice(["1", "2", "3", "J", "W", "5", "K"]) + pick(chars, 7) + "0" + pick(chars, 8))
    r = sum(_VIN_VALUE[c] * w for c, w in zip(v, _VIN_WEIGHT, strict=True)) % 11
    v[8] = "X" if r == 10 else str(r)
    return "".join(v)


def cid_v0() -> str:
    return b58encode(b"\x12\x20" + hashlib.sha256(rbytes(64)).digest())


def cid_v1(codec: int) -> str:
    raw = bytes([1, codec]) + b"\x12\x20" + hashlib.sha256(rbytes(64)).digest()
    return "b" + base64.b32encode(raw).decode().lower().rstrip("=")


def b64(raw: bytes, *, url: bool = False) -> str:
    return (base64.urlsafe_b64encode(raw) if url else base64.b64encode(raw)).decode()


# --- families: a value maker and four or more templates -------------------------------------------------------


def youtube() -> Fields:
    vid = pick(B64URL, 10) + RNG.choice("AEIMQUYcgkosw048")
    return {"vid": vid, "pl": "PL" + pick(B64URL, 32), "uc": "UC" + pick(B64URL, 21) + RNG.choice("AQgw")}


def spotify() -> Fields:
    return {"id": pick(B62, 22), "kind": RNG.choice(["track", "album", "playlist", "episode"])}


def gpg() -> Fields:
    fp = pick("0123456789ABCDEF", 40)
    groups = [fp[i : i + 4] for i in range(0, 40, 4)]
    return {"fp": fp, "grouped": " ".join(groups[:5]) + "  " + " ".join(groups[5:]), "long": fp[-16:]}


def ssh_fp() -> Fields:
    sha = b64(hashlib.sha256(rbytes(51)).digest()).rstrip("=")
    md5 = ":".join(f"{b:02x}" for b in hashlib.md5(rbytes(51)).digest())
    tls = ":".join(f"{b:02X}" for b in hashlib.sha256(rbytes(300)).digest())
    return {"sha": sha, "md5": md5, "tls": tls, "host": f"{RNG.choice(WORDS)}.example.org"}


def bitcoin() -> Fields:
    kind = RNG.randrange(4)
    if kind == 0:
        addr = base58check(0, rbytes(20))
    elif kind == 1:
        addr = base58check(5, rbytes(20))
    elif kind == 2:
        addr = segwit(0, rbytes(20))
    else:
        addr = segwit(1, rbytes(32))
    return {"addr": addr}


def ethereum() -> Fields:
    return {"addr": eip55(pick(HEX, 40))}


def ipfs() -> Fields:
    kind = RNG.randrange(3)
    return {"cid": cid_v0() if kind == 0 else cid_v1(0x70 if kind == 1 else 0x55)}


def scholarly() -> Fields:
    body = "0000000" + RNG.choice("0123") + pick("0123456789", 7)
    orcid = body + orcid_check(body)
    isbn13 = RNG.choice(["978", "979"]) + pick("0123456789", 9)
    isbn13 += ean_check(isbn13)
    isbn10 = pick("0123456789", 9)
    isbn10 += isbn10_check(isbn10)
    reg = str(RNG.randint(1000, 99999))
    suffix = RNG.choice(
        [
            f"{digits(7)}.{digits(7)}",
            f"s{digits(5)}-0{RNG.randint(10, 24)}-0{digits(4)}-{RNG.randint(0, 9)}",
            f"arXiv.{RNG.randint(1900, 2512)}.{digits(5)}",
            f"j.{pick('abcdefghijklmnopqrstuvwxyz', 4)}.{RNG.randint(2005, 2026)}.{digits(6)}",
        ]
    )
    return {
        "orcid": "-".join(orcid[i : i + 4] for i in range(0, 16, 4)),
        "doi": f"10.{reg}/{suffix}",
        "isbn13": f"{isbn13[:3]}-{isbn13[3]}-{isbn13[4:8]}-{isbn13[8:12]}-{isbn13[12]}",
        "isbn13flat": isbn13,
        "isbn10": isbn10,
        "ean": (lambda b: b + ean_check(b))(RNG.choice(["40", "50", "87", "76"]) + pick("0123456789", 10)),
        "vin": vin(),
    }


_IBAN_BBAN: dict[str, Callable[[], str]] = {
    "DE": lambda: pick("0123456789", 18),
    "GB": lambda: pick(string.ascii_uppercase, 4) + pick("0123456789", 14),
    "FR": lambda: pick("0123456789", 10) + pick(string.ascii_uppercase + string.digits, 11) + pick("0123456789", 2),
    "NL": lambda: pick(string.ascii_uppercase, 4) + pick("0123456789", 10),
    "ES": lambda: pick("0123456789", 20),
    "IT": lambda: RNG.choice(string.ascii_uppercase) + pick("0123456789", 10) + pick(string.digits, 12),
    "CH": lambda: pick("0123456789", 5) + pick(string.digits, 12),
    "BE": lambda: pick("0123456789", 12),
    "AT": lambda: pick("0123456789", 16),
    "PL": lambda: pick("0123456789", 24),
}


def bank() -> Fields:
    country = RNG.choice(sorted(_IBAN_BBAN))
    value = iban(country, _IBAN_BBAN[country]())
    return {"iban": value, "grouped": " ".join(value[i : i + 4] for i in range(0, len(value), 4))}


def aws() -> Fields:
    acct = pick("0123456789", 12)
    region = RNG.choice(["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2"])
    name = RNG.choice(WORDS)
    arn = RNG.choice(
        [
            f"arn:aws:iam::{acct}:role/{name}-deploy",
            f"arn:aws:lambda:{region}:{acct}:function:{name}-handler",
            f"arn:aws:sns:{region}:{acct}:{name}-alerts",
            f"arn:aws:kms:{region}:{acct}:key/{uuid.UUID(int=RNG.getrandbits(128), version=4)}",
            f"arn:aws:secretsmanager:{region}:{acct}:secret:prod/{name}/db-{pick(B62, 6)}",
            f"arn:aws:s3:::{name}-{acct}-artifacts",
        ]
    )
    res = RNG.choice(["i", "ami", "vpc", "subnet", "sg", "vol", "snap", "eni"]) + "-" + pick(HEX, 17)
    return {"acct": acct, "arn": arn, "res": res, "region": region, "name": name}


def azure() -> Fields:
    sub = str(uuid.UUID(int=RNG.getrandbits(128), version=4))
    name = RNG.choice(WORDS)
    provider = RNG.choice(
        [
            f"Microsoft.Web/sites/app-{name}",
            f"Microsoft.Storage/storageAccounts/st{name}{pick('0123456789', 3)}",
            f"Microsoft.KeyVault/vaults/kv-{name}",
            f"Microsoft.ContainerService/managedClusters/aks-{name}",
        ]
    )
    return {
        "sub": sub,
        "rid": f"/subscriptions/{sub}/resourceGroups/rg-{name}-prod/providers/{provider}",
        "tenant": str(uuid.UUID(int=RNG.getrandbits(128), version=4)),
        "app": str(uuid.UUID(int=RNG.getrandbits(128), version=4)),
    }


def gcp() -> Fields:
    project = f"{RNG.choice(WORDS)}-{RNG.choice(['prod', 'staging', 'dev'])}-{pick('0123456789', 6)}"
    return {
        "project": project,
        "number": pick("0123456789", 12),
        "sa": f"{RNG.choice(WORDS)}-sa@{project}.iam.gserviceaccount.com",
    }


def kubernetes() -> Fields:
    alpha = "bcdfghjklmnpqrstvwxz2456789"
    return {
        "uid": str(uuid.UUID(int=RNG.getrandbits(128), version=4)),
        "pod": f"{RNG.choice(WORDS)}-{pick(alpha, RNG.choice([9, 10]))}-{pick(alpha, 5)}",
        "cid": pick(HEX, 64),
        "rv": str(RNG.randint(100000, 99999999)),
    }


def commits() -> Fields:
    sha = pick(HEX, 40)
    return {"sha": sha, "short": sha[:7], "change": "I" + pick(HEX, 40), "repo": f"acme/{RNG.choice(WORDS)}"}


def versions() -> Fields:
    major, minor, patch = RNG.randint(0, 5), RNG.randint(0, 30), RNG.randint(0, 20)
    sha = pick(HEX, 40)
    stamp = f"2026{RNG.randint(1, 12):02d}{RNG.randint(1, 28):02d}{RNG.randint(0, 23):02d}{RNG.randint(0, 59):02d}00"
    return {
        "semver": RNG.choice(
            [
                f"{major}.{minor}.{patch}-rc.{RNG.randint(1, 5)}+build.{RNG.randint(1, 9999)}",
                f"{major}.{minor}.{patch}+{sha[:7]}",
                f"{major}.{minor}.{patch}-alpha.{RNG.randint(1, 9)}+exp.sha.{sha[:7]}",
                f"{major}.{minor}.{patch}-beta.1+{stamp[:8]}.{sha[:12]}",
            ]
        ),
        "pseudo": f"v0.0.0-{stamp}-{sha[:12]}",
        "scm": f"{major}.{minor}.dev{RNG.randint(1, 80)}+g{sha[:7]}.d{stamp[:8]}",
        "mod": f"github.com/{RNG.choice(['acme', 'example', 'octo'])}/{RNG.choice(WORDS)}",
    }


def images() -> Fields:
    digest = "sha256:" + pick(HEX, 64)
    return {
        "digest": digest,
        "image": f"ghcr.io/acme/{RNG.choice(WORDS)}",
        "short": pick(HEX, 12),
        "tag": f"v{RNG.randint(1, 4)}.{RNG.randint(0, 20)}.{RNG.randint(0, 9)}",
    }


def lockfiles() -> Fields:
    pkg = RNG.choice(["lodash", "react-dom", "esbuild", "chalk", "semver", "zod", "vite", "undici"])
    ver = f"{RNG.randint(1, 9)}.{RNG.randint(0, 20)}.{RNG.randint(0, 9)}"
    py = RNG.choice(["requests", "numpy", "pydantic", "httpx", "rich", "click"])
    return {
        "pkg": pkg,
        "ver": ver,
        "py": py,
        "sha1": pick(HEX, 40),
        "sha256": pick(HEX, 64),
        "sri512": "sha512-" + b64(hashlib.sha512(rbytes(40)).digest()),
        "sri1": "sha1-" + b64(hashlib.sha1(rbytes(40)).digest()),
        "nar": "sha256-" + b64(hashlib.sha256(rbytes(40)).digest()),
        "crate": RNG.choice(["serde", "tokio", "anyhow", "regex", "clap"]),
        "gem": RNG.choice(["rails", "rack", "nokogiri", "puma"]),
    }


def public_keys() -> Fields:
    recaptcha = "6L" + pick(B64URL, 6) + "AAAAA" + pick(B64URL, 27)
    return {
        "recaptcha": recaptcha,
        "turnstile": "0x4AAAAAAA" + pick(B64URL, 14),
        "hcaptcha": str(uuid.UUID(int=RNG.getrandbits(128), version=4)),
        "ga": "G-" + pick(string.ascii_uppercase + string.digits, 10),
        "gtm": "GTM-" + pick(string.ascii_uppercase + string.digits, 7),
        "dsn": f"https://{pick(HEX, 32)}@o{pick('0123456789', 6)}.ingest.sentry.io/{pick('0123456789', 7)}",
        "posthog": "phc_" + pick(B62, 43),
        "algolia_app": pick(string.ascii_uppercase + string.digits, 10),
        "algolia_search": pick(HEX, 32),
    }


def shortcuts() -> Fields:
    mods = [["Ctrl"], ["Ctrl", "Shift"], ["Cmd"], ["Cmd", "Shift"], ["Ctrl", "Alt"], ["Cmd", "Option"], ["Alt"]]
    keys = [*string.ascii_uppercase, "F5", "F12", "Tab", "Enter", "`", "/", "Esc", "Space"]
    a = "+".join([*RNG.choice(mods), RNG.choice(keys)])
    b = "+".join([*RNG.choice(mods), RNG.choice(keys)])
    return {
        "a": a,
        "b": b,
        "action": RNG.choice(
            ["opens the command palette", "toggles the terminal", "reopens the closed tab", "formats the file"]
        ),
        "emacs": f"C-{RNG.choice('xcxh')} C-{RNG.choice('fsbw')}",
        "vim": f"<C-{RNG.choice('wrno')}>{RNG.choice('vsjk')}",
        "app": RNG.choice(["VS Code", "IntelliJ", "Firefox", "iTerm2", "Figma", "Slack"]),
    }


def models() -> Fields:
    model = RNG.choice(
        [
            "gpt-4o-mini",
            "gpt-4o-2024-08-06",
            "gpt-4.1-nano",
            "o3-mini",
            "claude-3-5-sonnet-20241022",
            "claude-3-haiku-20240307",
            "claude-opus-4-1",
            "gemini-1.5-pro-002",
            "gemini-2.0-flash-001",
            "llama-3.1-70b-instruct",
            "mistral-large-2411",
            "qwen2.5-coder-32b-instruct",
            "deepseek-r1-distill-qwen-32b",
            "text-embedding-3-large",
        ]
    )
    ctx = RNG.choice([8, 16, 32, 128, 200, 1000])
    return {
        "model": model,
        "ctx": f"{ctx}k",
        "ctxn": str(ctx * 1024),
        "out": str(RNG.choice([1024, 4096, 8192, 16384])),
        "price": f"{RNG.choice([0.15, 0.6, 2.5, 3, 15])}",
    }


def colours() -> Fields:
    h = pick(HEX, 6)
    return {
        "hex": "#" + (h if RNG.random() < 0.7 else h.upper()),
        "hex8": "#" + pick(HEX, 8),
        "rgb": f"rgb({RNG.randint(0, 255)} {RNG.randint(0, 255)} {RNG.randint(0, 255)} / {RNG.randint(10, 90)}%)",
        "hsl": f"hsl({RNG.randint(0, 359)} {RNG.randint(20, 100)}% {RNG.randint(10, 90)}%)",
        "name": RNG.choice(["brand", "primary", "accent", "surface", "danger"]),
        "step": str(RNG.choice([50, 100, 200, 500, 600, 700, 900])),
    }


_PHRASES = [
    "hello world",
    "Hello, World!",
    "the quick brown fox jumps over the lazy dog",
    "user=demo;theme=dark",
    "release notes for version two",
    "Lorem ipsum dolor sit amet",
    "admin panel moved to /settings",
]


def base64_text() -> Fields:
    text = RNG.choice(_PHRASES)
    obj = json.dumps(
        {"theme": RNG.choice(["dark", "light"]), "lang": RNG.choice(["en", "de", "fr"]), "v": RNG.randint(1, 9)},
        separators=(",", ":"),
    )
    return {"text": text, "b64": b64(text.encode()), "json": obj, "jb64": b64(obj.encode())}


def jwt_header() -> Fields:
    header: dict[str, str] = {"alg": RNG.choice(["RS256", "ES256", "HS256", "EdDSA", "PS256"]), "typ": "JWT"}
    if RNG.random() < 0.6:
        header["kid"] = RNG.choice([pick(B64URL, 43), pick(HEX, 40), f"{RNG.choice(WORDS)}-2026-{RNG.randint(1, 12)}"])
    raw = json.dumps(header, separators=(",", ":"))
    return {"h": b64(raw.encode(), url=True).rstrip("="), "json": raw, "alg": header["alg"]}


def tracing() -> Fields:
    return {
        "trace": pick(HEX, 32),
        "span": pick(HEX, 16),
        "xray": f"1-{pick(HEX, 8)}-{pick(HEX, 24)}",
        "event": pick(HEX, 32),
        "dd": digits(19),
    }


def misc_ids() -> Fields:
    crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    return {
        "ulid": RNG.choice("01") + pick(crockford, 25),
        "ksuid": RNG.choice("0123") + pick(B62, 26),
        "snowflake": digits(18),
        "oid": pick(HEX, 24),
        "btih": pick(HEX, 40),
        "channel": "C" + pick(string.ascii_uppercase + string.digits, 10),
    }


T = list[str]
FAMILIES: dict[str, tuple[Callable[[], Fields], T]] = {
    "youtube": (
        youtube,
        [
            "watch later: https://www.youtube.com/watch?v={vid}",
            "the course playlist id is {pl}",
            "talk recording https://youtu.be/{vid}?t=42",
            "full playlist: https://www.youtube.com/playlist?list={pl}",
            "conference channel https://www.youtube.com/channel/{uc}",
            "youtube-dl -f best 'https://www.youtube.com/watch?v={vid}&list={pl}'",
            "video id {vid} is the keynote; playlist {pl}",
            '<iframe src="https://www.youtube.com/embed/{vid}" allowfullscreen></iframe>',
        ],
    ),
    "spotify": (
        spotify,
        [
            "focus music: spotify:{kind}:{id}",
            "https://open.spotify.com/{kind}/{id} is the team's standup {kind}",
            "the {kind} id on Spotify is {id}",
            "[spotify: {id}] for the road trip",
        ],
    ),
    "gpg": (
        gpg,
        [
            "my GPG fingerprint: {grouped}",
            "git config --global user.signingkey {long}",
            "release signing key 0x{long}",
            "gpg --keyserver keys.openpgp.org --recv-keys {fp}",
            "pub   rsa4096/{long} 2024-03-10 [SC] [expires: 2027-03-10]",
            "https://keys.openpgp.org/vks/v1/by-fingerprint/{fp}",
            "the maintainer's key fingerprint is {fp}",
            "gpg --list-keys shows {fp} for the backup key",
        ],
    ),
    "ssh-fingerprint": (
        ssh_fp,
        [
            "{host} ED25519 key fingerprint is SHA256:{sha}.",
            "expected host key for {host}: SHA256:{sha}",
            "old RSA host key MD5:{md5}",
            "256 SHA256:{sha} deploy@{host} (ED25519)",
            "TLS cert SHA256 Fingerprint={tls}",
            "the GitHub deploy key fingerprint is SHA256:{sha}",
        ],
    ),
    "bitcoin": (
        bitcoin,
        [
            "donations: bitcoin:{addr}",
            "my cold wallet address is {addr}",
            "BTC tip jar {addr}",
            "send the refund to {addr} (Bitcoin, mainnet)",
            "bitcoin-cli getreceivedbyaddress {addr}",
            "watch-only address in Sparrow: {addr}",
        ],
    ),
    "ethereum": (
        ethereum,
        [
            "ETH donations: {addr}",
            "the contract is deployed at {addr} on mainnet",
            "my ENS name points at {addr}",
            "https://etherscan.io/address/{addr}",
        ],
    ),
    "ipfs": (
        ipfs,
        [
            "pinned to IPFS: ipfs://{cid}",
            "https://ipfs.io/ipfs/{cid}/index.html",
            "the dataset CID is {cid}",
            "ipfs get {cid} -o ./site",
            "site build {cid} pinned on web3.storage",
            "dweb link https://{cid}.ipfs.dweb.link/",
        ],
    ),
    "scholarly": (
        scholarly,
        [
            "my ORCID iD: https://orcid.org/{orcid}",
            "cite as https://doi.org/{doi}",
            "the textbook is ISBN {isbn13}",
            "paper DOI {doi} (preprint on arXiv)",
            "ORCID {orcid} for the grant form",
            "old edition ISBN-10 {isbn10}, new one ISBN-13 {isbn13flat}",
            "barcode of the replacement filter: EAN {ean}",
            "car VIN {vin} for the insurance renewal",
        ],
    ),
    "iban": (
        bank,
        [
            "rent goes to IBAN {grouped}",
            "IBAN: {iban}",
            "the club's account {grouped} (reference: membership 2026)",
            "invoice says pay to {iban}",
        ],
    ),
    "aws": (
        aws,
        [
            "the deploy role is {arn}",
            "AWS account id {acct} ({name} prod)",
            "aws ec2 describe-instances --instance-ids {res} --region {region}",
            'Resource: "{arn}"',
            "prod account: {acct}, region {region}",
            "the stuck resource is {res}",
        ],
    ),
    "azure": (
        azure,
        [
            "resource id {rid}",
            "az account set --subscription {sub}",
            "tenant id {tenant}, app (client) id {app}",
            "AZURE_TENANT_ID={tenant}",
            "the web app lives at {rid}",
            "subscription {sub} is the sandbox",
        ],
    ),
    "gcp": (
        gcp,
        [
            "gcloud config set project {project}",
            "project number {number} ({project})",
            "the CI service account is {sa}",
            "GOOGLE_CLOUD_PROJECT={project}",
        ],
    ),
    "kubernetes": (
        kubernetes,
        [
            "metadata.uid: {uid}",
            "kubectl logs {pod} -n prod --previous",
            "containerID: containerd://{cid}",
            "the OOMKilled pod was {pod} (uid {uid})",
            "resourceVersion {rv} of the configmap",
            "kubectl describe pod {pod}",
        ],
    ),
    "commits": (
        commits,
        [
            "the fix: https://github.com/{repo}/commit/{sha}",
            "Change-Id: {change}",
            "pip install git+https://github.com/{repo}.git@{sha}",
            "merged as {short}, deployed Tuesday",
            "bisect: {sha} is the first bad commit",
            "regression came in with {short} (see the PR)",
        ],
    ),
    "versions": (
        versions,
        [
            "we run version {semver} in prod",
            "go get {mod}@{pseudo}",
            "setuptools-scm says {scm}",
            "require {mod} {pseudo} // indirect",
            "nightly build {semver} broke the importer",
            "the wheel is memrepo-{scm}-py3-none-any.whl",
        ],
    ),
    "images": (
        images,
        [
            "REPOSITORY {image} TAG {tag} DIGEST {digest} IMAGE ID {short}",
            "kustomize images: - name: {image}\n  digest: {digest}",
            '"RepoDigests": ["{image}@{digest}"]',
            "docker run --rm {image}@{digest}",
            "image id {short} is the bad build",
            "Digest: {digest}",
        ],
    ),
    "lockfiles": (
        lockfiles,
        [
            '  resolved "https://registry.yarnpkg.com/{pkg}/-/{pkg}-{ver}.tgz#{sha1}"',
            '{py} = [{{file = "{py}-{ver}-py3-none-any.whl", hash = "sha256:{sha256}"}}]',
            'name = "{crate}"\nversion = "{ver}"\nchecksum = "{sha256}"',
            '      "integrity": "{sri1}",',
            "  {gem} ({ver}) sha256={sha256}",
            "    resolution: {{integrity: {sri512}}}",
            '        "narHash": "{nar}",',
            '            "reference": "{sha1}",',
        ],
    ),
    "public-keys": (
        public_keys,
        [
            'reCAPTCHA site key (public, goes in the page): data-sitekey="{recaptcha}"',
            "Google Analytics measurement id {ga}, tag manager {gtm}",
            "Sentry DSN for the web client: {dsn}",
            'posthog.init("{posthog}", {{api_host: "https://eu.i.posthog.com"}})',
            "Turnstile sitekey {turnstile}",
            "Algolia app id {algolia_app}, search-only API key {algolia_search} (DocSearch, public)",
            'hCaptcha: <div class="h-captcha" data-sitekey="{hcaptcha}"></div>',
            "SENTRY_DSN={dsn}",
        ],
    ),
    "shortcuts": (
        shortcuts,
        [
            "{a} {action} in {app}",
            "in {app}: {a} then {b}",
            "emacs: {emacs} saves, {a} does nothing there",
            "remap {a} to {b} ({action})",
            "vim: {vim} splits the window",
            "keybinding {a} conflicts with {b} in {app}",
        ],
    ),
    "models": (
        models,
        [
            "{model} has a {ctx} token limit",
            "max_tokens={out} for {model}",
            "{model}: context window {ctxn} tokens, output up to {out} tokens",
            "{model} costs ${price} per 1M input tokens",
            "set num_ctx to {ctxn} when running {model}",
            "model: {model}\nmax_output_tokens: {out}",
        ],
    ),
    "colours": (
        colours,
        [
            "--{name}-{step}: {hex};",
            "brand colour is {hex} on {hsl}",
            "the overlay uses {rgb}",
            "tailwind: bg-[{hex}] text-[{hex8}]",
            "{name}: {hex8} (with alpha)",
            "dark mode {name} = {hsl}",
        ],
    ),
    "base64-text": (
        base64_text,
        [
            "echo {b64} | base64 -d prints '{text}'",
            "X-Prefs header is base64 of {json}: {jb64}",
            "the ConfigMap binaryData greeting.txt is {b64}",
            "cookie prefs={jb64} (base64 JSON, no secrets)",
        ],
    ),
    "jwt-header": (
        jwt_header,
        [
            "a JWT header like {h} decodes to {json}",
            "protected header: {h}",
            "the {alg} tokens all start with {h}",
            "JOSE header {json} is {h} in base64url",
        ],
    ),
    "tracing": (
        tracing,
        [
            "traceparent: 00-{trace}-{span}-01",
            "X-Amzn-Trace-Id: Root={xray}",
            "Sentry event {event} has the stack trace",
            "trace_id={trace} span_id={span}",
            "datadog trace {dd} shows the slow query",
            "look up trace {trace} in Tempo",
        ],
    ),
    "misc-ids": (
        misc_ids,
        [
            "order id {ulid} (ULID)",
            "segment event {ksuid}",
            "discord user id {snowflake}",
            "ObjectId('{oid}') is the broken document",
            "magnet:?xt=urn:btih:{btih}&dn=ubuntu-24.04-desktop-amd64.iso",
            "Slack channel {channel} is #incidents",
        ],
    ),
}


def build() -> dict[str, object]:
    tune: list[dict[str, str]] = []
    held: list[dict[str, str]] = []
    for family, (make, templates) in FAMILIES.items():
        for t, template in enumerate(templates):
            for _ in range(PER_TEMPLATE):
                text = template.format(**make())
                (tune if t % 2 == 0 else held).append({"family": f"{family}/t{t}", "text": text})
    return {
        "source": "Made by build_identifiers.py: public identifiers in their documented shapes, random values "
        "with each format's checksum (seed 6032), even templates tune, odd templates held out. Each text must "
        "come out unchanged.",
        "identifiers-tune": tune,
        "identifiers-held": held,
    }


def main() -> None:
    print(json.dumps(build(), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
