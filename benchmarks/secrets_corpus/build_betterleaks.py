"""Build ``betterleaks-tune`` and ``betterleaks-held``: Betterleaks' rules that gitleaks' part does not hold.

Betterleaks (github.com/betterleaks/betterleaks, MIT) is a fork of gitleaks that
keeps its rules in the same form: ``cmd/generate/config/rules/*.go`` with the
lines each rule must match (``tps``), and ``config/betterleaks.toml`` with the
regexes. This script reads them with ``build_gitleaks.py``'s evaluator (same
seed), then leaves out every rule whose id ``gitleaks.json`` (a held-out part)
already holds, and every line whose text or secret it holds: what stays is the
rules Betterleaks added or renamed (issue 32 round 14). Rules whose capture is a public
identifier (a URL, host, address, cloud name, key id, token name or account id) are left out.

The rules are split by rule id before any result is looked at: a rule whose
SHA-256 of its id has an even first byte goes to ``-tune``, the others to
``-held``, so one vendor's samples never sit on both sides. Built locally, not
shipped (the samples are random strings in vendors' shapes; none is live)::

    git -C BETTERLEAKS archive HEAD cmd config | tar -x -C /tmp/bl
    cp /tmp/bl/config/betterleaks.toml /tmp/bl/config/gitleaks.toml
    python benchmarks/secrets_corpus/build_betterleaks.py /tmp/bl OUT
    python benchmarks/bench_secrets_sources.py --tuned-only --tuned betterleaks-tune --extra OUT/betterleaks-tune.json
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import build_gitleaks

HERE = Path(__file__).parent
PUBLIC_ID_RE = re.compile(r"-(?:url|host|address|cloud-name|key-id|token-name|account-id)(?:\.\d+)?$")
"""Rules whose capture names an account, host or key id (a public identifier, as ``build_gitleaks.py`` leaves out
``*-client-id``): decided from the rule ids alone, before either half was scored."""


def side(rule_id: str) -> str:
    """``tune`` or ``held`` for a rule, fixed by its id alone."""
    return "tune" if hashlib.sha256(rule_id.encode()).digest()[0] % 2 == 0 else "held"


def main() -> None:
    root, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    old = json.loads((HERE / "gitleaks.json").read_text(encoding="utf-8"))["samples"]
    old_rules = {s["family"] for s in old}
    old_texts = {s["text"] for s in old}
    old_secrets = {p for s in old for p in s["secrets"]}
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        sys.argv = ["build_gitleaks.py", str(root)]
        build_gitleaks.main()
    samples = json.loads(buf.getvalue())["samples"]
    parts: dict[str, list[dict]] = {"tune": [], "held": []}
    for s in samples:
        if (
            PUBLIC_ID_RE.search(s["family"])
            or s["family"] in old_rules
            or s["text"] in old_texts
            or any(p in old_secrets for p in s["secrets"])
        ):
            continue
        s = dict(s, rule=s["rule"].replace("gitleaks.", "betterleaks."))
        parts[side(s["family"])].append(s)
    for name, rows in parts.items():
        source = (
            "Betterleaks (github.com/betterleaks/betterleaks, MIT): true-positive lines of its rules whose id "
            "gitleaks.json does not hold, read by build_gitleaks.py's evaluator (seed 32); split by rule id "
            f"(SHA-256 first byte even: tune). This part: {name}."
        )
        path = out_dir / f"betterleaks-{name}.json"
        path.write_text(json.dumps({"source": source, "samples": rows}, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"{path}: {len(rows)} samples, {len({r['family'] for r in rows})} rules", file=sys.stderr)


if __name__ == "__main__":
    main()
