#!/usr/bin/env python3
"""Study: does a question name a thing no line of the repo holds in any form? (rec15, issue 30)

For every query of the tuning splits (never the blind or held-out ones) it cuts the query into its words and reads,
for each word that is not filler, whether some entry of the repo holds one of its index terms (stemmed, folded, CJK
bigrams, the variants of :mod:`memrepo.engine.format.stemming`; an entry's context counts). A word no entry holds is
*absent*; it is *specific* when it names a thing rather than saying something: a capital inside the sentence
(a product, a vendor, a person, a place), an acronym, a number or an identifier (digits, ``/``, ``.``, ``_``, ``#``,
``-`` inside the word), or a CJK run. The table counts, per split and kind (``none``: no answer; the answerable
kinds), the questions with an absent specific word, with an absent common word only, and with none absent.

Usage (from the repository root, ``PYTHONPATH=.:benchmarks``):
    python benchmarks/absent_term_study.py [--split tune ...] [--list]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "recall_quality"))
sys.path.insert(0, str(HERE))

import dataset  # noqa: E402
from bench_recall_quality import REPOS, SPLITS  # noqa: E402

TUNING = ("tune", "c-tune", "d-heldout", "e-heldout", "g-tune", "k-tune", "t-tune")
"""The splits tuned on (docs/benchmarks.md): never the blind or held-out ones."""


def main() -> None:
    from memrepo.engine.read.recall import RecallIndex
    from memrepo.engine.read.recallabsentterm import absent_things, held_prefix
    from memrepo.engine.read.recallview import scoped_view

    parser = argparse.ArgumentParser()
    parser.add_argument("--split", action="append", choices=TUNING)
    parser.add_argument("--list", action="store_true", help="print each question's absent words")
    args = parser.parse_args()
    table: dict[tuple[str, str], Counter] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for split in args.split or TUNING:
            for repo, qfile in SPLITS[split]:
                root = Path(tmp) / f"repo_{repo}"
                if not root.exists():
                    dataset.built_repo(HERE / "recall_quality" / REPOS[repo], root)
                index = RecallIndex(root)
                index.sync()
                view = scoped_view(index, False, None, None)
                for q in dataset.read_queries(HERE / "recall_quality" / qfile):
                    kind = "none" if q.kind == "none" else "answerable"
                    things = absent_things(view, q.text, lambda t, db=index.db: held_prefix(db, t))
                    common = [w for w, specific in things if not specific]
                    spec = [w for w, specific in things if specific]
                    cell = "specific" if spec else "common only" if common else "none absent"
                    table.setdefault((split, kind), Counter())[cell] += 1
                    if args.list and (spec or common):
                        print(f"{split:10} {q.kind:10} spec={spec} common={common} | {q.text[:70]}")
    print("| split | kind | n | absent specific | absent common only | nothing absent |")
    print("|---|---|---|---|---|---|")
    for (split, kind), c in table.items():
        n = sum(c.values())
        print(f"| {split} | {kind} | {n} | {c['specific']} | {c['common only']} | {c['none absent']} |")


if __name__ == "__main__":
    main()
