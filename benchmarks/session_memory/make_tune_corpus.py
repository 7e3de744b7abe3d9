#!/usr/bin/env python3
"""Write ``tune_corpus.jsonl``: the spent correction and chain scenarios again, each started from the noise repo.

Nearly every spent correction scenario starts from a fresh repo of one to three lines, where "which stored line
does this sentence talk about" cannot be measured (round 15, sem15: the meaning match abstains there on purpose). A
user correcting memory has hundreds of lines; each variant here is its scenario unchanged but ``"corpus": true``
(the noise repo of ``bench_session_memory.py``), its id ``cx-<id>`` (so :func:`bench_session_memory.aside` puts it
in ``fit`` or ``aside`` by its own hash, like the rest) and ``variant_of`` naming the scenario it repeats. Tuning
data (corr16, round 16): it holds no wording that is not already in a spent set.

Usage:
    python benchmarks/session_memory/make_tune_corpus.py   # rewrites tune_corpus.jsonl beside it
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = ("heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7")
KINDS = ("correction", "chain")


def variants() -> list[dict]:
    """The corpus variants of every spent correction and chain scenario that does not start from the noise repo."""
    out = []
    for name in SOURCES:
        for line in (HERE / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            scenario = json.loads(line)
            if scenario["kind"] in KINDS and not scenario.get("corpus"):
                out.append({**scenario, "id": f"cx-{scenario['id']}", "corpus": True, "variant_of": scenario["id"]})
    return out


if __name__ == "__main__":
    text = "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in variants())
    (HERE / "tune_corpus.jsonl").write_text(text, encoding="utf-8")
    print(f"{text.count(chr(10))} scenarios")
