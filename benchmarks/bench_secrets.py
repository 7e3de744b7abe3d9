"""Secret redaction against a public corpus: detection per family, false alarms, start-up and per-call cost.

The corpus (``benchmarks/secrets_corpus/corpus.json``, see its ``source``):

- ``vendor``: one sample per visible Kingfisher rule (medium or high confidence),
  transcribed from the examples Kingfisher publishes with its rules
  (github.com/mongodb/kingfisher, ``data/rules/*.yml``, Apache-2.0), after a
  plain lead-in sentence; the secret is what Kingfisher's own matcher captures;
- ``named``: formats named in issue 14 (fine-grained GitHub, Google, Hugging Face,
  npm, Vault, Grafana, DigitalOcean, Shopify, Sentry, test-mode Stripe ...),
  random values in the vendors' documented shapes;
- ``hard``: empty-user URLs, query-string credentials (the rest of the query must
  survive), ``Authorization``/``X-Api-Key`` headers, labelled secrets in plain
  speech, tokens wrapped over two lines or split by an invisible character;
- ``benign``: what memory really holds (commit ids, UUIDs, hashes, versions,
  paths, URLs, config words such as ``api_key_env = ANTHROPIC_API_KEY``); each
  must come out unchanged.

A sample counts as redacted when none of its secret pieces survives in the
output and every ``keep`` piece does. Run::

    python benchmarks/bench_secrets.py            # the shipped union
    python benchmarks/bench_secrets.py --compare  # each detector alone and in combination
    python benchmarks/bench_secrets.py --texts DIR  # per-text cost over a repo's .md files, before and after
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).parent / "secrets_corpus" / "corpus.json"


def load() -> tuple[list[dict], list[str]]:
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    true = [dict(s, set=name) for name in ("vendor", "named", "hard") for s in data[name]]
    return true, data["benign"]


def passes(sample: dict, out: str) -> bool:
    return not any(p in out for p in sample["secrets"]) and all(k in out for k in sample.get("keep", []))


def startup_ms(names: tuple[str, ...]) -> float:
    """Import and first use of the detectors in a fresh interpreter (cold start, as a CLI pays it)."""
    code = (
        "import time; t = time.perf_counter();"
        "from memrepo.engine import redaction;"
        f"redaction.use_detectors({names!r}); redaction.warm();"
        "print((time.perf_counter() - t) * 1000)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def run(names: tuple[str, ...], verbose: bool) -> dict:
    from memrepo.engine import redaction

    redaction.use_detectors(names)
    redaction.warm()
    true, benign = load()
    per_set, per_set_ok = collections.Counter(), collections.Counter()
    fam, fam_ok = collections.Counter(), collections.Counter()
    missed, alarms = [], []
    t0 = time.perf_counter()
    for s in true:
        out, _types = redaction.redact(s["text"])
        ok = passes(s, out)
        per_set[s["set"]] += 1
        fam[s["family"]] += 1
        per_set_ok[s["set"]] += ok
        fam_ok[s["family"]] += ok
        if not ok:
            missed.append(s)
    for b in benign:
        out, _types = redaction.redact(b)
        if out != b:
            alarms.append((b, out))
    per_call = (time.perf_counter() - t0) / (len(true) + len(benign)) * 1000
    return {
        "names": names,
        "detected": sum(per_set_ok.values()) / len(true),
        "per_set": {k: (per_set_ok[k], per_set[k]) for k in per_set},
        "families": (sum(1 for f in fam if fam_ok[f] == fam[f]), len(fam)),
        "missed": missed,
        "alarms": alarms,
        "benign": len(benign),
        "per_call_ms": per_call,
        "startup_ms": startup_ms(names),
        "fam": fam,
        "fam_ok": fam_ok,
    }


def time_texts(folder: Path, rounds: int = 5) -> None:
    """Redact every line of every ``.md`` file under ``folder`` (as ``remember`` and recall see entries) and each
    whole file (as a context block or a hand-edit scan sees it), with the union before this round and today's.

    The two unions alternate text by text, so both meet the same machine load; each text's time is its fastest of
    ``rounds``; prints the mean per text (microseconds) and the ratio after/before.
    """
    from memrepo.engine import redaction

    files = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(folder.rglob("*.md"))]
    lines = [ln for f in files for ln in f.splitlines() if ln.strip()]
    unions = {"before": ("betterleaks", "rules", "vendors", "speech"), "after": redaction.DETECTORS}
    built = {}
    for name, names in unions.items():
        redaction.use_detectors(names)
        redaction.warm()
        built[name] = redaction._detectors
    print(f"{len(files)} files, {len(lines)} lines under {folder}")
    for kind, texts in (("line", lines), ("file", files)):
        best = {k: [1e9] * len(texts) for k in unions}
        for _ in range(rounds):
            for i, t in enumerate(texts):
                for name in unions:
                    redaction._detectors = built[name]
                    t0 = time.perf_counter()
                    redaction.redact(t)
                    best[name][i] = min(best[name][i], time.perf_counter() - t0)
        b, a = (sum(best[k]) / len(texts) * 1e6 for k in unions)
        print(f"  per {kind:4s}: before {b:8.1f} us   after {a:8.1f} us   ratio {a / b:4.2f}")


def line(r: dict) -> str:
    sets = "  ".join(f"{k} {a}/{b}" for k, (a, b) in r["per_set"].items())
    return (
        f"{'+'.join(r['names']):36s} detected {r['detected'] * 100:5.1f}%  {sets}  "
        f"families fully redacted {r['families'][0]}/{r['families'][1]}  "
        f"false alarms {len(r['alarms'])}/{r['benign']}  start-up {r['startup_ms']:5.0f} ms  "
        f"per call {r['per_call_ms']:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", action="store_true", help="measure each detector alone and in combination")
    parser.add_argument("--texts", type=Path, help="time redaction of every line of every .md file under this folder")
    args = parser.parse_args()
    from memrepo.engine import redaction

    if args.texts:
        time_texts(args.texts)
        return
    if args.compare:
        combos = [
            ("detect-secrets",),
            ("betterleaks",),
            ("rules",),
            ("betterleaks", "detect-secrets"),
            ("betterleaks", "rules"),
            ("detect-secrets", "rules"),
            ("betterleaks", "rules", "vendors", "speech"),  # the union before Kingfisher's rules and vendor context
            redaction.DETECTORS,
        ]
        for names in combos:
            print(line(run(names, False)))
        return
    r = run(redaction.DETECTORS, True)
    print(line(r))
    true, _benign = load()
    named = sorted({s["family"] for s in true if s["set"] != "vendor"})
    print("\nnamed formats and hard cases, per family:")
    for f in named:
        print(f"  {f:28s} {r['fam_ok'][f]}/{r['fam'][f]}")
    vendor = sorted({s["family"] for s in true if s["set"] == "vendor"} - set(named))
    full = sum(1 for f in vendor if r["fam_ok"][f] == r["fam"][f])
    print(f"\nvendor families (one sample per Kingfisher rule): {full}/{len(vendor)} fully redacted; the others:")
    for f in vendor:
        if r["fam_ok"][f] < r["fam"][f]:
            print(f"  {f:28s} {r['fam_ok'][f]}/{r['fam'][f]}")
    print("\nsamples that still pass:")
    for s in r["missed"]:
        print(f"  [{s['family']}] {s['text'][:110]!r}")
    print("\nfalse alarms on the benign set:")
    for b, out in r["alarms"]:
        print(f"  {b!r} -> {out!r}")
    if not r["alarms"]:
        print("  none")


if __name__ == "__main__":
    main()
