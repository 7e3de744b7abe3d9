"""Build a held-out corpus from trufflehog's detector tests (not committed: run it yourself).

trufflehog (github.com/trufflesecurity/trufflehog, AGPL-3.0, so the corpus made
from it is not shipped in this repo) tests each detector's regex with
``pkg/detectors/<vendor>/**/<vendor>_test.go``: a table of cases, each an
``input`` text and the ``want`` values the detector must find in it (none for
an "invalid pattern"). This script reads those tables without running Go:

- a case whose ``want`` is not empty is a secret sample: its text is the
  ``input``, its secrets the ``want`` values (or, for a value trufflehog joins
  from two parts such as ``id:secret``, each part) found verbatim in the input,
  16+ characters, no spaces (a part: token characters only), not a URL, e-mail address or host (as in
  ``corpus.json``: public identifiers are left out);
- a case whose ``want`` is empty and whose name says "invalid" is a look-alike:
  a text that must come out unchanged (``--negatives``).

Inputs are Go string literals, ``+`` concatenations of them, identifiers bound
to them in the file, or ``fmt.Sprintf`` of those; a case built any other way is
left out and counted. Run::

    git -C TRUFFLEHOG archive HEAD pkg/detectors | tar -x -C /tmp/th
    python benchmarks/secrets_corpus/build_trufflehog_tests.py /tmp/th/pkg/detectors > /tmp/th-tests.json
    python benchmarks/secrets_corpus/build_trufflehog_tests.py --negatives /tmp/th/pkg/detectors > /tmp/th-invalid.json
    python benchmarks/bench_secrets_sources.py --extra /tmp/th-tests.json --extra-benign /tmp/th-invalid.json

``--half tune`` / ``--half held`` keeps one half of the detectors, chosen by the SHA-256 of the detector's name
(its folder under ``pkg/detectors``; issue 32 round 16, written and committed before any result of a half was read):
the tune half's misses may be read while writing rules, the held half is scored by counts only. The input may also
be a file this script wrote (``trufflehog-tests.json``), split without reading trufflehog again (its secret pieces
filtered again by today's ``_PUBLIC_RE``, so an older file gives what a build today would)::

    python benchmarks/secrets_corpus/build_trufflehog_tests.py --half tune /tmp/th-tests.json > trufflehog-tests-tune.json
    python benchmarks/secrets_corpus/build_trufflehog_tests.py --half held /tmp/th-tests.json > trufflehog-tests-held.json
    python benchmarks/secrets_corpus/build_trufflehog_tests.py --half tune /tmp/th-invalid.json > trufflehog-invalid-tune.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

_IDENT_RE = re.compile(r"[A-Za-z_][\w.]*")
_ASSIGN_RE = re.compile(r"(?m)^\s*(?:var\s+|const\s+)?(?P<name>[A-Za-z_]\w*)\s*(?::=|=)\s*")
_CASE_RE = re.compile(r"name:\s*(?P<name>\"(?:[^\"\\]|\\.)*\"|`[^`]*`),\s*input:\s*")
_PUBLIC_RE = re.compile(r"://|@|^[\w-]+(?:\.[\w-]+)+$|^\d+$|^//|^jdbc:")
"""A URL, e-mail address, host or number; since round 16 also a URL's tail a split at ``:`` leaves (``//host.com``
from ``https://host.com:8200``) and a ``jdbc:`` connection string (a URL; one with a password holds ``://…@``)."""
_TOKEN_RE = re.compile(r"[A-Za-z0-9_+/=.~$-]+")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "0": "\0"}


