"""Build ``families.json``: a second tuning set in the families of ``identifiers.json``, written apart from it.

Issue 32 (round 8, false alarms on public identifiers): the held-out half of
``identifiers.json`` altered 5 of 222 texts, all in its own families, which no
tuning set covered from another source. Only the family names of that file
were read (not its lines, not its builder's templates). For each family this
script writes lines in its own wording, with values made in the shape the
vendor's or standard's documentation gives, random (seed 8032), with the
checksum the format defines where it has one:

- tracing: W3C ``traceparent``/``tracestate``, B3 (multi and single header),
  AWS X-Ray ``X-Amzn-Trace-Id``, Datadog's decimal trace ids, Jaeger's
  ``uber-trace-id``, Google's ``X-Cloud-Trace-Context``, Sentry's ``sentry-trace``;
- misc-ids: Slack channel/user ids and permalinks, Discord snowflakes, Jira
  and Linear issue keys, Sentry event ids, ULIDs, KSUIDs, MongoDB ObjectIds,
  Trello and Asana links;
- aws, azure, gcp: ARNs, resource and request ids, Cognito pool ids, Azure
  resource ids and Application Insights connection strings, GCP service
  accounts and OAuth client ids (documented as public);
- bitcoin (base58check, bech32/bech32m), ethereum (EIP-55 with Keccak-256),
  ipfs (CIDv0/v1, IPNS keys, libp2p peer ids), iban (ISO 13616 mod 97);
- commits, versions, lockfiles, images, kubernetes: how git, package managers,
  registries and kubectl print their ids;
- gpg, ssh-fingerprint, public-keys: fingerprints and public halves as the
  tools print them (gpg, ssh-keygen, age, WireGuard, minisign, JWK);
- base64-text, jwt-header, colours, shortcuts, models, scholarly, spotify,
  youtube: the other names of the family list.

Left out on purpose: anything the vendor calls a credential (AWS secret keys
and ``AKIA``/``ASIA`` key ids, Azure SAS tokens, Google ``AIza`` keys, private
keys, Spotify client secrets, seed phrases).

Every text must come out unchanged. All of it is a tuning part. Run::

    python benchmarks/secrets_corpus/build_families.py > benchmarks/secrets_corpus/families.json
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable

RNG = random.Random(8032)
PER_TEMPLATE = 3
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIG = string.digits
B62 = DIG + UPPER + LOWER
B64URL = UPPER + LOWER + DIG + "-_"
HEX = "0123456789abcdef"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
POD = "bcdfghjklmnpqrstvwxz2456789"
Fields = dict[str, str]


def pick(alphabet: str, n: int) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def rbytes(n: int) -> bytes:
    return bytes(RNG.randrange(256) for _ in range(n))


def hexs(n: int) -> str:
    return pick(HEX, n)


def digits(n: int) -> str:
    return str(RNG.randint(1, 9)) + pick(DIG, n - 1)


def b64(raw: bytes, *, url: bool = False, pad: bool = True) -> str:
    out = (base64.urlsafe_b64encode(raw) if url else base64.b64encode(raw)).decode()
    return out if pad else out.rstrip("=")


def one(*choices: str) -> str:
    return RNG.choice(choices)


def uid() -> str:
    return str(uuid.UUID(bytes=rbytes(16), version=4))


# --- encodings and checksums ----------------------------------------------------------------------------------------


def b58(raw: bytes) -> str:
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def b58check(payload: bytes) -> str:
    check = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58(payload + check)


def _polymod(values: list[int]) -> int:
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((top >> i) & 1) else 0
    return chk


def to5(raw: bytes) -> list[int]:
    acc, bits, out = 0, 0, []
    for b in raw:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            out.append((acc >> bits) & 31)
    if bits:
        out.append((acc << (5 - bits)) & 31)
    return out


def bech32_encode(hrp: str, data: list[int], const: int = 1) -> str:
    expand = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    mod = _polymod(expand + data + [0] * 6) ^ const
    return hrp + "1" + "".join(BECH32[d] for d in data + [(mod >> 5 * (5 - i)) & 31 for i in range(6)])


def segwit(hrp: str, version: int, program: bytes) -> str:
    """BIP 173 (version 0, bech32) or BIP 350 (version 1+, bech32m) address."""
    return bech32_encode(hrp, [version, *to5(program)], 1 if version == 0 else 0x2BC830A3)


def _rol(a: int, n: int) -> int:
    n %= 64
    return ((a >> (64 - n)) | (a << n)) & (2**64 - 1) if n else a


def keccak_f(lanes: list[list[int]]) -> list[list[int]]:
    """Keccak-f[1600] on 5x5 lanes (the Keccak team's compact reference)."""
    r = 1
    for _round in range(24):
        c = [lanes[x][0] ^ lanes[x][1] ^ lanes[x][2] ^ lanes[x][3] ^ lanes[x][4] for x in range(5)]
        d = [c[(x + 4) % 5] ^ _rol(c[(x + 1) % 5], 1) for x in range(5)]
        lanes = [[lanes[x][y] ^ d[x] for y in range(5)] for x in range(5)]
        x, y = 1, 0
        current = lanes[x][y]
        for t in range(24):
            x, y = y, (2 * x + 3 * y) % 5
            current, lanes[x][y] = lanes[x][y], _rol(current, (t + 1) * (t + 2) // 2)
        for y in range(5):
            row = [lanes[x][y] for x in range(5)]
            for x in range(5):
                lanes[x][y] = row[x] ^ ((~row[(x + 1) % 5]) & row[(x + 2) % 5])
        for j in range(7):
            r = ((r << 1) ^ ((r >> 7) * 0x71)) % 256
            if r & 2:
                lanes[0][0] ^= 1 << ((1 << j) - 1)
    return lanes


def keccak256(data: bytes, pad: int = 0x01) -> bytes:
    """Keccak-256 as Ethereum uses it (``pad`` 0x06 gives FIPS 202 SHA3-256, checked against hashlib below)."""
    rate = 136
    msg = bytearray(data) + bytes([pad])
    msg += bytes(-len(msg) % rate)
    msg[-1] |= 0x80
    lanes = [[0] * 5 for _ in range(5)]
    for block in range(0, len(msg), rate):
        for i in range(rate // 8):
            lanes[i % 5][i // 5] ^= int.from_bytes(msg[block + 8 * i : block + 8 * i + 8], "little")
        lanes = keccak_f(lanes)
    return b"".join(lanes[i % 5][i // 5].to_bytes(8, "little") for i in range(4))


assert keccak256(b"abc", 0x06) == hashlib.sha3_256(b"abc").digest()
assert keccak256(b"").hex().startswith("c5d2460186f7233c927e7db2dcc703c0")


def eip55(addr_hex: str) -> str:
    digest = keccak256(addr_hex.encode()).hex()
    return "0x" + "".join(c.upper() if c.isalpha() and int(digest[i], 16) >= 8 else c for i, c in enumerate(addr_hex))


def iban(cc: str, bban: str) -> str:
    n = int("".join(str(int(c, 36)) for c in bban + cc + "00"))
    return f"{cc}{98 - n % 97:02d}{bban}"


def grouped(v: str) -> str:
    return " ".join(v[i : i + 4] for i in range(0, len(v), 4))


def luhn(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def base32_lower(raw: bytes) -> str:
    return base64.b32encode(raw).decode().lower().rstrip("=")


def base36(raw: bytes) -> str:
    n, out = int.from_bytes(raw, "big"), ""
    while n:
        n, r = divmod(n, 36)
        out = (DIG + LOWER)[r] + out
    return out


def base62(raw: bytes, width: int) -> str:
    n, out = int.from_bytes(raw, "big"), ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return out.rjust(width, "0")


def ssh_blob(kind: bytes, *parts: bytes) -> str:
    def s(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    return b64(s(kind) + b"".join(s(p) for p in parts))


def ed25519_pub() -> str:
    return ssh_blob(b"ssh-ed25519", rbytes(32))


def rsa_pub() -> str:
    return ssh_blob(b"ssh-rsa", b"\x01\x00\x01", b"\x00" + bytes([RNG.randrange(128, 256)]) + rbytes(255))


def ecdsa_pub() -> str:
    return ssh_blob(b"ecdsa-sha2-nistp256", b"nistp256", b"\x04" + rbytes(64))


# --- families -------------------------------------------------------------------------------------------------------


def tracing() -> Fields:
    trace, span, parent = hexs(32), hexs(16), hexs(16)
    return {
        "trace": trace,
        "span": span,
        "parent": parent,
        "flags": one("00", "01"),
        "xray": f"1-{hexs(8)}-{hexs(24)}",
        "dd": str(RNG.randrange(2**62, 2**64)),
        "ddspan": str(RNG.randrange(2**60, 2**63)),
        "tid": hexs(16),
        "gspan": str(RNG.randrange(10**17, 10**19)),
        "event": uuid.UUID(bytes=rbytes(16)).hex,
        "vendor": pick(B62, 16),
    }


def misc_ids() -> Fields:
    ms = RNG.randint(1_600_000_000_000, 1_760_000_000_000)

    def snow() -> str:
        """A Discord snowflake: milliseconds since Discord's epoch (2015) shifted 22 bits, then 22 other bits."""
        return str(
            ((RNG.randint(1_500_000_000_000, 1_760_000_000_000) - 1_420_070_400_000) << 22) | RNG.randrange(2**22)
        )

    ulid_n = (ms << 80) | int.from_bytes(rbytes(10), "big")
    ulid = "".join(CROCKFORD[(ulid_n >> (5 * (25 - i))) & 31] for i in range(26))
    ksuid = base62((ms // 1000 - 1_400_000_000).to_bytes(4, "big") + rbytes(16), 27)
    ts = ms // 1000
    return {
        "chan": "C" + pick(UPPER + DIG, RNG.choice([8, 10])),
        "user": one("U", "W") + pick(UPPER + DIG, RNG.choice([8, 10])),
        "team": "T" + pick(UPPER + DIG, 8),
        "ts": f"{ts}.{RNG.randrange(10**6):06d}",
        "pts": f"p{ts}{RNG.randrange(10**6):06d}",
        "guild": snow(),
        "dchan": snow(),
        "dmsg": snow(),
        "jira": one("PAY", "OPS", "INFRA", "WEB", "DATA") + f"-{RNG.randint(1, 9999)}",
        "linear": one("ENG", "DES", "PLAT", "MOB") + f"-{RNG.randint(1, 2999)}",
        "luuid": uid(),
        "sentry": uuid.UUID(bytes=rbytes(16)).hex,
        "ulid": ulid,
        "ksuid": ksuid,
        "oid": f"{ts:08x}" + hexs(10) + f"{RNG.randrange(2**24):06x}",
        "trello": pick(B62, 8),
        "asana1": digits(16),
        "asana2": digits(16),
        "slug": one("fix-login-loop", "retry-webhooks", "dark-mode", "ci-cache"),
    }


def aws() -> Fields:
    acct = pick(DIG, 12)
    region = one("us-east-1", "eu-west-1", "ap-southeast-2", "eu-central-1", "us-west-2")
    return {
        "acct": acct,
        "region": region,
        "role": f"arn:aws:iam::{acct}:role/{one('deploy', 'ci-runner', 'lambda-exec', 'ReadOnly')}",
        "lambda": f"arn:aws:lambda:{region}:{acct}:function:{one('thumbnailer', 'ingest-events', 'nightly-report')}",
        "stack": f"arn:aws:cloudformation:{region}:{acct}:stack/{one('api', 'web', 'data')}-prod/{uid()}",
        "inst": "i-0" + hexs(16),
        "ami": "ami-0" + hexs(16),
        "vpc": "vpc-0" + hexs(16),
        "subnet": "subnet-" + hexs(8),
        "sg": "sg-0" + hexs(16),
        "cf": "E" + pick(UPPER + DIG, 13),
        "zone": "Z" + pick(UPPER + DIG, RNG.choice([13, 20])),
        "req": uid(),
        "ecr": f"{acct}.dkr.ecr.{region}.amazonaws.com/{one('api', 'worker', 'web')}",
        "pool": f"{region}_{pick(B62[10:] + DIG, 9)}",
        "client": pick(LOWER + DIG, 26),
        "idpool": f"{region}:{uid()}",
        "oidc": hexs(32).upper(),
        "xray": f"1-{hexs(8)}-{hexs(24)}",
    }


def azure() -> Fields:
    return {
        "sub": uid(),
        "tenant": uid(),
        "app": uid(),
        "obj": uid(),
        "rg": one("rg-prod-weu", "rg-data", "rg-shared-net"),
        "vm": one("vm-build-01", "vm-jump", "vm-sql-02"),
        "ikey": uid(),
        "appid": uid(),
        "corr": uid(),
        "wi": str(RNG.randint(1000, 99999)),
        "region": one("westeurope", "eastus2", "uksouth"),
    }


def gcp() -> Fields:
    project = one("acme-prod", "data-lake", "ml-sandbox", "web-staging") + f"-{RNG.randint(100000, 999999)}"
    number = digits(12)
    return {
        "project": project,
        "number": number,
        "sa": f"{one('ci-deployer', 'bq-reader', 'run-invoker')}@{project}.iam.gserviceaccount.com",
        "client": f"{number}-{pick(LOWER + DIG, 32)}.apps.googleusercontent.com",
        "inst": digits(19),
        "trace": hexs(32),
        "build": uid(),
        "run": f"https://{one('api', 'web', 'hooks')}-{pick(LOWER + DIG, 10)}-{one('uc', 'ew', 'an')}.a.run.app",
        "digest": hexs(64),
        "bucket": f"{project}-{one('exports', 'backups', 'artifacts')}",
    }


def bitcoin() -> Fields:
    return {
        "p2pkh": b58check(b"\x00" + rbytes(20)),
        "p2sh": b58check(b"\x05" + rbytes(20)),
        "wpkh": segwit("bc", 0, rbytes(20)),
        "wsh": segwit("bc", 0, rbytes(32)),
        "tr": segwit("bc", 1, rbytes(32)),
        "tb": segwit("tb", 0, rbytes(20)),
        "txid": hexs(64),
        "block": "0000000000000000000" + hexs(45),
        "xpub": b58check(
            bytes.fromhex("0488b21e") + b"\x03" + rbytes(4) + b"\x80\x00\x00\x00" + rbytes(32) + b"\x02" + rbytes(32)
        ),
        "sats": str(RNG.randint(1000, 5_000_000)),
    }


def ethereum() -> Fields:
    return {
        "addr": eip55(hexs(40)),
        "lower": "0x" + hexs(40),
        "token": eip55(hexs(40)),
        "tx": "0x" + hexs(64),
        "block": str(RNG.randint(17_000_000, 21_500_000)),
        "sel": "0x" + one("a9059cbb", "095ea7b3", "23b872dd", "70a08231"),
        "topic": "0x" + hexs(64),
        "ens": one("treasury", "acme-dao", "payroll") + ".eth",
    }


def ipfs() -> Fields:
    digest = rbytes(32)
    pub = b"\x08\x01\x12\x20" + rbytes(32)
    identity = b"\x00\x24" + pub
    return {
        "v0": b58(b"\x12\x20" + digest),
        "v1": "b" + base32_lower(b"\x01\x70\x12\x20" + digest),
        "raw": "b" + base32_lower(b"\x01\x55\x12\x20" + rbytes(32)),
        "ipns": "k" + base36(b"\x01\x72" + identity),
        "peer": b58(identity),
        "name": one("report.pdf", "index.html", "dataset.csv"),
    }


def ibans() -> Fields:
    de = iban("DE", pick(DIG, 18))
    gb = iban("GB", pick(UPPER, 4) + pick(DIG, 14))
    fr = iban("FR", pick(DIG, 10) + pick(UPPER + DIG, 11) + pick(DIG, 2))
    nl = iban("NL", one("ABNA", "INGB", "RABO", "TRIO") + pick(DIG, 10))
    es = iban("ES", pick(DIG, 20))
    ch = iban("CH", pick(DIG, 5) + pick(UPPER + DIG, 12))
    be = iban("BE", pick(DIG, 12))
    it = iban("IT", pick(UPPER, 1) + pick(DIG, 10) + pick(UPPER + DIG, 12))
    return {"de": de, "gb": gb, "fr": fr, "nl": nl, "es": es, "ch": ch, "be": be, "it": it, "deg": grouped(de)}


def commits() -> Fields:
    full, other = hexs(40), hexs(40)
    return {
        "full": full,
        "other": other,
        "short": full[: RNG.choice([7, 8, 10, 12])],
        "short2": other[:7],
        "tree": hexs(40),
        "sha256": hexs(64),
        "n": str(RNG.randint(1, 240)),
        "pr": str(RNG.randint(10, 9999)),
        "tag": f"v{RNG.randint(0, 4)}.{RNG.randint(0, 30)}.{RNG.randint(0, 9)}",
        "change": "I" + hexs(40),
    }


def versions() -> Fields:
    maj, mi, pa = RNG.randint(0, 9), RNG.randint(0, 40), RNG.randint(0, 20)
    return {
        "semver": f"{maj}.{mi}.{pa}-{one('rc', 'beta', 'alpha')}.{RNG.randint(1, 9)}+{one('build', 'sha')}.{hexs(7)}",
        "gopseudo": f"v0.0.0-{RNG.randint(2019, 2025)}{RNG.randint(1, 12):02d}{RNG.randint(1, 28):02d}{RNG.randint(0, 23):02d}{RNG.randint(0, 59):02d}{RNG.randint(0, 59):02d}-{hexs(12)}",
        "pep440": f"{maj}.{mi}.{pa}.dev{RNG.randint(1, 99)}+g{hexs(8)}",
        "deb": f"{RNG.randint(1, 2)}:{maj}.{mi}.{pa}-{RNG.randint(1, 9)}ubuntu{RNG.randint(1, 4)}.{RNG.randint(1, 12)}",
        "rpm": f"{one('openssl', 'kernel', 'glibc')}-{maj}.{mi}.{pa}-{RNG.randint(1, 90)}.el9_{RNG.randint(1, 5)}.x86_64",
        "mvn": f"{maj}.{mi}.{pa}-{RNG.randint(2023, 2025)}{RNG.randint(1, 12):02d}{RNG.randint(1, 28):02d}.{RNG.randint(0, 235959):06d}-{RNG.randint(1, 40)}",
        "rustc": f"1.{RNG.randint(70, 90)}.{RNG.randint(0, 2)} ({hexs(9)} {RNG.randint(2023, 2025)}-{RNG.randint(1, 12):02d}-{RNG.randint(1, 28):02d})",
        "describe": f"v{maj}.{mi}.{pa}-{RNG.randint(1, 200)}-g{hexs(RNG.choice([7, 8, 12]))}",
        "chrome": f"{RNG.randint(110, 132)}.0.{RNG.randint(5000, 6999)}.{RNG.randint(1, 250)}",
        "android": f"{one('14', '15')}/{one('AP2A', 'UP1A', 'BP1A')}.{RNG.randint(240101, 250630)}.{RNG.randint(1, 60):03d}/{digits(8)}",
        "xcode": f"{RNG.randint(14, 16)}{pick('ABCDEFG', 1)}{RNG.randint(10, 999)}{one('a', 'b', 'c', 'd', '')}",
    }


def lockfiles() -> Fields:
    pkg = one("lodash", "react-dom", "chalk", "semver", "zod", "undici")
    ver = f"{RNG.randint(1, 19)}.{RNG.randint(0, 30)}.{RNG.randint(0, 12)}"
    return {
        "pkg": pkg,
        "ver": ver,
        "sha512": b64(rbytes(64)),
        "sha1hex": hexs(40),
        "cargo": hexs(64),
        "crate": one("serde", "tokio", "regex", "anyhow"),
        "gosum": b64(rbytes(32)),
        "gomod": one("golang.org/x/net", "github.com/spf13/cobra", "google.golang.org/grpc"),
        "py": one("numpy", "pydantic-core", "attrs"),
        "pysha": hexs(64),
        "nar": b64(rbytes(32)),
        "rev": hexs(40),
        "pod": hexs(40),
    }


def images() -> Fields:
    name = one(
        "ghcr.io/acme/api",
        "docker.io/library/postgres",
        "quay.io/prometheus/node-exporter",
        "registry.gitlab.com/acme/web",
    )
    return {
        "name": name,
        "tag": one("1.27.3", "16-alpine", "v1.8.2", "2025.01.14"),
        "digest": hexs(64),
        "config": hexs(64),
        "imgid": hexs(12),
        "cid": hexs(12),
        "layer": hexs(64),
        "size": f"{RNG.randint(20, 900)}MB",
    }


def kubernetes() -> Fields:
    dep = one("api", "web-frontend", "payments-worker", "ingress-nginx-controller")
    rs = pick(POD, RNG.choice([9, 10]))
    return {
        "pod": f"{dep}-{rs}-{pick(POD, 5)}",
        "dep": dep,
        "rs": rs,
        "uid": uid(),
        "rv": str(RNG.randint(10**5, 10**8)),
        "cid": hexs(64),
        "node": one(
            f"gke-prod-default-pool-{hexs(8)}-{pick(LOWER + DIG, 4)}",
            f"ip-10-{RNG.randint(0, 255)}-{RNG.randint(0, 255)}-{RNG.randint(1, 254)}.ec2.internal",
            f"aks-nodepool1-{pick(DIG, 8)}-vmss{RNG.randint(0, 99):06d}",
        ),
        "cm": f"{one('app-config', 'nginx-conf', 'env')}-{pick(POD, 10)}",
        "job": f"{one('db-migrate', 'nightly-export')}-{RNG.randint(28000000, 29999999)}-{pick(POD, 5)}",
        "imgsha": hexs(64),
    }


def gpg() -> Fields:
    fpr = hexs(40).upper()
    return {
        "fpr": fpr,
        "spaced": " ".join(fpr[i : i + 4] for i in range(0, 40, 4)),
        "long": fpr[-16:],
        "sub": hexs(16).upper(),
        "date": f"{RNG.randint(2016, 2025)}-{RNG.randint(1, 12):02d}-{RNG.randint(1, 28):02d}",
        "algo": one("rsa4096", "ed25519", "rsa3072"),
        "wkd": pick("ybndrfg8ejkmcpqxot1uwisza345h769", 32),
        "who": one("Ana Kovac <ana@example.org>", "Build Bot <release@example.com>"),
    }


def ssh_fingerprint() -> Fields:
    return {
        "sha": b64(hashlib.sha256(rbytes(32)).digest(), pad=False),
        "sha2": b64(hashlib.sha256(rbytes(32)).digest(), pad=False),
        "md5": ":".join(f"{b:02x}" for b in hashlib.md5(rbytes(32)).digest()),
        "bits": one("256", "3072", "4096"),
        "kind": one("ED25519", "RSA", "ECDSA"),
        "who": one("ana@laptop", "deploy@ci", "root@bastion"),
        "host": one("git.example.org", "10.0.4.12", "bastion.acme.internal"),
    }


def public_keys() -> Fields:
    return {
        "ed": ed25519_pub(),
        "rsa": rsa_pub(),
        "ecdsa": ecdsa_pub(),
        "age": bech32_encode("age", to5(rbytes(32))),
        "wg": b64(rbytes(32)),
        "minisign": b64(b"Ed" + rbytes(8) + rbytes(32)),
        "x": b64(rbytes(32), url=True, pad=False),
        "y": b64(rbytes(32), url=True, pad=False),
        "kid": pick(B64URL, 43),
        "pin": b64(hashlib.sha256(rbytes(32)).digest()),
        "who": one("ana@laptop", "ci@build-01", "ops@bastion"),
    }


def base64_text() -> Fields:
    phrase = one(
        "Deploys freeze on Friday at noon.",
        "Welcome to the staging cluster, please be gentle.",
        "Maintenance window: Sunday 02:00 to 04:00 UTC",
        "hello from the build server",
        "The quick brown fox jumps over the lazy dog",
    )
    obj = json.dumps(
        {"env": one("staging", "prod"), "region": one("eu-west-1", "us-east-1"), "replicas": RNG.randint(1, 9)}
    )
    return {"text": b64(phrase.encode()), "json": b64(obj.encode()), "url": b64(phrase.encode(), url=True, pad=False)}


def jwt_header() -> Fields:
    alg = one("RS256", "ES256", "EdDSA", "PS256", "HS256")
    kid = pick(B64URL, RNG.choice([16, 27, 43]))
    hdr = lambda d: b64(json.dumps(d, separators=(",", ":")).encode(), url=True, pad=False)  # noqa: E731
    return {
        "plain": hdr({"alg": alg, "typ": "JWT"}),
        "kid": hdr({"alg": alg, "kid": kid, "typ": "JWT"}),
        "jwe": hdr({"alg": "RSA-OAEP-256", "enc": "A256GCM", "kid": kid}),
        "alg": alg,
    }


def colours() -> Fields:
    c = lambda: hexs(6)  # noqa: E731
    return {
        "a": c(),
        "b": c(),
        "c": c(),
        "d": c(),
        "e": c(),
        "alpha": hexs(8),
        "up": c().upper(),
        "argb": hexs(8).upper(),
        "r": str(RNG.randint(0, 255)),
        "g": str(RNG.randint(0, 255)),
        "bl": str(RNG.randint(0, 255)),
    }


def shortcuts() -> Fields:
    key = lambda: one(*"ABCDEFGHIJKLMNOPQRSTUVWXYZ")  # noqa: E731
    return {
        "k1": key(),
        "k2": key(),
        "k3": key().lower(),
        "fn": f"F{RNG.randint(1, 12)}",
        "mod": one("Ctrl", "Cmd", "Shift"),
    }


def models() -> Fields:
    return {
        "claude": one("claude-sonnet-4-5-20250929", "claude-3-5-haiku-20241022", "claude-opus-4-1-20250805"),
        "bedrock": one(
            "anthropic.claude-3-5-sonnet-20240620-v1:0",
            "meta.llama3-1-70b-instruct-v1:0",
            "amazon.titan-embed-text-v2:0",
        ),
        "vertex": one("claude-3-5-sonnet-v2@20241022", "gemini-1.5-pro-002", "text-embedding-005"),
        "hf": one(
            "Qwen/Qwen2.5-Coder-7B-Instruct", "meta-llama/Llama-3.2-3B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3"
        ),
        "rev": hexs(40),
        "ollama": one("llama3.2:3b-instruct-q4_K_M", "qwen2.5-coder:14b", "nomic-embed-text:latest"),
        "gguf": one("Meta-Llama-3.1-8B-Instruct-Q5_K_M.gguf", "mistral-7b-instruct-v0.2.Q4_K_S.gguf"),
        "ft": f"ft:gpt-4o-mini-2024-07-18:{one('acme', 'personal')}::{pick(B62, 8)}",
        "oa": one("gpt-4o-2024-08-06", "gpt-4.1-mini", "o3-mini-2025-01-31", "text-embedding-3-large"),
    }


def issn() -> str:
    body = pick(DIG, 7)
    check = (11 - sum(int(d) * w for d, w in zip(body, range(8, 1, -1), strict=True)) % 11) % 11
    return f"{body[:4]}-{body[4:]}{'X' if check == 10 else check}"


def orcid() -> str:
    body = "000" + str(RNG.randint(0, 3)) + pick(DIG, 11)
    total = 0
    for d in body:
        total = (total + int(d)) * 2
    check = (12 - total % 11) % 11
    full = body + ("X" if check == 10 else str(check))
    return "-".join(full[i : i + 4] for i in range(0, 16, 4))


def isbn13() -> str:
    body = one("978", "9798")
    body += pick(DIG, 12 - len(body))
    check = (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body)) % 10) % 10
    return body + str(check)


def scholarly() -> Fields:
    isbn = isbn13()
    return {
        "doi": f"10.{RNG.randint(1000, 99999)}/{one('j.cell', 'nature', 's41586', 'acs.jcim', 'pnas')}.{RNG.randint(2015, 2025)}.{RNG.randint(1000, 99999)}",
        "zenodo": f"10.5281/zenodo.{RNG.randint(1_000_000, 15_000_000)}",
        "biorxiv": f"10.1101/{RNG.randint(2020, 2025)}.{RNG.randint(1, 12):02d}.{RNG.randint(1, 28):02d}.{RNG.randint(500000, 650000)}",
        "arxiv": f"{RNG.randint(15, 25)}{RNG.randint(1, 12):02d}.{RNG.randint(0, 99999):05d}",
        "orcid": orcid(),
        "isbn": isbn,
        "isbnh": f"{isbn[:3]}-{isbn[3]}-{isbn[4:8]}-{isbn[8:12]}-{isbn[12]}",
        "issn": issn(),
        "pmid": str(RNG.randint(20_000_000, 39_999_999)),
        "pmc": f"PMC{RNG.randint(1_000_000, 11_999_999)}",
        "s2": hexs(40),
        "openalex": f"W{RNG.randint(1_000_000_000, 4_999_999_999)}",
        "wikidata": f"Q{RNG.randint(1000, 130_000_000)}",
    }


def spotify() -> Fields:
    return {
        "track": pick(B62, 22),
        "album": pick(B62, 22),
        "pl": pick(B62, 22),
        "show": pick(B62, 22),
        "artist": pick(B62, 22),
        "si": hexs(16),
        "user": pick(LOWER + DIG, 25),
    }


def youtube() -> Fields:
    vid = lambda: pick(B64URL, 10) + one(*"AEIMQUYcgkosw048")  # noqa: E731
    return {
        "v": vid(),
        "v2": vid(),
        "t": str(RNG.randint(5, 3600)),
        "pl": "PL" + pick(B64URL, 32),
        "ch": "UC" + pick(B64URL, 21) + one("A", "Q", "g", "w"),
        "si": pick(B64URL, 16),
        "handle": one("@acmeengineering", "@fireship", "@computerphile"),
    }


T = list[str]
FAMILIES: dict[str, tuple[Callable[[], Fields], T]] = {
    "tracing": (
        tracing,
        [
            "incoming request carried traceparent: 00-{trace}-{span}-{flags}",
            "tracestate: acme={vendor},rojo=00f067aa0ba902b7 (beside traceparent 00-{trace}-{parent}-01)",
            "B3 headers from the mesh: X-B3-TraceId: {trace} X-B3-SpanId: {span} X-B3-ParentSpanId: {parent} X-B3-Sampled: 1",
            "single-header propagation b3: {trace}-{span}-1-{parent}",
            "X-Amzn-Trace-Id: Root={xray};Parent={span};Sampled=1",
            "datadog dropped the trace: x-datadog-trace-id: {dd}, x-datadog-parent-id: {ddspan}",
            "log line had dd.trace_id={dd} dd.span_id={ddspan} and _dd.p.tid={tid}",
            "uber-trace-id: {trace}:{span}:0:1",
            "X-Cloud-Trace-Context: {trace}/{gspan};o=1",
            "frontend sent sentry-trace: {trace}-{span}-1",
            '{{"traceId":"{trace}","spanId":"{span}","name":"GET /orders"}}',
            "Sentry issue event {event} is the one with the stack trace",
        ],
    ),
    "misc-ids": (
        misc_ids,
        [
            "post release notes in Slack channel {chan} and ping {user}",
            "thread with the decision: https://acme.slack.com/archives/{chan}/{pts}",
            "slack workspace {team}, message ts {ts}",
            "Discord bug report: https://discord.com/channels/{guild}/{dchan}/{dmsg}",
            "discord server id {guild}",
            "tracked in Jira as {jira}; Linear twin is {linear}",
            "https://linear.app/acme/issue/{linear}/{slug}",
            "Linear issue uuid {luuid}",
            "Sentry event id {sentry}",
            "row ids are ULIDs now, e.g. {ulid}",
            "segment ksuid {ksuid}",
            'Mongo document _id ObjectId("{oid}")',
            "Trello card https://trello.com/c/{trello}/42-{slug}",
            "Asana task https://app.asana.com/0/{asana1}/{asana2}",
        ],
    ),
    "aws": (
        aws,
        [
            "prod account {acct}, role {role}",
            "the function is {lambda}",
            "stack id {stack}",
            "bastion {inst} runs {ami} in {vpc} / {subnet}, security group {sg}",
            "CloudFront distribution {cf}, hosted zone {zone}",
            "RequestId: {req} Duration: 812.44 ms",
            "docker push {ecr}:latest",
            "Cognito user pool {pool}, app client id {client}",
            "identity pool {idpool}",
            "EKS OIDC issuer https://oidc.eks.{region}.amazonaws.com/id/{oidc}",
            "X-Ray trace {xray} shows the slow DynamoDB call",
        ],
    ),
    "azure": (
        azure,
        [
            "subscription {sub} under tenant {tenant}",
            "/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Compute/virtualMachines/{vm}",
            "Entra app registration: client id {app}, object id {obj}",
            "APPLICATIONINSIGHTS_CONNECTION_STRING=InstrumentationKey={ikey};IngestionEndpoint=https://{region}-1.in.applicationinsights.azure.com/;ApplicationId={appid}",
            "x-ms-correlation-request-id: {corr}",
            "AB#{wi} links the commit to the Azure Boards item",
            "az account set --subscription {sub}",
        ],
    ),
    "gcp": (
        gcp,
        [
            "project {project} (number {number})",
            "deploys run as {sa}",
            "OAuth client id for the desktop app: {client}",
            "instance id {inst} in us-central1-a",
            "trace: projects/{project}/traces/{trace}",
            "Cloud Build {build} failed at step 3",
            "service URL {run}",
            "us-docker.pkg.dev/{project}/apps/api@sha256:{digest}",
            "gsutil ls gs://{bucket}/2025/",
        ],
    ),
    "bitcoin": (
        bitcoin,
        [
            "donations: {p2pkh}",
            "multisig vault {p2sh}",
            "send {sats} sats to {wpkh}",
            "taproot receive address {tr}",
            "cold storage script hash address {wsh}",
            "testnet faucet sent coins to {tb}",
            "txid {txid} has 3 confirmations",
            "block hash {block}",
            "watch-only wallet imported from xpub {xpub}",
        ],
    ),
    "ethereum": (
        ethereum,
        [
            "multisig on mainnet: {addr}",
            "USDC contract we call is {token}",
            "refund went to {lower}",
            "https://etherscan.io/address/{addr}",
            "tx {tx} mined in block {block}",
            "function selector {sel} is transfer(address,uint256)",
            "log topic0 {topic}",
            "{ens} resolves to {addr}",
        ],
    ),
    "ipfs": (
        ipfs,
        [
            "pinned {name} as {v0}",
            "https://ipfs.io/ipfs/{v1}/{name}",
            "ipfs://{raw}",
            "https://{v1}.ipfs.dweb.link/",
            "IPNS name /ipns/{ipns}",
            "bootstrap peer /ip4/147.75.83.83/tcp/4001/p2p/{peer}",
            "ipfs cat {v0} | head",
        ],
    ),
    "iban": (
        ibans,
        [
            "rent goes to {de}",
            "UK supplier IBAN {gb}",
            "French invoice: IBAN {fr}",
            "Dutch account {nl}, Spanish {es}",
            "Swiss payroll account {ch}",
            "IBAN (printed): {deg}",
            "Belgian {be} and Italian {it} accounts of the subsidiary",
        ],
    ),
    "commits": (
        commits,
        [
            "the regression came in with {full}",
            "fixed in {short} (see #{pr})",
            "https://github.com/acme/api/commit/{full}",
            "compare: https://github.com/acme/api/compare/{short}...{short2}",
            "(cherry picked from commit {full})",
            "Merge: {short} {short2}",
            "git show {tree}:README.md",
            "repo uses sha256 objects; HEAD is {sha256}",
            "gitlab: https://gitlab.com/acme/web/-/commit/{other}",
            "Change-Id: {change}",
            "{short} Bump {tag} ({n} files changed)",
        ],
    ),
    "versions": (
        versions,
        [
            "release candidate {semver}",
            "go.mod pins {gopseudo}",
            "setuptools-scm made {pep440}",
            "apt shows libssl3 {deb}",
            "dnf updated {rpm}",
            "snapshot artifact {mvn}",
            "rustc {rustc}",
            "git describe says {describe}",
            "Chrome {chrome} fixes the crash",
            "Pixel build {android}",
            "Xcode build {xcode}",
        ],
    ),
    "lockfiles": (
        lockfiles,
        [
            '"integrity": "sha512-{sha512}"',
            'resolved "https://registry.yarnpkg.com/{pkg}/-/{pkg}-{ver}.tgz#{sha1hex}"',
            "    resolution: {{integrity: sha512-{sha512}}}",
            'name = "{crate}"\nversion = "{ver}"\nchecksum = "{cargo}"',
            "{gomod} v{ver} h1:{gosum}",
            '{{file = "{py}-{ver}-cp312-cp312-manylinux_2_17_x86_64.whl", hash = "sha256:{pysha}"}}',
            '"narHash": "sha256-{nar}",',
            '"revision" : "{rev}",',
            "  {pkg}: {pod}",
        ],
    ),
    "images": (
        images,
        [
            "image: {name}:{tag}@sha256:{digest}",
            "docker pull {name}@sha256:{digest}",
            "{name}   {tag}   {imgid}   2 weeks ago   {size}",
            "container {cid} exited with 137",
            '"config": {{"digest": "sha256:{config}"}}',
            "layer sha256:{layer} already exists",
            "FROM {name}:{tag}@sha256:{digest} AS build",
        ],
    ),
    "kubernetes": (
        kubernetes,
        [
            "{pod}   0/1   CrashLoopBackOff   7   12m",
            "kubectl logs {pod} -c app --previous",
            "replicaset {dep}-{rs} scaled to 0",
            'uid: {uid}\nresourceVersion: "{rv}"',
            "containerID: containerd://{cid}",
            "node {node} is NotReady",
            "configMapRef name {cm}",
            "cronjob pod {job} completed",
            "imageID: docker.io/library/nginx@sha256:{imgsha}",
        ],
    ),
    "gpg": (
        gpg,
        [
            "sign releases with {fpr}",
            "      {spaced}",
            "pub   {algo} {date} [SC]\n      {fpr}\nuid           [ultimate] {who}",
            "git config user.signingkey {long}",
            "gpg --recv-keys {fpr}",
            "sub   cv25519/{sub} {date} [E]",
            "Primary key fingerprint: {spaced}",
            "https://keys.openpgp.org/vks/v1/by-fingerprint/{fpr}",
            "WKD lookup: .well-known/openpgpkey/hu/{wkd}",
        ],
    ),
    "ssh-fingerprint": (
        ssh_fingerprint,
        [
            "{bits} SHA256:{sha} {who} ({kind})",
            "ED25519 key fingerprint is SHA256:{sha}.",
            "the deploy key's fingerprint is SHA256:{sha2}",
            "old style MD5 fingerprint {md5}",
            "debug1: Server host key: ssh-ed25519 SHA256:{sha}",
            "Host key for {host} changed; new fingerprint SHA256:{sha2}",
            "ssh-keygen -E md5 -lf id_rsa.pub printed MD5:{md5}",
        ],
    ),
    "public-keys": (
        public_keys,
        [
            "ssh-ed25519 {ed} {who}",
            'authorized_keys: from="10.0.0.0/8",no-port-forwarding ssh-rsa {rsa} {who}',
            "ecdsa-sha2-nistp256 {ecdsa}",
            "age recipient {age}",
            "[Peer]\nPublicKey = {wg}\nAllowedIPs = 10.8.0.2/32",
            "minisign public key: {minisign}",
            '{{"kty":"EC","crv":"P-256","x":"{x}","y":"{y}","kid":"{kid}"}}',
            'Public-Key-Pins: pin-sha256="{pin}"; max-age=5184000',
        ],
    ),
    "base64-text": (
        base64_text,
        [
            "the MOTD is stored as {text}",
            "echo {text} | base64 -d",
            "configmap binaryData settings.json: {json}",
            "x-note header (base64url): {url}",
        ],
    ),
    "jwt-header": (
        jwt_header,
        [
            "every token we issue starts with {plain}",
            "decoded the header {kid} to find the kid",
            "JWE compact header {jwe}",
            "{alg} tokens begin {kid}.",
        ],
    ),
    "colours": (
        colours,
        [
            "brand palette: #{a}, #{b}, #{c}, #{d}",
            "background: linear-gradient(135deg, #{a} 0%, #{b} 100%);",
            "https://coolors.co/{a}-{b}-{c}-{d}-{e}",
            "overlay colour #{alpha}",
            "Flutter: Color(0x{argb})",
            "--accent: #{up}; --accent-rgb: {r}, {g}, {bl};",
            "theme.json primary {a} secondary {b} tertiary {c}",
        ],
    ),
    "shortcuts": (
        shortcuts,
        [
            "Ctrl+Shift+{k1} opens the palette",
            "{mod}+Alt+{k2} toggles the terminal",
            "chord Ctrl+K Ctrl+{k1}",
            "⌘⇧{k1} in Safari, ⌃⌥⌘{k2} in Finder",
            '{{"key": "ctrl+alt+{k3}", "command": "workbench.action.tasks.runTask"}}',
            "emacs: C-x C-{k3}, then M-x",
            "tmux prefix then {k3}; Win+Shift+S for screenshots, Alt+{fn} to close",
        ],
    ),
    "models": (
        models,
        [
            "default model {claude}",
            "Bedrock model id {bedrock}",
            "on Vertex it is {vertex}",
            "HF repo {hf} at revision {rev}",
            "ollama pull {ollama}",
            "llama.cpp loads {gguf}",
            "fine-tune finished: {ft}",
            "evals ran on {oa}",
        ],
    ),
    "scholarly": (
        scholarly,
        [
            "cite https://doi.org/{doi}",
            "dataset DOI {zenodo}; preprint doi:{biorxiv}",
            "arXiv:{arxiv} is the survey",
            "author ORCID https://orcid.org/{orcid}",
            "ISBN {isbnh} (paperback {isbn})",
            "journal ISSN {issn}",
            "PMID: {pmid}, {pmc}",
            "Semantic Scholar paper {s2}",
            "OpenAlex {openalex}; Wikidata {wikidata}",
        ],
    ),
    "spotify": (
        spotify,
        [
            "focus playlist https://open.spotify.com/playlist/{pl}?si={si}",
            "spotify:track:{track}",
            "album link open.spotify.com/album/{album}",
            "podcast spotify:show:{show}",
            "https://open.spotify.com/artist/{artist}",
            "Spotify user {user}",
        ],
    ),
    "youtube": (
        youtube,
        [
            "talk recording https://www.youtube.com/watch?v={v}&t={t}s",
            "https://youtu.be/{v2}?si={si}",
            '<iframe src="https://www.youtube-nocookie.com/embed/{v}"></iframe>',
            "course playlist https://www.youtube.com/playlist?list={pl}",
            "YouTube channel {ch} ({handle})",
            "https://www.youtube.com/shorts/{v2}",
            "thumbnail https://i.ytimg.com/vi/{v}/hqdefault.jpg",
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
        "source": "Made by build_families.py: public identifiers in the families identifiers.json names (only its "
        "family names read), own wording, values in each vendor's documented shape with its checksum (seed 8032). "
        "A tuning part. Each text must come out unchanged.",
        "families-tune": samples,
    }


def main() -> None:
    print(json.dumps(build(), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
