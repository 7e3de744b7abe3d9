"""Build ``formats.json``: more public formats people keep in memory on purpose, none a secret.

Issue 32 (round 7, false alarms on public identifiers): a new tuning set,
written and measured before any rule of the round, in families that
``identifiers.json`` does not hold (only its family list was read). Every
value is random (seed 7032) and made in its format's documented shape, with
the check digit or checksum the format defines (IMEI and ICCID Luhn, ISIN,
LEI and CUSIP check digits, UPS and S10 tracking check digits, Tor v3 onion
checksums, Salesforce's case suffix, bech32 for Nostr ``npub``), so no line is
picked for or against a rule. What is public was decided per family, from
the vendor's own words where it has them:

- object ids of APIs whose keys are elsewhere (Stripe ``cus_``/``pi_``/``ch_``,
  OpenAI ``asst_``/``thread_``/``file-``, Anthropic ``msg_01``/``toolu_01``, Twilio
  SIDs, Airtable ``app``/``tbl``/``rec``, Salesforce record ids, Firestore ids,
  GitHub node ids, PagerDuty and Grafana ids);
- document links (Google Docs/Sheets/Drive, Notion pages, Figma files);
- checksums as tools print them (``sha256sum``, Dockerfiles, ``pip --hash``,
  Terraform lock files, Gradle verification metadata, Homebrew formulae, Git LFS
  pointers, Nix store paths, hashed asset file names, tool cache paths);
- network: MAC addresses, IPv6, Tor v3 onion addresses, DNS records that
  publish public data (DKIM public keys, site-verification tokens, TLSA,
  SSHFP), hashed ``known_hosts`` lines, X.509 serials and key identifiers;
- people and things: phone numbers, parcel tracking numbers, IMEI and ICCID,
  ISIN/LEI/CUSIP/BIC, plus codes and geohashes, ASINs and order numbers;
- public keys and handles: DIDs, Nostr ``npub``, Matrix room and event ids,
  Solana addresses and transaction signatures, Ethereum transaction hashes;
- references to secrets that hold none (``op://``, ``${{ secrets.X }}``,
  ``secretKeyRef``, Vault paths), advisories (CVE, GHSA, RUSTSEC), arXiv ids,
  Windows SIDs and CLSIDs, Apple team and bundle ids, browser extension ids,
  e-mail Message-IDs, request ids and ETags, analytics ids documented as
  public (Mixpanel project token, LaunchDarkly client-side id).

Left out on purpose: anything its vendor calls a credential (Stripe ``sk_``/
``rk_``/``whsec_``, Twilio auth tokens, Nostr ``nsec``, WireGuard private keys,
Telegram bot tokens, TOTP seeds, Zoom passcodes, card numbers).

Every text must come out unchanged. All of it is a tuning part (its
alterations may be read while writing rules). Run::

    python benchmarks/secrets_corpus/build_formats.py > benchmarks/secrets_corpus/formats.json
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable

RNG = random.Random(7032)
PER_TEMPLATE = 3
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIG = string.digits
B62 = UPPER + LOWER + DIG
B64URL = B62 + "-_"
HEX = "0123456789abcdef"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
NIX32 = "0123456789abcdfghijklmnpqrsvwxyz"
WORDS = ["billing", "search", "ingest", "reports", "gateway", "frontend", "worker", "auth", "media", "notify"]
Fields = dict[str, str]


def pick(alphabet: str, n: int) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def rbytes(n: int) -> bytes:
    return bytes(RNG.randrange(256) for _ in range(n))


def digits(n: int) -> str:
    return str(RNG.randint(1, 9)) + pick(DIG, n - 1)


def hexs(n: int) -> str:
    return pick(HEX, n)


def word() -> str:
    return RNG.choice(WORDS)


def b64(raw: bytes, *, url: bool = False, pad: bool = True) -> str:
    out = (base64.urlsafe_b64encode(raw) if url else base64.b64encode(raw)).decode()
    return out if pad else out.rstrip("=")


def b58encode(raw: bytes) -> str:
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def _polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((top >> i) & 1) else 0
    return chk


def bech32(hrp: str, raw: bytes) -> str:
    acc, bits, data = 0, 0, []
    for b in raw:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((acc >> bits) & 31)
    if bits:
        data.append((acc << (5 - bits)) & 31)
    expand = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    mod = _polymod(expand + data + [0] * 6) ^ 1
    return hrp + "1" + "".join(BECH32[d] for d in data + [(mod >> 5 * (5 - i)) & 31 for i in range(6)])


def luhn(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def mod97(body: str) -> str:
    n = int("".join(str(int(c, 36)) for c in body + "00"))
    return f"{98 - n % 97:02d}"


# --- families -----------------------------------------------------------------------------------------------------


def stripe() -> Fields:
    return {
        "cus": "cus_" + pick(B62, 14),
        "pi": "pi_" + pick(B62, 24),
        "ch": "ch_" + pick(B62, 24),
        "sub": "sub_" + pick(B62, 24),
        "price": "price_" + pick(B62, 24),
        "evt": "evt_" + pick(B62, 24),
        "acct": "acct_" + pick(B62, 16),
    }


def openai_ids() -> Fields:
    return {
        "asst": "asst_" + pick(B62, 24),
        "thread": "thread_" + pick(B62, 24),
        "file": "file-" + pick(B62, 22),
        "org": "org-" + pick(B62, 24),
        "chat": "chatcmpl-" + pick(B62, 29),
        "batch": "batch_" + hexs(32),
    }


def anthropic_ids() -> Fields:
    return {
        "msg": "msg_01" + pick(B62, 22),
        "tool": "toolu_01" + pick(B62, 22),
        "req": "req_011C" + pick(B62, 20),
        "batch": "msgbatch_01" + pick(B62, 22),
    }


def twilio() -> Fields:
    return {"ac": "AC" + hexs(32), "sm": "SM" + hexs(32), "ca": "CA" + hexs(32), "mg": "MG" + hexs(32)}


def airtable() -> Fields:
    return {"app": "app" + pick(B62, 14), "tbl": "tbl" + pick(B62, 14), "rec": "rec" + pick(B62, 14)}


def salesforce_id() -> str:
    base = RNG.choice(["001", "003", "005", "006", "500", "00Q"]) + pick(B62, 12)
    suffix = ""
    for chunk in range(3):
        bits = sum(1 << i for i, c in enumerate(base[chunk * 5 : chunk * 5 + 5]) if c.isupper())
        suffix += "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"[bits]
    return base + suffix


def salesforce() -> Fields:
    sid = salesforce_id()
    return {"id18": sid, "id15": sid[:15], "other": salesforce_id()}


def firestore() -> Fields:
    return {"a": pick(B62, 20), "b": pick(B62, 20), "uid": pick(B62, 28)}


NODE_RNG = random.Random(7033)


def node_id(first: str) -> str:
    """A GitHub node id in the shape ``first`` names: legacy (base64 of ``04:User<n>``) or current (a type prefix
    and base64url of a MessagePack array of ids). Drawn from its own generator (a fix after the set was measured:
    the first version glued random characters to the prefix), so every other value of the set is unchanged."""
    n = NODE_RNG.randint(10**5, 10**9)
    if first.startswith("MD"):
        return b64(f"04:User{n}".encode())
    prefix = first.split("_")[0]
    ids = [0, NODE_RNG.randint(10**6, 2**31), n] if first.endswith("kwDO") else [0, n]
    body = bytes([0x90 + len(ids)]) + b"".join(b"\x00" if i == 0 else b"\xce" + i.to_bytes(4, "big") for i in ids)
    return prefix + "_" + b64(body, url=True, pad=False)


def github_ids() -> Fields:
    n = RNG.randint(10**7, 10**9)
    return {
        "legacy": b64(f"010:Repository{n}".encode()),
        "node": node_id(RNG.choice(["R_kgDO", "I_kwDO", "PR_kwDO", "MDQ6VXNlcj"]) + pick(B62, 10)),
        "run": digits(10),
        "gist": hexs(32),
        "user": RNG.choice(["octo-dev", "jmills", "ana-k"]),
    }


def docs_links() -> Fields:
    return {
        "doc": "1" + pick(B64URL, 43),
        "sheet": "1" + pick(B64URL, 43),
        "drive": "1" + pick(B64URL, 32),
        "gid": digits(9),
    }


def notion() -> Fields:
    return {"page": hexs(32), "slug": RNG.choice(["Onboarding", "Q3-Roadmap", "Runbook-Payments", "Meeting-Notes"])}


def figma() -> Fields:
    return {"key": pick(B62, 22), "node": f"{RNG.randint(1, 999)}-{RNG.randint(1, 9999)}"}


def file_hashes() -> Fields:
    return {
        "sha256": hexs(64),
        "md5": hexs(32),
        "sha1": hexs(40),
        "sha512": hexs(128),
        "file": RNG.choice(
            ["ubuntu-24.04.1-live-server-amd64.iso", "node-v20.17.0-linux-x64.tar.xz", "backup.tar.zst"]
        ),
    }


def dockerfile() -> Fields:
    return {"sha256": hexs(64), "ver": f"{RNG.randint(0, 3)}.{RNG.randint(0, 30)}.{RNG.randint(0, 9)}"}


def pip_hashes() -> Fields:
    return {
        "h1": hexs(64),
        "h2": hexs(64),
        "pkg": RNG.choice(["requests", "urllib3", "certifi", "idna", "charset-normalizer"]),
        "ver": f"{RNG.randint(1, 3)}.{RNG.randint(0, 32)}.{RNG.randint(0, 9)}",
    }


def terraform_lock() -> Fields:
    return {"h1": b64(rbytes(32)), "zh": hexs(64), "zh2": hexs(64)}


def jvm_checksums() -> Fields:
    return {
        "sha256": hexs(64),
        "sha1": hexs(40),
        "ver": f"{RNG.randint(1, 5)}.{RNG.randint(0, 20)}.{RNG.randint(0, 9)}",
    }


def homebrew() -> Fields:
    return {"a": hexs(64), "b": hexs(64), "ver": f"{RNG.randint(1, 9)}.{RNG.randint(0, 20)}"}


def git_lfs() -> Fields:
    return {"oid": hexs(64), "size": str(RNG.randint(1000, 900_000_000))}


def nix_store() -> Fields:
    return {
        "h": pick(NIX32, 32),
        "h2": pick(NIX32, 32),
        "pkg": RNG.choice(["python3-3.12.4", "nodejs-20.15.1", "git-2.45.2", "openssl-3.0.14"]),
        "nar": pick(NIX32, 52),
    }


def asset_hashes() -> Fields:
    return {
        "cra": hexs(8),
        "vite": pick(B64URL, 8),
        "wp": hexs(20),
        "build": pick(B64URL, 21),
    }


def tool_paths() -> Fields:
    return {
        "ws": hexs(32),
        "bazel": hexs(32),
        "dd": pick(LOWER, 28),
        "wheel": hexs(56),
        "a": hexs(2),
        "b": hexs(2),
    }


def mac() -> Fields:
    raw = [RNG.randrange(256) for _ in range(6)]
    return {
        "colon": ":".join(f"{b:02x}" for b in raw),
        "dash": "-".join(f"{b:02X}" for b in raw),
        "cisco": ".".join(f"{raw[i]:02x}{raw[i + 1]:02x}" for i in (0, 2, 4)),
    }


def ipv6() -> Fields:
    groups = [f"{RNG.randrange(65536):x}" for _ in range(8)]
    return {
        "full": ":".join(groups),
        "short": f"2001:db8:{groups[2]}:{groups[3]}::{groups[7]}",
        "ll": f"fe80::{groups[4]}:{groups[5]}:{groups[6]}:{groups[7]}%eth0",
        "net": f"2a01:4f8:{groups[1]}:{groups[2]}::/64",
    }


def onion_v3() -> str:
    pub = rbytes(32)
    check = hashlib.sha3_256(b".onion checksum" + pub + b"\x03").digest()[:2]
    return base64.b32encode(pub + check + b"\x03").decode().lower() + ".onion"


def onion() -> Fields:
    return {"addr": onion_v3(), "port": RNG.choice(["80", "443", "8333"])}


def der_rsa_public() -> str:
    modulus = b"\x00" + bytes([RNG.randrange(128, 256)]) + rbytes(255)
    seq = b"\x02\x82\x01\x01" + modulus + b"\x02\x03\x01\x00\x01"
    rsa = b"\x30\x82" + len(seq).to_bytes(2, "big") + seq
    bitstr = b"\x03\x82" + (len(rsa) + 1).to_bytes(2, "big") + b"\x00" + rsa
    algo = bytes.fromhex("300d06092a864886f70d0101010500")
    body = algo + bitstr
    return b64(b"\x30\x82" + len(body).to_bytes(2, "big") + body)


def dns_records() -> Fields:
    return {
        "dkim": der_rsa_public(),
        "gsv": pick(B64URL, 43),
        "ms": "ms" + digits(8),
        "fb": pick(LOWER + DIG, 30),
        "tlsa": hexs(64).upper(),
        "sshfp": hexs(64),
    }


def ssh_ed25519_blob() -> str:
    def s(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    return b64(s(b"ssh-ed25519") + s(rbytes(32)))


def known_hosts() -> Fields:
    return {
        "salt": b64(rbytes(20)),
        "hash": b64(rbytes(20)),
        "key": ssh_ed25519_blob(),
        "host": f"{word()}.example.net",
    }


def x509() -> Fields:
    serial = rbytes(16)
    return {
        "serial": ":".join(f"{b:02x}" for b in serial),
        "ski": ":".join(f"{b:02X}" for b in rbytes(20)),
        "aki": ":".join(f"{b:02X}" for b in rbytes(20)),
        "serialhex": serial.hex().upper(),
    }


def phones() -> Fields:
    return {
        "us": f"+1 {RNG.randint(201, 989)} {RNG.randint(200, 999)} {RNG.randint(0, 9999):04d}",
        "e164": "+44" + "7" + pick(DIG, 9),
        "de": f"+49 30 {RNG.randint(1000000, 99999999)}",
        "fr": "+33 6 " + " ".join(pick(DIG, 2) for _ in range(4)),
        "jp": f"03-{RNG.randint(1000, 9999)}-{RNG.randint(1000, 9999)}",
    }


def ups() -> str:
    body = pick(UPPER[:10] + DIG, 6) + RNG.choice(["01", "02", "03", "12"]) + pick(DIG, 7)
    vals = [(ord(c) - 63) % 10 if c.isalpha() else int(c) for c in body]
    total = sum(v * (2 if i % 2 else 1) for i, v in enumerate(vals))
    return "1Z" + body + str((10 - total % 10) % 10)


def s10() -> str:
    body = pick(DIG, 8)
    total = sum(int(d) * w for d, w in zip(body, (8, 6, 4, 2, 3, 5, 9, 7), strict=True))
    check = 11 - total % 11
    check = 5 if check == 11 else 0 if check == 10 else check
    return RNG.choice(["RR", "LX", "CP", "EE"]) + body + str(check) + RNG.choice(["GB", "DE", "CN", "NL"])


def usps() -> str:
    body = "9400" + pick(DIG, 17)
    return body + luhn(body)


def tracking() -> Fields:
    return {"ups": ups(), "s10": s10(), "usps": usps(), "fedex": digits(12), "dhl": digits(10)}


def imei() -> str:
    body = digits(14)
    return body + luhn(body)


def iccid() -> str:
    body = "89" + RNG.choice(["1", "44", "49", "33"]) + pick(DIG, 15)
    body = body[:18]
    return body + luhn(body)


def devices() -> Fields:
    return {"imei": imei(), "iccid": iccid(), "serial": pick(UPPER + DIG, 12), "imei2": imei()}


def isin() -> str:
    body = RNG.choice(["US", "DE", "GB", "FR", "JP"]) + pick(UPPER + DIG, 1) + pick(DIG, 8)
    expanded = "".join(str(int(c, 36)) for c in body)
    return body + luhn(expanded)


def lei() -> str:
    body = pick(UPPER + DIG, 4) + "00" + pick(UPPER + DIG, 12)
    return body + mod97(body)


def cusip() -> str:
    body = pick(DIG, 3) + pick(UPPER + DIG, 5)
    total = 0
    for i, c in enumerate(body):
        v = int(c) if c.isdigit() else ord(c) - 55
        if i % 2:
            v *= 2
        total += v // 10 + v % 10
    return body + str((10 - total % 10) % 10)


def securities() -> Fields:
    return {
        "isin": isin(),
        "lei": lei(),
        "cusip": cusip(),
        "bic": pick(UPPER, 4) + RNG.choice(["DE", "GB", "US", "FR"]) + pick(UPPER + DIG, 2) + RNG.choice(["", "XXX"]),
    }


def geo() -> Fields:
    plus = "23456789CFGHJMPQRVWX"
    return {
        "plus": pick(plus, 4) + pick(plus, 4) + "+" + pick(plus, 2),
        "geohash": pick("0123456789bcdefghjkmnpqrstuvwxyz", RNG.choice([7, 9, 11])),
        "lat": f"{RNG.uniform(-60, 60):.6f}",
        "lon": f"{RNG.uniform(-170, 170):.6f}",
    }


def commerce() -> Fields:
    return {
        "asin": "B0" + pick(UPPER + DIG, 8),
        "order": f"{RNG.randint(100, 999)}-{pick(DIG, 7)}-{pick(DIG, 7)}",
        "shopify": f"gid://shopify/Product/{digits(13)}",
        "paypal": pick(UPPER + DIG, 17),
        "ebay": digits(12),
    }


def chain() -> Fields:
    return {
        "ethtx": "0x" + hexs(64),
        "sol": b58encode(rbytes(32)),
        "soltx": b58encode(rbytes(64)),
        "block": str(RNG.randint(18_000_000, 21_000_000)),
    }


def dids() -> Fields:
    pub = rbytes(32)
    return {
        "plc": "did:plc:" + pick("abcdefghijklmnopqrstuvwxyz234567", 24),
        "key": "did:key:z" + b58encode(b"\xed\x01" + pub),
        "npub": bech32("npub", rbytes(32)),
        "room": "!" + pick(B62[:52], 18) + ":matrix.org",
        "event": "$" + pick(B64URL, 43),
    }


def references() -> Fields:
    name = RNG.choice(
        ["NPM_TOKEN", "PYPI_API_TOKEN", "DOCKERHUB_PASSWORD", "SLACK_WEBHOOK_URL", "AWS_SECRET_ACCESS_KEY"]
    )
    return {
        "name": name,
        "vault": RNG.choice(["Engineering", "Private", "Infra"]),
        "item": RNG.choice(["Postgres prod", "GitHub deploy key", "Stripe"]),
        "path": f"secret/data/{word()}/{RNG.choice(['prod', 'staging'])}",
        "k8s": f"{word()}-credentials",
    }


def advisories() -> Fields:
    ghsa = "23456789cfghjmpqrvwx"
    return {
        "cve": f"CVE-{RNG.randint(2014, 2025)}-{RNG.randint(1000, 59999)}",
        "ghsa": "GHSA-" + "-".join(pick(ghsa, 4) for _ in range(3)),
        "rustsec": f"RUSTSEC-{RNG.randint(2019, 2025)}-{RNG.randint(1, 120):04d}",
        "pysec": f"PYSEC-{RNG.randint(2019, 2025)}-{RNG.randint(1, 300)}",
        "go": f"GO-{RNG.randint(2022, 2025)}-{RNG.randint(1000, 3999)}",
    }


def arxiv() -> Fields:
    yymm = f"{RNG.randint(15, 25)}{RNG.randint(1, 12):02d}"
    return {
        "new": f"{yymm}.{RNG.randint(0, 99999):05d}",
        "ver": f"v{RNG.randint(1, 4)}",
        "old": f"{RNG.choice(['hep-th', 'math', 'cond-mat', 'astro-ph'])}/{RNG.randint(90, 99)}{RNG.randint(1, 12):02d}{RNG.randint(1, 999):03d}",
    }


def windows() -> Fields:
    return {
        "sid": f"S-1-5-21-{digits(10)}-{digits(10)}-{digits(10)}-{RNG.randint(1000, 1200)}",
        "clsid": "{" + str(uuid.UUID(bytes=rbytes(16))).upper() + "}",
        "kb": f"KB{RNG.randint(4000000, 5049999)}",
        "hresult": f"0x{RNG.choice(['80070005', '8007000E', '80004005', '800F081F'])}",
    }


def apple() -> Fields:
    return {
        "team": pick(UPPER + DIG, 10),
        "bundle": f"com.{RNG.choice(['acme', 'example', 'northwind'])}.{word()}",
        "appid": "id" + digits(10),
        "udid": f"00008{RNG.choice(['030', '101', '110', '120'])}-00{hexs(14).upper()}",
    }


def extensions() -> Fields:
    return {
        "chrome": pick("abcdefghijklmnop", 32),
        "chrome2": pick("abcdefghijklmnop", 32),
        "ff": "{" + str(uuid.UUID(bytes=rbytes(16))) + "}",
    }


def outlook_id() -> str:
    """An Exchange item id: ``00 03 24 00``, the mailbox GUID in ASCII (36), then the binary entry id."""
    guid = str(uuid.UUID(bytes=rbytes(16))).encode()
    return b64(b"\x00\x03\x24\x00" + guid + b"\x00\x46\x00\x00\x00\x00\x00" + rbytes(16) + b"\x07\x00" + rbytes(46))


def message_ids() -> Fields:
    return {
        "gmail": "CA" + pick(B62 + "+_-", 2) + "=" + pick(B62 + "+_-", 44),
        "thread": hexs(16),
        "outlook": outlook_id(),
        "mid": f"{RNG.randint(10**11, 10**12)}.{RNG.randint(10**5, 10**6)}.{hexs(12)}@mail.{word()}.example.com",
    }


def http_ids() -> Fields:
    return {
        "cfray": hexs(16) + "-" + RNG.choice(["FRA", "AMS", "SJC", "NRT", "LHR"]),
        "etag": hexs(32),
        "amzreq": pick(HEX.upper(), 16),
        "amzid2": b64(rbytes(57)),
        "reqid": str(uuid.UUID(bytes=rbytes(16))),
    }


def ops_ids() -> Fields:
    return {
        "pd": "P" + pick(UPPER + DIG, 6),
        "pdinc": "Q" + pick(UPPER + DIG, 13),
        "grafana": pick(B62 + "-_", 9),
        "dd": "-".join(pick(LOWER + DIG, 3) for _ in range(3)),
    }


def analytics() -> Fields:
    return {"mixpanel": hexs(32), "ld": hexs(24), "intercom": pick(LOWER + DIG, 8), "algolia": pick(UPPER + DIG, 10)}


T = list[str]
FAMILIES: dict[str, tuple[Callable[[], Fields], T]] = {
    "stripe-objects": (
        stripe,
        [
            "refund went through for customer {cus}, payment intent {pi}",
            "Stripe charge {ch} was disputed; subscription {sub} paused",
            "price id for the pro plan: {price}",
            "webhook retried event {evt} for connected account {acct}",
        ],
    ),
    "openai-ids": (
        openai_ids,
        [
            "the support bot is assistant {asst}; its long thread is {thread}",
            "uploaded the eval set as {file} under {org}",
            "response id {chat} had the truncated answer",
            "batch job {batch} finished overnight",
        ],
    ),
    "anthropic-ids": (
        anthropic_ids,
        [
            "Claude returned {msg} with a tool_use block {tool}",
            "support asked for the request id: {req}",
            "the nightly message batch is {batch}",
        ],
    ),
    "twilio-sids": (
        twilio,
        [
            "Twilio account SID {ac} (the auth token is in 1Password)",
            "SMS {sm} bounced; messaging service {mg}",
            "call {ca} dropped after 3 s",
        ],
    ),
    "airtable-ids": (
        airtable,
        [
            "CRM base is {app}, contacts table {tbl}",
            "https://airtable.com/{app}/{tbl}/{rec}",
            "record {rec} has the duplicate email",
        ],
    ),
    "salesforce-ids": (
        salesforce,
        [
            "Salesforce account record {id18}",
            "https://acme.lightning.force.com/lightning/r/Account/{id18}/view",
            "the 15-char id {id15} matches opportunity {other}",
        ],
    ),
    "firestore-ids": (
        firestore,
        [
            "Firestore doc users/{uid}/orders/{a} has a null total",
            "firebase auth uid {uid} is the test user",
            "collection path: projects/{a}/tasks/{b}",
        ],
    ),
    "github-ids": (
        github_ids,
        [
            "GraphQL node id {node} for the repo",
            "legacy global id {legacy}",
            "failing run: https://github.com/acme/api/actions/runs/{run}",
            "snippet lives in https://gist.github.com/{user}/{gist}",
        ],
    ),
    "doc-links": (
        docs_links,
        [
            "design doc: https://docs.google.com/document/d/{doc}/edit",
            "budget sheet https://docs.google.com/spreadsheets/d/{sheet}/edit#gid={gid}",
            "recording in Drive: https://drive.google.com/file/d/{drive}/view",
        ],
    ),
    "notion-pages": (
        notion,
        [
            "runbook: https://www.notion.so/acme/{slug}-{page}",
            "Notion page id {page}",
            "link the retro to notion.so/{page}?pvs=4",
        ],
    ),
    "figma-files": (
        figma,
        [
            "mockups: https://www.figma.com/design/{key}/Checkout?node-id={node}",
            "Figma file key {key}",
            "old link figma.com/file/{key}/Onboarding-v2",
        ],
    ),
    "file-hashes": (
        file_hashes,
        [
            "{sha256}  {file}",
            "the sha256 of {file} is {sha256}",
            "md5 {md5} and sha1 {sha1} match the mirror",
            "VirusTotal: https://www.virustotal.com/gui/file/{sha256}",
            "SHA512 ({file}) = {sha512}",
        ],
    ),
    "dockerfile-checksums": (
        dockerfile,
        [
            'RUN echo "{sha256}  tini" | sha256sum -c -',
            "ARG GOSU_SHA256={sha256}",
            "ADD --checksum=sha256:{sha256} https://github.com/krallin/tini/releases/download/v{ver}/tini /tini",
        ],
    ),
    "pip-hashes": (
        pip_hashes,
        [
            "{pkg}=={ver} --hash=sha256:{h1}",
            "    --hash=sha256:{h1} \\",
            "pip-compile pinned {pkg}=={ver} \\\n    --hash=sha256:{h1} \\\n    --hash=sha256:{h2}",
        ],
    ),
    "terraform-lock": (
        terraform_lock,
        [
            '  hashes = [\n    "h1:{h1}",\n    "zh:{zh}",\n    "zh:{zh2}",\n  ]',
            '"zh:{zh}",',
            "provider lock hash h1:{h1}",
        ],
    ),
    "jvm-checksums": (
        jvm_checksums,
        [
            '<sha256 value="{sha256}" origin="Generated by Gradle"/>',
            "guava-{ver}.jar.sha1: {sha1}",
            "maven checksum for commons-io {ver}: sha256 {sha256}",
        ],
    ),
    "homebrew": (
        homebrew,
        [
            '  sha256 "{a}"',
            '    sha256 cellar: :any, arm64_sonoma: "{a}"',
            'url "https://github.com/acme/tool/archive/v{ver}.tar.gz"\nsha256 "{b}"',
        ],
    ),
    "git-lfs": (
        git_lfs,
        [
            "version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {size}",
            "LFS object {oid} is missing on the server",
            "git lfs fsck complained about oid {oid}",
        ],
    ),
    "nix-store": (
        nix_store,
        [
            "/nix/store/{h}-{pkg}/bin",
            "the broken closure is /nix/store/{h2}-{pkg}.drv",
            "fixed-output hash: sha256:{nar}",
        ],
    ),
    "asset-hashes": (
        asset_hashes,
        [
            "CRA build emits static/js/main.{cra}.js",
            "vite output: dist/assets/index-{vite}.js",
            "webpack chunk vendors.{wp}.js is 1.2 MB",
            "Next.js build id {build}",
        ],
    ),
    "tool-paths": (
        tool_paths,
        [
            "VS Code state: ~/.config/Code/User/workspaceStorage/{ws}/state.vscdb",
            "bazel output base /home/me/.cache/bazel/_bazel_me/{bazel}",
            "Xcode DerivedData/MyApp-{dd}/Build",
            "pip cache: ~/.cache/pip/wheels/{a}/{b}/{wheel}",
        ],
    ),
    "mac-addresses": (
        mac,
        [
            "printer MAC {colon}",
            "DHCP reservation for {dash}",
            "switch port shows {cisco}",
        ],
    ),
    "ipv6": (
        ipv6,
        [
            "server v6: {full}",
            "ping6 {short}",
            "link-local {ll}",
            "Hetzner subnet {net}",
        ],
    ),
    "onion-v3": (
        onion,
        [
            "the mirror's onion address is {addr}",
            "http://{addr}:{port}/",
            "HiddenServiceHostname {addr}",
        ],
    ),
    "dns-records": (
        dns_records,
        [
            'selector1._domainkey TXT "v=DKIM1; k=rsa; p={dkim}"',
            "TXT google-site-verification={gsv}",
            "TXT MS={ms} (Microsoft 365 domain verification)",
            "facebook-domain-verification={fb}",
            "_443._tcp.mail TLSA 3 1 1 {tlsa}",
            "host SSHFP 4 2 {sshfp}",
        ],
    ),
    "known-hosts": (
        known_hosts,
        [
            "|1|{salt}|{hash} ssh-ed25519 {key}",
            "{host} ssh-ed25519 {key}",
            "known_hosts entry: |1|{salt}|{hash} ssh-ed25519 {key}",
        ],
    ),
    "x509-fields": (
        x509,
        [
            "Serial Number: {serial}",
            "X509v3 Subject Key Identifier: {ski}",
            "X509v3 Authority Key Identifier: keyid:{aki}",
            "cert serial {serialhex} was revoked",
        ],
    ),
    "phone-numbers": (
        phones,
        [
            "call the on-call line {us}",
            "Sam's mobile {e164}",
            "Berlin office {de}, Paris {fr}",
            "Tokyo support {jp}",
        ],
    ),
    "tracking-numbers": (
        tracking,
        [
            "UPS tracking {ups}",
            "Royal Mail parcel {s10}",
            "USPS {usps} delivered to the front desk",
            "FedEx {fedex}, DHL {dhl}",
        ],
    ),
    "devices": (
        devices,
        [
            "test phone IMEI {imei}",
            "SIM ICCID {iccid}",
            "laptop serial {serial}, second SIM IMEI {imei2}",
        ],
    ),
    "securities": (
        securities,
        [
            "ISIN {isin}",
            "LEI of the counterparty: {lei}",
            "CUSIP {cusip} settles T+1",
            "wire to BIC {bic}",
        ],
    ),
    "geo-codes": (
        geo,
        [
            "meet at plus code {plus}",
            "geohash {geohash} covers the depot",
            "site coordinates {lat}, {lon}",
        ],
    ),
    "commerce-ids": (
        commerce,
        [
            "ordered the USB hub (ASIN {asin}), order {order}",
            "Shopify product {shopify}",
            "PayPal transaction {paypal} refunded",
            "eBay item {ebay}",
        ],
    ),
    "chain-ids": (
        chain,
        [
            "the deploy tx: https://etherscan.io/tx/{ethtx}",
            "treasury wallet on Solana: {sol}",
            "https://solscan.io/tx/{soltx}",
            "tx {ethtx} confirmed in block {block}",
        ],
    ),
    "dids-handles": (
        dids,
        [
            "my Bluesky DID is {plc}",
            "issuer {key}",
            "nostr: {npub}",
            "Matrix room {room}, event {event}",
        ],
    ),
    "secret-references": (
        references,
        [
            "token: ${{{{ secrets.{name} }}}}",
            'op read "op://{vault}/{item}/password"',
            "vault kv get {path}",
            "valueFrom:\n  secretKeyRef:\n    name: {k8s}\n    key: {name}",
        ],
    ),
    "advisories": (
        advisories,
        [
            "patched {cve} ({ghsa})",
            "cargo audit: {rustsec}",
            "pip-audit flagged {pysec}; govulncheck {go}",
        ],
    ),
    "arxiv": (
        arxiv,
        [
            "paper: arXiv:{new}{ver}",
            "https://arxiv.org/abs/{new}",
            "the old preprint {old}",
        ],
    ),
    "windows-ids": (
        windows,
        [
            "the service account SID {sid}",
            "COM class {clsid}",
            "installed {kb}; error {hresult}",
        ],
    ),
    "apple-ids": (
        apple,
        [
            "Apple team id {team}, bundle {bundle}",
            "App Store link https://apps.apple.com/app/{appid}",
            "test iPhone UDID {udid}",
        ],
    ),
    "extension-ids": (
        extensions,
        [
            "uBlock in Chrome: chrome-extension://{chrome}/popup.html",
            "https://chromewebstore.google.com/detail/{chrome2}",
            "Firefox add-on id {ff}",
        ],
    ),
    "message-ids": (
        message_ids,
        [
            "Message-ID: <{gmail}@mail.gmail.com>",
            "Gmail thread {thread}",
            "Outlook item id {outlook}",
            "In-Reply-To: <{mid}>",
        ],
    ),
    "http-ids": (
        http_ids,
        [
            "cf-ray: {cfray}",
            'ETag: W/"{etag}"',
            "x-amz-request-id: {amzreq}\nx-amz-id-2: {amzid2}",
            "X-Request-Id: {reqid}",
        ],
    ),
    "ops-ids": (
        ops_ids,
        [
            "PagerDuty service {pd}, incident {pdinc}",
            "Grafana dashboard /d/{grafana}/api-latency",
            "Datadog dashboard https://app.datadoghq.com/dashboard/{dd}",
        ],
    ),
    "analytics-ids": (
        analytics,
        [
            "mixpanel.init('{mixpanel}') (project token, public)",
            "LaunchDarkly client-side ID {ld}",
            "Intercom app_id {intercom}",
            "Algolia application id {algolia}",
        ],
    ),
}


def build() -> dict[str, object]:
    samples: list[dict[str, str]] = []
    for family, (make, templates) in FAMILIES.items():
        for t, template in enumerate(templates):
            for _ in range(PER_TEMPLATE):
                samples.append({"family": f"{family}/t{t}", "text": template.format(**make())})
    return {
        "source": "Made by build_formats.py: public formats users keep in memory, in families identifiers.json "
        "does not hold, random values with each format's checksum (seed 7032). A tuning part. Each text must "
        "come out unchanged.",
        "formats-tune": samples,
    }


def main() -> None:
    print(json.dumps(build(), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
