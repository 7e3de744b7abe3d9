"""A labelled set for the context block's lines replaced for ONE of their facts (issue 30, round 14, ctx14).

"route-planner is a Go 1.22 service that solves routes with OR-Tools through a C++ sidecar" and then
"route-planner moved to Go 1.23": the newer line changes the Go version only; the solver and the sidecar still hold.
The block used to hide the older line whole, so an agent never saw the OR-Tools fact again. Three lists, written
before the code changed (ctx14), reported apart:

- ``PARTLY``: (older, newer) pairs where the newer line replaces one part of a line that says more: the block must
  show the older line, marked as replaced in part (its replaced part named), with the newer line;
- ``WHOLE``: guards: the newer line restates every other fact of the older one, or the older line's rest is about
  the replaced value itself ("Frau Krüger in Hamburg"), or it says one fact: the older line stays hidden;
- ``KEPT``: pairs where neither replaces the other (another subject): both shown, unmarked.

Usage:
    python benchmarks/partial_replacement.py [--json]

Each pair is a workspace file of three lines (the older, an unrelated line, the newer; all ``by: user``, one
``added:`` day), rendered by :func:`memrepo.engine.read.context.build_context` with a budget that holds them all;
the older line's verdict is read from the block: ``hidden`` (not shown), ``partly`` (shown, marked "replaced in
part") or ``shown`` (shown unmarked).
"""

from __future__ import annotations

import argparse
import json
import re

PARTLY: list[tuple[str, str]] = [
    (
        "route-planner is a Go 1.22 service that solves routes with OR-Tools through a C++ sidecar",
        "route-planner moved to Go 1.23",
    ),
    (
        "The shop database is Postgres 14 on a managed RDS instance with nightly snapshots",
        "We upgraded the shop database to Postgres 16",
    ),
    ("The billing api runs Node 18 behind an nginx proxy and ships logs to Loki", "The billing api is now on Node 22"),
    ("The frontend uses React 18 with Vite and Tailwind for styling", "The frontend upgraded to React 19"),
    (
        "Infra uses Terraform 1.6 with remote state in an S3 bucket locked by DynamoDB",
        "Infra is now on Terraform 1.9",
    ),
    ("The mobile app targets iOS 16 and ships through Fastlane to TestFlight", "The mobile app now targets iOS 17"),
    (
        "Our staging cluster runs Kubernetes 1.27 on Hetzner with Longhorn volumes",
        "The staging cluster was upgraded to Kubernetes 1.29",
    ),
    (
        "The search service uses Elasticsearch 7 and reindexes every night at 02:00",
        "The search service moved to Elasticsearch 8",
    ),
    (
        "Deploy window is Tuesday 10:00 UTC; ask Maria before any schema migration",
        "Deploy window is now Thursday 10:00 UTC",
    ),
    ("CI runs on Jenkins and publishes coverage reports to Codecov", "CI moved to GitHub Actions"),
    (
        "The worker is written in Python 3.10, queues jobs in Redis and stores results in S3",
        "The worker now runs Python 3.12",
    ),
    ("Standup is at 9:30 in the Berlin office; remote people join on Zoom", "Standup moved to 10:00"),
]
"""The newer line replaces one part: the older line shown, marked."""

WHOLE: list[tuple[str, str]] = [
    (
        "route-planner is a Go 1.22 service that solves routes with OR-Tools through a C++ sidecar",
        "route-planner is now a Go 1.23 service that solves routes with OR-Tools through a C++ sidecar",
    ),
    (
        "route-planner is a Go 1.22 service that solves routes with OR-Tools through a C++ sidecar",
        "route-planner moved to Go 1.23; it still solves routes with OR-Tools through the C++ sidecar",
    ),
    ("The shop database is Postgres 14", "We upgraded the shop database to Postgres 16"),
    ("route-planner is a Go 1.22 service", "route-planner moved to Go 1.23"),
    ("Deploy window is Tuesday", "Deploy window is now Thursday"),
    ("Tax adviser is Frau Krüger in Hamburg", "Changed tax adviser to Herr Bäumer"),
    ("The billing api runs Node 18 behind nginx", "The billing api now runs Node 22 behind nginx"),
    ("Infra uses Terraform 1.6 with state in S3", "Infra moved to Terraform 1.9, state still in S3"),
    ("I live in Lyon near the Part-Dieu station", "I moved to Paris"),
    ("The frontend is React 18 with Vite", "The frontend moved to React 19 with Vite"),
    ("Code freeze is on Friday at 17:00 CET", "Code freeze moved to Thursday at 17:00 CET"),
    ("Our on-call lead is Bob Smith, reachable on Signal", "Alice is now our on-call lead"),
    ("The api runs Node 16", "The api now runs Node 18"),
    ("My editor is Vim", "My editor is now Helix, Vim was too slow"),
]
"""The older line stays hidden: the newer one says all it said that still holds, or it said one thing."""

KEPT: list[tuple[str, str]] = [
    (
        "route-planner is a Go 1.22 service that solves routes with OR-Tools through a C++ sidecar",
        "The billing api moved to Go 1.23",
    ),
    (
        "The shop database is Postgres 14 on a managed RDS instance with nightly snapshots",
        "The analytics database is now Postgres 16",
    ),
    ("The web app uses React 18 with Vite and Tailwind", "The marketing site now uses React 19"),
]
"""Another subject: neither line replaced, both shown unmarked."""

_MARK = re.compile(r"replaced in part", re.IGNORECASE)


def verdict(older: str, newer: str) -> str:
    """The older line's fate in the block of a file holding (older, an unrelated line, newer): hidden, partly, shown."""
    from memrepo.engine.read.context import ContextFile, build_context

    lines = [older, "The team sync is on Mondays", newer]
    body = "# Project\n\n" + "".join(f"- {text} [by: user; added: 2026-05-04]\n" for text in lines)
    block = build_context("", [ContextFile("workspaces/p.md", body.encode(), 4000)], today="2026-06-01").text
    shown = [line for line in block.splitlines() if line.startswith("L3 ")]
    if not shown:
        return "hidden"
    return "partly" if _MARK.search(shown[0]) else "shown"


def report() -> dict[str, object]:
    """Each list's right count and its wrong pairs."""
    out: dict[str, object] = {}
    for name, pairs, want in (("partly", PARTLY, "partly"), ("whole", WHOLE, "hidden"), ("kept", KEPT, "shown")):
        got = [(older, newer, verdict(older, newer)) for older, newer in pairs]
        out[name] = {
            "right": sum(v == want for _o, _n, v in got),
            "total": len(got),
            "wrong": [f"{o} <- {n}: {v}" for o, n, v in got if v != want],
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = report()
    if args.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return
    for name, part in result.items():
        assert isinstance(part, dict)
        print(f"{name}: {part['right']}/{part['total']} right")
        for line in part["wrong"]:
            print(f"  wrong: {line}")


if __name__ == "__main__":
    main()
