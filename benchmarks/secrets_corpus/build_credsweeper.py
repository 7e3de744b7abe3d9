"""Build ``credsweeper-{tune,held}`` and ``credsweeper-neg-{tune,held}`` from CredSweeper's test samples (round 22).

CredSweeper (github.com/Samsung/CredSweeper, MIT) tests its scanner on the files of ``tests/samples/`` and keeps
what each run must report in ``tests/data/*.json``: one object per finding, its ``rule`` and a ``line_data_list``
of the lines it spans, each with the sample's ``path``, the ``line`` and the ``value`` found in it. None of our parts
had used it (issue 32 round 22). This script reads those files, never running CredSweeper:

- a finding of ``tests/data/output.json`` (the default run: rules, filters and the ML model) is a secret sample:
  its text the sample's lines it spans (one line, or the lines of a private key block or an id/secret pair), its
  secrets the values found, each 6+ characters and found once in the text. Findings whose rule reports a public
  identifier (``PUBLIC_RULES``: UUIDs, bucket and domain names, app and client ids, nonces, salts) are left out,
  and so are the public halves of a pair (an ``AKIA``/``LTAI`` key id, a Google client id) and the markers of a
  block (a PEM ``-----BEGIN`` line, a JWK's ``"kty"`` field);
- with the look-alikes: every other line of a text sample (UTF-8, no NUL byte) with 8+ characters that no run of
  ``tests/data/*.json`` reports (the ML-off, filters-off, deep and ``--doc`` runs too), nor holds a value one
  reports. Many sit in files written to be rejected (``password_FALSE``, ``false_positive``, ``*_n``): scored like
  trufflehog's invalid cases, near-misses of a credential rather than harmless notes.

Samples are split by the SHA-256 of the sample file's name (its last byte even: ``-tune``, odd: ``-held``), as
``build_trufflehog_tests.py --half`` splits detectors; written and committed before any result of a half was read.
A text found in files of both halves goes to ``-held`` only, so tuning never reads a held-out line. Built locally
(MIT: it could be shipped, but is kept beside the other parts)::

    git --git-dir CREDSWEEPER archive HEAD tests/samples tests/data | tar -x -C /tmp/cs
    python benchmarks/secrets_corpus/build_credsweeper.py /tmp/cs OUT
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned credsweeper-tune --extra OUT/credsweeper-tune.json \\
        --tuned credsweeper-neg-tune --extra-benign OUT/credsweeper-neg-tune.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

PUBLIC_RULES = {
    "UUID",
    "AWS S3 Bucket",
    "Firebase Domain",
    "AWS Client ID",
    "Alibaba Access Key ID",
    "Tencent WeChat API App ID",
    "Nonce",
    "Salt",
}
"""Rules whose finding names something rather than unlocking it (CredSweeper rates most of them info or low)."""

_PUBLIC_VALUE_RE = re.compile(r"^(?:AKIA|ASIA|LTAI)[0-9A-Z]|\.apps\.googleusercontent\.com$|^-----|\"kty\"")
"""Values of a multi-line finding that are not its secret: a key id, a client id, a block's marker line."""

SOURCE = "CredSweeper's test samples and expected findings (github.com/Samsung/CredSweeper, MIT)"


def half(name: str) -> str:
    """``"tune"`` or ``"held"``: the half of sample file ``name`` (its SHA-256's last byte even: tune)."""
    return "tune" if hashlib.sha256(name.encode("utf-8")).digest()[-1] % 2 == 0 else "held"


def _lines(samples: Path, name: str) -> list[str] | None:
    """The lines of sample file ``name`` when it is text (UTF-8, no NUL byte), else None."""
    path = samples / name
    if not path.is_file():
        return None
    raw = path.read_bytes()
    if b"\0" in raw:
        return None
    try:
        return raw.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return None


def _text(finding: dict, lines: list[str] | None) -> str:
    """The sample text of ``finding``: the file's lines it spans when they hold its lines, else its lines joined."""
    data = finding["line_data_list"]
    nums = sorted({ld["line_num"] for ld in data})
    own = "\n".join(dict.fromkeys(ld["line"] for ld in sorted(data, key=lambda ld: ld["line_num"])))
    if lines is None or nums[0] < 1 or nums[-1] > len(lines) or nums[-1] - nums[0] > 200:
        return own
    span = lines[nums[0] - 1 : nums[-1]]
    if all(ld["line"].strip() in lines[ld["line_num"] - 1] for ld in data):
        return "\n".join(span)
    return own


def secrets(root: Path) -> list[tuple[str, dict]]:
    """``(sample file name, sample)`` of every secret finding of ``tests/data/output.json`` under ``root``."""
    samples = root / "tests" / "samples"
    found = json.loads((root / "tests" / "data" / "output.json").read_text(encoding="utf-8"))
    out: list[tuple[str, dict]] = []
    for f in found:
        if f["rule"] in PUBLIC_RULES:
            continue
        paths = {Path(ld["path"]).name for ld in f["line_data_list"]}
        if len(paths) != 1:
            continue
        name = paths.pop()
        text = _text(f, _lines(samples, name))
        values: list[str] = []
        for ld in f["line_data_list"]:
            v = ld["value"].strip()
            if len(v) >= 6 and not _PUBLIC_VALUE_RE.search(v) and text.count(v) == 1 and v not in values:
                values.append(v)
        if values:
            out.append((name, {"family": f["rule"], "file": name, "text": text, "secrets": values}))
    return out


def look_alikes(root: Path) -> list[tuple[str, dict]]:
    """``(sample file name, sample)`` of every line of a text sample that no run reports."""
    samples = root / "tests" / "samples"
    reported: set[str] = set()
    values: set[str] = set()
    for run in sorted((root / "tests" / "data").glob("*.json")):
        for f in json.loads(run.read_text(encoding="utf-8")):
            for ld in f.get("line_data_list", []):
                reported.add(ld["line"].strip())
                if len(ld["value"].strip()) >= 4:
                    values.add(ld["value"].strip())
    out: list[tuple[str, dict]] = []
    for path in sorted(samples.iterdir()):
        lines = _lines(samples, path.name)
        for line in lines or []:
            s = line.strip()
            if len(s) < 8 or s in reported or any(v in s for v in values):
                continue
            out.append((path.name, {"family": path.name, "text": line}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="a CredSweeper tree holding tests/samples and tests/data")
    parser.add_argument("out", type=Path, help="folder receiving the four part files")
    args = parser.parse_args()
    for kind, rows in (("", secrets(args.root)), ("-neg", look_alikes(args.root))):
        halves: dict[str, set[str]] = {}
        for name, s in rows:
            halves.setdefault(s["text"], set()).add(half(name))
        parts: dict[str, list[dict]] = {"tune": [], "held": []}
        seen: dict[str, dict] = {}
        for _name, s in rows:
            side = "held" if "held" in halves[s["text"]] else "tune"
            if s["text"] in seen:
                if "secrets" in s:
                    seen[s["text"]]["secrets"] += [v for v in s["secrets"] if v not in seen[s["text"]]["secrets"]]
                continue
            seen[s["text"]] = s
            parts[side].append(s)
        for side, samples in parts.items():
            path = args.out / f"credsweeper{kind}-{side}.json"
            source = f"{SOURCE}, the {side} half by the SHA-256 of the sample file's name; build_credsweeper.py"
            path.write_text(json.dumps({"source": source, "samples": samples}, indent=1), encoding="utf-8")
            files = len({s.get("file", s["family"]) for s in samples})
            print(f"{path}: {len(samples)} samples from {files} files", file=sys.stderr)


if __name__ == "__main__":
    main()
