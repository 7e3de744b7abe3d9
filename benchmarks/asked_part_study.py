#!/usr/bin/env python3
"""Study: does hybrid recall's answer say anything about what the question asks? (rec18, issue 30)

Round 17 found that most no-answer questions hybrid recall answers hit a line holding the question's **subject** (a
project, a person, a tool the repo knows) but not the **asked attribute** ("who is the CEO of Fjordline Labs" over a
line about working at Fjordline Labs). This study splits each question into the two and asks whether the answer's
lines hold the asked part, three ways:

- **Subject**: the question's content terms (index terms less stop and filler words) that name a thing of the repo:
  a name the entries write capitalised (:func:`noanswer_study.repo_names`), a word of a memory file's path
  (``projects/kestrel.md``), of a heading or of a ``subject:`` value. The **asked part** is the other content terms
  (question words are stop words). ``--names-only``: the names alone make the subject.
- **Lexically** (``lex1`` / ``lex3``): the share of the asked terms the best hit (the best of the top 3) holds in any
  form (its text, ``subject:`` and headings: index terms, or a held term of 4+ letters beginning the term or begun by
  it). ``subj1``: the share of subject terms the best hit holds.
- **By answer type** (``type``: the question's, or empty; ``type1`` / ``type3``: the best hit, any of the top 3,
  holds one): ``when`` -> a date, a time, a weekday or month, a year; ``how many/much/long/often`` -> a number;
  ``who`` -> a person (a capitalised word the question does not hold, or a role: "I", "me", "she" ...); ``where`` ->
  a place (a capitalised word the question does not hold, a host, a path, a URL).
- **Strictly by type** (``stype``, ``stype1`` / ``stype3``; :mod:`memrepo.engine.read.recallstrict`, the rule
  shipped from this study): "when is ..." held by a time expression, "how many" by a number outside dates and
  identifiers, "how much ... cost" by money.
- **By meaning**, with the model recall ships (e5-small): the question with its subject words taken out, embedded
  as a query, against every line's stored vector: the best hit's cosine (``m1``), its rank among all lines
  (``mrank1``, 1 = nearest; ``mrank3``: the best of the top 3) and its z-score (``mz1``), beside the whole question's
  (``rank1``, ``z1``). ``mm1``: the masked question against the best hit's text with the same subject words taken
  out (embedded as a passage). ``clause1``: the asked terms' words alone (a query) against the best hit's clauses
  (cut at ``, ; : ( )`` and "and"), the best cosine.

- **What the asked part adds** (``gain1`` / ``gain3``): the whole question's cosine to the best hit (the best of the
  top 3) less the subject words' alone (embedded as a query); ``gainz1`` / ``gainz3``: the same of the two z-scores
  among all lines (1.0 and 9.0 when the question names no subject).

A gate keeps hybrid recall's answer only when the lines say something about the asked part. ``--loro`` replays
gates leave-one-repo-out (repo A with its prompt split T, C, D, E, G, K; tuning splits only): on the other repos the
threshold that empties the most answered no-answer questions while losing at most one answerable question whose gold
line is in the top 5 (and no more than 1% of them), scored on the repo left out.

Result (2026-12-06, integration 700375e, tuning splits only; 110 no-answer questions, hybrid answers 31 of them; 347
answerable questions have a gold line in hybrid's top 5): the asked part does not separate them.

- Lexically: a top-3 hit holds an asked term for 24 of the 31 no-answer questions and 317 of the 347 (the subject's
  line holds an asked word of another fact: "staging database instance name" over "Production database is ...,
  instance kestrel-routing"). Keeping an answer only when a top-3 hit holds an asked term or the asked type empties 7
  of 31 and loses 20 of 347 (the answer names a value, not the kind asked: "which oscilloscope" -> "Siglent
  SDS2104X", "what IDE" -> "PyCharm").
- By type: all 11 typed no-answer questions have a top-3 hit holding their type, as do all 44 typed answerable ones
  (lines hold numbers, dates and names: "how many robots in the Sueca pilot" -> "Firmware freeze ...: 15 May 2026").
- By meaning, AUC (a right answer above an answered no-answer question): ``m1`` 0.750, ``gain1`` 0.745, ``gain3``
  0.728, ``mz3`` 0.713, ``mm1`` 0.703, ``mz1`` 0.699, ``lex1`` 0.676, ``clause1`` 0.613, ``lex3`` 0.598, the whole
  question's ``z1`` 0.486; among the questions naming a subject (182 answerable, 27 no-answer) 0.48-0.69. Low
  tails mix: ``gain3`` < -0.015 empties 4 for 3 lost, < 0 6 for 11, < 0.01 11 for 54.
- Leave one repo out: the best gate of each fold empties 1 of the 31 on the repos left out for 3 answerable lost;
  on answers given by meaning alone only, 3 of 9 for 6 of 96 lost.
- Small repo (G, 22 entries; F, held out, is 20): of G's 10 no-answer questions hybrid answers 3, 2 by meaning alone
  (z 2.29, 2.99), where 11 of its 25 answerable hits come from meaning alone too (z 1.67-3.48): in a repo of 60
  entries or fewer the meaning-alone answer has only the cosine floor (:mod:`memrepo.engine.read.semantic_fusegate`),
  and nothing measured here tells its right answers from its wrong ones.
- Cost: the masked question is one more query embedding, 20 ms CPU against 30 ms for a whole hybrid recall (repo C).

No gate on the asked part was shipped; the strict types were (:mod:`memrepo.engine.read.recallstrict`; on
700375e's answers, every answerable question asking one holds it in its first hit, 4 no-answer questions hold it in
none of their first three; run on code with the rule, those 4 are no longer answered). CSVs written by ``--csv``
carry every feature above; ``--from-csv`` replays the tables.

Usage (from the repository root, ``PYTHONPATH=.:benchmarks``):
    python benchmarks/asked_part_study.py [--split tune ...] [--csv OUT | --from-csv IN] [--show]
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "recall_quality"))
sys.path.insert(0, str(HERE))

import dataset  # noqa: E402
from _common import write_csv  # noqa: E402
from asked_types import answer_type, has_type  # noqa: E402
from bench_recall_quality import REPOS, SPLITS  # noqa: E402

TUNING = ("tune", "c-tune", "d-heldout", "e-heldout", "g-tune", "k-tune", "t-tune")
"""The splits tuned on (docs/benchmarks.md): never the blind or held-out ones."""

TOP = 3
"""The hits read (the prompt hook's places)."""

CLAUSE = re.compile(r"[,;:()]|\band\b|\bbut\b|\bwith\b|\bwhich\b")


def content_terms(query: str) -> list[str]:
    """The question's index terms less stop and filler words, first-seen order."""
    from memrepo.engine.format.stemming import FILLER_WORDS, STOP_WORDS, index_term
    from memrepo.engine.format.terms import query_terms

    _folded, raw = query_terms(query)
    out: list[str] = []
    for word in raw:
        if word in STOP_WORDS or word in FILLER_WORDS:
            continue
        term = index_term(word)
        if term and term not in out:
            out.append(term)
    return out


def term_words(query: str) -> dict[str, list[str]]:
    """Each content term of ``query`` with the words (as written) that give it."""
    from memrepo.engine.format.stemming import index_term
    from memrepo.engine.format.terms import fold, split_folded

    out: dict[str, list[str]] = {}
    for match in re.finditer(r"[\w'’.#+-]+", query):
        for piece in split_folded(fold(match.group())):
            term = index_term(piece)
            if term:
                out.setdefault(term, []).append(match.group())
    return out


def held(text: str) -> set[str]:
    """The index terms of ``text`` (variants too)."""
    from memrepo.engine.read.recallterms import entry_index_terms

    return set(entry_index_terms(text))


def holds(terms: set[str], term: str) -> bool:
    """Whether ``terms`` hold ``term``: the same index term, or one of 4+ letters beginning the other."""
    if term in terms:
        return True
    return len(term) >= 4 and any(len(h) >= 4 and (h.startswith(term) or term.startswith(h)) for h in terms)


def subject_of(meta: str | None) -> str:
    """The ``subject:`` value of an entry's meta JSON, or ""."""
    import json

    try:
        got = json.loads(meta or "{}")
    except ValueError:
        return ""
    return str(got.get("subject") or "") if isinstance(got, dict) else ""


def repo_things(index: Any, ids: Any, names_only: bool = False) -> set[str]:
    """The index terms naming the repo's things: names written capitalised, path words, headings, subjects
    (``names_only``: the names alone)."""
    from noanswer_study import repo_names

    from memrepo.engine.format.stemming import index_terms
    from memrepo.engine.format.terms import fold, split_folded

    rows = [r for r in (index.row(int(i)) for i in ids) if r is not None]
    names = repo_names([r[3] for r in rows])
    things = set(index_terms(sorted(names)))
    for r in [] if names_only else rows:
        path = re.sub(r"\.md$", "", r[0]).replace("/", " ").replace("-", " ").replace("_", " ")
        if not path.startswith(("me", "lessons", "inbox", "MEMORY")):
            things |= set(index_terms(split_folded(fold(path))))
        for extra in (r[5] or "", subject_of(r[4])):
            things |= set(index_terms(split_folded(fold(extra))))
    return things - {"project", "projects", "workspac", "workspace", "global", "note", "notes", "topic", "topics"}


def masked_text(text: str, words: set[str]) -> str:
    """``text`` with every word whose index term is in ``words`` taken out."""
    from memrepo.engine.format.stemming import index_term
    from memrepo.engine.format.terms import fold, split_folded

    def keep(match: re.Match[str]) -> str:
        pieces = [index_term(p) for p in split_folded(fold(match.group()))]
        return "" if pieces and all(p in words for p in pieces if p) and any(pieces) else match.group()

    return re.sub(r"\s+", " ", re.sub(r"[\w'’.#+-]+", keep, text)).strip() or text


def rows_for(split: str, work: Path, names_only: bool = False) -> list[dict[str, object]]:
    """One row per query of ``split`` (module docstring)."""
    import numpy as np
    import semantic_systems

    out = []
    for repo, qfile in SPLITS[split]:
        root = work / f"repo_{repo}"
        labels = dataset.built_repo(HERE / "recall_quality" / REPOS[repo], root)
        index, sem = semantic_systems._ready(root)
        store = sem._vectors()
        ids, mat, scales = store.matrix()
        vecs = mat.astype(np.float32) * scales[:, None]
        pos = {int(i): n for n, i in enumerate(ids)}
        things = repo_things(index, ids, names_only)

        for q in dataset.read_queries(HERE / "recall_quality" / qfile):
            out.append(query_row(split, repo, q, index, sem, vecs, pos, things, labels))
    return out


def rank_of(sims: Any, p: int | None) -> int:
    """The rank (1 = nearest) of the line at ``p`` among ``sims``; 999 for a line without a vector."""
    return int((sims > sims[p]).sum()) + 1 if p is not None else 999


def z_of(sims: Any, p: int | None) -> float:
    """The z-score of the line at ``p`` among ``sims``; 0.0 for a line without a vector."""
    return float((sims[p] - sims.mean()) / (sims.std() or 1.0)) if p is not None else 0.0


def query_row(
    split: str,
    repo: str,
    q: dataset.Query,
    index: Any,
    sem: Any,
    vecs: Any,
    pos: dict[int, int],
    things: set[str],
    labels: dict[tuple[str, int], str],
) -> dict[str, object]:
    """One query's row (module docstring)."""
    import numpy as np

    def embed(text: str, query: bool) -> Any:
        v = np.asarray(sem.embedder.embed([text], query=query)[0], dtype=np.float32)
        return v / (float(np.linalg.norm(v)) or 1.0)

    found = index.search(q.text, limit=20)
    pool = index.search(q.text, limit=20, min_confidence=0.0)
    fused, info = sem.fuse(
        index, q.text, found, workspace_file=None, workspace_id=None, scoped=False, limit=10, pool=pool
    )
    fused_all, _ = sem.fuse(
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
    answered = bool(fused)
    hits = [iid for iid, _k in (fused or fused_all)]
    rows = [index.row(i) for i in hits]
    gold = {g for group in q.gold for g in group}
    got = [labels.get(tuple(r[:2])) if r else None for r in rows]
    terms = content_terms(q.text)
    subject = [t for t in terms if t in things]
    asked = [t for t in terms if t not in things]
    texts = [" ".join((r[3], subject_of(r[4]), r[5] or "")) if r else "" for r in rows[:TOP]]
    helds = [held(t) for t in texts]
    lex = [sum(holds(h, t) for t in asked) / len(asked) if asked else 1.0 for h in helds]
    subj = [sum(holds(h, t) for t in subject) / len(subject) if subject else 0.0 for h in helds]
    kind = answer_type(q.text)
    types = [has_type(kind, q.text, r[3]) if r else False for r in rows[:TOP]]
    from memrepo.engine.read.recallstrict import holds_strict, strict_asked

    strict = strict_asked(q.text)
    stricts = [holds_strict(strict, r[3]) if r else False for r in rows[:TOP]]
    qvec = embed(q.text, True)
    sims = vecs @ qvec
    subject_words = set(subject)
    mq = masked_text(q.text, subject_words)
    mvec = embed(mq, True) if mq != q.text else qvec
    msims = vecs @ mvec

    def rank(s: Any, iid: int) -> int:
        return rank_of(s, pos.get(iid))

    def zed(s: Any, iid: int) -> float:
        return z_of(s, pos.get(iid))

    top_hits = hits[:TOP]
    first = top_hits[0] if top_hits else None
    subject_text = " ".join(w for t in subject for w in term_words(q.text).get(t, [])[:1])
    svec = embed(subject_text, True) if subject_text else None
    ssims = vecs @ svec if svec is not None else None

    def gain(iid: int) -> float:
        p = pos.get(iid)
        if p is None or ssims is None:
            return 1.0
        return float(sims[p] - ssims[p])

    def gain_z(iid: int) -> float:
        if ssims is None or iid not in pos:
            return 9.0
        return zed(sims, iid) - zed(ssims, iid)

    mm1 = clause1 = 0.0
    if first is not None and rows[0]:
        mm1 = float(embed(masked_text(rows[0][3], subject_words), False) @ mvec)
        asked_words = [w for t in asked for w in term_words(q.text).get(t, [])[:1]]
        if asked_words:
            avec = embed(" ".join(asked_words), True)
            clauses = [c.strip() for c in CLAUSE.split(rows[0][3]) if c and len(c.strip()) > 2]
            clause1 = max((float(embed(c, False) @ avec) for c in clauses), default=0.0)
    return {
        "split": split,
        "repo": "a" if split == "t-tune" else repo,
        "kind": q.kind,
        "query": q.text,
        "answered": answered and bool(info.answered),
        "lexans": bool(found),
        "gold": next((n + 1 for n, g in enumerate(got) if g in gold), 0),
        "subject": " ".join(subject),
        "asked": " ".join(asked),
        "lex1": round(lex[0], 3) if lex else 0.0,
        "lex3": round(max(lex, default=0.0), 3),
        "subj1": round(subj[0], 3) if subj else 0.0,
        "type": kind,
        "type1": bool(types[:1] and types[0]),
        "type3": any(types),
        "stype": strict,
        "stype1": bool(stricts[:1] and stricts[0]),
        "stype3": any(stricts),
        "m1": round(float(msims[pos[first]]), 4) if first in pos else 0.0,
        "mrank1": rank(msims, first) if first is not None else 999,
        "mrank3": min((rank(msims, i) for i in top_hits), default=999),
        "mz1": round(zed(msims, first), 3) if first is not None else 0.0,
        "mz3": round(max((zed(msims, i) for i in top_hits), default=0.0), 3),
        "rank1": rank(sims, first) if first is not None else 999,
        "z1": round(zed(sims, first), 3) if first is not None else 0.0,
        "mm1": round(mm1, 4),
        "gain1": round(gain(first), 4) if first is not None else 0.0,
        "gain3": round(max((gain(i) for i in top_hits), default=0.0), 4),
        "gainz1": round(gain_z(first), 3) if first is not None else 0.0,
        "gainz3": round(max((gain_z(i) for i in top_hits), default=0.0), 3),
        "clause1": round(clause1, 4),
        "n": len(pos),
        "top_text": rows[0][3][:90] if rows and rows[0] else "",
    }


def _answerable(r: dict) -> bool:
    return r["kind"] != "none" and str(r["answered"]) == "True" and 0 < int(r["gold"]) <= 5


def _no_answer(r: dict) -> bool:
    return r["kind"] == "none" and str(r["answered"]) == "True"


def quartiles(values: list[float]) -> str:
    """min / q1 / median / q3 / max of ``values``."""
    if len(values) < 2:
        return " / ".join(f"{v:.3f}" for v in values) or "-"
    q = statistics.quantiles(values, n=4)
    return f"{min(values):.3f} / {q[0]:.3f} / {q[1]:.3f} / {q[2]:.3f} / {max(values):.3f}"


NUMERIC = (
    "lex1",
    "lex3",
    "subj1",
    "m1",
    "mrank1",
    "mrank3",
    "mz1",
    "mz3",
    "rank1",
    "z1",
    "mm1",
    "clause1",
    "gain1",
    "gain3",
    "gainz1",
    "gainz3",
)


def says_asked(r: dict, feature: str, bar: float, lexical: bool = True, typed: bool = True) -> bool:
    """Whether the gate keeps ``r``'s answer: the hits hold an asked term, its answer type, or ``feature`` passes
    ``bar`` (ranks: at or under; other features: at or over). No asked term: kept."""
    if not str(r["asked"]).strip():
        return True
    if lexical and float(r["lex3"]) > 0:
        return True
    if typed and r["type"] and str(r["type3"]) == "True":
        return True
    if not feature:
        return False
    value = float(r[feature])
    return value <= bar if feature.startswith(("mrank", "rank")) else value >= bar


def gates() -> list[tuple[str, bool, bool]]:
    """The gate shapes tried: (feature, lexical escape, type escape)."""
    shapes = [("", True, True), ("", True, False)]
    shapes += [
        (f, lx, ty)
        for f in NUMERIC
        if f not in ("lex1", "lex3", "subj1")
        for lx in (True, False)
        for ty in (True, False)
    ]
    return shapes


def grid(rows: list[dict], feature: str) -> list[float]:
    if not feature:
        return [0.0]
    return [*sorted({float(r[feature]) for r in rows}), float("inf"), float("-inf")]


def loro(rows: list[dict], alone: bool = False) -> list[str]:
    """Leave one repo out (module docstring): per fold the best gate and bar, scored on the repo left out.

    ``alone``: the gate reads only the answers given by meaning alone (lexical recall answers nothing).
    """
    if alone:
        rows = [r for r in rows if str(r["lexans"]) != "True"]
    lines = []
    repos = sorted({str(r["repo"]) for r in rows})
    totals = [0, 0, 0, 0]
    for out in repos:
        train = [r for r in rows if r["repo"] != out]
        test = [r for r in rows if r["repo"] == out]
        yes = [r for r in train if _answerable(r)]
        no = [r for r in train if _no_answer(r)]
        allowed = max(1, len(yes) // 100)
        best: tuple | None = None
        for feature, lx, ty in gates():
            for bar in grid(train, feature):
                lost = sum(not says_asked(r, feature, bar, lx, ty) for r in yes)
                if lost > allowed:
                    continue
                emptied = sum(not says_asked(r, feature, bar, lx, ty) for r in no)
                if best is None or (emptied, -lost) > (best[0], -best[1]):
                    best = (emptied, lost, feature, bar, lx, ty)
        assert best is not None
        emptied, lost, feature, bar, lx, ty = best
        tno = [r for r in test if _no_answer(r)]
        tyes = [r for r in test if _answerable(r)]
        e = sum(not says_asked(r, feature, bar, lx, ty) for r in tno)
        lo = sum(not says_asked(r, feature, bar, lx, ty) for r in tyes)
        totals = [totals[0] + len(tno), totals[1] + e, totals[2] + len(tyes), totals[3] + lo]
        lines.append(
            f"  left out {out}: gate feature={feature or '-'} bar={bar:.3f} lexical={lx} type={ty} (training: emptied"
            f" {emptied} of {len(no)}, lost {lost} of {len(yes)}); left out: no-answer answered {len(tno)}, emptied"
            f" {e}; answerable (gold in top 5) {len(tyes)}, lost {lo}"
        )
    lines.append(
        f"  all folds: no-answer answered {totals[0]}, emptied {totals[1]}; answerable {totals[2]}, lost {totals[3]}"
    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", action="append", choices=TUNING)
    parser.add_argument("--csv", type=Path)
    parser.add_argument("--from-csv", type=Path)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--show", action="store_true", help="print every answered no-answer question's row")
    parser.add_argument("--names-only", action="store_true", help="the subject: the repo's names alone")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    if args.from_csv:
        with args.from_csv.open(newline="") as fh:
            rows = [r for r in csv.DictReader(fh) if r["split"] in (args.split or TUNING)]
    else:
        with tempfile.TemporaryDirectory(prefix="asked-part-") as tmp:
            work = args.work or Path(tmp)
            for split in args.split or TUNING:
                rows += rows_for(split, work, args.names_only)
    if args.csv:
        write_csv(args.csv, rows)
    groups = {
        "answerable, gold in top 5": [r for r in rows if _answerable(r)],
        "no-answer, answered": [r for r in rows if _no_answer(r)],
    }
    for name, group in groups.items():
        no_asked = sum(not str(r["asked"]).strip() for r in group)
        lexed = sum(float(r["lex3"]) > 0 for r in group)
        typed = sum(bool(r["type"]) for r in group)
        typed_ok = sum(bool(r["type"]) and str(r["type3"]) == "True" for r in group)
        print(
            f"{name}: {len(group)}; no asked term {no_asked}; a top-3 hit holds an asked term {lexed};"
            f" typed {typed} (type held {typed_ok}); kept by lexical-or-type {sum(says_asked(r, '', 0) for r in group)}"
        )
        for f in NUMERIC:
            print(f"  {f:8} {quartiles([float(r[f]) for r in group])}")
        strict = [r for r in group if r.get("stype")]
        print(
            f"  strict types: {len(strict)} asked; not held by the best hit"
            f" {sum(str(r['stype1']) != 'True' for r in strict)}, by none of the top 3"
            f" {sum(str(r['stype3']) != 'True' for r in strict)}"
        )
    print("leave one repo out (gate: asked term held, or answer type held, or the feature passes):")
    print("\n".join(loro(rows)))
    print("the same, the gate on answers by meaning alone only:")
    print("\n".join(loro(rows, alone=True)))
    if args.show:
        for r in rows:
            if _no_answer(r) or (_answerable(r) and not says_asked(r, "", 0)):
                print(
                    f"{r['kind']:10} {r['repo']} subj=[{r['subject']}] asked=[{r['asked']}] lex3={r['lex3']}"
                    f" type={r['type']}:{r['type3']} mrank3={r['mrank3']} mz1={r['mz1']} mm1={r['mm1']}"
                    f" clause1={r['clause1']} {r['query']!r} -> {r['top_text']!r}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
