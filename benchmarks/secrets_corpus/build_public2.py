"""Build ``public2.json``: real public identifiers from public repositories, each line with its source URL.

Issue 32 (round 9, false alarms on public identifiers). The sets before this
one (``public.json``, ``identifiers.json``, ``formats.json``, ``families.json``)
were all written here, in the shapes the formats' documentation gives. This
one is harvested instead: every value comes from a public repository's docs,
test fixtures or lockfiles, where a maintainer wrote or a tool printed it.
Nothing in it was read from any held-out set.

Lines are taken as the file has them (stripped, at most 300 characters), so
the set holds lockfile lines, YAML, JSON fixtures, shell sessions and prose.
Where a file holds bare values (a JSON list of test numbers, a doctest's list
of sample IBANs), the value is put in a short note in a fixed rotation of
wordings and only values that pass their format's checksum are used. Each
sample keeps the ``url`` of the line it came from (``blob/<commit>/<path>#L<n>``).

A line is left out when it names a credential (``secret``, ``password``,
``private``, ``token``, ``xprv`` ...) or an invalid example, so every line is
one memory may hold verbatim. At most ``CAP`` distinct values per family and
repository.

The repositories are not shipped (their licences vary); the output is built
locally from snapshots of them, one folder per repository holding a git
directory at ``<owner>+<name>/repo``. The list is ``SPECS``. Run::

    python benchmarks/secrets_corpus/build_public2.py --mirrors DIR > /tmp/public2.json
    python benchmarks/bench_secrets_sources.py --extra-benign /tmp/public2.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

CAP = 30
MAX_LINE = 300
DENY = re.compile(
    r"secret|passw|passwd|private|priv_?key|token|xprv|tprv|\bwif\b|mnemonic|seed|api[_-]?key|credential"
    r"|invalid|bad|wrong|AKIA|ASIA|BEGIN |signature|\b(?:sk|rk|whsec)_",
    re.I,
)


@dataclass(frozen=True)
class Spec:
    """Where one family's values are: a repository, the files (a regex on the path), and the value's regex."""

    family: str
    repo: str
    paths: str
    value: str


SPECS = [
    Spec("ksuid", "segmentio/ksuid", r"README\.md$", r"\b0u[0-9A-Za-z]{25}\b"),
    Spec("ulid", "oklog/ulid", r"(README\.md|\.go)$", r"\b0[0-7][0-9A-HJKMNP-TV-Z]{24}\b"),
    Spec("nanoid", "ai/nanoid", r"^README\.md$", r"(?<![\w-])[A-Za-z0-9_-]{21}(?![\w-])"),
    Spec("magnet", "webtorrent/magnet-uri", r"(README\.md|test/.*\.js)$", r"magnet:\?xt=urn:bt[im]h:[0-9A-Za-z]{32,}"),
    Spec("infohash", "webtorrent/parse-torrent", r"(README\.md|test/.*\.js)$", r"\b[0-9a-f]{40}\b"),
    Spec("ipfs-cid", "multiformats/cid", r"README\.md$", r"\b(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{50,})\b"),
    Spec(
        "ipfs-cid",
        "multiformats/js-multiformats",
        r"(README\.md|test/.*\.(js|ts))$",
        r"\b(Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{50,}|z[1-9A-HJ-NP-Za-km-z]{46,})\b",
    ),
    Spec(
        "bitcoin-bech32", "bitcoin/bips", r"\.(mediawiki|md|json)$", r"\b(bc1|tb1|bcrt1)[qp][02-9ac-hj-np-z]{38,60}\b"
    ),
    Spec("bitcoin-base58", "bitcoin/bips", r"\.(mediawiki|md)$", r"(?<![\w/])[13mn2][1-9A-HJ-NP-Za-km-z]{25,34}(?!\w)"),
    Spec(
        "bitcoin-bech32",
        "bitcoinjs/bitcoinjs-lib",
        r"(README\.md|test/fixtures/(address|p2wpkh|p2wsh|p2tr)\.json)$",
        r"\b(bc1|tb1)[qp][02-9ac-hj-np-z]{38,60}\b",
    ),
    Spec(
        "bitcoin-base58",
        "bitcoinjs/bitcoinjs-lib",
        r"test/fixtures/(address|p2pkh|p2sh)\.json$",
        r"(?<![\w/])[123mn][1-9A-HJ-NP-Za-km-z]{25,34}(?!\w)",
    ),
    Spec("ethereum", "ethereum/eth-utils", r"\.(rst|md|py)$", r"\b0x[0-9a-fA-F]{40}\b"),
    Spec("snowflake", "discord/discord-api-docs", r"\.(md|mdx)$", r"(?<!\d)[1-9][0-9]{16,18}(?!\d)"),
    Spec("nix-store", "NixOS/nix", r"^(doc|src/.*\.md$)", r"/nix/store/[0-9a-df-np-sv-z]{32}-[\w.+-]+"),
    Spec("nix-hash", "NixOS/nix", r"^doc/.*\.md$", r"\bsha(256|512)-[A-Za-z0-9+/]{43,86}={0,2}"),
    Spec("aws-arn", "aws/aws-cli", r"^awscli/examples/.*\.rst$", r"\barn:aws[\w-]*:[\w-]+:[\w-]*:\d{12}:[\w/:.-]+"),
    Spec(
        "aws-ids",
        "aws/aws-cli",
        r"^awscli/examples/ec2/.*\.rst$",
        r"\b(ami|vpc|subnet|sg|i|vol|snap|eni|igw|rtb)-[0-9a-f]{17}\b",
    ),
    Spec(
        "aws-request-id",
        "aws/aws-cli",
        r"^awscli/examples/.*\.rst$",
        r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    ),
    Spec("image-digest", "sigstore/cosign", r"\.(md|yaml|yml|go|sh)$", r"@sha256:[0-9a-f]{64}"),
    Spec("actions-pin", "sigstore/cosign", r"^\.github/.*\.ya?ml$", r"uses: [\w.-]+/[\w./-]+@[0-9a-f]{40}"),
    Spec("go-sum", "sigstore/cosign", r"^go\.sum$", r" h1:[A-Za-z0-9+/]{43}="),
    Spec("commit-sha", "sigstore/cosign", r"^CHANGELOG\.md$", r"\b[0-9a-f]{7,40}\b"),
    Spec("image-digest", "sigstore/rekor", r"(Dockerfile.*|\.ya?ml|\.md)$", r"@sha256:[0-9a-f]{64}"),
    Spec("commit-sha", "axios/axios", r"^CHANGELOG\.md$", r"commit/[0-9a-f]{40}"),
    Spec("commit-sha", "cli/cli", r"^git/fixtures/", r"\b[0-9a-f]{40}\b"),
    Spec("ci-run", "cli/cli", r"\.(go|md|json)$", r"actions/runs/\d{7,}"),
    Spec("npm-integrity", "axios/axios", r"^package-lock\.json$", r'"integrity": "sha512-[A-Za-z0-9+/]{86}=="'),
    Spec("poetry-hash", "python-poetry/poetry", r"^poetry\.lock$", r'hash = "sha256:[0-9a-f]{64}"'),
    Spec("stripe-id", "stripe/openapi", r"^openapi/fixtures3\.json$", r'"[a-z]{2,6}_[0-9A-Za-z]{14,30}"'),
    Spec("slack-id", "slackapi/python-slack-sdk", r"\.(md|py)$", r'"[CUGWT][0-9A-Z]{8,10}"'),
    Spec("sri", "bigskysoftware/htmx", r"\.(md|html)$", r'integrity="sha(256|384|512)-[A-Za-z0-9+/]{43,86}={0,2}"'),
    Spec(
        "kubernetes",
        "kubernetes/examples",
        r"\.md$",
        r"^[a-z0-9-]+-[a-z0-9]{5}(?= +\d+/\d+ +(?:Running|Completed|Pending|ContainerCreating) )",
    ),
    Spec("ulid", "ulid/spec", r"README\.md$", r"\b0[0-7][0-9A-HJKMNP-TV-Z]{24}\b"),
    Spec("mix-lock", "phoenixframework/phoenix", r"^mix\.lock$", r'"[0-9a-f]{64}"'),
    Spec("uv-lock", "pydantic/pydantic", r"^uv\.lock$", r'hash = "sha256:[0-9a-f]{64}"'),
    Spec("flake-lock", "NixOS/nix", r"^flake\.lock$", r'"(narHash": "sha256-[A-Za-z0-9+/]{43}=|rev": "[0-9a-f]{40})"'),
    Spec("git-lfs", "git-lfs/git-lfs", r"\.(md|go)$", r"oid sha256:[0-9a-f]{64}"),
    Spec("homebrew", "hashicorp/homebrew-tap", r"^Formula/.*\.rb$", r'sha256 "[0-9a-f]{64}"'),
    Spec("cargo-checksum", "BurntSushi/ripgrep", r"Cargo\.lock$", r'checksum = "[0-9a-f]{64}"'),
    Spec("npm-integrity", "ai/nanoid", r"pnpm-lock\.yaml$", r"integrity: sha512-[A-Za-z0-9+/]{86}=="),
    Spec("pip-hash", "jazzband/pip-tools", r"\.(md|rst|txt|py)$", r"--hash=sha256:[0-9a-f]{64}"),
    Spec(
        "orcid",
        "citation-file-format/citation-file-format",
        r"\.(cff|md|yaml|json)$",
        r"\b\d{4}-\d{4}-\d{4}-\d{3}[\dX]\b",
    ),
    Spec("doi", "citation-file-format/citation-file-format", r"\.(cff|md|yaml|json)$", r"\b10\.\d{4,9}/[^\s\"'<>]+"),
    Spec(
        "kubernetes",
        "dhyana1984/kubernetes-in-action",
        r"\.(md|ya?ml)$",
        r"(uid: [0-9a-f-]{36}|resourceVersion: \"\d+\"|[a-z]+-[0-9a-f]{8,10}-[a-z0-9]{5}\b)",
    ),
]

VALUES = {
    # (family, repo, doctest file, checksum): bare values in python-stdnum's doctests of valid samples
    "iban": ("arthurdejong/python-stdnum", "tests/test_iban.doctest", r"^\.\.\. ([A-Z]{2}\d{2}[0-9A-Z ]{8,40})$"),
    "isbn": ("arthurdejong/python-stdnum", "tests/test_isbn.doctest", r"^\.\.\. ([0-9][0-9 -]{8,16}[0-9X])$"),
    "isin": ("arthurdejong/python-stdnum", "tests/test_isin.doctest", r"^\.\.\. ([A-Z]{2}[0-9A-Z]{9}[0-9])$"),
    "lei": ("arthurdejong/python-stdnum", "tests/test_lei.doctest", r"^\.\.\. ([0-9A-Z]{18}[0-9]{2})$"),
    "imei": ("arthurdejong/python-stdnum", "tests/test_imei.doctest", r"^\.\.\. ([0-9]{15})$"),
}
WORDING = {
    "iban": ["pay the supplier to IBAN {v}", "bank details for the invoice: {v}", "IBAN {v} (their finance team)"],
    "isbn": ["book for the reading group: ISBN {v}", "ordered ISBN {v} for the office", "ref: isbn {v}"],
    "isin": ["the fund's ISIN is {v}", "bought {v} in the pension account", "ISIN {v}"],
    "lei": ["counterparty LEI {v}", "their legal entity identifier: {v}", "LEI {v} on the contract"],
    "imei": ["test phone IMEI {v}", "the lost handset's IMEI is {v}", "device {v} enrolled in MDM"],
    "tracking": [
        "{courier} tracking number {v}",
        "the parcel went out, tracking {v}",
        "{courier}: {v} (replacement disk)",
    ],
}


def git(repo: Path, *args: str) -> str:
    """Git's output, or "" for a file the snapshot lacks (snapshots leave out files of 4 MiB and more)."""
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, errors="replace")
    return done.stdout if done.returncode == 0 else ""


