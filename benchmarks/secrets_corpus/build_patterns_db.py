"""Build a held-out corpus from secrets-patterns-db's regexes (not committed: run it yourself).

secrets-patterns-db (github.com/mazen160/secrets-patterns-db) collects the
regexes of other scanners; its ``datasets/trufflehog-v3.yml`` holds trufflehog
v3's detector formats (AGPL, so the corpus made from it is not shipped in this
repo). For every rule of high confidence this script makes one line from the
regex itself (random characters where the regex has a class, one space where it
allows any gap, the rule's own keyword kept), and takes as the secret what the
regex's first group captures from that line. Left out, as in ``corpus.json``:
captures under 16 characters or holding spaces, and rules whose capture is a
public identifier (ids, user names, e-mail addresses, URLs, hosts, domains).

Run::

    python benchmarks/secrets_corpus/build_patterns_db.py PATH/TO/trufflehog-v3.yml > /tmp/patterns-db.json
    python benchmarks/bench_secrets_sources.py --extra /tmp/patterns-db.json
"""

from __future__ import annotations

import json
import random
import re
import sys

import yaml

try:
    import re._constants as sre_c
    import re._parser as sre_p
except ImportError:  # pragma: no cover
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse as sre_p  # type: ignore[no-redef]

RNG = random.Random(3233)
_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_CATEGORY = {
    sre_c.CATEGORY_DIGIT: "0123456789",
    sre_c.CATEGORY_WORD: _ALNUM + "_",
    sre_c.CATEGORY_NOT_SPACE: _ALNUM,
    sre_c.CATEGORY_SPACE: " ",
    sre_c.CATEGORY_NOT_DIGIT: "abcdefghijklmnopqrstuvwxyz",
    sre_c.CATEGORY_NOT_WORD: " ",
}
PUBLIC_RE = re.compile(
    r"(?i)\b(?:id|user(?:name)?|email|url|uri|host|domain|endpoint|account|region|subdomain)\b|- ?\d+$"
)


def _gen(tree: object) -> str:
    out: list[str] = []
    for op, av in tree:  # type: ignore[attr-defined]
        if op is sre_c.LITERAL:
            out.append(chr(av))
        elif op is sre_c.NOT_LITERAL:
            out.append(RNG.choice([c for c in _ALNUM if ord(c) != av]))
        elif op is sre_c.IN:
            chars: list[str] = []
            negate = False
            for kind, val in av:
                if kind is sre_c.LITERAL:
                    chars.append(chr(val))
                elif kind is sre_c.RANGE:
                    chars.extend(chr(c) for c in range(val[0], val[1] + 1))
                elif kind is sre_c.NEGATE:
                    negate = True
                elif kind is sre_c.CATEGORY:
                    chars.extend(_CATEGORY.get(val, _ALNUM))
            if negate:
                chars = [c for c in _ALNUM if c not in chars]
            out.append(RNG.choice(chars))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
            lo, hi, sub = av
            if len(sub) == 1 and sub[0][0] is sre_c.ANY:
                out.append(" " if hi else "")  # any gap: one space
                continue
            hi = lo + 4 if hi is sre_c.MAXREPEAT else hi
            out.extend(_gen(sub) for _ in range(RNG.randint(lo, hi)))
        elif op is sre_c.SUBPATTERN:
            out.append(_gen(av[-1]))
        elif op is sre_c.BRANCH:
            out.append(_gen(av[1][0]))  # the first alternative: the keyword as written
        elif op is sre_c.ANY:
            out.append(" ")
        elif op in (sre_c.AT, sre_c.ASSERT, sre_c.ASSERT_NOT):
            pass
        else:
            raise ValueError(f"cannot generate {op}")
    return "".join(out)


def main() -> None:
    rules = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))["patterns"]  # noqa: SIM115
    samples, skipped = [], 0
    for item in rules:
        p = item["pattern"]
        if p.get("confidence") != "high" or PUBLIC_RE.search(p["name"]):
            skipped += 1
            continue
        try:
            rx = re.compile(p["regex"])
            line = _gen(sre_p.parse(p["regex"]))
        except (re.error, ValueError, IndexError):
            skipped += 1
            continue
        m = rx.search(line)
        secret = next((g for g in m.groups() if g), m.group(0)) if m else None
        if not secret or len(secret) < 16 or " " in secret:
            skipped += 1
            continue
        name = p["name"]
        samples.append(
            {"family": name, "rule": name, "text": f"For {name}, remember: {line.strip()}", "secrets": [secret]}
        )
    doc = {
        "source": "secrets-patterns-db datasets/trufflehog-v3.yml (trufflehog v3 detector formats, AGPL: not shipped), "
        f"one generated line per high-confidence rule (seed 3233); {skipped} rules left out.",
        "samples": samples,
    }
    print(json.dumps(doc, indent=1, ensure_ascii=False))
    print(f"{len(samples)} samples, {skipped} rules left out", file=sys.stderr)


if __name__ == "__main__":
    main()