def _go_string(src: str) -> str:
    """The value of a Go interpreted string literal's body (common escapes; others kept as written)."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), src)


def _sprintf(fmt: str, args: list[str]) -> str | None:
    out, it = [], iter(args)
    pos = 0
    for m in re.finditer(r"%[-+# 0-9.]*([a-zA-Z%])", fmt):
        out.append(fmt[pos : m.start()])
        if m.group(1) == "%":
            out.append("%")
        else:
            arg = next(it, None)
            if arg is None:
                return None
            out.append(arg)
        pos = m.end()
    out.append(fmt[pos:])
    return "".join(out)


def _expr(src: str, pos: int, env: dict[str, str]) -> tuple[str | None, int]:
    """Parse a string expression at ``pos``: its value (None when not resolvable) and where it ends."""
    parts: list[str | None] = []
    while True:
        while pos < len(src) and src[pos] in " \t\r\n":
            pos += 1
        ch = src[pos : pos + 1]
        if ch == '"':
            m = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"").match(src, pos)
            if m is None:
                return None, pos
            parts.append(_go_string(m.group(1)))
            pos = m.end()
        elif ch == "`":
            end = src.find("`", pos + 1)
            if end < 0:
                return None, pos
            parts.append(src[pos + 1 : end])
            pos = end + 1
        elif src.startswith("fmt.Sprintf(", pos):
            pos += len("fmt.Sprintf(")
            args: list[str | None] = []
            while True:
                value, pos = _expr(src, pos, env)
                args.append(value)
                while pos < len(src) and src[pos] in " \t\r\n":
                    pos += 1
                if src[pos : pos + 1] == ",":
                    pos += 1
                    while pos < len(src) and src[pos] in " \t\r\n":
                        pos += 1
                    if src[pos : pos + 1] == ")":
                        break
                    continue
                break
            if src[pos : pos + 1] != ")" or any(a is None for a in args) or not args:
                return None, pos
            pos += 1
            parts.append(_sprintf(args[0], args[1:]))  # type: ignore[arg-type]
        else:
            m = _IDENT_RE.match(src, pos)
            if m is None:
                return None, pos
            parts.append(env.get(m.group(0)))
            pos = m.end()
            if src[pos : pos + 1] in "([":
                return None, pos  # a call or an index we do not evaluate
        save = pos
        while pos < len(src) and src[pos] in " \t\r\n":
            pos += 1
        if src[pos : pos + 1] == "+" and src[pos + 1 : pos + 2] != "+":
            pos += 1
            continue
        pos = save
        break
    if any(p is None for p in parts):
        return None, pos
    return "".join(p for p in parts if p is not None), pos


def _want(src: str, pos: int, env: dict[str, str]) -> tuple[list[str] | None, bool]:
    """The ``want`` list after ``pos`` (``[]`` for nil or an empty list), and whether it was read."""
    m = re.compile(r",\s*want:\s*").match(src, pos)
    if m is None:
        return None, False
    pos = m.end()
    if src.startswith("nil", pos) or src.startswith("[]string{}", pos):
        return [], True
    if not src.startswith("[]string{", pos):
        return None, False
    pos += len("[]string{")
    values: list[str] = []
    while True:
        while pos < len(src) and src[pos] in " \t\r\n,":
            pos += 1
        if src[pos : pos + 1] == "}":
            return values, True
        value, pos = _expr(src, pos, env)
        if value is None:
            return None, False
        values.append(value)


def _secrets(want: list[str], text: str) -> list[str]:
    out: list[str] = []
    for w in want:
        pieces = [w] if w in text else re.split(r"[:;|]", w)
        for p in pieces:
            p = p.strip()
            whole = p == w or _TOKEN_RE.fullmatch(p)  # a part cut from a joined value is one token, not a URL's piece
            if whole and p in text and len(p) >= 16 and " " not in p and not _PUBLIC_RE.search(p) and p not in out:
                out.append(p)
    return out


def cases(path: Path) -> tuple[list[tuple[str, str, list[str]]], int]:
    """``(case name, input, want)`` of every case of one test file that resolves, and how many did not."""
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
        want, ok = _want(src, end, env) if text is not None else (None, False)
        if text is None or not ok or want is None:
            skipped += 1
            continue
        out.append((name or "", text, want))
    return out, skipped


def half(detector: str) -> str:
    """``"tune"`` when the last byte of the SHA-256 of ``detector`` (a detector's folder name) is even, else ``"held"``."""
    return "tune" if hashlib.sha256(detector.encode("utf-8")).digest()[-1] % 2 == 0 else "held"


def _split(path: Path, which: str) -> None:
    """Print the samples of ``path`` (this script's output) whose detector falls in half ``which``."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    samples = []
    for s in doc["samples"]:
        if half(s["family"]) != which:
            continue
        if "secrets" in s:  # a file written before round 16: URL tails and jdbc: strings are no secrets
            s = {**s, "secrets": [p for p in s["secrets"] if not _PUBLIC_RE.search(p)]}
            if not s["secrets"]:
                continue
        samples.append(s)
    out = {"source": f"{doc['source']} The {which} half by the SHA-256 of the detector's name.", "samples": samples}
    print(json.dumps(out, indent=1, ensure_ascii=False))
    print(
        f"{len(samples)} samples from {len({s['family'] for s in samples})} detectors ({which} half)", file=sys.stderr
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("detectors", type=Path, help="trufflehog's pkg/detectors folder")
    parser.add_argument("--negatives", action="store_true", help="write the invalid-pattern look-alikes instead")
    parser.add_argument("--half", choices=("tune", "held"), help="keep only this half of the detectors")
    args = parser.parse_args()
    if args.detectors.is_file():
        _split(args.detectors, args.half or "tune")
        return
    samples: list[dict] = []
    skipped = dropped = 0
    for path in sorted(args.detectors.rglob("*_test.go")):
        if path.name.endswith("_integration_test.go"):
            continue
        family = path.relative_to(args.detectors).parts[0]
        found, bad = cases(path)
        skipped += bad
        for name, text, want in found:
            if args.negatives:
                if not want and "invalid" in name.lower() and text.strip():
                    samples.append({"family": family, "text": text})
                continue
            if not want:
                continue
            secrets = _secrets(want, text)
            if not secrets:
                dropped += 1
                continue
            samples.append({"family": family, "rule": f"{family}: {name}", "text": text, "secrets": secrets})
    if args.half:
        samples = [s for s in samples if half(s["family"]) == args.half]
    kind = "invalid-pattern look-alikes" if args.negatives else "valid-pattern cases"
    doc = {
        "source": f"trufflehog pkg/detectors/*/*_test.go {kind} (AGPL-3.0: not shipped); "
        f"{skipped} cases not resolvable without Go, {dropped} with no secret part of 16+ characters left out.",
        "samples": samples,
    }
    print(json.dumps(doc, indent=1, ensure_ascii=False))
    print(
        f"{len(samples)} samples from {len({s['family'] for s in samples})} detectors; {doc['source']}", file=sys.stderr
    )


if __name__ == "__main__":
    main()
