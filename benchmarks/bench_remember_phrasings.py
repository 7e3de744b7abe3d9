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

``rules.jsonl``, ``corrections_words.jsonl`` and ``hostile_words.jsonl`` (corr10, tuning) are scored through the
whole model-free distillation (:func:`kept`: the requests to keep, the user's rules and the corrections a checkpoint
writes ``by: user``), each statement placed where the checkpoint writes it: a statement counts only when its text,
its kind (``kind: rule`` labelled, or not), its scope (when labelled) and the line it replaces (``target``, or
none) are all the labelled ones; ``also`` lists the kept part of a two-clause line one clause of which is corrected.

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
RULES = SETS / "rules.jsonl"
"""Tuning (corr10): rules said as "going forward, ...", "from now on, ...", "please stop X-ing", "don't ever X again",
in English, French, German and Spanish, some replacing a stored rule on the same subject."""
CORRECTIONS_WORDS = SETS / "corrections_words.jsonl"
"""Tuning (corr10): corrections in other words ("no wait, ...", "scratch that, ...", "we switched from Y to X", "X
replaced Y"), in French, German and Spanish, and of one clause of a two-clause line."""
HOSTILE_WORDS = SETS / "hostile_words.jsonl"
"""Tuning (corr10): look-alikes of those (quoted, questions, hypotheticals, "if we ever move to X", other people's
rules, review comments, scoped rules), in the four languages; none may be kept ``by: user``."""
HOSTILE_WORDS2 = SETS / "hostile_words2.jsonl"
"""Tuning (corr10), written after the first rules were measured: look-alikes aimed at those rules (a lead-in without
a change word, "X, not Y" of another subject, another person's switch, a version of a part, a rule of nothing)."""
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


def _existing(case: dict) -> list:
    from memrepo.engine.checkpoints.claims import ExistingEntry

    out = []
    for n, stored in enumerate(case["stored"], 1):
        path, text = stored.split("|", 1)
        meta = {"by": "user", "added": "2026-11-01"} | ({"kind": "rule"} if path == "lessons.md" else {})
        out.append(ExistingEntry(f"E{n}", path, n, text, "user", meta))
    return out


def kept(said: str, existing: list) -> list[tuple[str, str, str, str | None]]:
    """(text, kind, scope, replaced line's text) of each statement the model-free distillation writes ``by: user``
    for the message ``said`` in project "shop", as the checkpoint places it (integration before corr10: the
    requests and the corrections, each ``kind: fact`` and placed by ``where``)."""
    import importlib.util

    from memrepo.engine.checkpoints import corrections

    if importlib.util.find_spec("memrepo.engine.checkpoints.userkept") is not None:
        from memrepo.engine.checkpoints.userkept import kept_statements, place

        found = [(k.text, k.kind) for k in kept_statements([said], existing)]
        placed = [(text, kind, *place(text, kind, "shop", existing, [said])) for text, kind in found]
    else:  # the rule as it was: requests to keep and tight corrections, kind fact, placed by where()
        texts = user_statements([said]) + corrections.correction_statements([said], existing)
        seen: set[str] = set()
        found = [(t, "fact") for t in texts if not (norm(t) in seen or seen.add(norm(t)))]  # type: ignore[func-returns-value]
        placed = [(text, kind, *corrections.where(text, "shop", existing)) for text, kind in found]
    return [(text, kind, scope, target.text if target is not None else None) for text, kind, scope, target in placed]


def score_kept(cases: list[dict]) -> dict:
    """Precision, recall and wrong stores of the whole model-free distillation (:func:`kept`) on ``cases``."""
    kept_n = right = wanted = false_stores = 0
    misses: list[dict] = []
    for case in cases:
        existing = _existing(case)
        got = kept(case["said"], existing)
        want = {norm(s): case for s in case["keep"]}
        also = {norm(s) for s in case.get("also", [])}
        kept_n += len(got)
        wanted += len(want) + len(also)
        hits = 0
        for text, kind, scope, target in got:
            key = norm(text)
            if key in want:
                ok = target == case["target"] and (kind == "rule") == (case.get("kind") == "rule")
                ok = ok and (not case.get("scope") or scope == case["scope"])
            else:
                ok = key in also and target is None
            hits += ok
        right += hits
        if not want and got:
            false_stores += 1
        if hits != len(want) + len(also) or len(got) != hits:
            misses.append({"text": case["said"], "want": sorted(want) + sorted(also), "got": got, "why": case["why"]})
    return {
        "messages": len(cases),
        "positive": sum(1 for c in cases if c["keep"]),
        "negative": sum(1 for c in cases if not c["keep"]),
        "precision": round(right / kept_n, 3) if kept_n else 1.0,
        "recall": round(right / wanted, 3) if wanted else 1.0,
        "false_stores": false_stores,
        "wrong_stores": kept_n - right,
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
    for path in (RULES, CORRECTIONS_WORDS, HOSTILE_WORDS, HOSTILE_WORDS2):
        results[path.stem] = score_kept(load(path))
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
