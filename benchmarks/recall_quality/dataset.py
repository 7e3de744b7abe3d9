"""The recall quality benchmark's labelled data: read the repo and query files, build a repo through the writer.

A repo file (``repo_a.txt``, ``repo_b.txt``) lists entries with an id each;
:func:`build_repo` saves them one by one through
:meth:`memrepo.engine.repo.store.MemoryStore.remember` (the governed writer: routing,
``subject:`` replacement, dedupe, one commit each) and imports the hand-written
files (``@raw``) with :meth:`MemoryStore.import_files`. :func:`label_entries`
then maps every entry line of the built repo back to its id by its text, so a
hit (path and line) is judged against the gold ids of a query.

Query files hold one query a line: ``KIND | GOLD | QUERY | TAGS``; ``a/b`` in GOLD accepts either id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKSPACE_ROOT = "/home/maya/src"
"""Workspaces are named by an absolute folder path under this, as an agent in that folder would."""
KINDS = ("paraphrase", "keyword", "multi", "none")
_ENTRY_RE = re.compile(
    r"^(?P<id>\S+)\s+(?P<kind>\S+)\s+(?P<date>\d{4}-\d{2}-\d{2})(?P<flags>(?:\s+\S+)*?)\s+::\s+(?P<text>.+)$"
)
_RAW_ID_RE = re.compile(r"\s+\^(?P<id>\S+)$")


@dataclass
class Entry:
    """One labelled entry of a repo file."""

    id: str
    kind: str
    added: str
    text: str
    scope: str = "global"
    workspace: str | None = None
    subject: str | None = None
    by: str = "user"
    pin: bool = False
    inbox: bool = False


@dataclass
class RepoSpec:
    """A repo file read: its entries (in write order) and its hand-written files."""

    entries: list[Entry] = field(default_factory=list)
    raw_files: dict[str, str] = field(default_factory=dict)
    raw_ids: dict[str, str] = field(default_factory=dict)
    """Entry text (as written in a hand-written file, metadata cut) -> id."""


@dataclass
class Query:
    """One labelled query."""

    kind: str
    gold: list[frozenset[str]]
    """The entries the answer needs, each a set of equivalent ids (near-duplicate twins: ``a/b`` in the file)."""
    text: str
    tags: list[str]
    stale: list[str]
    source: str


def read_repo(path: Path) -> RepoSpec:
    """Parse a repo file (format in its header). Raises ValueError naming the line on bad input."""
    spec = RepoSpec()
    scope, workspace = "global", None
    raw_path: str | None = None
    raw_lines: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if raw_path is not None:
            if line.strip() == "@end":
                spec.raw_files[raw_path] = "\n".join(raw_lines) + "\n"
                raw_path, raw_lines = None, []
                continue
            m = _RAW_ID_RE.search(line)
            if m:
                line = line[: m.start()]
                body = line.lstrip()[2:]
                text = body.rsplit(" [", 1)[0] if body.endswith("]") else body
                spec.raw_ids[text.strip()] = _unique(m.group("id"), seen, number)
            raw_lines.append(line)
            continue
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@global"):
            scope, workspace = "global", None
        elif line.startswith("@ws "):
            scope, workspace = "workspace", f"{WORKSPACE_ROOT}/{line[4:].strip()}"
        elif line.startswith("@raw "):
            raw_path = line[5:].strip()
        else:
            m = _ENTRY_RE.match(line)
            if not m:
                raise ValueError(f"{path.name}:{number}: not an entry line: {line[:60]!r}")
            entry = Entry(
                id=_unique(m.group("id"), seen, number),
                kind=m.group("kind"),
                added=m.group("date"),
                text=m.group("text").strip(),
                scope=scope,
                workspace=workspace,
            )
            for flag in m.group("flags").split():
                if flag.startswith("subj="):
                    entry.subject = flag[5:].replace("_", " ")
                elif flag == "agent":
                    entry.by = "agent"
                elif flag == "pin":
                    entry.pin = True
                elif flag == "inbox":
                    entry.inbox = True
                else:
                    raise ValueError(f"{path.name}:{number}: unknown flag {flag!r}")
            spec.entries.append(entry)
    if raw_path is not None:
        raise ValueError(f"{path.name}: @raw {raw_path} has no @end")
    return spec


def _unique(entry_id: str, seen: set[str], number: int) -> str:
    if entry_id in seen:
        raise ValueError(f"line {number}: id {entry_id!r} used twice")
    seen.add(entry_id)
    return entry_id


def read_queries(path: Path) -> list[Query]:
    """Parse a query file: ``KIND | GOLD | QUERY | TAGS`` a line. Raises ValueError on bad input."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 4 or parts[0] not in KINDS:
            raise ValueError(f"{path.name}:{number}: expected KIND | GOLD | QUERY | TAGS")
        kind, gold, text, tags = parts
        gold_ids = [] if gold == "-" else [frozenset(g.strip().split("/")) for g in gold.split(",")]
        if (kind == "none") != (not gold_ids):
            raise ValueError(f"{path.name}:{number}: a none query has gold '-', any other has ids")
        tag_list = tags.split()
        stale = [t[6:] for t in tag_list if t.startswith("stale=")]
        out.append(Query(kind, gold_ids, text, [t for t in tag_list if "=" not in t], stale, path.stem))
    return out


