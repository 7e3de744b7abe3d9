"""A pack of exactly the objects compaction keeps, their compressed bytes reused from the old packs (docs/architecture.md §5).

libgit2's pack builder inflates every object, searches deltas again and
deflates everything anew: 10-55x the time of ``git gc``, which copies the
entries of the old packs as they are. :func:`write_reusing_pack` does what
``git gc`` does for the objects compaction keeps (one commit, its trees and
blobs): each kept object whose old pack entry is whole, or a delta against
another kept object of the same pack, is copied byte for byte (its CRC
checked against the old index); a delta's base offset is rewritten for its
new place. Only the rest (loose objects such as the compact commit, objects
whose delta base is dropped) goes through libgit2's pack builder, and its
small pack is copied in the same way. The result is one ordinary version-2
pack and index; no entry refers to an object outside it, and no byte of a
dropped object is copied (a delta holds only its own object's text and copy
instructions from its base).

Part of the git layer (it imports pygit2); the steps around it are in
:mod:`memrepo.engine.git.compact`.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
import sys
import zlib
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

import pygit2

_IDX_MAGIC = b"\xfftOc\x00\x00\x00\x02"
_OBJ_OFS_DELTA = 6
_OBJ_REF_DELTA = 7
_GITLINK = 0o160000


class PackFormatError(ValueError):
    """A pack or index file this module cannot read (its objects are then packed by libgit2)."""


def _be_array(data: bytes, code: str) -> array:
    out = array(code, data)
    if sys.byteorder == "little":
        out.byteswap()
    return out


class OldPack:
    """One version-2 pack and its index, opened read-only (the pack memory-mapped).

    Args:
        idx_path: the ``.idx`` file; its ``.pack`` sits beside it.

    Raises:
        PackFormatError: not a version-2 index, or the pack does not match it.
        OSError: a file cannot be read.
    """

    def __init__(self, idx_path: Path) -> None:
        data = idx_path.read_bytes()
        if data[:8] != _IDX_MAGIC or len(data) < 8 + 1024 + 40:
            raise PackFormatError(f"{idx_path.name}: not a version-2 pack index")
        n = struct.unpack_from(">I", data, 8 + 255 * 4)[0]
        start = 8 + 1024
        crc_at = start + 20 * n
        off_at = crc_at + 4 * n
        large_at = off_at + 4 * n
        if len(data) < large_at + 40:
            raise PackFormatError(f"{idx_path.name}: truncated")
        self.oids = data[start:crc_at]
        self.crcs = _be_array(data[crc_at:off_at], "I")
        offsets = _be_array(data[off_at:large_at], "I")
        offs = offsets.tolist()
        if offs and max(offs) & 0x80000000:  # a pack over 2 GiB: the big offsets are in a table of their own
            for i, off in enumerate(offs):
                if off & 0x80000000:
                    offs[i] = struct.unpack_from(">Q", data, large_at + 8 * (off & 0x7FFFFFFF))[0]
        self.offsets = offs
        self.count = n
        self.position = dict(zip((data[k : k + 20] for k in range(start, crc_at, 20)), range(n), strict=True))
        self.path = idx_path.with_suffix(".pack")
        with open(self.path, "rb") as fh:
            self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        head = self._map[:12]
        if head[:4] != b"PACK" or struct.unpack(">II", head[4:])[1] != n:
            self._map.close()
            raise PackFormatError(f"{self.path.name}: does not match its index")
        ordered = sorted(offs)
        end = len(self._map) - 20
        self.entry_end = dict(zip(ordered, [*ordered[1:], end], strict=True))
        self.at_offset = dict(zip(offs, range(n), strict=True))

    def close(self) -> None:
        """Unmap the pack."""
        self._map.close()

    def entry(self, i: int) -> Entry:
        """The ``i``-th object of the index as stored: kind, size, delta base and compressed bytes.

        Raises:
            PackFormatError: the entry's bytes do not match the CRC in the index, or name no entry.
        """
        off = self.offsets[i]
        raw = self._map[off : self.entry_end[off]]
        crc = self.crcs[i]
        if zlib.crc32(raw) != crc:
            raise PackFormatError(f"{self.path.name}: entry at {off} does not match its CRC")
        c = raw[0]
        kind = (c >> 4) & 7
        p = 1
        while c & 0x80:  # the size's bytes: kept as they are, never decoded
            c = raw[p]
            p += 1
        sized = p
        base: bytes | None = None
        if kind == _OBJ_OFS_DELTA:
            c = raw[p]
            p += 1
            rel = c & 0x7F
            while c & 0x80:
                c = raw[p]
                p += 1
                rel = ((rel + 1) << 7) | (c & 0x7F)
            at = self.at_offset.get(off - rel)
            if at is None:
                raise PackFormatError(f"{self.path.name}: a delta at {off} names no entry")
            base = self.oids[20 * at : 20 * at + 20]
        elif kind == _OBJ_REF_DELTA:
            base = raw[p : p + 20]
            p += 20
        elif kind not in (1, 2, 3, 4):
            raise PackFormatError(f"{self.path.name}: entry at {off} has type {kind}")
        return Entry(self.oids[20 * i : 20 * i + 20], sized, base, p, crc, self._map, off, off + len(raw))


class Entry(NamedTuple):
    """A pack entry as stored: object id (raw), where its type and size bytes end, delta base id (raw),
    where its compressed data starts, its CRC, and where its bytes are (read again when written, so a
    plan of a large repo holds no object's bytes)."""

    oid: bytes
    sized: int
    base: bytes | None
    skip: int
    crc: int
    source: mmap.mmap
    start: int
    end: int

    @property
    def raw(self) -> bytes:
        """The entry's bytes: type and size, delta base, compressed data."""
        return self.source[self.start : self.end]


def _ofs(rel: int) -> bytes:
    out = [rel & 0x7F]
    rel >>= 7
    while rel:
        rel -= 1
        out.append(0x80 | (rel & 0x7F))
        rel >>= 7
    return bytes(reversed(out))


def reachable(repo: pygit2.Repository, commits: Iterable[pygit2.Oid]) -> list[bytes]:
    """Raw ids of the commits, their trees and blobs (each once, gitlinks left out), commits first."""
    seen: set[bytes] = set()
    out: list[bytes] = []
    for cid in commits:
        commit = repo[cid].peel(pygit2.Commit)
        if commit.id.raw in seen:
            continue
        seen.add(commit.id.raw)
        out.append(commit.id.raw)
        if commit.tree_id.raw in seen:
            continue
        seen.add(commit.tree_id.raw)
        out.append(commit.tree_id.raw)
        stack = [commit.tree]
        while stack:
            tree = stack.pop()
            for obj in tree:
                if obj.filemode == _GITLINK:
                    continue
                raw = obj.id.raw
                if raw in seen:
                    continue
                seen.add(raw)
                out.append(raw)
                if isinstance(obj, pygit2.Tree):
                    stack.append(obj)
    return out


def _open_packs(pack_dir: Path) -> list[OldPack]:
    packs = []
    for idx in sorted(pack_dir.glob("pack-*.idx")):
        if not idx.with_suffix(".pack").is_file():
            continue
        try:
            packs.append(OldPack(idx))
        except (PackFormatError, OSError, ValueError, struct.error):
            continue  # its objects reach the new pack through libgit2
    return packs


def _plan(wanted: list[bytes], packs: list[OldPack]) -> tuple[list[tuple[OldPack, list[Entry]]], list[bytes]]:
    """Which kept objects are copied from which old pack (in pack order), and which libgit2 must pack.

    A delta is copied only when its base is kept and either in the same pack
    (no cycle can form inside one valid pack) or packed by libgit2 (whose
    pack names nothing outside itself).
    """
    chosen: dict[bytes, OldPack] = {}
    by_pack: dict[int, list[int]] = {id(pack): [] for pack in packs}
    for oid in wanted:
        for pack in packs:
            at = pack.position.get(oid)
            if at is not None:
                chosen[oid] = pack
                by_pack[id(pack)].append(at)
                break
    wanted_set = set(wanted)
    fresh = {oid for oid in wanted if oid not in chosen}  # loose only: libgit2 packs them
    plan: list[tuple[OldPack, list[Entry]]] = []
    for pack in packs:
        mine = sorted(by_pack[id(pack)], key=pack.offsets.__getitem__)
        entries = []
        for i in mine:
            try:
                entry = pack.entry(i)
            except (PackFormatError, IndexError, ValueError):
                fresh.add(pack.oids[20 * i : 20 * i + 20])
                continue
            base = entry.base
            if base is None or (base in wanted_set and (chosen.get(base) is pack or base in fresh)):
                entries.append(entry)
            else:
                fresh.add(entry.oid)
        plan.append((pack, entries))
    # A copied delta whose base turned out unreadable (packed by libgit2 instead) still finds it: it is in the pack.
    return plan, [oid for oid in wanted if oid in fresh]


FLUSH_BYTES = 4 << 20
"""Bytes of entries gathered before one write to the new pack (fewer system calls, bounded memory)."""


class _Out:
    """The new pack being written: entries in order, their offsets and CRCs, the running checksum."""

    def __init__(self, path: Path, count: int) -> None:
        self.fh = open(path, "wb")  # noqa: SIM115 - closed by finish()
        self.sha = hashlib.sha1()
        self.pos = 0
        self.where: dict[bytes, int] = {}
        self.crc: dict[bytes, int] = {}
        self._chunks: list[bytes | memoryview] = []
        self._held = 0
        self._put(b"PACK" + struct.pack(">II", 2, count))

    def _put(self, data: bytes | memoryview) -> None:
        self._chunks.append(data)
        self._held += len(data)
        self.pos += len(data)
        if self._held >= FLUSH_BYTES:
            self._flush()

    def _flush(self) -> None:
        block = b"".join(self._chunks)
        self.fh.write(block)
        self.sha.update(block)
        self._chunks.clear()
        self._held = 0

    def add(self, entry: Entry) -> None:
        if entry.oid in self.where:
            return
        self.where[entry.oid] = self.pos
        if entry.base is None:  # a whole object: its bytes and CRC as they were
            self.crc[entry.oid] = entry.crc
            self._put(entry.raw)
            return
        raw = entry.source[entry.start : entry.start + entry.skip]
        if entry.base in self.where:  # the base is already written: a delta by offset
            head = bytes([(raw[0] & 0x8F) | (_OBJ_OFS_DELTA << 4)]) + raw[1 : entry.sized]
            head += _ofs(self.pos - self.where[entry.base])
        else:
            head = bytes([(raw[0] & 0x8F) | (_OBJ_REF_DELTA << 4)]) + raw[1 : entry.sized] + entry.base
        data = entry.source[entry.start + entry.skip : entry.end]
        self.crc[entry.oid] = zlib.crc32(data, zlib.crc32(head))
        self._put(head)
        self._put(data)

    def finish(self) -> bytes:
        self._flush()
        digest = self.sha.digest()
        self.fh.write(digest)
        self.fh.flush()
        os.fsync(self.fh.fileno())
        self.fh.close()
        return digest


def _write_index(path: Path, where: dict[bytes, int], crc: dict[bytes, int], pack_sha: bytes) -> None:
    oids = sorted(where)
    fanout = [0] * 256
    for oid in oids:
        fanout[oid[0]] += 1
    total = 0
    for b in range(256):
        total += fanout[b]
        fanout[b] = total
    small: list[int] = []
    large: list[int] = []
    for oid in oids:
        off = where[oid]
        if off < 0x80000000:
            small.append(off)
        else:
            small.append(0x80000000 | len(large))
            large.append(off)
    body = b"".join(
        (
            _IDX_MAGIC,
            struct.pack(">256I", *fanout),
            b"".join(oids),
            struct.pack(f">{len(oids)}I", *(crc[o] for o in oids)),
            struct.pack(f">{len(oids)}I", *small),
            struct.pack(f">{len(large)}Q", *large),
            pack_sha,
        )
    )
    with open(path, "wb") as fh:
        fh.write(body + hashlib.sha1(body).digest())
        fh.flush()
        os.fsync(fh.fileno())


def write_reusing_pack(
    wanted: list[bytes],
    pack_dir: Path,
    staging: Path,
    pack_rest: Callable[[list[bytes], Path], Path | None],
) -> str:
    """Write one pack and index of exactly ``wanted`` into ``staging``, reusing the old packs' entries.

    Args:
        wanted: raw ids of every object to keep (:func:`reachable`).
        pack_dir: ``objects/pack``, whose packs are read and never changed.
        staging: an empty folder (same file system) for the new files.
        pack_rest: packs the objects that cannot be copied (raw ids) into a
            folder with libgit2 and returns its ``.idx`` (None when given none).

    Returns:
        str: the new pack's base name (``pack-<checksum>``); ``.pack`` and
        ``.idx`` are synced in ``staging``.

    Raises:
        PackFormatError: the pack libgit2 wrote cannot be read back.
        pygit2.GitError: libgit2 failed.
    """
    packs = _open_packs(pack_dir)
    try:
        plan, rest = _plan(wanted, packs)
        idx = pack_rest(rest, staging / "rest") if rest else None
        if idx is not None:
            packs.append(OldPack(idx))
            extra = _every_entry(packs[-1])
        else:
            extra = []
        count = len({e.oid for e in extra} | {e.oid for _p, es in plan for e in es})
        tmp = staging / "tmp.pack"
        out = _Out(tmp, count)
        try:
            for entry in extra:
                out.add(entry)
            for _pack, entries in plan:
                for entry in entries:
                    out.add(entry)
            missing = len(set(wanted) - set(out.where))
            if missing:
                raise PackFormatError(f"{missing} object(s) to keep found in no pack")
            digest = out.finish()
        finally:
            out.fh.close()
    finally:
        for pack in packs:
            pack.close()
    name = f"pack-{digest.hex()}"
    os.replace(tmp, staging / f"{name}.pack")
    _write_index(staging / f"{name}.idx", out.where, out.crc, digest)
    return name


def _every_entry(pack: OldPack) -> list[Entry]:
    """Every entry of a pack, in pack order (libgit2's pack of the objects that could not be copied)."""
    offsets = pack.offsets
    return [pack.entry(i) for i in sorted(range(pack.count), key=offsets.__getitem__)]
