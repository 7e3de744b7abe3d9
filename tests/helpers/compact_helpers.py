"""Helpers for the compaction tests: plant old text everywhere git keeps it, then look for it in every byte."""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

import pygit2

from helpers.repo_helpers import USER
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def git(root: Path, *args: str, input_text: str | None = None) -> str:
    """Run git in ``root`` (with stdin when given); fail the test when it fails; return stdout."""
    import subprocess

    result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, input=input_text)
    assert result.returncode == 0, result.stderr
    return result.stdout


def entries_by_file(store: MemoryStore) -> dict[str, list[str]]:
    """Every entry text of every markdown file in the work tree."""
    out: dict[str, list[str]] = {}
    for path, _size in store.list_files():
        if path.endswith(".md"):
            view = store.read_file(path)
            out[path] = [e.text for e in view.entries]
    return out


def head_entries(root: Path) -> dict[str, list[str]]:
    """Every entry text of every markdown file in HEAD's tree, read with the git command line."""
    from memrepo.engine.format import entries as fmt

    out: dict[str, list[str]] = {}
    for path in git(root, "ls-tree", "-r", "--name-only", "HEAD").split():
        if path.endswith(".md"):
            data = git(root, "show", f"HEAD:{path}").encode("utf-8")
            out[path] = [e.text for _, e in fmt.parse(data, path).entries()]
    return out


def plant_everywhere(store: MemoryStore, marker: str, dream_id: str = "d1") -> str:
    """Put ``marker`` in every place git and the engine keep text, with an entry that holds it.

    Places: an entry committed on main (also packed by ``git gc``), a dream
    branch whose commit and message quote it, a dream record quoting it, a
    reflog message, ``refs/stash`` (a real ``git stash``), ORIG_HEAD,
    COMMIT_EDITMSG, SQUASH_MSG, rerere's cache, fsck's lost-found, a tag, a
    pending write, a checkpoint buffer, the recall index and a kept context block.

    Returns:
        str: the ref of the entry holding the marker.
    """
    root = store.root
    text = f"The team mascot is called {marker}"
    ref = store.remember(Candidate(text=text, kind="identity", by="user")).ref
    assert ref is not None
    assert store.recall(marker)  # the persisted recall index (.git/memrepo/recall.sqlite) holds it
    from memrepo.engine.read.coldread import context_text

    assert marker in (context_text(str(root), None) or "")  # a kept block in .git/memrepo/context-cache/ too
    git(root, "gc", "-q")  # the marker's blob is now zlib-compressed inside a pack
    # A dream branch quoting it, in a file and in its message.
    blob = git(root, "hash-object", "-w", "--stdin", input_text=f"- dream says {marker}\n").strip()
    tree = git(root, "mktree", input_text=f"100644 blob {blob}\tdream.md\n").strip()
    dream_commit = git(root, *USER, "commit-tree", tree, "-p", "HEAD", "-m", f"Dream: merge {marker}").strip()
    git(root, "update-ref", f"refs/heads/dream/{dream_id}", dream_commit)
    records = store.state_dir / "dreams"
    records.mkdir(parents=True, exist_ok=True)
    (records / f"{dream_id}.json").write_text(
        json.dumps(
            {
                "id": dream_id,
                "trigger": "manual",
                "started": "2026-01-01T00:00:00Z",
                "finished": None,
                "status": "pending_review",
                "reason": None,
                "tokens": {"input": 10, "output": 5},
                "branch": f"dream/{dream_id}",
                "base": git(root, "rev-parse", "HEAD").strip(),
                "auto_commit": None,
                "operations": [
                    {
                        "op": "supersede",
                        "path": "me.md",
                        "text": text,
                        "quote": marker,
                        "reason": f"duplicate of {marker}",
                        "before": text,
                        "after": "",
                    }
                ],
            }
        )
    )
    (records / f"{dream_id}.prompt.txt").write_text(f"prompt quoting {marker}\n")
    # A reflog entry whose message quotes it.
    git(root, "update-ref", "-m", f"note {marker}", "refs/heads/main", "HEAD")
    # A real stash holding it.
    with (root / "me.md").open("a", encoding="utf-8") as fh:
        fh.write(f"- stashed {marker}\n")
    git(root, *USER, "stash", "-q")
    git(root, *USER, "tag", "-a", "t1", "-m", f"tag {marker}")
    (root / ".git" / "ORIG_HEAD").write_text(dream_commit + "\n")
    (root / ".git" / "COMMIT_EDITMSG").write_text(f"Remember {marker}\n")
    (root / ".git" / "SQUASH_MSG").write_text(f"Squashed {marker}\n")
    (root / ".git" / "rr-cache" / "0123abcd").mkdir(parents=True)
    (root / ".git" / "rr-cache" / "0123abcd" / "preimage").write_text(f"<<<<<<<\n{marker}\n=======\n")
    (root / ".git" / "lost-found" / "other").mkdir(parents=True)
    (root / ".git" / "lost-found" / "other" / blob).write_text(f"- dream says {marker}\n")
    git(root, "update-server-info")  # .git/info/refs and objects/info/packs
    pending = store.state_dir / "pending"
    pending.mkdir(parents=True, exist_ok=True)
    (pending / "00000000000000000001-1.json").write_text(Candidate(text=text).model_dump_json())
    queued = Candidate(text="A queued write nobody forgot")
    (pending / "00000000000000000002-1.json").write_text(queued.model_dump_json())
    checkpoints = store.state_dir / "checkpoints"
    checkpoints.mkdir(parents=True, exist_ok=True)
    (checkpoints / "s1.json").write_text(json.dumps({"turns": [f"user: {text}"]}))
    (checkpoints / "s2.json").write_text(json.dumps({"turns": ["user: the weather is nice today"]}))
    return ref


