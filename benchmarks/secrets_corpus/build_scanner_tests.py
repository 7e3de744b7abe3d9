"""Build a held-out corpus from three other scanners' own test data (not committed: run it yourself).

Issue 32, round 6. Sources none of our rules came from, read without running them:

- whispers (github.com/Skyscanner/whispers, Apache-2.0), ``tests/fixtures/``: config files in ~40 formats
  (YAML, JSON, XML, .env, .npmrc, Dockerfile, shell, Python, Go, Java, PHP, HTML, properties ...). whispers'
  own test asserts every value it must find holds the word ``hardcoded``; so a line holding that word is a
  secret sample, its secret the token around the word, its text the line after the non-empty line before it
  (which often names the value: ``<name>password</name>`` / ``<value>…</value>``; left out when that line
  holds a secret too). Lines before a file's "Noncompliant" marker that hold
  no such word are whispers' "compliant" look-alikes (``--negatives``);
- ripsecrets (github.com/sirwart/ripsecrets, MIT), ``test/one_per_line/*``: one secret a line (its
  secret: the line's longest token, less a leading ``name=``; for ``url``, the password between ``:`` and
  ``@``); ``test/none``: its look-alikes (``--negatives``). A value of three or fewer distinct characters
  (``ACxxxxxxxx…``, a placeholder) is left out;
- detect-secrets (github.com/Yelp/detect-secrets, Apache-2.0), ``tests/plugins/keyword_test.py``: every
  test case with an expected secret (the same value in ~12 languages' assignment shapes), the expressions
  evaluated from the file's own constants without importing it. Cases expecting no secret are left out
  (most are "no secret *for this language's rule*", not look-alikes).

Run::

    python benchmarks/secrets_corpus/build_scanner_tests.py WHISPERS RIPSECRETS DETECT_SECRETS > scanners.json
    python benchmarks/secrets_corpus/build_scanner_tests.py --negatives WHISPERS RIPSECRETS DETECT_SECRETS \
        > scanners-negative.json
    python benchmarks/bench_secrets_sources.py --extra scanners.json --extra-benign scanners-negative.json

where each argument is a checkout (a work tree) of that repository.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

_HARD_RE = re.compile(r"[A-Za-z0-9_+/.~-]*hardcoded[A-Za-z0-9_+/.~-]*", re.IGNORECASE)
_MARKER_RE = re.compile(r"non-?compliant", re.IGNORECASE)
_TOKEN_RE = re.compile(r"[A-Za-z0-9_+/=.~-]{8,}")


def whispers(root: Path, negatives: bool) -> list[dict]:
    """Samples from whispers' fixtures (see the module docstring)."""
    out: list[dict] = []
    for path in sorted((root / "tests" / "fixtures").rglob("*")):
        if not path.is_file():
            continue
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            continue
        name = str(path.relative_to(root / "tests" / "fixtures"))
        marker = next((i for i, line in enumerate(lines) if _MARKER_RE.search(line)), None)
        for i, line in enumerate(lines):
            found = [m.group(0).strip(".") for m in _HARD_RE.finditer(line) if not _is_key(line, m)]
            if negatives:
                if marker is None or i >= marker or found or not line.strip():
                    continue
                if re.fullmatch(r"\s*(#|//|<!--|-{3,}).*|\s*\w+:\s*", line) or not _VALUE_RE.search(line):
                    continue  # a comment, a section header, a brace: not a look-alike
                out.append({"family": f"whispers/{name}", "text": line})
            elif found:
                prev = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
                text = f"{prev}\n{line}" if prev and not _HARD_RE.search(prev) else line
                out.append({"family": f"whispers/{name}", "rule": name, "text": text, "secrets": found})
    return out


def _is_key(line: str, m: re.Match[str]) -> bool:
    """Whether the ``hardcoded`` token at ``m`` names a key or a tag (``<o2_hardcoded_passwords>``,
    ``"hardcoded_password":``), not a value."""
    before = line[: m.start()].rstrip("\"'")
    after = line[m.end() :].lstrip("\"'")
    return before.endswith(("<", "</")) or bool(re.match(r"\s*(?::(?!//)|=(?!=))", after))


