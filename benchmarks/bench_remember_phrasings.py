#!/usr/bin/env python3
"""Benchmark: which ways of asking to keep a fact the model-free rule hears (docs/architecture.md §7).

``benchmarks/remember_phrasings/phrasings.jsonl`` (and ``heldout.jsonl``, written later) is a labelled set: each line a user message and the
statements a person would say it asked memory to keep (``keep``; empty for a question, a hypothetical,
quoted text, code or a task instruction). :func:`memrepo.engine.format.remembering.user_statements` is run
on each message alone, and its statements counted against the labels (text compared case-folded, spaces
collapsed, end marks dropped):

- ``precision``: statements kept that the labels name, of all kept (a wrong store is worse than none);
- ``recall``: labelled statements kept, of all labelled;
- ``false stores``: messages labelled ``keep: []`` that kept something;
- ``wrong stores`` (corrections only): statements kept ``by: user`` that are not the labelled one or name another
  line than the labelled one (each hides a true line from every block).

``corrections.jsonl`` labels corrections said without "remember" (breaker6 B6-3): each a user message, the
stored lines it may correct (``path|text``) and the statement to keep (or none) with the line it corrects.
:func:`memrepo.engine.checkpoints.corrections.correction_statements` is scored the same way, and a kept
statement counts only when :func:`~memrepo.engine.checkpoints.corrections.where` names the labelled line.

``corrections_heldout.jsonl`` (corr9) is held out: scored only with ``--heldout``, totals only.

Usage:
    PYTHONPATH=. python benchmarks/bench_remember_phrasings.py [--json] [--misses] [--heldout]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from memrepo.engine.format.remembering import user_statements

SETS = Path(__file__).resolve().parent / "remember_phrasings"
SET = SETS / "phrasings.jsonl"
"""The set the rule was written against."""
HELDOUT = SETS / "heldout.jsonl"
"""A second set written after the rule, run once before two fixes (see docs/architecture.md §7's figures)."""
CORRECTIONS = SETS / "corrections.jsonl"
"""Corrections said without "remember", with the stored lines they may correct."""
CORRECTIONS_SUBJECT = SETS / "corrections_subject.jsonl"
"""Tuning (corr9): corrections that name their line by its subject alone ("Nope, the CDN is Fastly now" for "The shop
CDN is Cloudflare"), among ten stored lines."""
HOSTILE = SETS / "hostile.jsonl"
"""Tuning (corr9): look-alikes of breaker9's kinds (hearsay, hedges, quoted and pasted text, scoped, taken-back and
longer corrections, other people's lines) and lines that share a corrected line's subject word; none may be kept
``by: user`` (``propose``: a longer correction, which may wait in the inbox)."""
CORRECTIONS_HELDOUT = SETS / "corrections_heldout.jsonl"
"""Held out (corr9): corrections in many phrasings and languages and their look-alikes, written before the subject
relation of :mod:`memrepo.engine.checkpoints.corrections`; run only with ``--heldout``, once before and once after."""


def norm(text: str) -> str:
    """A statement compared case-folded, spaces collapsed, end marks dropped."""
    return re.sub(r"\s+", " ", text).strip().rstrip(".!?。！？").strip().casefold()


def load(path: Path = SET) -> list[dict]:
    """The labelled messages: dicts with ``text``, ``keep`` (list of str) and ``why``."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def score(cases: list[dict]) -> dict:
    """Precision, recall and false stores of :func:`user_statements` on ``cases``, with the misses."""
    kept = right = wanted = false_stores = 0
    misses: list[dict] = []
    for case in cases:
        got = [norm(s) for s in user_statements([case["text"]])]
        want = [norm(s) for s in case["keep"]]
        kept += len(got)
        wanted += len(want)
        hits = sum(1 for g in got if g in want)
        right += hits
        if not want and got:
            false_stores += 1
        if got != want:
            misses.append({"text": case["text"], "want": want, "got": got, "why": case["why"]})
    return {
        "messages": len(cases),
        "positive": sum(1 for c in cases if c["keep"]),
        "negative": sum(1 for c in cases if not c["keep"]),
        "precision": round(right / kept, 3) if kept else 1.0,
        "recall": round(right / wanted, 3) if wanted else 1.0,
        "false_stores": false_stores,
        "misses": misses,
    }


def score_corrections(cases: list[dict]) -> dict:
    """Precision, recall and false stores of the checkpoint's corrections said without "remember"."""
    from memrepo.engine.checkpoints.claims import ExistingEntry
    from memrepo.engine.checkpoints.corrections import correction_statements, where

    kept = right = wanted = false_stores = 0
    misses: list[dict] = []
    for case in cases:
        existing = []
        for n, stored in enumerate(case["stored"], 1):
            path, text = stored.split("|", 1)
            existing.append(ExistingEntry(f"E{n}", path, n, text, "user", {"by": "user", "added": "2026-11-01"}))
        got = correction_statements([case["said"]], existing)
        want = [norm(s) for s in case["keep"]]
        kept += len(got)
        wanted += len(want)
        hits = 0
        for fact in got:
            _scope, target = where(fact, "shop", existing)
            if norm(fact) in want and target is not None and target.text == case["target"]:
                hits += 1
        right += hits
        if not want and got:
            false_stores += 1
        if hits != len(want) or len(got) != hits:
            misses.append({"text": case["said"], "want": want, "got": [norm(g) for g in got], "why": case["why"]})
    return {
        "messages": len(cases),
        "positive": sum(1 for c in cases if c["keep"]),
        "negative": sum(1 for c in cases if not c["keep"]),
        "precision": round(right / kept, 3) if kept else 1.0,
        "recall": round(right / wanted, 3) if wanted else 1.0,
        "false_stores": false_stores,
        "wrong_stores": kept - right,
        "misses": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--misses", action="store_true", help="list the messages whose statements differ")
    parser.add_argument("--heldout", action="store_true", help="also score the held-out corrections (totals only)")
    args = parser.parse_args()
    results = {path.stem: score(load(path)) for path in (SET, HELDOUT)}
    for path in (CORRECTIONS, CORRECTIONS_SUBJECT, HOSTILE):
        results[path.stem] = score_corrections(load(path))
    if args.heldout:
        results[CORRECTIONS_HELDOUT.stem] = score_corrections(load(CORRECTIONS_HELDOUT))
        results[CORRECTIONS_HELDOUT.stem]["misses"] = []  # held out: totals only, never read which missed
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
        return
    for name, result in results.items():
        print(
            f"{name}: {result['messages']} messages ({result['positive']} to keep, {result['negative']} not): "
            f"precision {result['precision']:.3f}, recall {result['recall']:.3f}, "
            f"false stores {result['false_stores']}"
            + (f", wrong stores {result['wrong_stores']}" if "wrong_stores" in result else "")
        )
        if args.misses:
            for miss in result["misses"]:
                print(f"  [{miss['why']}] {miss['text']!r}: want {miss['want']}, got {miss['got']}")


if __name__ == "__main__":
    main()
