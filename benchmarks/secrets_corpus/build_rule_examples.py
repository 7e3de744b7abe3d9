"""Build a tuning set from rule sets' own examples we had not used (issue 32 round 7; built locally).

Two parts, each one sample a line:

- ``kingfisher-more``: every positive example Kingfisher (github.com/mongodb/kingfisher,
  Apache-2.0) publishes in ``data/rules/*.yml`` that ``corpus.json``'s ``vendor`` part
  does not already hold (that part took one example per visible rule of medium or high
  confidence). The secret is what the rule's own regex captures (its first group, else
  the match). Left out as in ``corpus.json``: helper (invisible) rules, captures under
  16 characters or holding spaces, rules whose capture is a public identifier.
- ``patterns-db-stable``: secrets-patterns-db's curated ``db/rules-stable.yml``
  (github.com/mazen160/secrets-patterns-db, CC BY-SA 4.0, so never committed), its
  high-confidence rules whose regex is not one of ``datasets/trufflehog-v3.yml`` (that
  dataset is the ``patterns-db`` part of round 3). One line is generated from each regex
  by ``build_patterns_db.py``'s generator (seed 3233), the rule's keyword kept. Left out
  besides: keys public by design (Stripe's publishable keys, which issue 32 keeps) and
  captures with nothing random in them (a rule that names a file, not a key).

Run::

    git -C KINGFISHER archive HEAD data/rules | tar -x -C /tmp/kf
    python benchmarks/secrets_corpus/build_rule_examples.py kingfisher /tmp/kf/data/rules > kingfisher-more.json
    python benchmarks/secrets_corpus/build_rule_examples.py patterns-db SPDB/db/rules-stable.yml \
        SPDB/datasets/trufflehog-v3.yml > patterns-db-stable.json
    python benchmarks/bench_secrets_sources.py --extra kingfisher-more.json --extra patterns-db-stable.json
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from build_patterns_db import PUBLIC_RE, _gen, sre_p

CORPUS = Path(__file__).parent / "corpus.json"
PUBLIC_NAME_RE = re.compile(
    r"(?i)\b(?:id|identifier|user(?:name)?|email|url|uri|host(?:name)?|domain|endpoint|account|region|subdomain|"
    r"org(?:anization)?|tenant|project|instance|app)\b(?!\s*(?:key|secret|token|password))"
)
"""The rule names ``tools/gen_kingfisher_rules.py`` leaves out as public identifiers."""
PUBLISHABLE_RE = re.compile(r"(?i)\bpublic\b|publishable")
"""Keys public by design (Stripe ``pk_live_``): issue 32 keeps them. A capture that is a literal of its regex
(``aws_access_key_id``) names a file that may hold a key, not a key."""


def _capture(pattern: str, text: str) -> str | None:
    try:
        m = re.search(pattern, text)
    except re.error:
        return None
    if not m:
        return None
    return next((g for g in m.groups() if g), m.group(0))


def kingfisher(rules_dir: Path) -> list[dict]:
    """Kingfisher's positive examples not already in ``corpus.json``."""
    old = json.loads(CORPUS.read_text(encoding="utf-8"))["vendor"]
    seen = {re.sub(r"^For [^,]*, remember:\s*", "", s["text"]).strip() for s in old}
    samples: list[dict] = []
    for path in sorted(rules_dir.glob("*.yml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for rule in doc.get("rules") or []:
            if rule.get("visible") is False or PUBLIC_NAME_RE.search(str(rule.get("name", ""))):
                continue
            for example in rule.get("examples") or []:
                example = str(example).strip()
                if not example or example in seen:
                    continue
                secret = _capture(rule["pattern"], example)
                if not secret or len(secret) < 16 or " " in secret:
                    continue
                seen.add(example)
                samples.append(
                    {
                        "family": path.stem,
                        "rule": rule["id"],
                        "text": f"For {path.stem}, remember: {example}",
                        "secrets": [secret],
                    }
                )
    return samples


def patterns_db(stable: Path, used: Path) -> list[dict]:
    """One generated line per high-confidence rule of ``stable`` whose regex ``used`` does not hold."""
    skip = {item["pattern"]["regex"] for item in yaml.safe_load(used.read_text(encoding="utf-8"))["patterns"]}
    samples: list[dict] = []
    for item in yaml.safe_load(stable.read_text(encoding="utf-8"))["patterns"]:
        p = item["pattern"]
        if p.get("confidence") != "high" or p["regex"] in skip or PUBLIC_RE.search(p["name"]):
            continue
        try:
            line = _gen(sre_p.parse(p["regex"]))
        except (re.error, ValueError, IndexError):
            continue
        secret = _capture(p["regex"], line)
        if not secret or len(secret) < 16 or " " in secret:
            continue
        if PUBLISHABLE_RE.search(p["name"]) or secret in p["regex"]:
            continue  # after drawing, so the lines of the other rules stay as they were
        samples.append(
            {
                "family": p["name"],
                "rule": p["name"],
                "text": f"For {p['name']}, remember: {line.strip()}",
                "secrets": [secret],
            }
        )
    return samples


def main() -> None:
    if sys.argv[1] == "kingfisher":
        samples = kingfisher(Path(sys.argv[2]))
        source = "Kingfisher data/rules/*.yml examples not in corpus.json (Apache-2.0), after a plain lead-in sentence."
    else:
        samples = patterns_db(Path(sys.argv[2]), Path(sys.argv[3]))
        source = (
            "secrets-patterns-db db/rules-stable.yml high-confidence rules not in trufflehog-v3.yml "
            "(CC BY-SA 4.0: not shipped), one generated line each (seed 3233)."
        )
    print(json.dumps({"source": source, "samples": samples}, indent=1, ensure_ascii=False))
    print(f"{len(samples)} samples from {len({s['family'] for s in samples})} families", file=sys.stderr)


if __name__ == "__main__":
    main()
