"""Build a look-alike set from Kingfisher's negative rule examples: texts that must come out unchanged.

Kingfisher (github.com/mongodb/kingfisher, Apache-2.0) publishes with each rule
in ``data/rules/*.yml`` the ``negative_examples`` its matcher must not take for
that vendor's secret: placeholders, ids, URLs, hashes, wrong lengths. Each
becomes one text of the set, written after a plain lead-in sentence as in
``corpus.json``. Its positive ``examples`` were tuned on (``corpus.json``
``vendor``); these negatives were not, before this set was built.

Run::

    git -C KINGFISHER archive HEAD data/rules | tar -x -C /tmp/kf
    python benchmarks/secrets_corpus/build_kingfisher_negatives.py /tmp/kf/data/rules > /tmp/kf-negative.json
    python benchmarks/bench_secrets_sources.py --extra-benign /tmp/kf-negative.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml


def main() -> None:
    samples: list[dict] = []
    for path in sorted(Path(sys.argv[1]).glob("*.yml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for rule in doc.get("rules") or []:
            for text in rule.get("negative_examples") or []:
                text = str(text).strip()
                if text:
                    samples.append(
                        {"family": path.stem, "rule": rule.get("id", ""), "text": f"For {path.stem}, remember: {text}"}
                    )
    doc = {
        "source": "Kingfisher data/rules/*.yml negative_examples (Apache-2.0), each after a plain lead-in sentence.",
        "samples": samples,
    }
    print(json.dumps(doc, indent=1, ensure_ascii=False))
    print(f"{len(samples)} look-alikes from {len({s['family'] for s in samples})} rule files", file=sys.stderr)


if __name__ == "__main__":
    main()