def snapshot(mirrors: Path, name: str) -> tuple[Path, str]:
    folder = mirrors / name.replace("/", "+") / "repo"
    return folder, git(folder, "rev-parse", "HEAD").strip()


def luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def mod97(text: str) -> bool:
    return int("".join(str(int(c, 36)) for c in text)) % 97 == 1


def valid(family: str, v: str) -> bool:
    """Whether ``v`` passes its format's checksum (ISO 13616, ISO 2108, ISO 6166, ISO 17442, Luhn)."""
    s = v.replace(" ", "").replace("-", "")
    if family == "iban":
        return mod97(s[4:] + s[:4])
    if family == "isbn":
        if len(s) == 10:
            return sum((10 - i) * (10 if c == "X" else int(c)) for i, c in enumerate(s)) % 11 == 0
        return len(s) == 13 and s.isdigit() and sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(s)) % 10 == 0
    if family == "isin":
        return luhn("".join(str(int(c, 36)) for c in s))
    if family == "lei":
        return mod97(s)
    if family == "imei":
        return luhn(s)
    raise ValueError(family)


B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def base58check_ok(v: str) -> bool:
    """Whether ``v`` is 25 bytes of base58 whose last 4 are the double SHA-256 of the rest (Bitcoin's base58check),
    with a Bitcoin version byte (P2PKH/P2SH, main and test network)."""
    n = 0
    for c in v:
        if c not in B58:
            return False
        n = n * 58 + B58.index(c)
    raw = n.to_bytes(25, "big") if n < 1 << 200 else b""
    if len(v) - len(v.lstrip("1")) != len(raw) - len(raw.lstrip(b"\0")):
        return False
    return (
        len(raw) == 25
        and raw[0] in (0x00, 0x05, 0x6F, 0xC4)
        and hashlib.sha256(hashlib.sha256(raw[:21]).digest()).digest()[:4] == raw[21:]
    )


