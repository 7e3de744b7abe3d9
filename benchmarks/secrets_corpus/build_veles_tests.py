"""Build a tuning corpus from Veles' detector tests (Google's OSV-SCALIBR secret scanner; not committed: run it).

Veles (github.com/google/osv-scalibr, ``veles/secrets/<vendor>/*_test.go``, Apache-2.0) is the secret scanner
of Google's OSV-SCALIBR, which Kingfisher 2 also imports. None of our parts had used it (issue 32 round 18). Each
detector is tested with a Go table of cases, each an ``input`` text and the ``want`` secrets, struct literals
such as ``APIKey{Key: validAPIKey}`` (none, or no ``want``, in a ``NoMatches`` table). This script reads those
tables without running Go, with the Go-literal reader of :mod:`build_trufflehog_tests`:

- a case whose ``want`` holds a struct whose secret field (not a public key, id, user, project or URL field) is
  found verbatim in the ``input``, 16+ characters, no spaces, not a URL, e-mail address or host (as
  ``corpus.json``: public identifiers are left out) is a secret sample: its text the ``input``, its secrets those
  fields;
- with ``--negatives``, a case of a table without ``want`` (``TestDetector_NoMatches``) or with an empty one is a
  look-alike. Veles' negatives are mostly near-misses of the exact format (a key one character short, an upper-case
  letter where the vendor has none): scored like trufflehog's invalid cases, not as harmless text.

Run::

    git -C OSV_SCALIBR archive HEAD veles/secrets | tar -x -C /tmp/veles
    python benchmarks/secrets_corpus/build_veles_tests.py /tmp/veles/veles/secrets > /tmp/veles-tests.json
    python benchmarks/secrets_corpus/build_veles_tests.py --negatives /tmp/veles/veles/secrets > /tmp/veles-neg.json
    python benchmarks/bench_secrets_sources.py --extra /tmp/veles-tests.json --tuned veles-tests \\
        --extra-benign /tmp/veles-neg.json --tuned veles-neg
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_trufflehog_tests import _ASSIGN_RE, _PUBLIC_RE, _expr

_CASE_RE = re.compile(r"name:\s*(?P<name>\"(?:[^\"\\]|\\.)*\"|`[^`]*`),\s*input:\s*")
_FIELD_RE = re.compile(r"\b(?P<field>[A-Z]\w*):\s*")
_PUBLIC_FIELD_RE = re.compile(
    r"(?i).*public.*|id|clientid|roleid|privatekeyid|projectid|projectref|user(?:name)?|.*ur[il]|subject|subscriber"
    r"|serviceaccount|type|universedomain|ttl"
)
"""Fields of a wanted secret that name it rather than hold it: a public key (VAPID's), a user or client id, a project
reference, a URL, an account's e-mail. The Go field names Veles gives them; the paired secret is still counted."""


def _block(src: str, pos: int) -> tuple[str, int] | None:
    """The text inside the braces opening at or after ``pos`` (balanced, strings skipped), and where it ends."""
    start = src.find("{", pos)
    if start < 0:
        return None
    depth, i = 0, start
    while i < len(src):
        ch = src[i]
        if ch in '"`':
            end = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"" if ch == '"' else r"`[^`]*`").match(src, i)
            i = end.end() if end else i + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return src[start + 1 : i], i + 1
        i += 1
    return None


def _want(src: str, pos: int, env: dict[str, str]) -> tuple[list[str] | None, bool, bool]:
    """The secret fields of the ``want`` structs after ``pos`` (``[]`` for nil, empty or none), whether read, and
    whether any field was wanted at all (a finding whose fields are all public, a URL holding its credentials, is
    still a finding: not a no-match look-alike)."""
    m = re.compile(r",\s*want:\s*").match(src, pos)
    if m is None:
        nxt = re.compile(r",?\s*}").match(src, pos)
        return ([], True, False) if nxt else (None, False, False)
    pos = m.end()
    if src.startswith("nil", pos):
        return [], True, False
    found = _block(src, pos)
    if found is None:
        return None, False, False
    body, _ = found
    values: list[str] = []
    wanted = False
    for f in _FIELD_RE.finditer(body):
        wanted = True
        if _PUBLIC_FIELD_RE.fullmatch(f.group("field")):
            continue
        value, _ = _expr(body, f.end(), env)
        if value:
            values.append(value)
    return values, True, wanted


def cases(path: Path) -> tuple[list[tuple[str, str, list[str], bool]], int]:
    """``(case name, input, secret fields wanted, whether anything is wanted)`` of every case of one test file that
    resolves, and how many did not."""
    src = path.read_text(encoding="utf-8", errors="replace")
    env: dict[str, str] = {}
    for m in _ASSIGN_RE.finditer(src):
        value, _ = _expr(src, m.end(), env)
        if value is not None:
            env[m.group("name")] = value
    out, skipped = [], 0
    for m in _CASE_RE.finditer(src):
        name, _ = _expr(src, m.start("name"), env)
        text, end = _expr(src, m.end(), env)
        want, ok, wanted = _want(src, end, env) if text is not None else (None, False, False)
        if text is None or not ok or want is None:
            skipped += 1
            continue
        out.append((name or "", text, want, wanted))
    return out, skipped


def _secrets(want: list[str], text: str) -> list[str]:
    out: list[str] = []
    for w in want:
        w = w.strip()
        if w in text and len(w) >= 16 and " " not in w and not _PUBLIC_RE.search(w) and w not in out:
            out.append(w)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("secrets", type=Path, help="Veles' veles/secrets folder")
    parser.add_argument("--negatives", action="store_true", help="write the no-match look-alikes instead")
    args = parser.parse_args()
    samples: list[dict] = []
    skipped = dropped = 0
    for path in sorted(args.secrets.rglob("*_test.go")):
        if "validator" in path.name or "velestest" in path.parts:
            continue
        family = path.relative_to(args.secrets).parts[0]
        found, bad = cases(path)
        skipped += bad
        for name, text, want, wanted in found:
            if args.negatives:
                if not wanted and text.strip():
                    samples.append({"family": family, "text": text})
                continue
            if not want:
                continue
            secrets = _secrets(want, text)
            if not secrets:
                dropped += 1
                continue
            samples.append({"family": family, "rule": f"{family}: {name}", "text": text, "secrets": secrets})
    kind = "no-match look-alikes" if args.negatives else "cases with a secret"
    doc = {
        "source": f"Veles (google/osv-scalibr) veles/secrets/*/*_test.go {kind} (Apache-2.0, local); "
        f"{skipped} cases not resolvable without Go, {dropped} with no secret field of 16+ characters left out.",
        "samples": samples,
    }
    print(json.dumps(doc, indent=1, ensure_ascii=False))
    print(
        f"{len(samples)} samples from {len({s['family'] for s in samples})} detectors; {doc['source']}", file=sys.stderr
    )


if __name__ == "__main__":
    main()