_VALUE_RE = re.compile(r"[=:>(,]\s*[\"'<{$%`]*\w")
"""A look-alike line assigns or passes a value; a brace or an XML declaration alone is not one."""


def _placeholder(value: str) -> bool:
    """``ACxxxx…``, ``xoxb-xxxx…``: a placeholder a scanner's test counts, no secret."""
    return len(set(value)) <= 3 or len(set(value[4:])) <= 3 or "xxxxxxxx" in value


def ripsecrets(root: Path, negatives: bool) -> list[dict]:
    """Samples from ripsecrets' test files (see the module docstring)."""
    out: list[dict] = []
    if negatives:
        for line in (root / "test" / "none").read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append({"family": "ripsecrets/none", "text": line})
        return out
    for path in sorted((root / "test" / "one_per_line").iterdir()):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            if path.name == "url":
                m = re.search(r"//[^:/@\s]+:([^@\s]+)@", line)
                value = m.group(1) if m else ""
            else:
                runs = [re.sub(r"^\w+=", "", r) for r in _TOKEN_RE.findall(line)]
                value = max(runs, key=len) if runs else ""
                if "password" in line and '"password"' in line:  # a JSON password holding ` ~ ^ \
                    value = line.split('": "', 1)[1].rsplit('"', 1)[0]
            if not value or _placeholder(value):
                continue
            out.append({"family": f"ripsecrets/{path.name}", "rule": path.name, "text": line, "secrets": [value]})
    return out


def _evaluate(node: ast.AST, names: dict[str, object]) -> object:
    """A test case's value: literals, names bound earlier in the file, ``'...'.format(...)``, ``+``, tuples."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return names[node.id]
    if isinstance(node, ast.Tuple):
        return tuple(_evaluate(e, names) for e in node.elts)
    if isinstance(node, ast.List):
        return [_evaluate(e, names) for e in node.elts]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _evaluate(node.left, names) + _evaluate(node.right, names)  # type: ignore[operator]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = _evaluate(node.func.value, names)
        return str(base).format(*[_evaluate(a, names) for a in node.args])
    raise ValueError("not a simple expression")


def detect_secrets(root: Path, negatives: bool) -> list[dict]:
    """Samples from detect-secrets' keyword plugin tests (see the module docstring)."""
    if negatives:
        return []
    src = (root / "tests" / "plugins" / "keyword_test.py").read_text(encoding="utf-8")
    names: dict[str, object] = {}
    out: list[dict] = []
    skipped = 0
    for stmt in ast.parse(src).body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        target = stmt.targets[0].id
        if isinstance(stmt.value, ast.List) and target.endswith("_TEST_CASES"):
            for elt in stmt.value.elts:
                try:
                    case = _evaluate(elt, names)
                except (ValueError, KeyError, TypeError, IndexError):
                    skipped += 1
                    continue
                if not (isinstance(case, tuple) and len(case) == 2) or not case[1]:
                    continue
                text, secret = case
                if str(secret) in str(text):
                    family = f"detect-secrets/{target.removesuffix('_TEST_CASES').lower()}"
                    out.append({"family": family, "rule": family, "text": text, "secrets": [secret]})
            continue
        try:
            names[target] = _evaluate(stmt.value, names)
        except (ValueError, KeyError, TypeError, IndexError):
            continue
    print(f"detect-secrets: {skipped} cases not evaluable, left out", file=sys.stderr)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("whispers", type=Path)
    parser.add_argument("ripsecrets", type=Path)
    parser.add_argument("detect_secrets", type=Path)
    parser.add_argument("--negatives", action="store_true", help="the look-alikes instead of the secrets")
    args = parser.parse_args()
    samples = [
        *whispers(args.whispers, args.negatives),
        *ripsecrets(args.ripsecrets, args.negatives),
        *detect_secrets(args.detect_secrets, args.negatives),
    ]
    kind = "look-alikes" if args.negatives else "secrets"
    source = f"{kind} of whispers' fixtures, ripsecrets' tests and detect-secrets' keyword tests (issue 32 round 6)"
    json.dump({"source": source, "samples": samples}, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
