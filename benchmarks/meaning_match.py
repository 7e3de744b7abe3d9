#!/usr/bin/env python3
"""Benchmark: corrections matched to their line by meaning, and their look-alikes (issue 30, sem15; :mod:`.meaningmatch`).

One populated store (20 lines of one project and the user's, in English, French, Spanish, German and Japanese) and
sem15's own wordings, none of a benchmark set, written before the guards were final:

- ``RIGHT``: a line said again in fewer or other words with one new value of its kind, no cue ("Deploys go out on
  Thursday mornings" for "Production deploys go out on Tuesday mornings"); the labelled line must be the one replaced.
- ``HOSTILE``: the same shapes about another thing ("Blog deploys ..."), another thing's limit, a value of another
  kind said too, a second value, hearsay, a plan, a scope: nothing may be kept.

Each message is read by :func:`memrepo.engine.checkpoints.corrections.correction_statements` and placed by
:func:`~memrepo.engine.checkpoints.corrections.where` twice: by the rules alone (no model) and with the local model
(``memrepo[semantic]``). Reported per list: right, wrong stores (a look-alike kept, or another line replaced), and the
wall time of the first message (the model's load and the lines' vectors) and of the others.

Usage:
    PYTHONPATH=. python benchmarks/meaning_match.py [--misses]
"""

from __future__ import annotations

import argparse
import time

STORE = [
    "workspaces/shop.md|The shop DB runs on Postgres 15",
    "workspaces/shop.md|The deploy window is Tuesday",
    "workspaces/shop.md|The shop CDN is Cloudflare",
    "workspaces/infra.md|Infra uses Terraform 1.6",
    "me.md|My manager is Alice Kim",
    "me.md|My editor is vim",
    "MEMORY.md|Always answer in metric units",
    "workspaces/shop.md|The shop's payment provider is Stripe",
    "workspaces/shop.md|Error tracking goes to Sentry",
    "lessons.md|Keep answers under ten lines",
    "workspaces/shop.md|Max upload size for the shop is 25 MB",
    "workspaces/shop.md|The shop's staging host is stage.shop.dev",
    "workspaces/shop.md|The release branch of the shop is release/stable",
    "workspaces/shop.md|Production deploys go out on Tuesday mornings",
    "workspaces/shop.md|The nightly backup of the shop runs at 02:00",
    "workspaces/shop.md|Das Team-Meeting des Shops ist um 9:30",
    "workspaces/shop.md|La région de production du shop est eu-west-3",
    "workspaces/shop.md|El límite de subida de la tienda es 25 MB",
    "workspaces/shop.md|ショップの本番リージョンは us-east-1",
    "workspaces/shop.md|Die Staging-Datenbank des Shops läuft auf Port 5432",
]
RIGHT = [
    ("Deploys go out on Thursday mornings.", "Production deploys go out on Tuesday mornings"),
    ("La région de production est eu-central-1.", "La région de production du shop est eu-west-3"),
    ("El límite de subida es 100 MB.", "El límite de subida de la tienda es 25 MB"),
    ("Die Staging-Datenbank läuft jetzt auf Port 6432.", "Die Staging-Datenbank des Shops läuft auf Port 5432"),
    ("The release branch is release/main.", "The release branch of the shop is release/stable"),
    ("Das Team-Meeting ist jetzt um 10:15.", "Das Team-Meeting des Shops ist um 9:30"),
    ("The nightly backup runs at 03:30 now.", "The nightly backup of the shop runs at 02:00"),
    ("La sauvegarde de nuit tourne à 04:00 maintenant.", "The nightly backup of the shop runs at 02:00"),
    ("本番リージョンは eu-west-1 です。", "ショップの本番リージョンは us-east-1"),
    ("The biggest file a customer can upload is 100 MB now.", "Max upload size for the shop is 25 MB"),
    ("Our staging box moved to qa.shop.dev.", "The shop's staging host is stage.shop.dev"),
    ("El backup nocturno corre a las 03:30 ahora.", "The nightly backup of the shop runs at 02:00"),
]
HOSTILE = [
    "ブログの本番リージョンは eu-west-1 です。",
    "El límite de subida de imágenes es 5 MB.",
    "Die Staging-Datenbank des Blogs läuft auf Port 6432.",
    "La région de production du blog est eu-central-1.",
    "Blog deploys go out on Thursday mornings.",
    "The hotfix branch is release/hotfix-12.",
    "Das Team-Meeting ist am Freitag um 10:15.",
    "The blog's staging host is stage.blog.dev.",
    "Max upload size for images is 5 MB.",
    "Das Team-Meeting des Blogs ist um 10:15.",
    "The nightly backup of the blog runs at 03:30.",
    "Alice says production deploys go out on Thursday mornings.",
    "We might move the nightly backup of the shop to 03:30.",
    "The release branch of the shop is release/main for the hotfix only.",
    "El backup nocturno de la tienda corre a las 03:30 solo en staging.",
    "博客的预发布主机是 stage.blog.dev。",
    "Deploys go out on Thursday and Friday mornings.",
    "Our Terraform modules are on 2.0 now.",
]


