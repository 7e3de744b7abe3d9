"""Build a tuning corpus from Bearer's hardcoded-secret rule tests (not committed: run it).

Bearer CLI's rules (github.com/Bearer/bearer-rules, Elastic License 2.0 for the rules, snapshot 82c335f7,
2026-03-13) are tested on source files under ``tests/<language>/<framework>/<rule>/testdata/`` where the line
after each ``bearer:expected <rule>`` comment is a finding. None of our parts used them (issue 32 round 17). This
script reads the test folders of the rules about written-out secrets (``hardcoded_secret``, ``jwt_hardcoded_secret``,
``hardcoded_*_database_password``, ``empty_database_password``, gosec's ``secrets``, Django's ``weak_secret_key``)
in Go, Java, JavaScript, PHP, Python and Ruby, and labels each line by one rule, written before any of ours ran:

- a secret sample: an expected line's string literals of 8+ characters with no space that are not identifiers
  or words (``"someSecret"``, ``"my-hardcoded-secret"``, ``"secretHardcodedString"`` are the tests' stand-ins:
  left out), not a URL, a URN-like name (``urn:example:claim``), a path or a masked value; an expected line
  holding none (the secret flows from elsewhere, or is a char array) is left out;
- with ``--negatives``, a look-alike: every other non-empty, non-comment line of those files, when it assigns no
  string literal of 4+ characters to a secret-named name (which a test may call either way) and holds no literal
  of 8+ characters mixing letters and digits nor a PEM key (a JWT test's RSA key is not marked expected); the
  ``ok``/``secure`` files' ``process.env["SECRET"]`` reads, masked values (``"***"``, ``"••"``) and config
  objects without a literal are look-alikes.

Run::

    git -C BEARER_RULES archive HEAD tests | tar -x -C /tmp/bearer
    python benchmarks/secrets_corpus/build_bearer_secrets.py /tmp/bearer/tests > /tmp/bearer.json
    python benchmarks/secrets_corpus/build_bearer_secrets.py --negatives /tmp/bearer/tests > /tmp/bearer-neg.json
    python benchmarks/bench_secrets_sources.py --extra /tmp/bearer.json --tuned bearer \\
        --extra-benign /tmp/bearer-neg.json --tuned bearer-neg
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

_RULE_DIR_RE = re.compile(r"hardcoded|secret|database_password")
_NOT_RULE_DIR_RE = re.compile(r"weak_password")
_EXPECTED_RE = re.compile(r"bearer:expected\b")
_COMMENT_RE = re.compile(r"^\s*(?://|#|/\*|\*)")
_LITERAL_RE = re.compile(r"""(?P<q>["'])(?P<v>(?:(?!(?P=q))[^\\\n]|\\.)*)(?P=q)""")
_IDENTIFIER_RE = re.compile(
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+|[A-Za-z]+|[a-z]+(?:[A-Z][a-z]+)+\d?"
)
_SECRET_NAME_RE = re.compile(r"(?i)pass|pwd|secret|key|token|cred|auth")
_NAMED_LITERAL_RE = re.compile(
    r"""(?i)(?:pass|pwd|secret|key|token|cred|auth)\w*["']?\s*(?::=|=>|[:=]|\(|,)\s*(?:\w+\()?["'][^"'\n]{4,}["']"""
)
_MIXED_RE = re.compile(r"""["'](?=[^"'\n]*[A-Za-z])(?=[^"'\n]*\d)[^"'\s]{8,}["']""")


def _secret(value: str) -> bool:
    return (
        len(value) >= 8
        and " " not in value
        and not _IDENTIFIER_RE.fullmatch(value)
        and "://" not in value
        and not re.fullmatch(r"[\w-]+(?::[\w-]+)+", value)
        and not value.startswith(("/", "./", "$", "%"))
        and len(set(value)) >= 4
    )


def _files(root: Path) -> list[Path]:
    out = []
    for folder in sorted(root.rglob("testdata")):
        rule = folder.parent.relative_to(root).as_posix()
        if folder.is_dir() and _RULE_DIR_RE.search(rule) and not _NOT_RULE_DIR_RE.search(rule):
            out += sorted(p for p in folder.rglob("*") if p.is_file())
    return out


def build(root: Path, negatives: bool) -> dict:
    samples: list[dict] = []
    for path in _files(root):
        rel = path.relative_to(root).as_posix()
        family = rel.split("/testdata/")[0]
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        expected: set[int] = set()
        for i, line in enumerate(lines):
            if _EXPECTED_RE.search(line):
                j = i + 1
                while j < len(lines) and _COMMENT_RE.match(lines[j]):
                    j += 1
                expected.add(j)
        for i, line in enumerate(lines):
            if not line.strip() or _COMMENT_RE.match(line):
                continue
            if i in expected:
                secrets = sorted({m.group("v") for m in _LITERAL_RE.finditer(line) if _secret(m.group("v"))})
                if secrets and not negatives:
                    samples.append(
                        {"family": family, "rule": f"{rel}:{i + 1}", "text": line.strip(), "secrets": secrets}
                    )
            elif negatives and not (_NAMED_LITERAL_RE.search(line) or _MIXED_RE.search(line) or "-----BEGIN" in line):
                samples.append({"family": family, "text": line.strip()})
    seen: set[str] = set()
    unique = [s for s in samples if not (s["text"] in seen or seen.add(s["text"]))]
    what = "look-alike lines" if negatives else "lines with a secret"
    return {
        "source": f"Bearer rules (Bearer/bearer-rules) hardcoded-secret rule tests, {what} (local)",
        "samples": unique,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="bearer-rules' tests folder")
    parser.add_argument("--negatives", action="store_true", help="the look-alike lines instead of the secrets")
    args = parser.parse_args()
    print(json.dumps(build(args.root, args.negatives), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
