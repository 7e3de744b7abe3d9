#!/usr/bin/env python3
"""Benchmark: what the context block shows of a labelled repo (docs/architecture.md §4).

The repo and its labels come from ``benchmarks/context_quality/generate.py`` (``--corpus DIR`` names
a folder it made, holding ``repo/`` and ``labels.json``; without it a repo is built in a temporary
folder from ``--variant``). For each project (workspace) the block an agent gets at session start
(``MemoryStore.context``, the render every front end uses) is parsed back into its ``L<n>`` lines,
and counted against the labels:

- ``ws facts``: the workspace file's current entries shown, of all of them;
- ``decisions+rules``: the user's decisions and rules in the workspace file shown;
- ``user rules``: the user's rules in lessons.md (``--kind rule``) shown;
- ``pins``: MEMORY.md's current pins shown, and whether the newest pin is;
- ``me.md``: the user's current lines in me.md shown;
- ``changed``: facts a newer line replaced (in the block's files): the current line shown, and
  ``stale only`` where the block shows an outdated line without the line that replaced it;
- ``superseded`` lines shown and their tokens, ``dup tok``: tokens of an older restatement shown
  beside the newer one;
- ``left out``: whether every section that leaves entries out says so;
- ``pins+rules lost``: pins and user rules neither shown nor named (``L<n>``) in their section's left-out line;
- ``index``: MEMORY.md's index lines (``- [[...]]``) shown, of all of them (they rank after the user's lines).

Usage:
    python benchmarks/bench_context_quality.py [--corpus DIR | --variant tune|heldout] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "context_quality"))

_LINE_RE = re.compile(r"^L(\d+) ")
_HEADER_RE = re.compile(r"^## (\S+)")
_INDEX_RE = re.compile(r"^\s*[-*] \[\[[^\]]+\]\]\s*$")
_SHOWN_INDEX_RE = re.compile(r"^L\d+ \[\[")


def sections_of(text: str, paths: set[str]) -> dict[str, list[str]]:
    """The block's lines under each file's ``## <path>`` header (a ``## Index`` heading inside a file is no header)."""
    out: dict[str, list[str]] = {}
    path = ""
    for line in text.splitlines():
        m = _HEADER_RE.match(line)
        if m and m.group(1) in paths:
            path = m.group(1)
            out[path] = []
            continue
        if path:
            out[path].append(line)
    return out


def shown_lines(text: str, paths: set[str]) -> dict[tuple[str, int], str]:
    """The block's entry lines: (path, line number) -> the line as shown."""
    out: dict[tuple[str, int], str] = {}
    for path, lines in sections_of(text, paths).items():
        for line in lines:
            m = _LINE_RE.match(line)
            if m:
                out[(path, int(m.group(1)))] = line
    return out


