#!/usr/bin/env python3
"""Study: why a question with no answer gets a confident lexical hit, and gates on the question's coverage (rec10).

Dumps, per tuning query: the query's counted terms (idf weight, df), the best lexical hits (confidence, the terms
each holds, cosine), hybrid recall's fused list with today's gate and with the lexical answer vetoed (``found``
empty: the cosine branch decides), and lexical recall's own answer. ``--load`` replays rules on the dump
leave-one-repo-out (repo A's two splits together).

    PYTHONPATH=.:benchmarks python benchmarks/coverage_study.py --save FILE   (about 8 minutes on 2 busy cores)
    PYTHONPATH=.:benchmarks python benchmarks/coverage_study.py --load FILE   (the report: benchmarks/coverage_rules.py)

Result (rec10, 2026-12-06, integration 4b93f78, the seven tuning splits: 489 queries, 110 with no answer). Of the
110, hybrid recall leaves 36 empty, answers 27 through the cosine branch and 47 through a confident lexical hit. The
47 by kind: an attribute no entry holds of a named person or thing, its word in no entry ("when is Jakub's
birthday", "李娜的手机号是多少": 20); a count no entry gives ("how many students are in the course": 6); a version,
variant or part of a named thing no entry names ("which iOS version does the driver app support", "what is the
staging Snowflake database for Hjertelig": 18); a shared word in another sense ("who manages the Lisbon depot" ->
"engineering manager": 3). Rules for the question's coverage, each chosen leave-one-repo-out (repo A's two splits
together; "right" = answerable hit@5 + no-answer left empty), none holds:

- absent words weighed alpha times in the lexical confidence (the lexical answer vetoed under the minimum; the
  cosine branch then decides): -0.67 per held-out repo, 3 folds losing (lexical alone: -5.44, 5 losing);
- the lexical hit's own cosine must agree (cos >= x or confidence >= y x the minimum): -0.28, 2 losing;
- the query embedded without its absent words: an answer needs a top hit whose cosine drops by d: -1.58, 3 losing;
- each absent word embedded alone: an answer needs a top hit among the word's best p of entries: -1.00, 3 losing.

What holds is the expected answer type (engine/read/recalltype.py): a question asking for a quantity, a phone
number or an e-mail address whose best hit holds none gets nothing: +2.00 per held-out repo, no fold losing (C +1,
D +4, E +4, G +1, K +2 no-answer questions left empty; no answerable one lost). A "when" question needing a time
word in its best hit: +1 C, +1 E, -1 D (an answerable Korean question whose answer was second): not shipped.
"""

from __future__ import annotations

import argparse
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
from answerable_study import TUNING, Repo  # noqa: E402


def without_terms(text: str, drop: set[str]) -> str:
    """``text`` without the words whose index terms are all in ``drop`` (CJK runs: the characters of dropped bigrams
    that no kept bigram needs)."""
    import re

    from memrepo.engine.format.stemming import index_terms
    from memrepo.engine.format.terms import fold, split_folded

    out = []
    for word in re.findall(r"\S+", text):
        terms = index_terms(split_folded(fold(word)))
        if terms and all(t in drop for t in terms):
            continue
        out.append(word)
    return " ".join(out)


def surfaces(text: str, terms: set[str]) -> dict[str, str]:
    """Each of ``terms`` with the query word it comes from (a CJK bigram: itself)."""
    import re

    from memrepo.engine.format.stemming import index_terms
    from memrepo.engine.format.terms import fold, is_cjk, split_folded

    out = {t: t for t in terms if is_cjk(t)}
    for word in re.findall(r"[\w'-]+", text):
        for t in index_terms(split_folded(fold(word))):
            if t in terms and t not in out:
                out[t] = word
    return out