def bech32_ok(v: str) -> bool:
    """Whether ``v`` is a segwit address with a valid bech32 (v0, BIP-173) or bech32m (v1+, BIP-350) checksum,
    zero padding and a witness program of a valid length."""
    if v.lower() != v and v.upper() != v:
        return False
    hrp, _, data = v.lower().rpartition("1")
    if not hrp or len(data) < 7 or any(c not in BECH32 for c in data):
        return False
    values = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + [BECH32.index(c) for c in data]
    chk = 1
    for x in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ x
        for i, g in enumerate((0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)):
            chk ^= g if (top >> i) & 1 else 0
    if chk != (1 if BECH32.index(data[0]) == 0 else 0x2BC830A3):
        return False
    acc = bits = 0
    program = []
    for c in data[1:-6]:
        acc, bits = acc << 5 | BECH32.index(c), bits + 5
        if bits >= 8:
            bits -= 8
            program.append(acc >> bits & 0xFF)
    if bits >= 5 or acc & ((1 << bits) - 1):
        return False  # padding over 4 bits or not zero (BIP-173)
    version = BECH32.index(data[0])
    return 2 <= len(program) <= 40 and version <= 16 and (version != 0 or len(program) in (20, 32))


def value_ok(family: str, v: str) -> bool:
    """Whether a value harvested for ``family`` passes its checksum (those families that have one)."""
    if family == "bitcoin-bech32":
        return bech32_ok(v)
    if family == "bitcoin-base58":
        return base58check_ok(v)
    return True