def inflate_everywhere(data: bytes) -> list[bytes]:
    """Every zlib stream that starts at any offset of ``data``, inflated (packs, loose objects, anything)."""
    out = []
    for start in range(len(data) - 1):
        if data[start] & 0x0F != 8 or ((data[start] << 8) | data[start + 1]) % 31:
            continue  # not a zlib header
        inflater = zlib.decompressobj()
        try:
            chunk = inflater.decompress(data[start:], 1 << 24)
        except zlib.error:
            continue
        if chunk:
            out.append(chunk)
    return out


def index_texts(path: Path, data: bytes) -> list[bytes]:
    """Every text the recall index file holds, decoded: each file's entries as stored (deflated with the
    index's preset dictionaries), and every raw deflate stream at any offset of the file with each of
    them (a deleted row left on a free page would be found there)."""
    import sqlite3

    from memrepo.engine.read.recallpost import load_dicts, unpack_entries

    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        dicts = load_dicts(db)
        out = [
            "\n".join(f"{t}\n{m}\n{c}" for _l, t, m, c in unpack_entries(body, dicts).values()).encode()
            for (body,) in db.execute("SELECT body FROM texts")
        ]
    finally:
        db.close()
    for preset in [b"", *dicts.values()]:
        for start in range(1, len(data) - 1):
            inflater = zlib.decompressobj(-15, preset) if preset else zlib.decompressobj(-15)
            try:
                chunk = inflater.decompress(data[start : start + 65536], 1 << 20)
            except zlib.error:
                continue
            if len(chunk) > 16:
                out.append(chunk)
    return out


def traces(root: Path, marker: str) -> list[str]:
    """Where ``marker`` is found under ``.git``: raw bytes of every file, every zlib stream in every
    file, and every object of the object database (loose and packed, deltas resolved)."""
    needle = marker.encode("utf-8")
    found = []
    git_dir = root / ".git"
    for path in sorted(git_dir.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        rel = str(path.relative_to(git_dir))
        if needle in data:
            found.append(f"raw {rel}")
        if any(needle in chunk for chunk in inflate_everywhere(data)):
            found.append(f"inflated {rel}")
        if rel == "memrepo/recall.sqlite" and any(needle in chunk for chunk in index_texts(path, data)):
            found.append(f"decoded {rel}")
    repo = pygit2.Repository(str(root))
    for oid in repo.odb:
        _kind, data = repo.odb.read(oid)
        if needle in data:
            found.append(f"object {oid}")
    return found


def fsck(root: Path) -> str:
    """``git fsck --full --strict`` output; the test fails when it reports a problem."""
    import subprocess

    result = subprocess.run(
        ["git", "fsck", "--full", "--strict", "--no-progress"],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "LC_ALL": "C"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    bad = [
        ln for ln in (result.stdout + result.stderr).splitlines() if ln and not ln.startswith(("dangling ", "notice:"))
    ]
    assert not bad, "\n".join(bad)
    return result.stdout
