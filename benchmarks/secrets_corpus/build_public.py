"""Build ``public.json``: public formats that look like secrets and are not, each in a line memory would hold.

Every value is made here in its format's documented structure (keys and
certificates with ``cryptography``, digests with ``hashlib``, the rest from the
formats' specifications with a fixed seed), so none is anyone's real data:

- OCI/Docker image references pinned by digest (``name@sha256:<64 hex>``), alone,
  in a Dockerfile ``FROM``, in a Kubernetes ``image:`` line, in a sentence;
- SSH public keys (``ssh-ed25519``, ``ssh-rsa``, ``ecdsa-sha2-nistp256``) and
  ``authorized_keys``/``known_hosts`` lines; PEM public keys and X.509 certificates;
- Subresource Integrity and npm ``integrity`` values (``sha256/384/512-<base64>``),
  pip ``--hash=sha256:``, Go ``go.sum`` ``h1:`` lines, ``sha256sum`` output;
- publishable keys meant for browsers: Stripe ``pk_live_``/``pk_test_``, Mapbox
  ``pk.<base64 JSON>.<id>``;
- base64 ``data:`` URLs of real little images and fonts;
- git object ids (SHA-1 and SHA-256), abbreviated and full, in the ways memory
  mentions them; UUIDs in every usual case and wrapping;
- GPG fingerprints, age and WireGuard public keys, Ethereum addresses.

Run::

    python benchmarks/secrets_corpus/build_public.py > benchmarks/secrets_corpus/public.json
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import random
import struct
import uuid
import zlib

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa, x25519
from cryptography.x509.oid import NameOID

RNG = random.Random(3232)
B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
WORDS = [
    "app",
    "api",
    "web",
    "worker",
    "billing",
    "search",
    "auth",
    "gateway",
    "ingest",
    "report",
    "cron",
    "proxy",
    "cache",
    "store",
]


def rhex(n: int) -> str:
    return "".join(RNG.choice("0123456789abcdef") for _ in range(n))


def rbytes(n: int) -> bytes:
    return bytes(RNG.randrange(256) for _ in range(n))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def images() -> list[tuple[str, str]]:
    names = [
        "nginx",
        "postgres",
        "redis",
        "python",
        "ghcr.io/acme/{w}",
        "docker.io/library/alpine",
        "registry.gitlab.com/team/{w}",
        "123456789012.dkr.ecr.eu-west-1.amazonaws.com/{w}",
        "quay.io/prometheus/node-exporter",
        "gcr.io/distroless/static-debian12",
        "mcr.microsoft.com/dotnet/aspnet",
        "europe-docker.pkg.dev/proj-1234/repo/{w}",
    ]
    out = []
    for i, name in enumerate(names * 3):
        ref = name.format(w=RNG.choice(WORDS))
        tag = RNG.choice(["", ":1.27", ":16-alpine", ":3.12-slim", ":v2.4.1", ":latest"])
        digest = f"sha256:{rhex(64)}"
        form = i % 6
        if form == 0:
            out.append((f"pin the base image to {ref}{tag}@{digest} for reproducible builds", "image-digest"))
        elif form == 1:
            out.append((f"FROM {ref}{tag}@{digest} AS build", "image-digest"))
        elif form == 2:
            out.append((f"    image: {ref}{tag}@{digest}", "image-digest"))
        elif form == 3:
            out.append((f"deployed digest {digest} ({ref}{tag})", "image-digest"))
        elif form == 4:
            out.append((f"docker pull {ref}@{digest}", "image-digest"))
        else:
            out.append((f'"image": "{ref}{tag}@{digest}"', "image-digest"))
    return out


def _ssh_wire(*parts: bytes) -> bytes:
    return b"".join(struct.pack(">I", len(p)) + p for p in parts)


def ssh_keys() -> list[tuple[str, str]]:
    out = []
    for i in range(12):
        kind = i % 3
        if kind == 0:
            key = ed25519.Ed25519PrivateKey.generate().public_key()
        elif kind == 1:
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048 if i % 2 else 3072).public_key()
        else:
            key = ec.generate_private_key(ec.SECP256R1()).public_key()
        line = key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()
        user = f"{RNG.choice(['alice', 'bob', 'deploy', 'ci', 'root'])}@{RNG.choice(WORDS)}-{RNG.randint(1, 9)}"
        form = i % 4
        if form == 0:
            out.append((f"{line} {user}", "ssh-public-key"))
        elif form == 1:
            out.append((f"added the deploy key {line} {user} to the repo", "ssh-public-key"))
        elif form == 2:
            out.append(
                (
                    f"{RNG.choice(WORDS)}.example.com,10.0.{RNG.randint(0, 9)}.{RNG.randint(1, 254)} {line}",
                    "ssh-public-key",
                )
            )
        else:
            out.append((f'command="/usr/bin/backup",no-pty {line} {user}', "ssh-public-key"))
    return out


def _name(cn: str) -> x509.Name:
    return x509.Name(
        [x509.NameAttribute(NameOID.COMMON_NAME, cn), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Example")]
    )


def pems() -> list[tuple[str, str]]:
    out = []
    for i in range(8):
        if i % 2:
            key = ec.generate_private_key(ec.SECP256R1())
        else:
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pub = (
            key.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
        )
        if i < 4:
            out.append((f"the webhook signature public key:\n{pub.strip()}", "pem-public-key"))
            continue
        now = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
        cn = f"{RNG.choice(WORDS)}.example.com"
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name(cn))
            .issuer_name(_name("Example CA"))
            .public_key(key.public_key())
            .serial_number(RNG.getrandbits(64))
            .not_valid_before(now)
            .not_valid_after(now + datetime.timedelta(days=365))
            .sign(key, hashes.SHA256())
        )
        pem = cert.public_bytes(serialization.Encoding.PEM).decode().strip()
        out.append((f"pin this CA certificate for {cn}:\n{pem}", "certificate"))
    rsa_pub = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key()
    pkcs1 = rsa_pub.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.PKCS1).decode().strip()
    out.append((pkcs1, "pem-public-key"))
    return out


def integrity() -> list[tuple[str, str]]:
    out = []
    for i in range(30):
        data = rbytes(200)
        algo = ("sha256", "sha384", "sha512")[i % 3]
        value = f"{algo}-{b64(hashlib.new(algo, data).digest())}"
        pkg = RNG.choice(["react", "lodash", "@types/node", "typescript", "esbuild", "vite", "zod"])
        form = i % 5
        if form == 0:
            out.append((f'      "integrity": "{value}",', "sri"))
        elif form == 1:
            url = f"https://cdn.jsdelivr.net/npm/{pkg}@{RNG.randint(1, 9)}.{RNG.randint(0, 20)}.0/dist/index.min.js"
            out.append((f'<script src="{url}" integrity="{value}" crossorigin="anonymous"></script>', "sri"))
        elif form == 2:
            out.append((f"{pkg}@^{RNG.randint(1, 9)}.0.0:\n  integrity {value}", "sri"))
        elif form == 3:
            out.append((f"the lockfile integrity for {pkg} is {value}", "sri"))
        else:
            out.append((f'<link rel="stylesheet" href="/app.css" integrity="{value}">', "sri"))
    for i in range(10):
        digest = hashlib.sha256(rbytes(64)).hexdigest()
        pkg = RNG.choice(["requests", "numpy", "pydantic", "rich", "httpx"])
        if i % 3 == 0:
            out.append((f"{pkg}==2.{RNG.randint(0, 30)}.{RNG.randint(0, 9)} --hash=sha256:{digest}", "pip-hash"))
        elif i % 3 == 1:
            out.append((f"{digest}  {pkg}-1.{i}.0.tar.gz", "checksum"))
        else:
            h1 = b64(hashlib.sha256(rbytes(32)).digest())
            out.append(
                (f"golang.org/x/{RNG.choice(['net', 'sys', 'text'])} v0.{RNG.randint(1, 40)}.0 h1:{h1}", "go-sum")
            )
    return out


def publishable() -> list[tuple[str, str]]:
    out = []
    for i in range(10):
        mode = "live" if i % 2 == 0 else "test"
        value = f"pk_{mode}_" + "".join(RNG.choice(B62) for _ in range(RNG.choice([24, 99])))
        form = i % 3
        if form == 0:
            out.append((f"Stripe publishable key for checkout.js: {value}", "publishable-key"))
        elif form == 1:
            out.append((f"STRIPE_PUBLISHABLE_KEY={value}", "publishable-key"))
        else:
            out.append((f"const stripe = Stripe('{value}');", "publishable-key"))
    for i in range(8):
        user = RNG.choice(["acme", "mapteam", "jdoe", "geo-lab"])
        payload = (
            base64.urlsafe_b64encode(
                json.dumps(
                    {"u": user, "a": "".join(RNG.choice(B62) for _ in range(25)).lower()}, separators=(",", ":")
                ).encode()
            )
            .decode()
            .rstrip("=")
        )
        value = f"pk.{payload}.{''.join(RNG.choice(B62 + '-_') for _ in range(22))}"
        form = i % 3
        if form == 0:
            out.append((f"mapboxgl.accessToken = '{value}';", "publishable-key"))
        elif form == 1:
            out.append((f"the public Mapbox token (URL-restricted) is {value}", "publishable-key"))
        else:
            out.append((f"NEXT_PUBLIC_MAPBOX_TOKEN={value}", "publishable-key"))
    return out


def _png(w: int, h: int) -> bytes:
    raw = b"".join(b"\x00" + rbytes(w * 3) for _ in range(h))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def data_urls() -> list[tuple[str, str]]:
    out = []
    for i in range(14):
        if i % 4 == 3:
            svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="{RNG.randint(8, 32)}" height="16"><circle cx="8" cy="8" r="{RNG.randint(2, 7)}" fill="#{rhex(6)}"/></svg>'
            url = f"data:image/svg+xml;base64,{b64(svg.encode())}"
        elif i % 4 == 2:
            url = f"data:font/woff2;base64,{b64(b'wOF2' + rbytes(RNG.randint(40, 120)))}"
        else:
            url = f"data:image/png;base64,{b64(_png(RNG.randint(1, 4), RNG.randint(1, 4)))}"
        form = i % 3
        if form == 0:
            out.append((f'<img alt="logo" src="{url}">', "data-url"))
        elif form == 1:
            out.append((f".icon {{ background-image: url({url}); }}", "data-url"))
        else:
            out.append((f"the favicon is inlined as {url}", "data-url"))
    return out


def git_ids() -> list[tuple[str, str]]:
    out = []
    for i in range(30):
        full = rhex(40) if i % 5 else rhex(64)
        short = full[: RNG.choice([7, 8, 10, 12])]
        form = i % 6
        if form == 0:
            out.append((f"fixed in commit {full}", "git-oid"))
        elif form == 1:
            out.append((f"revert {short}, it broke the migration", "git-oid"))
        elif form == 2:
            out.append((f"git cherry-pick {full}", "git-oid"))
        elif form == 3:
            out.append((f"tree {full}\nparent {rhex(40)}\nauthor Jo <jo@example.com> 1767225600 +0000", "git-oid"))
        elif form == 4:
            out.append((f"the release tag points at {short}..{rhex(40)[:9]}", "git-oid"))
        else:
            out.append((f"pinned: uses: actions/checkout@{rhex(40)} # v4.2.2", "git-oid"))
    return out


def uuids() -> list[tuple[str, str]]:
    out = []
    for i in range(20):
        u = uuid.UUID(int=RNG.getrandbits(128), version=4)
        s = str(u)
        form = i % 6
        if form == 0:
            out.append((f"tenant id {s}", "uuid"))
        elif form == 1:
            out.append((f"request_id={s.upper()}", "uuid"))
        elif form == 2:
            out.append((f"{{{s}}} is the Visual Studio project GUID", "uuid"))
        elif form == 3:
            out.append((f"subscription: {s}", "uuid"))
        elif form == 4:
            out.append((f"urn:uuid:{s}", "uuid"))
        else:
            out.append((f"the Notion page id is {s.replace('-', '')}", "uuid"))
    return out


def others() -> list[tuple[str, str]]:
    out = []
    for _ in range(4):
        fp = rhex(40).upper()
        out.append(
            (f"sign releases with GPG key {' '.join(fp[i : i + 4] for i in range(0, 40, 4))}", "gpg-fingerprint")
        )
        out.append((f"gpg --recv-keys {fp}", "gpg-fingerprint"))
    for i in range(4):
        pub = (
            x25519.X25519PrivateKey.generate()
            .public_key()
            .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        )
        out.append((f"[Peer]\nPublicKey = {b64(pub)}\nAllowedIPs = 10.8.0.{i + 2}/32", "wireguard-public-key"))
    alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    for _ in range(3):
        out.append(
            (
                f"encrypt backups to the recipient age1{''.join(RNG.choice(alphabet) for _ in range(58))}",
                "age-public-key",
            )
        )
    for _ in range(3):
        out.append((f"donations: 0x{rhex(40)}", "eth-address"))
    return out


def main() -> None:
    groups = {
        "image-digest": images(),
        "ssh-public-key": ssh_keys(),
        "pem": pems(),
        "integrity": integrity(),
        "publishable-key": publishable(),
        "data-url": data_urls(),
        "git-oid": git_ids(),
        "uuid": uuids(),
        "other-public": others(),
    }
    samples = [{"family": kind, "text": text} for group in groups.values() for text, kind in group]
    doc = {
        "source": "Made by build_public.py: public formats in their documented structure (keys and certificates "
        "generated with cryptography, digests with hashlib, seed 3232). Each text must come out unchanged.",
        "samples": samples,
    }
    print(json.dumps(doc, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