def run(model: object | None) -> tuple[dict[str, list[str]], list[float]]:
    """Each message's outcome (``right`` / ``missed`` / ``wrong store``, with what was kept) and its wall time."""
    from memrepo.engine.checkpoints import meaningmatch
    from memrepo.engine.checkpoints.claims import ExistingEntry
    from memrepo.engine.checkpoints.corrections import correction_statements, where

    meaningmatch.reset()
    meaningmatch.use_model(model)  # type: ignore[arg-type]
    entries = [
        ExistingEntry(f"E{i}", line.split("|", 1)[0], i, line.split("|", 1)[1], "user", {"added": "2026-11-01"})
        for i, line in enumerate(STORE, 1)
    ]
    out: dict[str, list[str]] = {"right": [], "missed": [], "wrong store": []}
    times = []
    for said, want in [*RIGHT, *((h, None) for h in HOSTILE)]:
        start = time.perf_counter()
        kept = [(fact, where(fact, "/work/shop", entries)[1]) for fact in correction_statements([said], entries)]
        times.append(time.perf_counter() - start)
        targets = [t.text if t else None for _f, t in kept]
        if want is None:
            out["wrong store" if kept else "right"].append(f"{said} -> {targets}")
        elif targets == [want]:
            out["right"].append(said)
        else:
            out["wrong store" if any(t not in (None, want) for t in targets) else "missed"].append(
                f"{said} -> {targets}"
            )
    return out, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--misses", action="store_true", help="list what was missed or wrongly kept")
    args = parser.parse_args()
    from memrepo.engine.read.semantic_model import LocalEmbedder, local_model_installed

    rows = [("rules alone", None)]
    if local_model_installed():
        rows.append(("with the local model", LocalEmbedder()))
    print(f"{len(RIGHT)} corrections, {len(HOSTILE)} look-alikes, {len(STORE)} stored lines")
    print("| reading | corrections right | look-alikes right | wrong stores | first message | each after |")
    print("|---|---|---|---|---|---|")
    for name, model in rows:
        out, times = run(model)
        hostile_right = sum(1 for r in out["right"] if "->" in r)
        right = len(out["right"]) - hostile_right
        after = sorted(times[1:])[len(times[1:]) // 2]
        print(
            f"| {name} | {right}/{len(RIGHT)} | {hostile_right}/{len(HOSTILE)} | {len(out['wrong store'])} "
            f"| {times[0] * 1000:.0f} ms | {after * 1000:.0f} ms (median) |"
        )
        if args.misses:
            for kind in ("missed", "wrong store"):
                for line in out[kind]:
                    print(f"  [{name}: {kind}] {line}")


if __name__ == "__main__":
    main()
