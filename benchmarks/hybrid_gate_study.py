#!/usr/bin/env python3
"""Study: what hybrid recall's answer gate could read to leave a no-answer question empty (rec17, issue 30).

For every query of the tuning splits (never the blind or held-out ones) it computes, on hybrid recall's own index and
vectors (:mod:`semantic_systems`), the features a gate in :meth:`memrepo.engine.read.semantic_fuse.SemanticRecall.fuse`
could use:

- ``answered``: whether hybrid answers now; ``gold``: the gold line's rank in its answer (0: none in the 10);
- ``top``: the best semantic cosine; ``margin``: ``top`` less the mean of the 2nd..10th; ``z``: ``top``'s z-score
  among the query's cosines to every line;
- ``cover``: the share of the question's content terms (index terms less stop and filler words) the hybrid top hit
  holds in any form (its index terms, or a term of 4+ letters one begins the other); ``cover_any``: the best of
  that over the top 5;
- ``lex``: whether lexical recall alone answers; ``n_floor``: the neighbours at ``min_similarity`` (less the shift)
  or above;
- ``content_sim`` / ``full_sim``: the top hit's cosine to the question's content words embedded alone, and to the
  whole question.

``--csv OUT`` writes one row per query (``--from-csv IN`` reads them back instead of measuring); the table prints per
kind (answerable / no-answer) the features' quartiles among the queries hybrid answers now, then a leave-one-repo-out
test of a gate: on all repos but one it picks the feature (or the weighted sum of two, each as its percentile among
the training repos' answered answerable questions, either direction) and the threshold that empties the most answered
no-answer questions while losing at most one answerable question whose gold line is in the top 5; every fold's rule is
then scored on the repo left out.

Usage (from the repository root, ``PYTHONPATH=.:benchmarks``):
    python benchmarks/hybrid_gate_study.py [--split tune ...] [--csv OUT | --from-csv IN]
"""

from __future__ import annotations

import argparse
import bisect
import csv
import itertools
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "recall_quality"))
sys.path.insert(0, str(HERE))

import dataset  # noqa: E402
from _common import write_csv  # noqa: E402
from bench_recall_quality import REPOS, SPLITS  # noqa: E402

TUNING = ("tune", "c-tune", "d-heldout", "e-heldout", "g-tune", "k-tune", "t-tune")
"""The splits tuned on (docs/benchmarks.md): never the blind or held-out ones."""

FEATURES = ("top", "margin", "z", "cover", "cover_any", "n_floor", "content_sim", "full_sim", "content_gap")


def content_words(query: str) -> list[str]:
    """The question's words less stop and filler words (all of them when nothing is left)."""
    from memrepo.engine.format.stemming import FILLER_WORDS, STOP_WORDS
    from memrepo.engine.format.terms import query_terms

    _folded, raw = query_terms(query)
    kept = [w for w in raw if w not in STOP_WORDS and w not in FILLER_WORDS]
    return kept or raw


def coverage(query: str, text: str) -> float:
    """The share of the question's content terms ``text`` holds in any form (index term, or a 4+ letter prefix)."""
    from memrepo.engine.format.stemming import index_term
    from memrepo.engine.read.recallterms import entry_index_terms

    terms = [t for t in (index_term(w) for w in content_words(query)) if t]
    if not terms:
        return 1.0
    held = set(entry_index_terms(text))

    def has(term: str) -> bool:
        if term in held:
            return True
        return len(term) >= 4 and any(len(h) >= 4 and (h.startswith(term) or term.startswith(h)) for h in held)

    return sum(map(has, terms)) / len(terms)


def rows_for(split: str, work: Path) -> list[dict[str, object]]:
    """One row per query of ``split``."""
    import numpy as np
    import semantic_systems

    from memrepo.engine.configpath import size_shift
    from memrepo.engine.read.recallnear import answers_only

    out = []
    for repo, qfile in SPLITS[split]:
        root = work / f"repo_{repo}"
        labels = dataset.built_repo(HERE / "recall_quality" / REPOS[repo], root)
        index, sem = semantic_systems._ready(root)
        store = sem._vectors()
        _have, total = store.counts()
        shift = size_shift(total, sem.settings.size_slope)
        for q in dataset.read_queries(HERE / "recall_quality" / qfile):
            found = index.search(q.text, limit=20)
            gate, _lowered = answers_only(found)
            pool = index.search(q.text, limit=20, min_confidence=0.0)
            fused, info = sem.fuse(
                index,
                q.text,
                found,
                workspace_file=None,
                workspace_id=None,
                scoped=False,
                limit=10,
                pool=pool,
                related=True,
            )
            qvec = sem.embedder.embed([q.text], query=True)[0]
            every = store.nearest(qvec, 100_000, -1.0)
            sims = np.asarray([s for _i, s in every], dtype=np.float64)
            top = float(sims[0]) if len(sims) else 0.0
            rest = sims[1:10]
            words = content_words(q.text)
            cvec = sem.embedder.embed([" ".join(words)], query=True)[0]
            ids = [iid for iid, _k in fused]
            vecs = store.vectors_of(ids[:1])
            top_vec = vecs.get(ids[0]) if ids else None
            rows = [index.row(i) for i in ids[:5]]
            texts = [r[3] for r in rows if r is not None]
            gold = {g for group in q.gold for g in group}
            hits = [tuple(r[:2]) for r in rows if r is not None] + [tuple(index.row(i)[:2]) for i in ids[5:]]
            out.append(
                {
                    "split": split,
                    "repo": repo,
                    "kind": q.kind,
                    "query": q.text,
                    "answered": bool(info.answered and ids),
                    "gold": next((n + 1 for n, h in enumerate(hits) if labels.get(h) in gold), 0),
                    "lex": bool(gate),
                    "top": round(top, 4),
                    "margin": round(top - float(rest.mean()), 4) if len(rest) else 0.0,
                    "z": round((top - float(sims.mean())) / float(sims.std()), 3) if len(sims) > 2 else 0.0,
                    "cover": round(coverage(q.text, texts[0]), 3) if texts else 0.0,
                    "cover_any": round(max((coverage(q.text, t) for t in texts), default=0.0), 3),
                    "n_floor": int((sims >= sem.settings.min_similarity - shift).sum()),
                    "content_sim": round(float(top_vec @ cvec), 4) if top_vec is not None else 0.0,
                    "full_sim": round(float(top_vec @ qvec), 4) if top_vec is not None else 0.0,
                    "content_gap": round(float(top_vec @ cvec) - float(top_vec @ qvec), 4)
                    if top_vec is not None
                    else 0.0,
                    "top_text": texts[0][:80] if texts else "",
                }
            )
    return out


