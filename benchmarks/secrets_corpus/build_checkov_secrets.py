"""Build a tuning corpus from Checkov's secret-scanning test files (not committed: run it).

Checkov (github.com/bridgecrewio/checkov, Apache-2.0, snapshot 03d5fdad, 2026-08-20) scans infrastructure code
for secrets with detect-secrets' plugins, its own regexes and an entropy-and-keyword rule; its tests read fixture
files under ``tests/secrets/`` (JSON, YAML, Terraform with ``jsonencode`` and heredocs, Dockerfiles, JavaScript,
build logs, a localisation file of Norwegian strings with ``password`` in their keys). None of our parts had used
it (issue 32 round 19). Checkov's tests assert counts and line numbers, not values, so this script labels each
line by one rule, written before any of our rules was run on it:

- a secret sample: a line assigning a value to a name that says secret (``password``, ``pass``, ``pwd``,
  ``secret``, ``key``, ``token``, ``credential``, ``auth``; ``NAME=value``, ``name: value``, ``"name": "value"``,
  ``name = "value"``, ``ENV``/``export``/``var``/``const``), the value 8+ characters with no space, not a
  reference (``process.env``, ``${…}``, ``var.``), not AWS's documented example key (``…EXAMPLE``: Checkov's own
  files call it both a secret and not); a ``user:password@`` in a URL; and a JSON or HCL ``value`` whose object's
  ``name`` says password (the object's lines are the sample's text, as Checkov's multi-line parsers read them);
  Values that name rather than hold (a name ending ``name``/``_id``/``Key``; an identifier value such as
  ``CKV_SECRET_9``, ``example_secret_name``, ``password``; a URL) are not secrets;
- with ``--negatives``, a look-alike: every other non-empty line of those files, and a secret-named line whose
  value is prose (``"password": "Lag nytt passord"``) or a short word. Lines the rule cannot call (a bare value
  with no name) are left out of both.

Run::

    git -C CHECKOV archive HEAD tests/secrets | tar -x -C /tmp/checkov
    python benchmarks/secrets_corpus/build_checkov_secrets.py /tmp/checkov/tests/secrets > /tmp/checkov.json
    python benchmarks/secrets_corpus/build_checkov_secrets.py --negatives /tmp/checkov/tests/secrets \\
        > /tmp/checkov-neg.json
    python benchmarks/bench_secrets_sources.py --extra /tmp/checkov.json --tuned checkov \\
        --extra-benign /tmp/checkov-neg.json --tuned checkov-neg
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

_SECRET_NAME_RE = re.compile(r"(?i)pass|pwd|secret|key|token|cred|auth")
_ASSIGN_RE = re.compile(
    r"""(?ix)(?:^|[\s{,(;])(?:(?:ENV|export|var|const|let)\s+)?
    ["']?(?P<name>[A-Za-z_][\w.-]*)["']?\s*(?::=|=>|[:=])\s*
    (?:"(?P<dq>[^"\n]*)"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s"',;\\]+))"""
)
_URL_PASSWORD_RE = re.compile(r"[a-z][a-z0-9+.-]*://[^\s:/@]+:(?P<pw>[^\s:/@]{6,})@", re.I)
_REFERENCE_RE = re.compile(r"(?i)process\.env|\$\{|^var\.|^\$|^<|^%")
_VALUE_LINE_RE = re.compile(r"""^\s*["']?value["']?\s*[:=]\s*["'](?P<v>[^"'\n]+)["']""")
_NAME_LINE_RE = re.compile(r"""^\s*["']?name["']?\s*[:=]\s*["'](?P<n>[^"'\n]+)["']""")
_NAMING_RE = re.compile(r"(?i)(?:s3)?key\d*|.*name|.*_id|.*_key_id|inspected_key|.*token_?ur[il]|.*_url|.*authority")
"""Names that name a secret rather than hold one: ``Key: "TEST_PASSWORD_1"``, ``secretName:``, ``*_id``, URLs."""
_IDENTIFIER_RE = re.compile(
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+|[A-Za-z]+|[a-z]+(?:[A-Z][a-z]+)+"
)
"""A value that is an identifier (``CKV_SECRET_9``, ``example_secret_name``, ``GetSecretValue``), not a secret."""
_UNCALLABLE_RE = re.compile(
    r"-----(?:BEGIN|END)|(?=[^\s\"',;:=]{8,})(?=\S*[A-Za-z])(?=\S*\d)(?<![\w+/=$@-])[^\s\"',;:=]{8,}"
)
"""A run of 8+ characters mixing letters and digits (``Pa$$w0rd``, a base64 value under ``value:``, a key under an
``*_id`` name) or a PEM armour line: a line holding one is not called harmless when its name does not say secret."""
_SKIP_FILE_RE = re.compile(r"^(?:test_.*|conftest|utils_for_test|__init__)\.py$")


def _files(root: Path) -> list[Path]:
    """Fixture files under ``root``: not Checkov's own test code, not the git objects of its history fixture."""
    out = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or _SKIP_FILE_RE.match(path.name) or "git_to_change" in path.parts:
            continue
        try:
            path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        out.append(path)
    return out


def _object_lines(lines: list[str], i: int) -> tuple[int, int]:
    """The lines of the JSON or HCL object around line ``i`` (from its ``{`` to its ``}``, at most 8 either way)."""
    start = i
    while start > max(0, i - 8) and "{" not in lines[start]:
        start -= 1
    end = i
    while end < min(len(lines) - 1, i + 8) and "}" not in lines[end]:
        end += 1
    return start, end


def _label(lines: list[str], i: int) -> tuple[str, list[str]] | None:
    """``("secret", values)``, ``("object", values)`` (a ``value`` its object names), ``("benign", [])``, or None."""
    line = lines[i]
    if not line.strip():
        return None
    secrets: list[str] = []
    weak_named = False
    for m in _URL_PASSWORD_RE.finditer(line):
        if not _IDENTIFIER_RE.fullmatch(m.group("pw")):
            secrets.append(m.group("pw"))
    if (vm := _VALUE_LINE_RE.match(line)) is not None:
        start, end = _object_lines(lines, i)
        names = [nm.group("n") for j in range(start, end + 1) if (nm := _NAME_LINE_RE.match(lines[j]))]
        value = vm.group("v")
        if any(re.search(r"(?i)pass", n) for n in names) and len(value) >= 8 and " " not in value:
            return "object", [value]
    for m in _ASSIGN_RE.finditer(line):
        name = m.group("name")
        value = next(v for v in (m.group("dq"), m.group("sq"), m.group("bare"), "") if v is not None)
        if not _SECRET_NAME_RE.search(name):
            continue
        if _REFERENCE_RE.search(value):
            weak_named = True
            continue
        if (
            len(value) < 8
            or " " in value.strip()
            or _NAMING_RE.fullmatch(name.rsplit(".", 1)[-1])
            or _IDENTIFIER_RE.fullmatch(value)
            or "://" in value
            or re.search(r"\.(?:zip|json|ya?ml|txt|tf|py|js|sh)$", value)
            or ":" in value.split("/", 1)[0]
        ):
            weak_named = True
            continue
        if "EXAMPLE" in value:
            return None
        secrets.append(value)
    if secrets:
        return "secret", secrets
    if weak_named:
        return "benign", []
    if _UNCALLABLE_RE.search(line):
        return None  # a key-like value whose name does not say, a PEM line: not callable either way
    return "benign", []


def build(root: Path, negatives: bool) -> dict:
    samples: list[dict] = []
    for path in _files(root):
        lines = path.read_text(encoding="utf-8").splitlines()
        rel = path.relative_to(root).as_posix()
        for i in range(len(lines)):
            got = _label(lines, i)
            if got is None:
                continue
            kind, secrets = got
            if kind in ("secret", "object") and not negatives:
                text = lines[i]
                if kind == "object":
                    start, end = _object_lines(lines, i)
                    text = "\n".join(lines[start : end + 1])
                samples.append({"family": rel, "rule": f"{rel}:{i + 1}", "text": text, "secrets": sorted(set(secrets))})
            elif kind == "benign" and negatives:
                samples.append({"family": rel, "text": lines[i]})
    seen: set[str] = set()
    unique = [s for s in samples if not (s["text"] in seen or seen.add(s["text"]))]
    what = "look-alike lines" if negatives else "lines with a secret"
    return {
        "source": f"Checkov (bridgecrewio/checkov) tests/secrets fixture files, {what} (Apache-2.0, local)",
        "samples": unique,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="checkov's tests/secrets folder")
    parser.add_argument("--negatives", action="store_true", help="the look-alike lines instead of the secrets")
    args = parser.parse_args()
    print(json.dumps(build(args.root, args.negatives), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
