"""Build ``semgrep.json`` and ``semgrep-negative.json`` (tuning parts, round 13) from semgrep-rules' secret tests.

semgrep/semgrep-rules (snapshot 157ae47; the Semgrep Rules License, so built locally and never shipped) holds,
beside each rule of ``generic/secrets/security/``, a test file whose lines follow ``# ruleid: <rule>`` (a
finding) or ``# ok: <rule>`` (none). The ``generic/secrets/gitleaks/`` folder (gitleaks' rules ported, whose
samples may repeat the held-out ``gitleaks`` part's) is left out.

A ``ruleid`` line is a secret sample; its secret piece is what the rule's own ``pattern-regex`` matches in it
(the last group that matched, else the whole match), so a line the regex cannot read in Python, or a rule
without one, is left out. An ``ok`` line is a look-alike that must come out unchanged. Many of the upstream
samples are templates (``AKCxxxxxxxxxx``) or deliberately malformed keys: the figures count them as they are.

Run::

    git -C SEMGREP archive HEAD generic/secrets/security | tar x -C /tmp/semgrep
    python benchmarks/secrets_corpus/build_semgrep_secrets.py /tmp/semgrep OUT
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned semgrep --tuned semgrep-negative \\
        --extra OUT/semgrep.json --extra-benign OUT/semgrep-negative.json --misses
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

_MARK_RE = re.compile(r"(ruleid|ok):\s*([\w.-]+)")
_REGEX_RE = re.compile(r"pattern-regex:\s*(\|?)\s*(.*)")


def _regexes(yaml_text: str) -> list[re.Pattern[str]]:
    """The rule's ``pattern-regex`` values, one line each or a ``|`` block's next line (no YAML library needed)."""
    out: list[re.Pattern[str]] = []
    lines = yaml_text.splitlines()
    for i, line in enumerate(lines):
        m = _REGEX_RE.search(line)
        if not m:
            continue
        raw = lines[i + 1].strip() if m.group(1) == "|" and i + 1 < len(lines) else m.group(2).strip()
        if raw[:1] in "'\"" and raw[-1:] == raw[:1]:
            raw = raw[1:-1]
        try:
            out.append(re.compile(raw))
        except re.error:
            continue
    return out


def _piece(line: str, regexes: list[re.Pattern[str]]) -> str | None:
    for regex in regexes:
        m = regex.search(line)
        if m:
            groups = [g for g in m.groups() if g]
            return groups[-1] if groups else m.group(0)
    return None


def build(root: Path) -> tuple[list[dict], list[dict]]:
    """(secret samples, look-alike samples) of the checkout at ``root``."""
    folder = root / "generic" / "secrets" / "security"
    secret: list[dict] = []
    benign: list[dict] = []
    for test in sorted(folder.iterdir()):
        if test.suffix == ".yaml":
            continue
        yaml_file = test.with_suffix(".yaml")
        regexes = _regexes(yaml_file.read_text(encoding="utf-8")) if yaml_file.exists() else []
        lines = test.read_text(encoding="utf-8", errors="replace").splitlines()
        for i, line in enumerate(lines):
            mark = _MARK_RE.search(line)
            if not mark:
                continue
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or _MARK_RE.search(lines[j])):
                j += 1
            if j >= len(lines):
                continue
            text = lines[j]
            source = f"semgrep-rules@157ae47:{test.relative_to(root)}#L{j + 1}"
            if mark.group(1) == "ok":
                benign.append({"family": test.stem, "text": text, "source": source})
                continue
            piece = _piece(text, regexes)
            if piece and len(piece.strip()) >= 4:
                secret.append({"family": test.stem, "rule": mark.group(2), "text": text, "secrets": [piece.strip()]})
    return secret, benign


def main() -> None:
    root, out = Path(sys.argv[1]), Path(sys.argv[2])
    secret, benign = build(root)
    out.mkdir(parents=True, exist_ok=True)
    note = "semgrep-rules generic/secrets/security tests, snapshot 157ae47 (build_semgrep_secrets.py); local only"
    (out / "semgrep.json").write_text(json.dumps({"source": note, "samples": secret}, indent=1), encoding="utf-8")
    (out / "semgrep-negative.json").write_text(
        json.dumps({"source": note, "samples": benign}, indent=1), encoding="utf-8"
    )
    print(f"{len(secret)} secret lines, {len(benign)} look-alike lines", file=sys.stderr)


if __name__ == "__main__":
    main()