def build_repo(spec: RepoSpec, root: Path) -> None:
    """Create a memory repo at ``root`` and write every entry of ``spec`` through the writer.

    Raises:
        RuntimeError: a write was refused or did not add its entry.
    """
    from memrepo.engine.config import Settings
    from memrepo.engine.models import Candidate
    from memrepo.engine.repo.store import MemoryStore

    store = MemoryStore.open(root, Settings())
    for e in spec.entries:
        cand = Candidate(
            text=e.text,
            kind=e.kind,
            scope="workspace" if e.scope == "workspace" else "global",
            workspace=e.workspace,
            subject=e.subject,
            by="user" if e.by == "user" and not e.inbox else "agent",
            pin=e.pin,
            untrusted=e.inbox,
            added=e.added,
            origin="cli" if e.by == "user" else "agent_tool",
        )
        result = store.remember(cand)
        if result.action not in ("added", "replaced", "inboxed"):
            raise RuntimeError(f"{e.id}: the writer answered {result.action} ({result.reason})")
    if spec.raw_files:
        store.import_files({rel: text.encode("utf-8") for rel, text in spec.raw_files.items()})


def label_entries(spec: RepoSpec, root: Path) -> dict[tuple[str, int], str]:
    """Map each entry of the built repo, ``(path, line)``, to its id (by its text).

    Raises:
        RuntimeError: an id of ``spec`` is not found in the repo (a write changed its text).
    """
    from memrepo.engine.format import entries as fmt

    by_text: dict[str, str] = {e.text: e.id for e in spec.entries}
    by_text.update(spec.raw_ids)
    labels: dict[tuple[str, int], str] = {}
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".git/"):
            continue
        for number, entry in fmt.parse(path.read_bytes(), rel).entries():
            got = by_text.get(entry.text.strip())
            if got is not None:
                labels[(rel, number)] = got
    missing = set(by_text.values()) - set(labels.values())
    if missing:
        raise RuntimeError(f"entries not found in the built repo: {sorted(missing)}")
    return labels


def built_repo(path: Path, root: Path) -> dict[tuple[str, int], str]:
    """The repo file at ``path`` built at ``root`` (once: a repo already built there is reused), labelled.

    Returns:
        dict: (path, line) of each entry line to its id (:func:`label_entries`).
    """
    spec = read_repo(path)
    if not (root / ".git").is_dir():
        build_repo(spec, root)
    return label_entries(spec, root)


def entry_rows(root: Path) -> list[tuple[str, int, str]]:
    """Every entry of the built repo as ``(path, line, text)`` (what the FTS5 baseline indexes)."""
    from memrepo.engine.format import entries as fmt

    rows = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".git/"):
            continue
        rows.extend((rel, number, entry.text) for number, entry in fmt.parse(path.read_bytes(), rel).entries())
    return rows
