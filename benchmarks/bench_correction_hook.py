#!/usr/bin/env python3
"""Benchmark: a user's corrections and their look-alikes through the real SessionEnd hook, and the next block.

For each labelled message of a corrections set (``benchmarks/remember_phrasings/*.jsonl``, the format of
``corrections.jsonl``: the message, the stored lines ``path|text``, the statement to keep and the line it
corrects), in a fresh memory repo holding the stored lines (each ``by: user``; ``me.md`` lines global, ``MEMORY.md``
lines pinned, ``workspaces/<name>.md`` lines in project ``<name>``):

1. a Claude Code 2.1 transcript of the message (``~/.claude/projects/<project>/<session>.jsonl`` lines, as
   ``tests/cli/test_hook_corrections.py`` writes them) is checkpointed by ``memrepo checkpoint --from-claude-hook``
   with the SessionEnd payload on stdin, in its own process (what ``memrepo hook session-end`` starts);
2. ``memrepo hook session-start`` for every project gives the next session's blocks.

Each message is one of:

- ``right``: a correction whose new line is in the block of the corrected line's project and whose old line is
  not, every other stored line still shown; or a look-alike that changed no block and wrote nothing ``by: user``;
- ``proposed``: the statement waits in the inbox (a longer correction, ``propose`` in the set), nothing hidden;
- ``missed``: a correction that changed no block; a rule (``kind: rule`` labelled, corr10) not written ``kind: rule``,
  or not in the block of every project (``scope: global``) or of its own (``workspace``); a two-clause line's kept
  part (``also``) not in the block;
- ``wrong store``: a look-alike written ``by: user`` outside the inbox, or any message that hid a stored line it
  does not correct (each hides a true line from every block).

Usage:
    PYTHONPATH=. python benchmarks/bench_correction_hook.py [SET ...] [--misses]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SETS = Path(__file__).resolve().parent / "remember_phrasings"
TUNING = (
    "corrections",
    "corrections_subject",
    "hostile",
    "rules",
    "corrections_words",
    "hostile_words",
    "hostile_words2",
)
"""The sets it runs by default; ``corrections_heldout`` is held out (run it by name, at most twice)."""


def transcript_line(session: str, cwd: Path, n: int, role: str, text: str, parent: str | None) -> dict:
    """One line of a Claude Code 2.1 session transcript."""
    content: object = text if role == "user" else [{"type": "text", "text": text}]
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": str(cwd),
        "sessionId": session,
        "version": "2.1.12",
        "gitBranch": "main",
        "type": role,
        "message": {"role": role, "content": content},
        "uuid": f"{role[0]}{n}",
        "timestamp": f"2026-12-05T10:0{n}:00.000Z",
    }


def run(home: Path, repo: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """``memrepo --repo REPO ARGS`` in its own process, as a harness runs it."""
    env = dict(os.environ, HOME=str(home), MEMREPO_CONFIG=str(home / "none.toml"))
    return subprocess.run(
        [sys.executable, "-m", "memrepo.cli.main", "--repo", str(repo), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def block(home: Path, repo: Path, project: Path) -> str:
    """The next session's context block for ``project`` (the SessionStart hook's output)."""
    payload = {"session_id": "next", "transcript_path": str(project / "next.jsonl"), "cwd": str(project)}
    done = run(home, repo, "hook", "session-start", stdin=json.dumps({**payload, "hook_event_name": "SessionStart"}))
    if done.returncode != 0 or not done.stdout.strip():
        return ""
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def users_lines(repo: Path) -> dict[str, str]:
    """Every ``by: user`` entry's text outside the inbox -> its file."""
    return {text: rel for text, (rel, _kind) in users_kinds(repo).items()}


def users_kinds(repo: Path) -> dict[str, tuple[str, str]]:
    """Every ``by: user`` entry's text outside the inbox -> (its file, its ``kind:``)."""
    from memrepo.engine.format import entries as fmt

    found = {}
    for path in repo.rglob("*.md"):
        rel = str(path.relative_to(repo))
        if ".git" in path.parts or rel == "inbox.md":
            continue
        for _n, entry in fmt.parse(path.read_bytes(), rel).entries():
            if entry.by == "user":
                found[entry.text] = (rel, entry.meta.get("kind", ""))
    return found


