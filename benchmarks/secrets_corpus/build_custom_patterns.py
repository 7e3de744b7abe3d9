"""Build a tuning corpus from GitHub's secret-scanning custom-pattern tests (not committed: run it).

``advanced-security/secret-scanning-custom-patterns`` (github.com, MIT, snapshot 9b84660d, 2025-09-04) is a
library of secret-scanning custom patterns, each with a one-line ``test: data:`` sample whose secret is given by
``start_offset``/``end_offset``, run against fixture files (``.env``, ``application.properties``, ``web.config``,
JWTs, PEM and GPG keys, connection strings, vendor tokens) whose expected findings are kept as snapshots
(``__snapshots__/<type>.csv``: the SHA-256 of each secret, its file, line and columns). None of our parts used it
(issue 32 round 17). Every sample is labelled by the library's own patterns, not by ours:

- a secret sample: a pattern's ``test.data`` with the secret its offsets give; and each snapshot finding whose
  file is in the snapshot, the finding's lines as the text and the found text as the secret (kept only when its
  SHA-256 is the snapshot's, so a moved line is dropped, not mislabelled). Patterns that find no secret are left
  out: personal data (``pii/``: card numbers, IBANs), IP addresses, internal e-mail addresses and URLs, SSH
  public keys, a GitHub Actions SHA check, registry typos;
- with ``--negatives``, a look-alike: every other non-empty line of the fixture folders that hold secrets, when
  no pattern found anything on it and it holds neither a secret-named assignment (``password=``, ``token:``)
  nor a run of 8+ characters mixing letters and digits (which the library's patterns need not cover, so it is
  not called either way). Hex dumps, labels and UUIDs written as not-secrets (``vendors/not_okta.txt``,
  ``generic/uuids.txt``) are look-alikes whatever their shape.

Run::

    git -C PATTERNS archive HEAD | tar -x -C /tmp/ghpatterns
    python benchmarks/secrets_corpus/build_custom_patterns.py /tmp/ghpatterns > /tmp/ghpatterns.json
    python benchmarks/secrets_corpus/build_custom_patterns.py --negatives /tmp/ghpatterns > /tmp/ghpatterns-neg.json
    python benchmarks/bench_secrets_sources.py --extra /tmp/ghpatterns.json --tuned ghpatterns \\
        --extra-benign /tmp/ghpatterns-neg.json --tuned ghpatterns-neg
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
from pathlib import Path

import yaml

_NOT_SECRET_TYPES = re.compile(
    r"iban.*|credit_card.*|any_ipv4.*|.*ipv4.*|hardcoded_internal_(?:emails|urls)|ssh_public_key|"
    r"github_actions_sha_checker|ghcr_typos|email.*|uuids|azure_sql_connection_string"
)
"""Pattern types whose findings are not secrets (personal data, addresses, a public key, a pinning check, bare
UUIDs) or not the secret (``azure_sql_connection_string`` finds the server's host name)."""
_NOT_SECRET_DIRS = {"pii", "testing", ".github", ".devcontainer", ".vscode", "password_store"}
"""``password_store`` finds an encrypted store's JSON header, not a secret."""
_LOOKALIKE_FILES = {"vendors/not_okta.txt", "generic/uuids.txt"}
_SECRET_NAME_RE = re.compile(r"(?i)pass|pwd|secret|key|token|cred|auth|bearer")
_ASSIGNED_RE = re.compile(r"""(?i)(?:pass|pwd|secret|key|token|cred|auth|bearer)\w*["']?\s*(?::=|=>|[:=,]|\s)""")
_USERINFO_RE = re.compile(r"://[^\s/@]+:[^\s/@]+@")
_MIXED_RE = re.compile(r"(?=[^\s\"',;:=]{8,})(?=\S*[A-Za-z])(?=\S*\d)(?<![^\s\"',;:=(\[{<>])[^\s\"',;:=]{8,}")
_ARMOUR_RE = re.compile(r"-----(?:BEGIN|END)")


def _patterns(root: Path) -> list[tuple[str, dict]]:
    """Every pattern of every ``patterns.yml``, with its folder."""
    out = []
    for path in sorted(root.rglob("patterns.yml")):
        folder = path.parent.relative_to(root).as_posix()
        for pattern in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("patterns") or []:
            out.append((folder, pattern))
    return out


def _wanted(folder: str, kind: str) -> bool:
    return folder.split("/")[0] not in _NOT_SECRET_DIRS and not _NOT_SECRET_TYPES.fullmatch(kind)


def _test_samples(root: Path) -> list[dict]:
    samples = []
    for folder, pattern in _patterns(root):
        kind = str(pattern.get("type", ""))
        tests = pattern.get("test") or []
        for n, test in enumerate(tests if isinstance(tests, list) else [tests]):
            data = test.get("data") if isinstance(test, dict) else None
            if not _wanted(folder, kind) or not isinstance(data, str) or "start_offset" not in test:
                continue
            secret = data[int(test["start_offset"]) : int(test.get("end_offset", len(data)))]
            if _real(secret, data):
                rule = f"{kind}:test{n}"
                samples.append({"family": f"{folder}:{kind}", "rule": rule, "text": data, "secrets": [secret]})
    return samples


def _findings(root: Path) -> list[tuple[str, str, int, int, str]]:
    """(type, file, first line, last line, secret) of each snapshot finding whose file and hash still match."""
    out = []
    for snap in sorted(root.rglob("__snapshots__/*.csv")):
        for row in csv.DictReader(snap.read_text(encoding="utf-8").splitlines()):
            path = root / row["path"]
            if not path.is_file():
                continue
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            first, last = int(row["start_line"]), int(row["end_line"])
            if not 1 <= first <= last <= len(lines):
                continue
            secret = _cut(lines[first - 1 : last], int(row["start_column"]), int(row["end_column"]), row["secret"])
            if secret is not None:
                out.append((row["secret_type"], row["path"], first, last, secret))
    return out


def _cut(lines: list[str], start: int, end: int, digest: str) -> str | None:
    """The found text at the snapshot's columns (0- or 1-based), when its SHA-256 is the snapshot's."""
    for shift in (0, 1):
        if len(lines) == 1:
            candidate = lines[0][start - shift : end - shift]
        else:
            candidate = "\n".join([lines[0][start - shift :], *lines[1:-1], lines[-1][: end - shift]])
        if hashlib.sha256(candidate.encode()).hexdigest() == digest:
            return candidate
    return None


def _benign(line: str) -> bool:
    return not (
        _ASSIGNED_RE.search(line) or _MIXED_RE.search(line) or _ARMOUR_RE.search(line) or _USERINFO_RE.search(line)
    )


def _real(secret: str, text: str) -> bool:
    """A found text worth a sample: 4+ distinct characters (not ``AAAA`` or ``****``), and only once in its text
    (``user=webgoat&password=webgoat`` cannot tell whether the password went)."""
    return len(set(secret.strip())) >= 4 and text.count(secret) == 1


def build(root: Path, negatives: bool) -> dict:
    findings = _findings(root)
    samples: list[dict] = []
    if not negatives:
        samples += _test_samples(root)
        for kind, rel, first, last, secret in findings:
            folder = rel.split("/")[0]
            lines = (root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
            text = "\n".join(lines[first - 1 : last])
            if not _wanted(folder, kind) or not _real(secret, text):
                continue
            samples.append(
                {"family": f"{folder}:{kind}", "rule": f"{kind}:{rel}:{first}", "text": text, "secrets": [secret]}
            )
    else:
        found = {(rel, n) for _kind, rel, first, last, _s in findings for n in range(first, last + 1)}
        folders = {rel.split("/")[0] for kind, rel, *_ in findings if _wanted(rel.split("/")[0], kind)}
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if (
                not path.is_file()
                or rel.split("/")[0] not in folders
                or "__snapshots__" in rel
                or path.name in ("patterns.yml", "README.md")
            ):
                continue
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except UnicodeDecodeError:
                continue
            in_key = False
            for n, line in enumerate(lines, start=1):
                if _ARMOUR_RE.search(line):
                    in_key = "BEGIN" in line
                    continue
                if in_key or not line.strip() or (rel, n) in found:
                    continue
                if rel in _LOOKALIKE_FILES or _benign(line):
                    samples.append({"family": rel, "text": line})
    seen: set[str] = set()
    unique = [s for s in samples if not (s["text"] in seen or seen.add(s["text"]))]
    what = "look-alike lines" if negatives else "lines with a secret"
    return {
        "source": f"GitHub secret-scanning custom patterns (advanced-security), tests and fixtures, {what} (MIT, local)",
        "samples": unique,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="the patterns repository's checkout")
    parser.add_argument("--negatives", action="store_true", help="the look-alike lines instead of the secrets")
    args = parser.parse_args()
    print(json.dumps(build(args.root, args.negatives), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