def dump(repos: dict[str, Repo], splits: list[str]) -> list[dict[str, Any]]:
    import numpy as np

    from memrepo.engine.read.recallnear import answers_only
    from memrepo.engine.read.recallrank import confidence_weights, entry_index_terms, idf, query_index_terms
    from memrepo.engine.read.recallview import IndexView
    from memrepo.engine.read.semantic_fuse import DEPTH

    rows = []
    for split in splits:
        for name, qfile in bench.SPLITS[split]:
            repo = repos[name]
            pos = {int(i): p for p, i in enumerate(repo.ids)}
            view = IndexView(repo.index, None)
            n = max(len(repo.index), 1)
            for q in dataset.read_queries(HERE / "recall_quality" / qfile):
                lexical = repo.index.search(q.text, limit=bench.LIMIT + DEPTH)
                found, _lowered = answers_only(lexical)
                pool = repo.index.search(q.text, limit=bench.LIMIT + DEPTH, min_confidence=0.0)
                raw = repo.vecs @ repo.qvec(q.text)
                _f, terms = query_index_terms(q.text)
                weights = {t: idf(view.df(t), n) for t in terms}
                counted = confidence_weights(weights)
                hits = []
                for iid, key in list(pool)[:10]:
                    row = repo.index.row(iid)
                    held = set(entry_index_terms(row[3])) & set(terms)
                    p = pos.get(int(iid))
                    hits.append(
                        {
                            "iid": iid,
                            "conf": float(key[1]),
                            "held": held,
                            "cos": float(raw[p]) + repo.shift if p is not None else None,
                            "text": row[3],
                            "label": repo.labels.get(tuple(row[:2])),
                        }
                    )
                today = repo.fused(q.text, raw, found, pool)
                veto = repo.fused(q.text, raw, [], pool)
                absent = {t for t in counted if view.df(t) == 0}
                minus = without_terms(q.text, absent)
                rawm = repo.vecs @ repo.qvec(minus) if absent and minus.strip() and minus != q.text else None
                words = surfaces(q.text, absent)
                wanted = {int(i) for i in [*today[0][:5], *veto[0][:5], *[h["iid"] for h in hits[:5]]]}
                wrank = {}
                for t, word in words.items():
                    wc = repo.vecs @ repo.qvec(word)
                    order = np.argsort(-wc, kind="stable")
                    place = {int(repo.ids[p]): k for k, p in enumerate(order)}
                    wrank[t] = {i: place[i] / len(order) for i in wanted if i in place}
                rows.append(
                    {
                        "split": split,
                        "repo": name,
                        "q": q,
                        "n": n,
                        "terms": terms,
                        "weights": weights,
                        "counted": counted,
                        "df": {t: view.df(t) for t in terms},
                        "minimum": lexical.minimum or 0.38,
                        "lexgate": bool(found),
                        "lexids": repo.label([i for i, _k in found][: bench.LIMIT]),
                        "hits": hits,
                        "today": (repo.label(today[0]), today[1]),
                        "veto": (repo.label(veto[0]), veto[1]),
                        "s1": float(np.max(raw)) + repo.shift,
                        "minus": minus,
                        "cos": {int(i): float(raw[p]) for i, p in pos.items()},
                        "cosm": None if rawm is None else {int(i): float(rawm[p]) for i, p in pos.items()},
                        "today_ids": today[0],
                        "wrank": wrank,
                        "texts": {int(i): repo.index.row(i)[3] for i in {*today[0], *veto[0]}},
                        "veto_ids": veto[0],
                        "lex_ids": [i for i, _k in found][: bench.LIMIT],
                    }
                )
            print(f"split {split}: {sum(r['split'] == split for r in rows)} queries", flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default=",".join(TUNING))
    parser.add_argument("--save", type=Path)
    parser.add_argument("--load", type=Path)
    args = parser.parse_args()
    if args.load:
        from coverage_rules import report

        report(pickle.loads(args.load.read_bytes()))
        return 0
    splits = args.split.split(",")
    assert not set(splits) - set(TUNING), "tuning splits only (issue 30's data rules)"
    with tempfile.TemporaryDirectory(prefix="coverage-study-") as tmp:
        repos: dict[str, Repo] = {}
        for split in splits:
            for name, _qfile in bench.SPLITS[split]:
                if name not in repos:
                    root = Path(tmp) / f"repo_{name}"
                    repos[name] = Repo(root, dataset.built_repo(HERE / "recall_quality" / bench.REPOS[name], root))
        rows = dump(repos, splits)
    if args.save:
        args.save.write_bytes(pickle.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
