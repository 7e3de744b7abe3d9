#!/usr/bin/env python3
"""Build a realistic labelled memory repo for the context-block benchmark (docs/architecture.md §4).

Every entry is written through memrepo's own write path (``MemoryStore.remember``: policy, routing,
dedupe, subject replacement, one commit per write), except the few lines a user typed into a file by
hand, which are appended to the file and committed as "Hand edits" by the next write, as the store
does for any editor. About 380 entries:

- 8 projects (workspaces), each with facts, the user's decisions and rules (``--kind rule`` with the
  workspace scope), agents' notes, facts that a later line replaces (with and without ``subject:``),
  restatements of an earlier fact, and in two projects lines in Chinese or Japanese;
- me.md: the user's preferences and the people they work with, some replaced later, agents' notes;
- lessons.md: the user's rules saved with ``--kind rule`` and agents' own lessons;
- MEMORY.md: pinned lines (``--pin``), enough to pass its 500-token budget, the newest last, and an
  index of 42 files (32 side projects of one line each, written first): the user's lines compete with
  index lines for the budget, as in a real entry point of a user with many projects.

Two variants: ``tune`` (the phrasings the selection rule was developed on) and ``heldout`` (other
phrasings, other values, another seed; never looked at while tuning). The labels go to
``labels.json`` beside the repo: one record per entry with its file, line, role and group (entries
of one group state the same thing; ``superseded`` lines are replaced by a newer line of their group).

Usage:
    python benchmarks/context_quality/generate.py OUT_DIR [--variant tune|heldout] [--seed N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from phrasings import VARIANTS, Variant  # noqa: E402


@dataclass
class Label:
    """One labelled entry.

    Attributes:
        id: a stable id (``<group>#<n>``).
        path: the file it landed in.
        line: its 1-based line number in the final file (0 when a write replaced it in place).
        text: the entry's text.
        by: ``user`` or ``agent``.
        role: ``fact``, ``decision``, ``rule``, ``preference``, ``person``, ``note`` (an agent's),
            ``lesson`` (an agent's), ``pin``.
        status: ``current``, ``superseded`` (a newer line of its group replaces it), ``restated``
            (a newer line of its group says the same), ``gone`` (a write with its subject replaced it in place).
        group: what it is about; every entry of a group states (a version of) the same thing.
        workspace: the project name, or "" for a global entry.
        how: ``plain``, ``subject`` (written with ``subject:``), ``hand`` (typed into the file by hand).
    """

    id: str
    path: str
    line: int
    text: str
    by: str
    role: str
    status: str
    group: str
    workspace: str
    how: str


@dataclass
class Event:
    """One write, in time order."""

    group: str
    text: str
    role: str
    by: str = "user"
    workspace: str = ""
    kind: str = "fact"
    subject: str | None = None
    pin: bool = False
    hand: bool = False
    replaces: bool = False  # a newer version of its group (the older ones become superseded)
    restates: bool = False  # says the group's earlier line again (the older one becomes restated)


def _project_events(v: Variant, rng: random.Random, project: str, index: int) -> list[list[Event]]:
    """The project's events as chains: each chain's events keep their order, chains interleave."""
    chains: list[list[Event]] = []
    people = v.people
    facts = rng.sample(v.static_facts, 8)
    for n, template in enumerate(facts):
        text = template.format(p=project, person=rng.choice(people), n=rng.randint(2, 6))
        chains.append([Event(f"{project}/f{n}", text, "fact", workspace=project)])
    for n, (old, new) in enumerate(rng.sample(v.changes, 4)):
        a, b = rng.sample(v.versions, 2)
        x, y = rng.sample(people, 2)
        group = f"{project}/c{n}"
        fill = {"p": project, "a": min(a, b), "b": max(a, b), "x": x, "y": y}
        chains.append(
            [
                Event(group, old.format(**fill), "fact", workspace=project),
                Event(group, new.format(**fill), "fact", workspace=project, replaces=True),
            ]
        )
    old, new, subject = rng.choice(v.subject_changes)
    group = f"{project}/s0"
    chains.append(
        [
            Event(group, old.format(p=project), "fact", workspace=project, subject=subject),
            Event(group, new.format(p=project), "fact", workspace=project, subject=subject, replaces=True),
        ]
    )
    old, new, subject = rng.choice([c for c in v.subject_changes if c[2] != subject])
    group = f"{project}/h0"
    chains.append(
        [
            Event(group, old.format(p=project), "fact", workspace=project, subject=subject),
            Event(group, new.format(p=project), "fact", workspace=project, subject=subject, hand=True, replaces=True),
        ]
    )
    for n, (first, again) in enumerate(rng.sample(v.restatements, 2)):
        group = f"{project}/r{n}"
        chains.append(
            [
                Event(group, first.format(p=project), "fact", workspace=project),
                Event(group, again.format(p=project), "fact", workspace=project, restates=True),
            ]
        )
    for n, text in enumerate(rng.sample(v.decisions, 2)):
        chains.append(
            [Event(f"{project}/d{n}", text.format(p=project), "decision", workspace=project, kind="decision")]
        )
    for n, text in enumerate(rng.sample(v.project_rules, 2)):
        chains.append([Event(f"{project}/u{n}", text.format(p=project), "rule", workspace=project, kind="rule")])
    for n, text in enumerate(rng.sample(v.agent_notes, 4)):
        chains.append(
            [
                Event(
                    f"{project}/a{n}", text.format(p=project), "note", by="agent", workspace=project, kind="observation"
                )
            ]
        )
    if index in (2, 5):
        for n, text in enumerate(v.cjk_facts[index % 2]):
            chains.append([Event(f"{project}/k{n}", text, "fact", workspace=project)])
        old, new = v.cjk_changes[index % 2]
        chains.append(
            [
                Event(f"{project}/kc", old, "fact", workspace=project),
                Event(f"{project}/kc", new, "fact", workspace=project, replaces=True),
            ]
        )
    focus = rng.sample(v.focus, 2)
    chains.append(
        [
            Event(f"{project}/focus", focus[0].format(p=project), "pin", pin=True, subject=f"focus {project}"),
            Event(
                f"{project}/focus",
                focus[1].format(p=project),
                "pin",
                pin=True,
                subject=f"focus {project}",
                replaces=True,
            ),
        ]
    )
    return chains


def _global_events(v: Variant, rng: random.Random) -> list[list[Event]]:
    chains: list[list[Event]] = []
    for n, text in enumerate(v.preferences):
        chains.append([Event(f"me/p{n}", text, "preference", kind="preference")])
    for n, text in enumerate(v.person_facts):
        chains.append([Event(f"me/q{n}", text, "person", kind="person")])
    for n, (old, new) in enumerate(v.preference_changes):
        chains.append(
            [
                Event(f"me/c{n}", old, "preference", kind="preference"),
                Event(f"me/c{n}", new, "preference", kind="preference", replaces=True),
            ]
        )
    for n, (first, again) in enumerate(v.preference_restatements):
        chains.append(
            [
                Event(f"me/r{n}", first, "preference", kind="preference"),
                Event(f"me/r{n}", again, "preference", kind="preference", restates=True),
            ]
        )
    for n, text in enumerate(v.me_agent_notes):
        chains.append([Event(f"me/a{n}", text, "note", by="agent", kind="preference")])
    for n, text in enumerate(v.user_rules):
        chains.append([Event(f"lessons/u{n}", text, "rule", kind="rule")])
    for n, text in enumerate(v.agent_lessons):
        chains.append([Event(f"lessons/a{n}", text, "lesson", by="agent", kind="lesson")])
    for n, text in enumerate(v.global_pins):
        chains.append([Event(f"pin/g{n}", text, "pin", pin=True)])
    return chains


def _interleave(chains: list[list[Event]], rng: random.Random) -> list[Event]:
    """All events, chains interleaved at random, each chain's order kept, a chain's later steps weeks later."""
    order: list[Event] = []
    pending = [list(c) for c in chains]
    rng.shuffle(pending)
    # first steps in the first two thirds, replacing steps spread over the rest
    firsts = [c.pop(0) for c in pending]
    laters = [e for c in pending for e in c]
    rng.shuffle(laters)
    cut = len(firsts) * 2 // 3
    order = firsts[:cut]
    rest = firsts[cut:] + laters
    rng.shuffle(rest)
    seen: set[str] = {e.group for e in order}
    tail: list[Event] = []
    for event in rest:
        if (event.replaces or event.restates) and event.group not in seen:
            tail.append(event)  # its first step is still to come
            continue
        order.append(event)
        seen.add(event.group)
        ready = [e for e in tail if e.group in seen]
        for e in ready:
            tail.remove(e)
            order.append(e)
    return order + tail


def build(out: Path, variant: str, seed: int) -> dict:
    """Write the repo to ``out/repo`` and its labels to ``out/labels.json``; the labels' summary."""
    from memrepo.engine.config import Settings
    from memrepo.engine.models import Action, Candidate
    from memrepo.engine.repo.store import MemoryStore

    v = VARIANTS[variant]
    rng = random.Random(seed)
    chains = _global_events(v, rng)
    for i, project in enumerate(v.projects):
        chains.extend(_project_events(v, rng, project, i))
    events = _interleave(chains, rng)
    # The last write of all is a pin: "the newest pin" of the issue.
    last_pin = Event("pin/newest", v.newest_pin, "pin", pin=True)
    events.append(last_pin)

    root = out / "repo"
    settings = Settings.model_validate({"writes": {"commit_hand_edits_after": 0}})
    store = MemoryStore.open(root, settings)
    start = dt.date(2026, 1, 5)
    records: list[tuple[Event, str, str]] = []  # event, path, ref-or-marker
    # Side projects first, in the weeks before: each adds its index line to MEMORY.md (no rng drawn,
    # so the main events and their dates are what they were before the side projects came in).
    side = [Event(f"side/{p}", v.side_fact.format(p=p), "fact", workspace=p) for p in v.side_projects]
    dated = [((start - dt.timedelta(days=len(side) - i)).isoformat(), e) for i, e in enumerate(side)]
    dated += [((start + dt.timedelta(days=n * 150 // len(events))).isoformat(), e) for n, e in enumerate(events)]
    for n, (day, event) in enumerate(dated):
        if event.hand:
            path = next(p for e, p, _r in records if e.group == event.group)
            file = root / path
            meta = f" [subject: {event.subject}]" if event.subject else ""
            text = file.read_text("utf-8")
            file.write_text(text + ("" if text.endswith("\n") else "\n") + f"- {event.text}{meta}\n", "utf-8")
            records.append((event, path, "hand"))
            continue
        cand = Candidate(
            text=event.text,
            kind=event.kind,
            scope="workspace" if event.workspace and not event.pin else "global",
            workspace=event.workspace or None,
            subject=event.subject,
            by=event.by,  # type: ignore[arg-type]
            pin=event.pin,
            origin="cli",
            added=day,
        )
        result = store.remember(cand)
        if result.action not in (Action.ADDED, Action.REPLACED):
            raise SystemExit(f"write {n} ({event.text!r}) was {result.action.value}: {result.reason}")
        records.append((event, result.path or "", result.action.value))
    store.commit_hand_edits()
    labels = _labels(root, records)
    (out / "labels.json").write_text(
        json.dumps(
            {"variant": variant, "seed": seed, "projects": v.projects, "entries": [asdict(x) for x in labels]},
            ensure_ascii=False,
            indent=1,
        ),
        "utf-8",
    )
    counts: dict[str, int] = {}
    for label in labels:
        counts[f"{label.role}/{label.status}"] = counts.get(f"{label.role}/{label.status}", 0) + 1
    return {"entries": len(labels), "in_files": sum(1 for x in labels if x.line), **dict(sorted(counts.items()))}


def _labels(root: Path, records: list[tuple[Event, str, str]]) -> list[Label]:
    """Label every write by where its text is in the final files."""
    from memrepo.engine.format import entries as fmt

    lines: dict[str, dict[str, int]] = {}
    for path in {p for _e, p, _r in records}:
        parsed = fmt.parse((root / path).read_bytes(), path)
        lines[path] = {entry.text: number for number, entry in parsed.entries()}
    out: list[Label] = []
    per_group: dict[str, list[Label]] = {}
    for n, (event, path, how) in enumerate(records):
        line = lines[path].get(event.text, 0)
        label = Label(
            id=f"{event.group}#{len(per_group.get(event.group, []))}",
            path=path,
            line=line,
            text=event.text,
            by=event.by,
            role=event.role,
            status="current" if line else "gone",
            group=event.group,
            workspace=event.workspace,
            how="hand" if how == "hand" else ("subject" if event.subject else "plain"),
        )
        del n
        for older in per_group.get(event.group, []):
            if older.status == "current":
                older.status = "restated" if event.restates else "superseded"
        per_group.setdefault(event.group, []).append(label)
        out.append(label)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="an empty or missing folder: gets repo/ and labels.json")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="tune")
    parser.add_argument("--seed", type=int, default=None, help="default: 29 for tune, 1729 for heldout")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else (29 if args.variant == "tune" else 1729)
    if args.out.exists() and any(args.out.iterdir()):
        raise SystemExit(f"{args.out} is not empty")
    args.out.mkdir(parents=True, exist_ok=True)
    print(json.dumps(build(args.out, args.variant, seed), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
