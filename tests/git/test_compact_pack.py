"""Compaction's new pack (docs/architecture.md §5): the kept objects' old entries copied byte for byte, the rest
packed by libgit2, exactly the kept objects in one valid pack whatever the old packs looked like."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NamedTuple

import pygit2
from helpers.compact_helpers import fsck, git, head_entries
from helpers.repo_helpers import USER, commit_by_hand

from memrepo.engine.git import pack as gitpack
from memrepo.engine.models import Candidate
from memrepo.engine.repo.store import MemoryStore


def _packs(root: Path) -> list[Path]:
    return sorted((root / ".git" / "objects" / "pack").glob("pack-*.idx"))


class Stored(NamedTuple):
    """A pack entry's delta base (None for a whole object) and its compressed data."""

    base: bytes | None
    data: bytes


def _entries(idx: Path) -> dict[bytes, Stored]:
    pack = gitpack.OldPack(idx)
    try:
        entries = (pack.entry(i) for i in range(pack.count))
        return {e.oid: Stored(e.base, e.raw[e.skip :]) for e in entries}
    finally:
        pack.close()


def _kept(root: Path) -> set[bytes]:
    """Raw ids of HEAD, its tree and blobs (what compaction keeps), from the git command line."""
    lines = git(root, "rev-list", "--objects", "--no-walk", "HEAD").splitlines()
    return {bytes.fromhex(line.split()[0]) for line in lines}


def _history(store: MemoryStore, n: int, first: int = 0) -> None:
    for i in range(first, first + n):
        assert store.remember(Candidate(text=f"Fact number {i} about the build and its many steps", by="user")).commit


def test_kept_entries_are_copied_byte_for_byte(store: MemoryStore) -> None:
    _history(store, 12)
    shared = "".join(f"- step {i} of the release checklist, the same in both [by: user]\n" for i in range(200))
    (store.root / "topics").mkdir(exist_ok=True)
    for name in ("release-a.md", "release-b.md"):  # alike: one is stored as a delta on the other, both kept
        (store.root / "topics" / name).write_text(f"# {name}\n\n{shared}")
    commit_by_hand(store.root, "two alike")
    git(store.root, "gc", "-q")
    [old_idx] = _packs(store.root)
    old = _entries(old_idx)
    kept = _kept(store.root) - {bytes.fromhex(store.head() or "")}
    # Whole objects, and deltas on a kept object: what the old pack lets compaction copy.
    copyable = {o for o in kept if o in old and (old[o].base is None or old[o].base in kept)}
    assert any(old[o].base is not None for o in copyable)  # a delta among them, or the test proves less

    result = store.compact()

    [new_idx] = _packs(store.root)
    new = _entries(new_idx)
    assert set(new) == _kept(store.root) and bytes.fromhex(result.commit) in new
    for oid in copyable:  # the compressed bytes as they were: nothing inflated or deflated again
        assert new[oid].data == old[oid].data, oid.hex()
        assert (new[oid].base is None) == (old[oid].base is None)
    fsck(store.root)


def test_a_delta_on_a_dropped_object_is_packed_again(store: MemoryStore) -> None:
    root = store.root
    big = "".join(f"- line {i} of a long topic that grows and then shrinks [by: user]\n" for i in range(400))
    topic = root / "topics" / "long.md"
    topic.parent.mkdir(exist_ok=True)
    topic.write_text("# Long\n\n" + big)
    commit_by_hand(root, "big")
    topic.write_text("# Long\n\n" + big[: len(big) // 3])
    commit_by_hand(root, "smaller")
    git(root, "gc", "-q")
    small = bytes.fromhex(git(root, "rev-parse", "HEAD:topics/long.md").strip())
    dropped = bytes.fromhex(git(root, "rev-parse", "HEAD~1:topics/long.md").strip())
    [old_idx] = _packs(root)
    assert _entries(old_idx)[small].base == dropped  # git made the kept version a delta on the old one

    store.compact()

    [new_idx] = _packs(root)
    new = _entries(new_idx)
    assert dropped not in new and new[small].base in (None, *new)
    assert git(root, "show", "HEAD:topics/long.md") == "# Long\n\n" + big[: len(big) // 3]
    fsck(root)


def test_several_packs_duplicates_loose_objects_and_an_old_index_format(store: MemoryStore) -> None:
    """Objects in two packs at once, loose objects, and a version-1 index this module cannot read."""
    root = store.root
    _history(store, 4)
    git(root, "gc", "-q")
    _history(store, 4, first=4)
    git(root, "repack", "-q")  # a second pack, of the loose objects
    git(root, "repack", "-a", "-q")  # a third holding everything: each object now in two packs
    _history(store, 3, first=8)  # and loose objects
    v1 = _packs(root)[0]
    git(root, "index-pack", "--index-version=1", "-o", str(v1) + ".v1", str(v1.with_suffix(".pack")))
    Path(str(v1) + ".v1").replace(v1)
    expected = head_entries(root)
    assert len(_packs(root)) == 3 and any((root / ".git" / "objects").glob("??/*"))
    readable = gitpack._open_packs(root / ".git" / "objects" / "pack")
    assert len(readable) == 2  # the version-1 index is left to libgit2
    for pack in readable:
        pack.close()

    result = store.compact()

    [idx] = _packs(root)
    assert set(_entries(idx)) == _kept(root) and git(root, "rev-list", "--all").split() == [result.commit]
    assert not any((root / ".git" / "objects").glob("??/*"))
    assert head_entries(root) == expected
    fsck(root)


def test_an_entry_that_fails_its_crc_is_never_copied(store: MemoryStore) -> None:
    root = store.root
    _history(store, 5)
    git(root, "gc", "-q")
    kept = _kept(root)
    wanted = list(kept)
    [pack] = gitpack._open_packs(root / ".git" / "objects" / "pack")
    try:
        plan, rest = gitpack._plan(wanted, [pack])
        copied = [e.oid for _p, entries in plan for e in entries]
        victim = copied[-1]
        pack.crcs[pack.position[victim]] ^= 1  # as if the bytes on disk had rotted
        plan, rest = gitpack._plan(wanted, [pack])
    finally:
        pack.close()
    assert victim in rest and victim not in [e.oid for _p, entries in plan for e in entries]


def test_every_kept_object_reads_back_through_libgit2(store: MemoryStore) -> None:
    _history(store, 6)
    git(store.root, "gc", "-q")
    store.remember(Candidate(text="A loose fact written after the pack", by="user"))
    head_tree = git(store.root, "ls-tree", "-r", "HEAD").split("\n")
    store.compact()
    repo = pygit2.Repository(str(store.root))
    names = {1: b"commit", 2: b"tree", 3: b"blob", 4: b"tag"}
    for oid in _kept(store.root):  # every delta resolved to the exact bytes its id names
        kind, data = repo.odb.read(pygit2.Oid(raw=oid))
        assert hashlib.sha1(b"%s %d\0" % (names[int(kind)], len(data)) + data).digest() == oid
    assert git(store.root, "ls-tree", "-r", "HEAD").split("\n") == head_tree
    assert "A loose fact written after the pack" in git(store.root, *USER, "show", "HEAD:me.md")
