"""Generate engine/redaction/kingfisher.json: Kingfisher's vendor rules with a keyword for each.

Kingfisher (github.com/mongodb/kingfisher, Apache-2.0; see the notice kept in
the JSON's ``license`` field) keeps one YAML file of rules per vendor in
``data/rules``. Each visible rule of medium or high confidence is kept with its
regex, its ``min_entropy`` and the keywords a text must hold (lower case)
before the regex runs, as gitleaks prefilters its rules: the longest literal
every match must contain, or one per alternative of a top-level ``|``. A rule
whose capture is a public identifier (an id, a URL, a host, a user name) or
whose regex Python cannot compile or that has no literal of 3+ characters is
left out, and counted; so is a rule in :data:`EXPENSIVE`. A rule with no
``confidence`` is medium, as Kingfisher reads it (``Confidence::default``). Run::

    python tools/gen_kingfisher_rules.py KINGFISHER [COMMIT] > engine/redaction/kingfisher.json
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

try:
    import re._constants as sre_c
    import re._parser as sre_p
except ImportError:  # pragma: no cover
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse as sre_p  # type: ignore[no-redef]

PUBLIC_NAME_RE = re.compile(
    r"(?i)\b(?:id|identifier|user(?:name)?|email|url|uri|host(?:name)?|domain|endpoint|account|region|subdomain|"
    r"org(?:anization)?|tenant|project|instance|app)\b(?!\s*(?:key|secret|token|password))"
)

EXPENSIVE = {
    "kingfisher.facebook.2": "its keywords are label words (api, app, key, secret ...): its regex would run on most "
    "texts (150 us a 4 KB file) for values the labelled-secret rules already take",
}
"""Rules left out by id, each with the reason."""


def _literals(tree: object) -> list[set[str]]:
    """Candidate keyword sets: each a set of strings one of which every match holds."""
    out: list[set[str]] = []
    run = ""
    for op, av in tree:  # type: ignore[attr-defined]
        if op is sre_c.LITERAL:
            run += chr(av).lower()
            continue
        if run:
            out.append({run})
            run = ""
        if op is sre_c.SUBPATTERN:
            out.extend(_literals(av[-1]))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) and av[0] >= 1:
            out.extend(_literals(av[2]))
        elif op is sre_c.BRANCH:
            alts = [max(_literals(a), key=lambda s: min(map(len, s)), default=set()) for a in av[1]]
            if all(alts):
                out.append(set().union(*alts))
    if run:
        out.append({run})
    return out


def keywords(pattern: str) -> list[str] | None:
    """The keywords of ``pattern`` (lower case), or None when it has no literal of 3+ characters."""
    sets = [s for s in _literals(sre_p.parse(pattern)) if min(map(len, s)) >= 3 and not any(" " in k for k in s)]
    if not sets:
        return None
    best = max(sets, key=lambda s: (min(map(len, s)), -len(s)))
    return sorted(best)


def main() -> None:
    root = Path(sys.argv[1])
    rules: list[dict] = []
    left_out = 0
    for path in sorted((root / "data" / "rules").glob("*.yml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for rule in doc.get("rules") or []:
            name = str(rule.get("name", ""))
            if rule.get("visible") is False or rule.get("confidence", "medium") not in ("medium", "high"):
                left_out += 1
                continue
            if PUBLIC_NAME_RE.search(name) or path.stem.startswith("generic") or rule.get("id") in EXPENSIVE:
                left_out += 1
                continue
            try:
                re.compile(rule["pattern"])
                kws = keywords(rule["pattern"])
            except (re.error, ValueError, KeyError):
                kws = None
            if not kws:
                left_out += 1
                continue
            rules.append(
                {
                    "id": rule["id"],
                    "vendor": path.stem,
                    "pattern": rule["pattern"],
                    "keywords": kws,
                    "min_entropy": float(rule.get("min_entropy") or 0),
                }
            )
    commit = sys.argv[2] if len(sys.argv) > 2 else ""  # the snapshot's commit, when root is an archive
    if not commit:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    doc = {
        "source": f"Kingfisher data/rules/*.yml (github.com/mongodb/kingfisher {commit.strip() or 'snapshot'}), "
        f"visible rules of medium or high confidence; {left_out} left out (public ids, generic, no keyword).",
        "license": "Apache-2.0. Copyright the Kingfisher authors (MongoDB, Inc.). Licensed under the Apache License, Version 2.0; "
        "you may obtain a copy at http://www.apache.org/licenses/LICENSE-2.0. Patterns are used unchanged.",
        "rules": rules,
    }
    print(json.dumps(doc, indent=0, ensure_ascii=False))
    print(f"{len(rules)} rules, {left_out} left out", file=sys.stderr)


if __name__ == "__main__":
    main()
