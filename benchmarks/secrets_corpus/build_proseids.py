"""Build ``prose-ids.json``: identifiers as people quote them in issue threads, each line with its source URL.

Issue 32 (round 10, false alarms on identifiers in real human text). The sets
before it (``identifiers.json``, ``formats.json``, ``families.json``,
``public2``) hold identifiers in the shapes their docs give, or as fixtures
and lockfiles print them; none moved the held-out identifiers. A memory line
is a person's note around an id ("the run was 6511576289", "expected <sha256>
but computed <sha256>", ``NO_PUBKEY 53FC26B43838D761``). This set holds such
lines.

Where they come from: public GitHub issue and pull-request threads found by
searching for the places people paste identifiers (checksum mismatches,
pip's hash errors, go.sum's ``SECURITY ERROR``, npm's ``EINTEGRITY``, image
digests, bisect results, AWS access errors, Azure correlation ids, SSH host
key warnings, GnuPG's missing keys, Terraform's state lock, git-lfs's missing
objects, ``kubectl`` output, DHCP leases, Stripe events ...). Each input line
is ``{"family", "url", "text"}``: the identifiers are as the thread has them;
a tool's message is kept as printed; a person's sentence is put in other
words around the same identifiers (the threads' prose is theirs, not ours).
Nothing in it was read from any held-out set.

A line is left out when it holds a credential word beside a value
(``password``, ``secret``, ``api key``, ``BEGIN ... PRIVATE`` ...): every line
is one memory may hold verbatim. Lines are de-duplicated and cut at 300
characters.

The threads are not shipped (their text belongs to their authors); the
input lines are kept locally, one JSON object a line, in ``*.jsonl`` files
of one folder. Run::

    python benchmarks/secrets_corpus/build_proseids.py --lines DIR > /tmp/prose-ids.json
    python benchmarks/bench_secrets_sources.py --extra-benign /tmp/prose-ids.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

MAX_LINE = 300
DENY = re.compile(
    r"passw|passwd|secret|private[ _-]?key|api[_-]?key|access[_-]?key|bearer |authorization:|BEGIN [A-Z ]*PRIVATE"
    r"|\b(?:sk|rk|whsec)_|\bxprv|mnemonic|seed phrase",
    re.I,
)


def build(folder: Path) -> dict:
    """The ``{source, samples}`` set from the ``*.jsonl`` line files in ``folder``.

    Raises:
        ValueError: a line without a family, a GitHub URL or a text.
    """
    seen: set[str] = set()
    samples: list[dict] = []
    dropped = 0
    for path in sorted(folder.glob("*.jsonl")):
        for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not raw.strip():
                continue
            item = json.loads(raw)
            text = item.get("text", "")[:MAX_LINE]
            if not item.get("family") or not str(item.get("url", "")).startswith("https://github.com/") or not text:
                raise ValueError(f"{path.name}:{n}: needs family, a GitHub url and text")
            if DENY.search(text):
                dropped += 1
                continue
            if text in seen:
                continue
            seen.add(text)
            samples.append({"family": item["family"], "text": text, "url": item["url"]})
    print(f"{len(samples)} lines, {len({s['family'] for s in samples})} families, {dropped} left out", file=sys.stderr)
    return {"source": "build_proseids.py: identifiers quoted in public GitHub issue threads", "samples": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=Path, required=True, help="folder of *.jsonl line files")
    args = parser.parse_args()
    json.dump(build(args.lines), sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
