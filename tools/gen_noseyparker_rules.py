"""Generate engine/redaction/noseyparker.json: Nosey Parker's vendor rules that Kingfisher's do not cover.

Nosey Parker (github.com/praetorian-inc/noseyparker, Apache-2.0) and Titus
(github.com/praetorian-inc/titus, Apache-2.0, which carries Nosey Parker's rules
forward as ``np.*``) keep one YAML file of rules per vendor, each rule with its
regex and its own ``examples``. A rule is kept when:

- its ``categories`` hold ``secret`` and none of ``fuzzy``, ``generic``,
  ``identifier``, ``hashed``, ``test`` (a fuzzy password rule would read prose; a
  hash or an identifier is no secret);
- its name names no public identifier (:data:`gen_kingfisher_rules.PUBLIC_NAME_RE`)
  and no key public by design (``publishable``, ``public``; Razorpay's key id is
  sent to the browser: :mod:`memrepo.engine.redaction.publishable`);
- no rule of ``kingfisher.json`` matches any of its examples (Kingfisher's rules
  grew out of Nosey Parker's: only what they miss is new);
- Python compiles its regex and it has a literal of 3+ characters (its keywords,
  as :mod:`gen_kingfisher_rules` finds them), none of them a label word
  (:data:`LABEL_WORDS`: the regex would run on most texts, as Kingfisher's
  ``facebook.2`` would, for values the labelled-secret rules already take).

Titus's copy of a rule wins over Nosey Parker's (it is the newer). Nosey Parker
gives no entropy floor; each rule gets :data:`MIN_ENTROPY`, so a placeholder
(``ghp_xxxx…``) stays. Run::

    git -C TITUS archive HEAD pkg/rule/rules | tar -x -C /tmp/titus
    git -C NOSEYPARKER archive HEAD crates/noseyparker/data/default/builtin/rules | tar -x -C /tmp/np
    python tools/gen_noseyparker_rules.py TITUS_COMMIT NOSEYPARKER_COMMIT /tmp/titus/pkg/rule/rules \
        /tmp/np/crates/noseyparker/data/default/builtin/rules > engine/redaction/noseyparker.json
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from gen_kingfisher_rules import PUBLIC_NAME_RE, keywords

KINGFISHER = Path(__file__).parent.parent / "engine" / "redaction" / "kingfisher.json"
SKIP_CATEGORIES = {"fuzzy", "generic", "identifier", "hashed", "test"}
PUBLIC_KEY_RE = re.compile(r"(?i)publishable|\bpublic\b|razorpay")
LABEL_WORDS = {"api", "key", "secret", "token", "password", "pass", "auth", "client"}
MIN_ENTROPY = 3.0
"""The entropy (bits a character) a capture must reach, as Kingfisher's rules mostly ask (3.0-3.5)."""


def rules(folders: list[Path]) -> tuple[list[dict], int]:
    """(rules kept, rules left out) of the ``np.*`` rules in ``folders``, the first folder's copy winning."""
    covered = []
    for rule in json.loads(KINGFISHER.read_text(encoding="utf-8"))["rules"]:
        try:
            covered.append(re.compile(rule["pattern"]))
        except re.error:
            continue
    seen: set[str] = set()
    kept: list[dict] = []
    left_out = 0
    for folder in folders:
        for path in sorted(folder.glob("*.yml")):
            doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            for rule in doc.get("rules") or []:
                rid = str(rule.get("id", ""))
                if not rid.startswith("np.") or rid in seen:
                    continue
                seen.add(rid)
                cats = set(rule.get("categories") or [])
                name = str(rule.get("name", ""))
                examples = [str(e) for e in rule.get("examples") or []]
                if "secret" not in cats or cats & SKIP_CATEGORIES or not examples:
                    left_out += 1
                    continue
                if PUBLIC_NAME_RE.search(name) or PUBLIC_KEY_RE.search(name):
                    left_out += 1
                    continue
                if any(k.search(e) for k in covered for e in examples):
                    left_out += 1
                    continue
                try:
                    re.compile(rule["pattern"])
                    kws = keywords(rule["pattern"])
                except (re.error, ValueError, KeyError):
                    kws = None
                if not kws or LABEL_WORDS.intersection(kws):
                    left_out += 1
                    continue
                kept.append(
                    {
                        "id": rid,
                        "vendor": path.stem,
                        "pattern": rule["pattern"],
                        "keywords": kws,
                        "min_entropy": MIN_ENTROPY,
                    }
                )
    return kept, left_out


def main() -> None:
    titus_commit, np_commit = sys.argv[1], sys.argv[2]
    kept, left_out = rules([Path(p) for p in sys.argv[3:]])
    doc = {
        "source": f"Titus pkg/rule/rules (github.com/praetorian-inc/titus {titus_commit}) and Nosey Parker "
        f"crates/noseyparker/data/default/builtin/rules (github.com/praetorian-inc/noseyparker {np_commit}), np.* "
        f"secret rules no Kingfisher rule covers; {left_out} left out (fuzzy, generic, ids, hashes, covered, no keyword).",
        "license": "Apache-2.0. Copyright Praetorian Security, Inc. (Nosey Parker, Titus). Licensed under the Apache "
        "License, Version 2.0; you may obtain a copy at http://www.apache.org/licenses/LICENSE-2.0. Patterns are used "
        "unchanged; min_entropy is ours.",
        "rules": kept,
    }
    print(json.dumps(doc, indent=0, ensure_ascii=False))
    print(f"{len(kept)} rules, {left_out} left out", file=sys.stderr)


if __name__ == "__main__":
    main()