def quartiles(values: list[float]) -> str:
    """min / q1 / median / q3 / max of ``values``."""
    if not values:
        return "-"
    if len(values) < 2:
        return f"{values[0]:.3f}"
    q = statistics.quantiles(values, n=4)
    return f"{min(values):.3f} / {q[0]:.3f} / {q[1]:.3f} / {q[2]:.3f} / {max(values):.3f}"


Spec = tuple[str, int, str | None, int, float]
"""A gate's score: (feature, direction, second feature or None, its direction, its weight)."""


def _answerable(r: dict) -> bool:
    return r["kind"] != "none" and str(r["answered"]) == "True" and 0 < int(r["gold"]) <= 5


def _no_answer(r: dict) -> bool:
    return r["kind"] == "none" and str(r["answered"]) == "True"


def scorer(spec: Spec, answerable: list[dict]) -> object:
    """The score of ``spec``: each feature as its percentile among ``answerable`` (1 - it when direction is -1)."""
    a, sa, b, sb, w = spec
    va = sorted(float(r[a]) for r in answerable)
    vb = sorted(float(r[b]) for r in answerable) if b else []

    def score(r: dict) -> float:
        x = bisect.bisect_left(va, float(r[a])) / len(va)
        x = x if sa > 0 else 1 - x
        if b is None:
            return x
        y = bisect.bisect_left(vb, float(r[b])) / len(vb)
        return x + w * (y if sb > 0 else 1 - y)

    return score


def leave_one_repo_out(rows: list[dict], pairs: bool) -> list[str]:
    """One line per fold (the module docstring's test); ``pairs``: two features, else one."""
    specs: list[Spec] = [(f, sg, None, 1, 0.0) for f in FEATURES for sg in (1, -1)]
    if pairs:
        specs += [
            (a, sa, b, sb, w)
            for a, b in itertools.combinations(FEATURES, 2)
            for sa in (1, -1)
            for sb in (1, -1)
            for w in (0.25, 0.5, 1.0, 2.0, 4.0)
        ]
    lines = []
    for out in sorted({str(r["repo"]) for r in rows}):
        train = [r for r in rows if r["repo"] != out]
        test = [r for r in rows if r["repo"] == out]
        answerable = [r for r in train if _answerable(r)]
        best: tuple | None = None
        for spec in specs:
            score = scorer(spec, answerable)
            bar = sorted(map(score, answerable))[1]  # under it: at most one answerable lost
            emptied = sum(score(r) < bar for r in train if _no_answer(r))
            if best is None or emptied > best[0]:
                best = (emptied, spec, bar, score)
        assert best is not None
        emptied, spec, bar, score = best
        no = [r for r in test if _no_answer(r)]
        yes = [r for r in test if _answerable(r)]
        lines.append(
            f"  left out {out}: {spec} under {bar:.3f}, training emptied {emptied}; left out: no-answer answered"
            f" {len(no)}, emptied {sum(score(r) < bar for r in no)}; answerable {len(yes)}, lost"
            f" {sum(score(r) < bar for r in yes)}"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", action="append", choices=TUNING)
    parser.add_argument("--csv", type=Path)
    parser.add_argument("--from-csv", type=Path, action="append", help="rows a --csv run wrote, instead of measuring")
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    if args.from_csv:
        for path in args.from_csv:
            with path.open(newline="") as fh:
                rows += [r for r in csv.DictReader(fh) if r["split"] in (args.split or TUNING)]
    else:
        with tempfile.TemporaryDirectory(prefix="hybrid-gate-") as tmp:
            work = args.work or Path(tmp)
            for split in args.split or TUNING:
                rows += rows_for(split, work)
    groups = {
        "answerable, gold in top 5": [r for r in rows if _answerable(r)],
        "no-answer, answered": [r for r in rows if _no_answer(r)],
        "no-answer, empty": [r for r in rows if r["kind"] == "none" and str(r["answered"]) != "True"],
    }
    for name, group in groups.items():
        print(f"{name}: {len(group)} (lexical answers {sum(str(r['lex']) == 'True' for r in group)})")
        for f in FEATURES:
            print(f"  {f:12} {quartiles([float(r[f]) for r in group])}")
    for pairs in (False, True):
        print("leave one repo out, " + ("one or two features" if pairs else "one feature"))
        print("\n".join(leave_one_repo_out(rows, pairs)))
    if args.csv:
        write_csv(args.csv, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