def inbox(repo: Path) -> list[str]:
    """The inbox's entries' texts."""
    from memrepo.engine.format import entries as fmt

    path = repo / "inbox.md"
    return [e.text for _n, e in fmt.parse(path.read_bytes(), "inbox.md").entries()] if path.exists() else []


def one(case: dict, tmp: Path) -> tuple[str, str]:
    """Run one labelled message; return (outcome, what happened)."""
    from memrepo.engine.config import Settings
    from memrepo.engine.models import Candidate
    from memrepo.engine.repo.store import MemoryStore

    home = tmp / "home"
    home.mkdir()
    projects: dict[str, Path] = {}
    store = MemoryStore.open(tmp / "memory", Settings.model_validate({"writes": {"commit_hand_edits_after": 0}}))
    stored = []
    for line in case["stored"]:
        path, text = line.split("|", 1)
        name = path.removeprefix("workspaces/").removesuffix(".md") if path.startswith("workspaces/") else None
        if name:
            projects.setdefault(name, tmp / name).mkdir(exist_ok=True)
        store.remember(
            Candidate(
                text=text,
                kind="rule" if path == "lessons.md" else "fact",
                scope="workspace" if name else "global",
                workspace=str(projects[name]) if name else None,
                pin=path == "MEMORY.md",
                by="user",
                origin="cli",
            )
        )
        stored.append((text, name))
    projects.setdefault("shop", tmp / "shop").mkdir(exist_ok=True)
    repo = store.root
    target = case.get("target")
    where = next((name for text, name in stored if text == target and name), None)
    where = where or ("infra" if "infra" in projects and "terraform" in case["said"].casefold() else "shop")
    project = projects[where]
    before = users_lines(repo)
    transcript = tmp / "s1.jsonl"
    lines = [
        transcript_line("s1", project, 1, "user", case["said"], None),
        transcript_line("s1", project, 1, "assistant", "OK.", "u1"),
    ]
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    payload = {"session_id": "s1", "transcript_path": str(transcript), "cwd": str(project)}
    payload |= {"hook_event_name": "SessionEnd", "reason": "prompt_input_exit"}
    done = run(home, repo, "checkpoint", "--from-claude-hook", stdin=json.dumps(payload))
    if done.returncode != 0:
        return "error", done.stderr.strip()[-300:]
    blocks = {name: block(home, repo, folder) for name, folder in projects.items()}
    shown = blocks[where]
    added = {text: rel for text, rel in users_lines(repo).items() if text not in before}
    hidden = [text for text, name in stored if text != target and text not in blocks[name or where]]
    if hidden:
        return "wrong store", f"hid {hidden}; wrote {added}"
    if not case["keep"]:
        if added:
            return "wrong store", f"wrote {added}"
        return ("proposed" if inbox(repo) else "right"), f"inbox {inbox(repo)}"
    kinds = users_kinds(repo)
    if case.get("kind") == "rule":
        rules = [text for text in added if kinds[text][1] == "rule"]
        seen = blocks.values() if case.get("scope") == "global" else [shown]
        if not rules or not all(any(text in b for text in rules) for b in seen):
            return "missed", f"wrote {added} (kinds {[kinds[t][1] for t in added]})"
    if any(part not in shown for part in case.get("also", [])):
        return "missed", f"wrote {added}; the kept clause is not shown"
    if target and target not in shown and any(text in shown for text in added):
        return "right", f"wrote {added}"
    if not target and case.get("kind") == "rule":
        return "right", f"wrote {added}"
    if inbox(repo) and not added:
        return "proposed", f"inbox {inbox(repo)}"
    return "missed", f"wrote {added}; target shown: {target in shown}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=list(TUNING), help="set names (default: the tuning sets)")
    parser.add_argument("--misses", action="store_true", help="list the messages that were not right")
    args = parser.parse_args()
    for name in args.sets:
        cases = [json.loads(x) for x in (SETS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
        counts: dict[str, int] = {}
        notes = []
        for case in cases:
            with tempfile.TemporaryDirectory(prefix="corrhook-") as tmp:
                outcome, what = one(case, Path(tmp))
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome != "right" and not (outcome == "proposed" and case.get("propose")):
                notes.append(f"  [{outcome}] {case['said']!r} ({case['why']}): {what}")
        wanted = sum(1 for c in cases if c["keep"])
        print(
            f"{name}: {len(cases)} messages ({wanted} corrections): "
            + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        )
        if args.misses and name != "corrections_heldout":
            print("\n".join(notes))


if __name__ == "__main__":
    main()