def measure(repo: Path, labels: dict) -> dict:
    """Per-block counts and their totals (see the module docstring)."""
    from memrepo.engine.config import Settings
    from memrepo.engine.format.tokens import estimate_tokens
    from memrepo.engine.repo.store import MemoryStore

    store = MemoryStore.open(repo, Settings(), create=False)
    entries = [e for e in labels["entries"] if e["line"]]
    by_group: dict[str, list[dict]] = defaultdict(list)
    for e in entries:
        by_group[e["group"]].append(e)
    index_total = sum(1 for line in (repo / "MEMORY.md").read_text("utf-8").splitlines() if _INDEX_RE.match(line))
    blocks = []
    for project in labels["projects"]:
        block = store.context(project)
        ws_path = next(s.path for s in block.sections if s.path.startswith("workspaces/"))
        paths = {s.path for s in block.sections}
        shown = shown_lines(block.text, paths)
        texts = sections_of(block.text, paths)

        def is_shown(e: dict, shown: dict = shown) -> bool:
            return (e["path"], e["line"]) in shown

        def tok(e: dict, shown: dict = shown) -> int:
            return estimate_tokens(shown[(e["path"], e["line"])])

        in_scope = [e for e in entries if e["path"] in paths]
        ws = [e for e in in_scope if e["path"] == ws_path and e["status"] == "current"]
        dr = [e for e in ws if e["role"] in ("decision", "rule")]
        rules = [e for e in in_scope if e["path"] == "lessons.md" and e["role"] == "rule"]
        all_rules = [e for e in entries if e["path"] == "lessons.md" and e["role"] == "rule"]
        pins = [e for e in in_scope if e["role"] == "pin" and e["status"] == "current"]
        newest = [e for e in pins if e["group"] == "pin/newest"]
        me = [e for e in in_scope if e["path"] == "me.md" and e["by"] == "user" and e["status"] == "current"]
        changed = [
            g
            for g, members in by_group.items()
            if members[0]["path"] in paths and any(m["status"] == "superseded" for m in members)
        ]
        changed_current = sum(1 for g in changed if any(m["status"] == "current" and is_shown(m) for m in by_group[g]))
        stale_only = sum(
            1
            for g in changed
            if any(m["status"] == "superseded" and is_shown(m) for m in by_group[g])
            and not any(m["status"] == "current" and is_shown(m) for m in by_group[g])
        )
        superseded = [e for e in in_scope if e["status"] == "superseded" and is_shown(e)]
        dup_tokens = sum(
            tok(e)
            for e in in_scope
            if e["status"] == "restated"
            and is_shown(e)
            and any(m["status"] == "current" and is_shown(m) for m in by_group[e["group"]])
        )
        notes_ok = all(
            s.omitted == 0 or any("not shown" in line for line in texts.get(s.path, [])) for s in block.sections
        )

        def named(e: dict, texts: dict = texts) -> bool:
            notes = [line for line in texts.get(e["path"], []) if "not shown" in line]
            return any(re.search(rf"\bL{e['line']}\b", line) for line in notes)

        lost = [e for e in [*pins, *all_rules] if not is_shown(e) and not named(e)]
        blocks.append(
            {
                "project": project,
                "tokens": block.tokens,
                "ws_facts": (sum(map(is_shown, ws)), len(ws)),
                "decisions_rules": (sum(map(is_shown, dr)), len(dr)),
                "user_rules": (sum(map(is_shown, rules)), len(all_rules)),
                "pins": (sum(map(is_shown, pins)), len(pins)),
                "newest_pin": all(map(is_shown, newest)) and bool(newest),
                "me": (sum(map(is_shown, me)), len(me)),
                "changed": (changed_current, len(changed)),
                "stale_only": stale_only,
                "superseded_shown": len(superseded),
                "superseded_tokens": sum(map(tok, superseded)),
                "dup_tokens": dup_tokens,
                "left_out_said": notes_ok,
                "silently_lost": len(lost),
                "index": (sum(1 for line in texts.get("MEMORY.md", []) if _SHOWN_INDEX_RE.match(line)), index_total),
            }
        )
    total: dict = {"project": "TOTAL", "tokens": sum(b["tokens"] for b in blocks)}
    for key in ("ws_facts", "decisions_rules", "user_rules", "pins", "me", "changed", "index"):
        total[key] = (sum(b[key][0] for b in blocks), sum(b[key][1] for b in blocks))
    for key in ("stale_only", "superseded_shown", "superseded_tokens", "dup_tokens", "silently_lost"):
        total[key] = sum(b[key] for b in blocks)
    total["newest_pin"] = sum(b["newest_pin"] for b in blocks)
    total["left_out_said"] = sum(b["left_out_said"] for b in blocks)
    return {"variant": labels["variant"], "blocks": blocks, "total": total}


def _cell(value: object) -> str:
    if isinstance(value, (tuple, list)):
        return f"{value[0]}/{value[1]}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def table(result: dict) -> str:
    """The result as a plain text table, one row per block and a total row."""
    cols = [
        ("project", "project"),
        ("tokens", "tokens"),
        ("ws_facts", "ws facts"),
        ("decisions_rules", "dec+rules"),
        ("user_rules", "user rules"),
        ("pins", "pins"),
        ("newest_pin", "newest pin"),
        ("me", "me.md"),
        ("changed", "changed"),
        ("stale_only", "stale only"),
        ("superseded_shown", "superseded"),
        ("superseded_tokens", "sup tok"),
        ("dup_tokens", "dup tok"),
        ("left_out_said", "left out said"),
        ("silently_lost", "pins+rules lost"),
        ("index", "index"),
    ]
    rows = [[title for _k, title in cols]]
    for b in [*result["blocks"], result["total"]]:
        rows.append([_cell(b[k]) for k, _t in cols])
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    return "\n".join(
        "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))) for r in rows
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, help="a folder generate.py made (repo/ and labels.json)")
    parser.add_argument("--variant", choices=["tune", "heldout"], default="tune", help="without --corpus")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = args.corpus
        if corpus is None:
            from generate import build

            corpus = Path(tmp)
            build(corpus, args.variant, 29 if args.variant == "tune" else 1729)
        labels = json.loads((corpus / "labels.json").read_text("utf-8"))
        result = measure(corpus / "repo", labels)
    print(json.dumps(result, indent=1) if args.json else f"variant {result['variant']}\n{table(result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