def url(repo: str, commit: str, path: str, line: int) -> str:
    return f"https://github.com/{repo}/blob/{commit}/{path}#L{line}"


def from_lines(mirrors: Path, spec: Spec) -> list[dict]:
    folder, commit = snapshot(mirrors, spec.repo)
    paths = [p for p in git(folder, "ls-tree", "-r", "--name-only", commit).splitlines() if re.search(spec.paths, p)]
    seen: set[str] = set()
    out: list[dict] = []
    for path in sorted(paths):
        text = git(folder, "show", f"{commit}:{path}")
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if len(line) > MAX_LINE or DENY.search(line) or DENY.search(path):
                continue
            m = re.search(spec.value, line)
            if not m or m.group(0) in seen or not value_ok(spec.family, m.group(0)):
                continue
            seen.add(m.group(0))
            out.append({"family": spec.family, "text": line, "url": url(spec.repo, commit, path, n)})
            if len(out) >= CAP:
                return out
    return out


def from_values(mirrors: Path, family: str, repo: str, path: str, pattern: str) -> list[dict]:
    folder, commit = snapshot(mirrors, repo)
    out: list[dict] = []
    seen: set[str] = set()
    for n, raw in enumerate(git(folder, "show", f"{commit}:{path}").splitlines(), 1):
        m = re.match(pattern, raw.strip())
        if not m or m.group(1) in seen or not valid(family, m.group(1)):
            continue
        seen.add(m.group(1))
        text = WORDING[family][len(out) % 3].format(v=m.group(1))
        out.append({"family": family, "text": text, "url": url(repo, commit, path, n)})
        if len(out) >= CAP:
            break
    return out


def tracking(mirrors: Path) -> list[dict]:
    """Valid test numbers of each courier in jkeen/tracking_number_data (each courier's own ``test_numbers``)."""
    repo = "jkeen/tracking_number_data"
    folder, commit = snapshot(mirrors, repo)
    out: list[dict] = []
    for path in sorted(
        p for p in git(folder, "ls-tree", "-r", "--name-only", commit).splitlines() if p.startswith("couriers/")
    ):
        raw = git(folder, "show", f"{commit}:{path}")
        if not raw.strip():
            continue
        data = json.loads(raw)
        lines = raw.splitlines()
        for kind in data.get("tracking_numbers", []):
            for v in kind.get("test_numbers", {}).get("valid", [])[:3]:
                n = next((i for i, ln in enumerate(lines, 1) if json.dumps(v) in ln), 1)
                text = WORDING["tracking"][len(out) % 3].format(courier=data["name"], v=v)
                out.append({"family": "tracking", "text": text, "url": url(repo, commit, path, n)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, required=True, help="folder of <owner>+<name>/repo git snapshots")
    args = parser.parse_args()
    samples: list[dict] = []
    for spec in SPECS:
        samples += from_lines(args.mirrors, spec)
    for family, (repo, path, pattern) in VALUES.items():
        samples += from_values(args.mirrors, family, repo, path, pattern)
    samples += tracking(args.mirrors)
    source = (
        "Made by build_public2.py from public repositories' docs, fixtures and lockfiles (each sample's url); "
        "every text must come out unchanged."
    )
    print(json.dumps({"source": source, "samples": samples}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
